/* libFuzzer harness for the adapters (docs/fuzzing.md). One binary carries every adapter it was linked with;
 * it fuzzes the one named by LINFUZZ_ADAPTER, else by its own file name (fuzz_<adapter>: build/bin/fuzz_* are
 * hard links to build/bin/linfuzz-fuzz), else the only one it has. Given a `linfuzz` subcommand as its first
 * argument (`fuzz_my_queue repro ENTRY`, `show`, `triage`, `adapters`, ...) it runs that instead, with its own
 * adapters: how a target built for an adapter outside this repository reproduces its findings.
 *
 * One execution: the input bytes decode into a fuzz case (testcase/fuzz_case.h), which runs `repeats`
 * times on fresh objects, controlled (the case's schedule decides the interleaving: the same input gives the
 * same runs, docs/scheduling.md) or free (the operating system's interleaving, perturbed), as the case's mode
 * byte says; each history is checked (engine auto). libFuzzer sees the coverage of the instrumented adapters
 * and, through extra 8-bit counters, the schedule feedback of controlled runs (reads-from pairs,
 * runtime/include/runtime/feedback.h) and on request the history signal (testcase/history_signal.h).
 * On a violation: minimise, root-cause, save a corpus entry (findings) that records the mode and schedule,
 * print the report, and abort from the report frame of the bug's triage group (bug_report.h: one
 * ClusterFuzz crash per bug) so that libFuzzer writes the crash input. A controlled run that deadlocks (STUCK) is
 * reported with the blocked operations and aborts too: a deadlock is a bug, and its input replays it. A free
 * run in which some op never returns (a blocking op with nothing to wait for, a lock never released) is
 * declared STUCK by the watchdog (runner/stuck_watch.h): a STUCK entry is saved (findings/stuck.h), the report
 * printed, and the process aborts likewise.
 * Under -minimize_crash, inputs whose mode differs from the crash's are skipped, so that a controlled crash
 * minimizes to a controlled crash (which replays exactly), never to a free one that crashed by chance.
 *
 * Environment: LINFUZZ_VIOLATIONS_DIR (where entries go; default $LINFUZZ_CORPUS/<adapter>/violations when
 * LINFUZZ_CORPUS is set, else violations/<adapter>/ in the working directory, as libFuzzer's crash files:
 * never the source tree unless asked), LINFUZZ_FUZZ_SIGNAL=1 (feed the history signal too;
 * off by default because it measured no faster on the bundled bugs, docs/fuzzing.md; "overlap", "witness",
 * "nearmiss": only that part of it, for ablations),
 * LINFUZZ_FUZZ_MUTATOR=0 (libFuzzer's byte mutations only), LINFUZZ_FUZZ_FRESH=N and LINFUZZ_FUZZ_FRESH_SECONDS=S
 * (the custom mutator returns a fresh stress-shaped case, lf_fuzz_case_random, for every mutation during the first
 * S seconds, default 3, and for tiny inputs, then for one in N, default 2; N = 0: never; LINFUZZ_FUZZ_FRESH_SHORT=K:
 * one fresh case in K short, lf_fuzz_case_random_short, default 4, 0: none),
 * LINFUZZ_FUZZ_STRATEGY=mixed|pct|choices|preempt|walk|pos|surw|aba (every run controlled under that strategy;
 * mixed, the default: as each input says), LINFUZZ_FUZZ_PERTURB=0 (no schedule perturbation
 * whatever the input says: only the interleavings the OS gives, as for code without LF_YIELD points; the entry
 * then records the input with its perturbation zeroed, which is what ran), LINFUZZ_KEEP_DUPLICATES=1 (write
 * an entry even when one of the same bucket exists), LINFUZZ_FUZZ_CONTINUE=1 (do not abort: save the first
 * violation's entry, count the others, keep fuzzing; for campaigns that want a count, ci/quickstart.sh),
 * LINFUZZ_FUZZ_CAPTURE=N (continuing: minimise and save up to N violations, the 1st, 2nd, 4th, 8th, ... so
 * that captures spread over the campaign and distinct bugs get their own entries; default 1; ci/fuzz.sh),
 * LINFUZZ_FUZZ_SUMMARY_FILE=PATH (append the summary line to PATH too; for -fork mode, ci/fuzz.sh),
 * LINFUZZ_FUZZ_SECONDS=S (end the process after S seconds, fractions allowed, with the summary line and exit
 * status 0: libFuzzer's -max_total_time counts whole seconds and overshoots by up to one),
 * LINFUZZ_FUZZ_BLOCKING=balanced|any (balanced, the default for an adapter that declares blocking methods:
 * plan no remove that could wait forever on a correct implementation, so that a STUCK run of a blocking
 * structure is a lost wakeup or a deadlock, lf_plan_balance_blocking; any: plan them too, and a blocking op
 * left waiting on an empty object is reported STUCK like any op that never returns),
 * LINFUZZ_STUCK_SECONDS=S (the watchdog's deadline: seconds without a call or a return; default from the run's
 * size, 2 to about 4 s),
 * LINFUZZ_FUZZ_MODE=mixed|controlled|free (mixed, the default: as each input's mode byte says; otherwise
 * every execution in that mode, and an entry records the input with the mode that ran),
 * LINFUZZ_FUZZ_MINIMIZE_TEST=S (a controlled violation's test is minimized for up to S seconds before it is
 * saved, testcase/minimize_test.h; default 3, 0: off),
 * LINFUZZ_FUZZ_TWIN=N, LINFUZZ_FUZZ_TWIN_SECONDS=S (a free-mode violation's test is searched under up to N
 * controlled schedules, for S seconds, for its controlled twin, saved beside it: testcase/controlled_twin.h;
 * defaults 1000 and 10, N = 0: off),
 * LINFUZZ_FUZZ_ROOTCAUSE=N (a violation is root-caused with at most N schedules per candidate before the
 * process aborts, so that its crash report names the bug by its triage group, bug_report.h; default 2000 when a
 * violation ends the process, 0 when continuing), LINFUZZ_FUZZ_ROOTCAUSE_WORK=W (its work budget, lf_rc_work:
 * switches plus points / 256; default RC_WORK, 0: none; the minimized test's analysis after it gets
 * RC_TEST_WORK_FACTOR times as much; deterministic, so the crash state does not depend on the machine's speed),
 * LINFUZZ_FUZZ_ROOTCAUSE_BASELINE=K (its baseline stops at its K-th violation, default 30;
 * lf_rc_options.baseline),
 * LINFUZZ_FUZZ_SCHED_FEEDBACK=rf|preempt|both|rf-presence|switch|rf-switch|0 (schedule feedback of controlled
 * runs; off by default: measured in docs/scheduling.md, it helps a little on some bugs and a lot against others;
 * in weak runs the reads-from pairs are the ones the memory model made),
 * LINFUZZ_MEMORY_MODEL=mixed|sc|tso|c11, or the flag -memory_model=... (the memory model of controlled runs,
 * docs/memory-models.md: mixed, the default, as each input says; otherwise every controlled run in that model,
 * and an entry records the input with the model that ran).
 * LINFUZZ_SPEC=auto|type|self (what histories are checked against: the spec of the adapter's type, or the
 * adapter's own serial behaviour, the self-spec of linfuzz/selfspec.h; auto, the default, takes the type's spec
 * when there is one; runner/adapter_check.h). With the self-spec, serial nondeterminism of the adapter is saved
 * as an entry of its own category (SERIAL_NONDETERMINISM), reported and aborted on like a violation.
 *
 * For scripts, one line on stderr: "linfuzz-fuzz: violation adapter=.. seconds=.. executions=.. runs=.. mode=..
 * entry=.." at each captured violation, "linfuzz-fuzz: stuck adapter=.. seconds=.. executions=.. runs=..
 * entry=.." at a STUCK run found by the watchdog ("linfuzz-fuzz: stuck adapter=.. executions=.. runs=.." at a
 * controlled deadlock), and "linfuzz-fuzz: summary adapter=.. executions=.. runs=.. violations=.. unknown=..
 * first=SECONDS|- entry=PATH|- captured=N controlled=.. free=.. nondeterministic=.. watchdog=.. budget=..
 * stuck=.. weak=.. weak_unchecked=.." when the process exits normally (entry: the first one; controlled and
 * free count runs; nondeterministic = controlled runs the watchdog or the point budget released; weak =
 * controlled runs under tso or c11, weak_unchecked = those of them released, whose histories are not checked:
 * the model was given up mid-run). */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bug_report.h"
#include "cli/commands.h"
#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "findings/capture.h"
#include "testcase/minimize_test.h"
#include "findings/entry.h"
#include "findings/stuck.h"
#include "testcase/probe.h"
#include "runtime/adapter_check.h"
#include "runtime/adapter_type.h"
#include "testcase/case_runner.h"
#include "testcase/fuzz_case.h"
#include "runtime/feedback.h"
#include "runtime/sched.h"
#include "rootcause/analyze.h"
#include "rootcause/rc_store.h"
#include "testcase/history_signal.h"
#include "testcase/case_replay.h"
#include "testcase/controlled_twin.h"
#include "testcase/crash_watch.h"
#include "util/clock.h"
#include "util/env.h"
#include "util/parse.h"
#include "util/escape.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* libFuzzer reads every byte of this section as extra coverage counters (cleared before each execution). */
__attribute__((used, section("__libfuzzer_extra_counters"))) static uint8_t history_counters[LF_SIGNAL_SIZE];
/* The schedule feedback of controlled runs (runtime/include/runtime/feedback.h), in the same section. */
#define SCHED_COUNTERS 8192
__attribute__((used, section("__libfuzzer_extra_counters"))) static uint8_t sched_counters[SCHED_COUNTERS];

/* The root causing's work budget (LINFUZZ_FUZZ_ROOTCAUSE_WORK, rootcause/analyze.h: lf_rc_work, about 5 to 6 us a
 * unit on 2 cores, 10 us before a run's workers shared one CPU): the 4 s that most root causings of the bundled
 * bugs took then, 2 to 3 s now, and a bound on the tail (the dpdk_ring_mpmc, elim_stack_takes_claimed and
 * ck_hp_stack_unprotected ones took 11 to 50 s). Per analysis: the minimized test's, after a workload's that
 * confirmed nothing, gets RC_TEST_WORK_FACTOR times as much (attach_root_cause). */
#define RC_WORK 400000
/* The minimized test's analysis is the last chance to name the bug in the crash state. Its runs are short, so it
 * seldom spends even RC_WORK, but a rare bug's validations run every schedule of the baseline: a 5-call test of
 * mark_list_pqueue_lockfree_poll violates in 10 of 2000 schedules and confirms its cause with 1.1 M (4 s). */
#define RC_TEST_WORK_FACTOR 3

/* Inputs with fewer concurrent calls than this are replaced by fresh random cases (LLVMFuzzerCustomMutator). */
#define FRESH_BELOW_OPS 16

typedef enum mode_override { MODE_MIXED, MODE_CONTROLLED, MODE_FREE } mode_override;

static struct {
    const lf_adapter *adapter;
    unsigned n_methods;
    lf_fc_executor executor;
    lf_history history;
    lf_adapter_checker checker; /* the type's spec or the self-spec (LINFUZZ_SPEC) */
    bool signal, mutator, perturb, keep_duplicates, keep_going;
    int strategy;         /* LINFUZZ_FUZZ_STRATEGY: -1 (as each input says) or the lf_sched_strategy of every run */
    uint64_t fresh_share; /* LINFUZZ_FUZZ_FRESH: one mutation in this many is a fresh random case (0: none) */
    double fresh_seconds; /* LINFUZZ_FUZZ_FRESH_SECONDS: every mutation is one, for this long from the start */
    uint64_t short_share; /* LINFUZZ_FUZZ_FRESH_SHORT: one fresh case in this many is short (0: none) */
    bool one_cpu;         /* LINFUZZ_ONE_CPU: a controlled run's workers share one CPU (runtime/sched.h) */
    double tmin_seconds; /* LINFUZZ_FUZZ_MINIMIZE_TEST: budget of the test minimization (0: none) */
    uint64_t rc_schedules; /* LINFUZZ_FUZZ_ROOTCAUSE: schedules of the root causing before aborting (0: none) */
    uint64_t rc_work;      /* LINFUZZ_FUZZ_ROOTCAUSE_WORK: its work budget (lf_rc_work; 0: none) */
    uint64_t rc_baseline;  /* LINFUZZ_FUZZ_ROOTCAUSE_BASELINE: where its baseline stops (lf_rc_options.baseline) */
    uint64_t twin_schedules; /* LINFUZZ_FUZZ_TWIN: schedules of a free finding's twin search (0: none) */
    double twin_seconds;     /* LINFUZZ_FUZZ_TWIN_SECONDS: its time budget */
    bool overlap_only, witness_only, nearmiss_only; /* LINFUZZ_FUZZ_SIGNAL=overlap|witness|nearmiss */
    char violations_dir[PATH_MAX];
    double start, first_violation; /* first_violation < 0: none yet */
    double budget;                  /* LINFUZZ_FUZZ_SECONDS, 0: none */
    char first_entry[PATH_MAX];
    uint64_t executions, runs, unknown, violations;
    uint64_t capture_max, captured; /* LINFUZZ_FUZZ_CAPTURE; violations minimised and saved so far */
    bool balanced;                  /* blocking removes balanced (lf_blocking_balanced: LINFUZZ_FUZZ_BLOCKING) */
    char program[PATH_MAX];         /* how this binary was called, for the commands it prints */
    /* the execution in progress, for the STUCK handler (which runs on the watchdog's thread) */
    const uint8_t *cur_data;
    size_t cur_size;
    const lf_fuzz_case *cur_case;
    unsigned cur_run;
    mode_override mode;             /* LINFUZZ_FUZZ_MODE */
    bool minimizing;                /* -minimize_crash: only inputs of the crash's own mode count */
    int pinned_mode;                /* minimizing: the mode of the first input (the crash), -1 before */
    unsigned feedback_parts;        /* LINFUZZ_FUZZ_SCHED_FEEDBACK */
    int memory;                     /* LINFUZZ_MEMORY_MODEL: LF_FC_MEMORY_MIXED or a model for every case */
    uint64_t weak_runs, weak_discarded; /* controlled runs under tso/c11; those released (not checked) */
    uint64_t controlled_runs, free_runs, nondeterministic, watchdog, over_budget, stuck;
    unsigned unseen; /* warnings of the adapter probe (testcase/probe.h): what controlled runs cannot see */
    bool probe_pending; /* the probe is still to run (probe_adapter: PROBE_AFTER_SECONDS into the campaign) */
} G;



static void on_stuck(void *ctx, const lf_stuck_event *ev);
/* LINFUZZ_FUZZ_MODE: mixed (or unset: as each input says), controlled or free. */
static bool read_mode(mode_override *out, char *err, size_t errlen) {
    const char *v = getenv("LINFUZZ_FUZZ_MODE");
    static const char *const names[] = {"mixed", "controlled", "free"};
    *out = MODE_MIXED;
    if (!v || !*v) return true;
    for (int m = 0; m < 3; m++)
        if (!strcmp(v, names[m])) {
            *out = (mode_override)m;
            return true;
        }
    snprintf(err, errlen, "LINFUZZ_FUZZ_MODE=%s: expected mixed, controlled or free", v);
    return false;
}

/* LINFUZZ_FUZZ_STRATEGY: mixed (-1: as each input says) or one strategy for every controlled run. */
static bool read_strategy(int *out, char *err, size_t errlen) {
    const char *v = getenv("LINFUZZ_FUZZ_STRATEGY");
    lf_sched_strategy s;
    *out = -1;
    if (!v || !*v || !strcmp(v, "mixed")) return true;
    if (lf_schedule_strategy_from_name(v, &s)) {
        *out = (int)s;
        return true;
    }
    snprintf(err, errlen, "LINFUZZ_FUZZ_STRATEGY=%s: expected mixed, pct, choices, preempt, walk, pos, surw or aba", v);
    return false;
}

/* LINFUZZ_FUZZ_SCHED_FEEDBACK: rf, preempt, both, rf-presence, switch, rf-switch, or a flag (on: rf; off: none,
 * the default, docs/scheduling.md says why). */
static bool read_feedback(unsigned *out, char *err, size_t errlen) {
    const char *v = getenv("LINFUZZ_FUZZ_SCHED_FEEDBACK");
    *out = 0;
    if (v && !strcmp(v, "rf")) return true;
    if (v && !strcmp(v, "preempt")) {
        *out = LF_FEEDBACK_PREEMPT;
        return true;
    }
    if (v && !strcmp(v, "switch")) {
        *out = LF_FEEDBACK_SWITCH;
        return true;
    }
    if (v && !strcmp(v, "rf-switch")) {
        *out = LF_FEEDBACK_RF | LF_FEEDBACK_SWITCH;
        return true;
    }
    if (v && !strcmp(v, "both")) {
        *out = LF_FEEDBACK_RF | LF_FEEDBACK_PREEMPT;
        return true;
    }
    if (v && !strcmp(v, "rf-presence")) {
        *out = LF_FEEDBACK_RF | LF_FEEDBACK_PRESENCE;
        return true;
    }
    bool on;
    if (!lf_env_flag("LINFUZZ_FUZZ_SCHED_FEEDBACK", false, &on, err, (unsigned)errlen)) {
        snprintf(err, errlen,
                 "LINFUZZ_FUZZ_SCHED_FEEDBACK=%s: expected rf, preempt, both, rf-presence, switch, rf-switch, or "
                 "on/off",
                 v);
        return false;
    }
    *out = on ? LF_FEEDBACK_RF : 0;
    return true;
}

/* Does a controlled run see inside the adapter's operations (testcase/probe.h)? The probe costs about 20 ms
 * (it reads the program's symbol table), as long as the first executions of a campaign on an easy bug, so it
 * runs once the campaign has gone PROBE_AFTER_SECONDS without a finding, or at its end if that comes first: its
 * warnings matter for a campaign that finds nothing. They go to stderr then and are repeated after the
 * summary. LINFUZZ_FUZZ_PROBE=0 skips it (read at the start, so that a bad value stops the target at once). */
#define PROBE_AFTER_SECONDS 1.0
static void read_probe_setting(void) {
    char err[256];
    bool on = true;
    if (!lf_env_flag("LINFUZZ_FUZZ_PROBE", true, &on, err, sizeof err)) {
        lf_esc_printf(stderr, "linfuzz-fuzz: %s\n", err);
        exit(2);
    }
    G.probe_pending = on && !G.minimizing; /* (a crash's minimization wants no extra runs) */
}

static void probe_adapter(void) {
    if (!G.probe_pending) return;
    G.probe_pending = false;
    char err[256];
    lf_probe_report r;
    if (!lf_probe_adapter(G.adapter, &r, err, sizeof err)) {
        lf_esc_printf(stderr, "linfuzz-fuzz: %s\n", err);
        return; /* (out of memory or threads: the campaign itself goes on) */
    }
    G.unseen = lf_probe_warn(stderr, "linfuzz-fuzz: ", G.adapter, &r);
}

static void print_summary(void) {
    probe_adapter(); /* a campaign shorter than PROBE_AFTER_SECONDS */
    char first[32] = "-", line[PATH_MAX + 512];
    if (G.first_violation >= 0) snprintf(first, sizeof first, "%.3f", G.first_violation);
    snprintf(line, sizeof line,
             "linfuzz-fuzz: summary adapter=%s executions=%llu runs=%llu violations=%llu unknown=%llu first=%s "
             "entry=%s captured=%llu controlled=%llu free=%llu nondeterministic=%llu watchdog=%llu budget=%llu "
             "stuck=%llu weak=%llu weak_unchecked=%llu\n",
             G.adapter->name, (unsigned long long)G.executions, (unsigned long long)G.runs,
             (unsigned long long)G.violations, (unsigned long long)G.unknown, first,
             G.first_entry[0] ? G.first_entry : "-", (unsigned long long)G.captured,
             (unsigned long long)G.controlled_runs, (unsigned long long)G.free_runs,
             (unsigned long long)G.nondeterministic, (unsigned long long)G.watchdog, (unsigned long long)G.over_budget,
             (unsigned long long)G.stuck, (unsigned long long)G.weak_runs, (unsigned long long)G.weak_discarded);
    lf_esc_printf(stderr, "%s", line);
    if (G.unseen)
        fprintf(stderr, "linfuzz-fuzz: warning: %u problem%s of what controlled runs can see were reported by the probe "
                        "(above): a clean result may have tested nothing inside the operations named\n",
                G.unseen, G.unseen == 1 ? "" : "s");
    /* libFuzzer's -fork mode keeps its children's stderr to itself: the line also goes to a file, appended
     * (one short write: lines of parallel processes do not interleave). */
    const char *file = getenv("LINFUZZ_FUZZ_SUMMARY_FILE");
    if (file && *file) { /* appended, not replaced (docs/security.md, "Writing"): a log of parallel processes */
        FILE *f = fopen(file, "a");
        bool written = f && fputs(line, f) >= 0;
        if (f && fclose(f) != 0) written = false;
        if (!written) lf_esc_printf(stderr, "linfuzz-fuzz: cannot append the summary to %s: %s\n", file, strerror(errno));
    }
}

/* The adapter to fuzz: LINFUZZ_ADAPTER, else the program's name fuzz_<adapter>, else the only one linked in (a
 * user's target of one adapter may be called anything: fuzz_my_stack_release fuzzes its one adapter my_stack). */
static const lf_adapter *select_adapter(const char *program) {
    const char *wanted = getenv("LINFUZZ_ADAPTER");
    bool by_program_name = false;
    const char *base = program ? strrchr(program, '/') : NULL;
    base = base ? base + 1 : program;
    if ((!wanted || !*wanted) && base && !strncmp(base, "fuzz_", 5)) {
        wanted = base + 5;
        by_program_name = true;
    }
    if (wanted && *wanted) {
        const lf_adapter *a = lf_adapter_find(wanted);
        if (a) return a;
        if (by_program_name && lf_adapter_count() == 1) return lf_adapter_at(0);
        lf_esc_printf(stderr, "linfuzz-fuzz: no adapter '%s' in this binary", wanted);
    } else if (lf_adapter_count() == 1) {
        return lf_adapter_at(0);
    } else {
        fprintf(stderr, "linfuzz-fuzz: %zu adapters in this binary: name one with LINFUZZ_ADAPTER=NAME, or run it as "
                        "fuzz_NAME", lf_adapter_count());
    }
    fprintf(stderr, "; it has:");
    for (size_t i = 0; i < lf_adapter_count(); i++) fprintf(stderr, " %s", lf_adapter_at(i)->name);
    fprintf(stderr, "\n");
    return NULL;
}

/* libFuzzer prints the first functions a new input covers (-print_funcs, default 2), which starts
 * llvm-symbolizer at the first one: about 40 ms, as long as a whole campaign on an easy bug. The targets default
 * it to 0 (LLVMFuzzerInitialize runs before libFuzzer parses its flags); a -print_funcs=N given still wins. */
static void default_print_funcs_off(int *argc, char ***argv) {
    if (*argc < 1) return;
    for (int i = 1; i < *argc; i++)
        if (!strncmp((*argv)[i], "-print_funcs=", 13)) return;
    static char flag[] = "-print_funcs=0";
    char **v = malloc(((size_t)*argc + 2) * sizeof *v); /* (kept for the whole process, as argv is) */
    if (!v) return;
    v[0] = (*argv)[0];
    v[1] = flag;
    for (int i = 1; i < *argc; i++) v[i + 1] = (*argv)[i];
    v[*argc + 1] = NULL;
    *argv = v;
    (*argc)++;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    if (*argc >= 2 && lf_cli_is_command((*argv)[1])) exit(lf_cli_main(*argc, *argv));
    G.adapter = select_adapter(*argc >= 1 ? (*argv)[0] : NULL);
    if (!G.adapter) exit(2);
    char err[256];
    if (!lf_adapter_check(G.adapter, err, sizeof err)) {
        lf_esc_printf(stderr, "linfuzz-fuzz: %s\n", err);
        exit(2);
    }
    snprintf(G.program, sizeof G.program, "%s", *argc >= 1 ? (*argv)[0] : "linfuzz");
    /* libFuzzer's crash minimization (-minimize_crash=1 runs children with -minimize_crash_internal_step=1)
     * keeps any smaller input that crashes. A controlled-mode crash must stay one: a byte mutation that turns
     * the input into a free-mode case could crash by luck and then not replay. So while minimizing, inputs of
     * another mode than the first one executed (the crash itself) are not run. */
    G.pinned_mode = -1;
    const char *memory = getenv("LINFUZZ_MEMORY_MODEL");
    for (int i = 1; i < *argc; i++) {
        const char *arg = (*argv)[i];
        if (!strncmp(arg, "-minimize_crash", 15)) G.minimizing = true;
        if (!strncmp(arg, "-memory_model=", 14) || !strncmp(arg, "-memory-model=", 14)) memory = arg + 14;
        if (!strncmp(arg, "--memory-model=", 15)) memory = arg + 15;
    }
    default_print_funcs_off(argc, argv);
    if (!lf_fc_memory_from_name(memory && *memory ? memory : "mixed", &G.memory)) {
        lf_esc_printf(stderr, "linfuzz-fuzz: memory model '%s' (LINFUZZ_MEMORY_MODEL or -memory_model=): expected "
                              "mixed, sc, tso or c11\n", memory);
        exit(2);
    }
    lf_method ms[LF_M_COUNT];
    G.n_methods = lf_fuzz_case_methods(G.adapter, ms);
    /* The environment (util/env.h: one meaning for every flag; a malformed value stops the run). */
    const char *which = getenv("LINFUZZ_FUZZ_SIGNAL");
    G.overlap_only = which && !strcmp(which, "overlap");
    G.witness_only = which && !strcmp(which, "witness");
    G.nearmiss_only = which && !strcmp(which, "nearmiss");
    bool env_ok = (G.overlap_only || G.witness_only || G.nearmiss_only)
                      ? (G.signal = true)
                      : lf_env_flag("LINFUZZ_FUZZ_SIGNAL", false, &G.signal, err, sizeof err);
    env_ok = env_ok && lf_env_flag("LINFUZZ_FUZZ_MUTATOR", true, &G.mutator, err, sizeof err) &&
             lf_env_flag("LINFUZZ_FUZZ_PERTURB", true, &G.perturb, err, sizeof err) &&
             lf_env_flag("LINFUZZ_KEEP_DUPLICATES", false, &G.keep_duplicates, err, sizeof err) &&
             lf_env_flag("LINFUZZ_FUZZ_CONTINUE", false, &G.keep_going, err, sizeof err) &&
             lf_env_u64("LINFUZZ_FUZZ_CAPTURE", 1, 1, UINT32_MAX, &G.capture_max, err, sizeof err) &&
             lf_env_seconds("LINFUZZ_FUZZ_SECONDS", 0, 0, LF_MAX_SECONDS, &G.budget, err, sizeof err) &&
             lf_env_seconds("LINFUZZ_FUZZ_MINIMIZE_TEST", 3, 0, LF_MAX_SECONDS, &G.tmin_seconds, err, sizeof err) &&
             lf_env_u64("LINFUZZ_FUZZ_FRESH", 2, 0, UINT32_MAX, &G.fresh_share, err, sizeof err) &&
             lf_env_seconds("LINFUZZ_FUZZ_FRESH_SECONDS", 3, 0, LF_MAX_SECONDS, &G.fresh_seconds, err, sizeof err) &&
             lf_env_u64("LINFUZZ_FUZZ_FRESH_SHORT", 4, 0, UINT32_MAX, &G.short_share, err, sizeof err) &&
             lf_env_flag("LINFUZZ_ONE_CPU", true, &G.one_cpu, err, sizeof err);
    if (!env_ok) {
        lf_esc_printf(stderr, "linfuzz-fuzz: %s%s\n", err,
                      strncmp(err, "LINFUZZ_FUZZ_SIGNAL=", 20) ? "" : " (it also takes overlap, witness or nearmiss)");
        exit(2);
    }
    /* Root causing names the bug in the crash report (bug_report.h): on by default when a violation ends the
     * process, as under ClusterFuzz; a continuing campaign (ci/fuzz.sh) root-causes its entries afterwards. */
    if (!lf_env_u64("LINFUZZ_FUZZ_ROOTCAUSE", G.keep_going ? 0 : 2000, 0, 100000000, &G.rc_schedules, err,
                    sizeof err) ||
        !lf_env_u64("LINFUZZ_FUZZ_ROOTCAUSE_WORK", RC_WORK, 0, UINT64_MAX, &G.rc_work, err, sizeof err) ||
        !lf_env_u64("LINFUZZ_FUZZ_ROOTCAUSE_BASELINE", LF_RC_BASELINE_ENOUGH, 0, 100000000, &G.rc_baseline, err,
                    sizeof err) ||
        !lf_env_u64("LINFUZZ_FUZZ_TWIN", 1000, 0, 100000000, &G.twin_schedules, err, sizeof err) ||
        !lf_env_seconds("LINFUZZ_FUZZ_TWIN_SECONDS", 10, 0.001, LF_MAX_SECONDS, &G.twin_seconds, err, sizeof err)) {
        lf_esc_printf(stderr, "linfuzz-fuzz: %s\n", err);
        exit(2);
    }
    if (!lf_blocking_balanced(G.adapter, &G.balanced, err, sizeof err)) {
        lf_esc_printf(stderr, "linfuzz-fuzz: %s\n", err);
        exit(2);
    }
    lf_spec_mode spec_mode;
    if (!lf_spec_mode_from_env(&spec_mode, err, sizeof err)) {
        lf_esc_printf(stderr, "linfuzz-fuzz: %s\n", err);
        exit(2);
    }
    lf_check_options base;
    lf_check_options_default(&base);
    base.timeout_s = 5;
    if (!lf_adapter_checker_init(&G.checker, G.adapter, spec_mode, &base, err, sizeof err)) {
        lf_esc_printf(stderr, "linfuzz-fuzz: %s\n", err);
        exit(2);
    }
    G.first_violation = -1;
    if (!read_mode(&G.mode, err, sizeof err) || !read_feedback(&G.feedback_parts, err, sizeof err) ||
        !read_strategy(&G.strategy, err, sizeof err)) {
        lf_esc_printf(stderr, "linfuzz-fuzz: %s\n", err);
        exit(2);
    }
    const char *dir = getenv("LINFUZZ_VIOLATIONS_DIR"), *corpus = getenv("LINFUZZ_CORPUS");
    int dir_len;
    if (dir && *dir)
        dir_len = snprintf(G.violations_dir, sizeof G.violations_dir, "%s", dir);
    else if (corpus && *corpus)
        dir_len = snprintf(G.violations_dir, sizeof G.violations_dir, "%s/%s/violations", corpus, G.adapter->name);
    else
        dir_len = snprintf(G.violations_dir, sizeof G.violations_dir, "violations/%s", G.adapter->name);
    if (dir_len < 0 || (size_t)dir_len >= sizeof G.violations_dir - LF_ENTRY_NAME_MAX - 1) { /* never cut short */
        lf_esc_printf(stderr, "linfuzz-fuzz: %s=%.60s...: the directory name is longer than %zu bytes\n",
                      dir && *dir ? "LINFUZZ_VIOLATIONS_DIR" : "LINFUZZ_CORPUS", dir && *dir ? dir : corpus,
                      sizeof G.violations_dir - LF_ENTRY_NAME_MAX - 2);
        exit(2);
    }
    if (!lf_fc_executor_init(&G.executor, LF_CLOCK_TICKET)) {
        fprintf(stderr, "linfuzz-fuzz: cannot start %d worker threads\n", LF_FC_MAX_THREADS);
        exit(2);
    }
    G.executor.sched_options.one_cpu = G.one_cpu; /* (read here: a bad value stops the start, not an execution) */
    lf_fc_executor_on_stuck(&G.executor, on_stuck, NULL);
    lf_fc_executor_set_feedback(&G.executor, G.feedback_parts ? sched_counters : NULL, SCHED_COUNTERS,
                                G.feedback_parts);
    lf_adapter_history_init(&G.history, G.adapter);
    G.start = lf_now_s();
    atexit(print_summary);
    char checked[160], fresh[64] = "off", strategy[64] = "";
    if (G.fresh_share && G.mutator)
        snprintf(fresh, sizeof fresh, "every mutation for %.3g s, then 1 in %llu", G.fresh_seconds,
                 (unsigned long long)G.fresh_share);
    if (G.strategy >= 0) {
        lf_schedule s = {.strategy = (uint8_t)G.strategy};
        lf_schedule_describe(strategy, sizeof strategy, &s, 0);
        strategy[strcspn(strategy, " ")] = 0;
    }
    lf_esc_printf(stderr,
            "linfuzz-fuzz: adapter %s (%s, %s, checked against %s), mode %s, schedule feedback %s, history signal "
            "%s, structured mutator %s (fresh random cases: %s), strategy %s, perturbation %s, build %s, violations "
            "-> %s\n",
            G.adapter->name, lf_adapter_type_name(G.adapter),
            G.adapter->linearizable ? "expected linearizable" : "known buggy",
            lf_adapter_checker_describe(&G.checker, checked, sizeof checked),
            G.mode == MODE_MIXED ? "as the input says" : G.mode == MODE_CONTROLLED ? "controlled" : "free",
            G.feedback_parts == (LF_FEEDBACK_RF | LF_FEEDBACK_PREEMPT)    ? "reads-from + preemption sites"
            : G.feedback_parts == (LF_FEEDBACK_RF | LF_FEEDBACK_PRESENCE) ? "reads-from (presence)"
            : G.feedback_parts == LF_FEEDBACK_RF                        ? "reads-from"
            : G.feedback_parts == LF_FEEDBACK_PREEMPT                   ? "preemption sites"
            : G.feedback_parts == LF_FEEDBACK_SWITCH                    ? "interleaving pairs"
            : G.feedback_parts == (LF_FEEDBACK_RF | LF_FEEDBACK_SWITCH)  ? "reads-from + interleaving pairs"
                                                                        : "off",
            !G.signal             ? "off"
            : G.overlap_only      ? "overlap only"
            : G.witness_only      ? "witness only"
            : G.nearmiss_only     ? "near misses only"
                                  : "on",
            G.mutator ? "on" : "off", fresh, G.strategy < 0 ? "as the input says" : strategy,
            G.perturb ? "as the input says" : "off", lf_sched_build_id(), G.violations_dir);
    read_probe_setting();
    return 0;
}

/* Saves an entry unless one of its bucket is there (LINFUZZ_KEEP_DUPLICATES saves anyway); path gets where
 * it is. Returns "saved", "existing entry of the same bucket" or "not saved". */
static const char *save_entry(const lf_violation_entry *e, char *path, size_t path_len) {
    char err[512];
    const char *bucket = lf_entry_meta(e, "bucket");
    if (!G.keep_duplicates && lf_entry_find_bucket(G.violations_dir, bucket, path, path_len))
        return "existing entry of the same bucket";
    if (lf_entry_save(e, G.violations_dir, path, path_len, err, sizeof err) == LF_OK) return "saved";
    lf_esc_printf(stderr, "linfuzz-fuzz: cannot save the entry: %s\n", err);
    path[0] = 0;
    return "not saved";
}

/* Where a finding's entry went (saved as `saved` says, at path, "" when not) and the commands that reproduce
 * and explain it: this binary answers linfuzz's subcommands with the adapters it carries (an out-of-tree
 * adapter too). A blank line first when the lines follow a report. */
static void report_entry(const char *saved, const char *path, bool blank_line_first) {
    lf_esc_printf(stderr, "%slinfuzz-fuzz: entry (%s): %s\n", blank_line_first ? "\n" : "", saved,
                  path[0] ? path : "-");
    if (path[0])
        lf_esc_printf(stderr, "linfuzz-fuzz: reproduce: %s repro %s ; explain: %s show %s\n", G.program, path,
                      G.program, path);
}

/* A run stopped making progress (runner/stuck_watch.h; this runs on the watchdog's thread while the run's
 * threads are stuck): save a STUCK entry, report, abort so that libFuzzer keeps the input. The stuck
 * threads cannot be taken back, so even LINFUZZ_FUZZ_CONTINUE ends here. */
static void on_stuck(void *ctx, const lf_stuck_event *ev) {
    (void)ctx;
    char desc[4096], origin[256], detected[256], err[512], path[PATH_MAX] = "";
    const lf_fuzz_case *c = G.cur_case;
    uint8_t ran[LF_FC_MAX_ENCODED];
    const uint8_t *data = G.cur_data;
    size_t size = G.cur_size;
    if (!G.perturb && c) { /* save what ran (perturbation zeroed), as on_violation does */
        size = lf_fuzz_case_encode(c, ran);
        data = ran;
    }
    if (c) lf_fuzz_case_describe(desc, sizeof desc, c, G.adapter);
    snprintf(origin, sizeof origin, "fuzz_%s (libFuzzer%s%s), execution %llu, run %u of %u", G.adapter->name,
             G.perturb ? "" : ", LINFUZZ_FUZZ_PERTURB=0",
             !G.adapter->may_block ? "" : G.balanced ? ", balanced blocking" : ", LINFUZZ_FUZZ_BLOCKING=any",
             (unsigned long long)G.executions, G.cur_run + 1, c ? (unsigned)c->repeats : 0);
    if (ev->deadlock)
        snprintf(detected, sizeof detected,
                 "controlled run, scheduler: every unfinished thread is blocked (a deadlock; the input replays it)");
    else
        snprintf(detected, sizeof detected,
                 "free run, watchdog: no call and no return for %.1f s (deadline %.1f s from the run's size; "
                 "LINFUZZ_STUCK_SECONDS sets it)",
                 ev->waited_s, ev->deadline_s);
    lf_esc_printf(stderr, "\nlinfuzz-fuzz: STUCK in %s: %zu op%s never returned\n", origin, ev->stuck,
                  ev->stuck == 1 ? "" : "s");
    lf_stuck_input in = {
        .adapter = G.adapter->name,
        .expected_linearizable = G.adapter->linearizable,
        .may_block = lf_adapter_blocking(G.adapter),
        .origin = origin,
        .workload_format = LF_FUZZ_CASE_FORMAT,
        .workload_desc = c ? desc : NULL,
        .workload = data,
        .workload_len = size,
        .history = ev->history,
        .detector = detected,
    };
    lf_violation_entry e;
    const char *saved = "not saved";
    bool captured = lf_capture_stuck(&in, &e, err, sizeof err) == LF_OK;
    if (!captured) {
        lf_esc_printf(stderr, "linfuzz-fuzz: cannot build the entry: %s\n", err);
    } else {
        if (G.adapter->may_block && !lf_entry_set_meta(&e, "blocking", G.balanced ? "balanced" : "any"))
            fprintf(stderr, "linfuzz-fuzz: out of memory\n");
        /* how the run was scheduled: a controlled deadlock replays exactly (x->last is the finished run's) */
        if (c && !lf_entry_record_schedule(&e, &G.executor.last, G.cur_run, c->threads))
            fprintf(stderr, "linfuzz-fuzz: out of memory recording the schedule\n");
        lf_esc_puts(stderr, e.report, LF_ESC_KEEP_NEWLINE | LF_ESC_KEEP_TAB);
        saved = save_entry(&e, path, sizeof path);
    }
    report_entry(saved, path, true);
    lf_esc_printf(stderr, "linfuzz-fuzz: stuck adapter=%s seconds=%.3f executions=%llu runs=%llu entry=%s\n",
                  G.adapter->name, lf_now_s() - G.start, (unsigned long long)G.executions, (unsigned long long)G.runs,
                  path[0] ? path : "-");
    fflush(stderr);
    if (captured) lf_bug_report_die("STUCK bug", &e); /* one crash per bug (bug_report.h) */
    abort();
}

/* One analysis (of the workload, or of the minimized test when `what` says so) with the work budget given (0:
 * none) into r: 0 (r to free), 1 (no violating run) or -1 (an error), as lf_rc_analyze; its line printed. */
static int root_cause_one(const uint8_t *data, size_t size, unsigned run, const char *what, uint64_t work_budget,
                          lf_rc_result *r) {
    lf_rc_options o;
    lf_rc_options_default(&o);
    o.schedules = o.search = G.rc_schedules;
    o.work_budget = work_budget;
    o.baseline = G.rc_baseline;
    char err[512];
    int rc = lf_rc_analyze(G.adapter, LF_FUZZ_CASE_FORMAT, data, size, run, &o, r, err, sizeof err);
    if (rc != 0) {
        lf_esc_printf(stderr, "linfuzz-fuzz: %sno root cause: %s\n", what, err);
        return rc;
    }
    const lf_rc_candidate *best = r->n && lf_rc_confirmed(&r->c[0]) ? &r->c[0] : NULL;
    lf_esc_printf(stderr, "linfuzz-fuzz: %s%s%s (%zu candidates, %.1f s, %llu runs, work %llu%s)\n", what,
                  best ? "root cause: " : "no confirmed root cause", best ? best->summary : "", r->n, r->seconds,
                  (unsigned long long)r->runs, (unsigned long long)lf_rc_work(r->switches, r->points),
                  r->over_budget ? ": its budget, LINFUZZ_FUZZ_ROOTCAUSE_WORK" : "");
    return 0;
}

/* Root-causes the violation of (data, size) at repetition run (rootcause/analyze.h: controlled re-runs; a
 * free-mode finding is first searched for a controlled schedule that violates) with G.rc_schedules schedules
 * per validation, and puts the candidates into e. A confirmed one is what tells two bugs of one target apart
 * in the crash report. The whole workload first, not the minimized test: a test of a few calls confirms a
 * region that the workload's schedules refute (single_writer_table_torn: the reader's loads alone, where the
 * bug is the reader's loads and the writer's stores at once). When the workload confirms nothing (its runs are
 * long, and the work budget often ends the validation that would have), the minimized test is root-caused
 * with a budget of its own, RC_TEST_WORK_FACTOR times as large (its runs are short: it seldom uses even the
 * workload's, but a rare bug's validations run many), and a cause it confirms is kept,
 * the entry's meta rootcause_input saying so: a finding whose cause is confirmed names its bug by it in the
 * crash state, and one that is not makes a second crash of the same bug (docs/ci.md, "One crash per bug"). */
static void attach_root_cause(lf_violation_entry *e, const uint8_t *data, size_t size, unsigned run) {
    uint64_t test_work = G.rc_work > UINT64_MAX / RC_TEST_WORK_FACTOR ? 0 : G.rc_work * RC_TEST_WORK_FACTOR;
    fprintf(stderr,
            "linfuzz-fuzz: root causing (at most %llu schedules per candidate, baseline to %llu violations, work "
            "budget %llu, %llu for the minimized test; LINFUZZ_FUZZ_ROOTCAUSE=0: off)...\n",
            (unsigned long long)G.rc_schedules, (unsigned long long)G.rc_baseline, (unsigned long long)G.rc_work,
            (unsigned long long)test_work);
    lf_rc_result r;
    int rc = root_cause_one(data, size, run, "", G.rc_work, &r);
    const char *input = "workload";
    /* the test too when the workload ran and confirmed nothing (not after an error, nor when no interleaving
     * explains the violation: the test's serial behaviour would say the same) */
    bool retry = rc > 0 || (rc == 0 && !r.sequential && !(r.n && lf_rc_confirmed(&r.c[0])));
    if (retry && e->has_test) {
        lf_rc_result t;
        if (root_cause_one(e->test, e->test_len, 0, "on the minimized test: ", test_work, &t) == 0) {
            if (t.n && lf_rc_confirmed(&t.c[0])) {
                if (rc == 0) lf_rc_result_free(&r);
                r = t;
                rc = 0;
                input = "test";
            } else {
                lf_rc_result_free(&t);
            }
        }
    }
    if (rc != 0) return;
    char err[512];
    /* source files relative to LINFUZZ_SOURCE_ROOT, else the working directory (docs/rootcause.md) */
    const char *root = getenv("LINFUZZ_SOURCE_ROOT");
    if (lf_rc_attach(e, &r, root && root[0] ? root : NULL, err, sizeof err) != LF_OK)
        lf_esc_printf(stderr, "linfuzz-fuzz: %s\n", err);
    else if (!lf_entry_set_meta(e, "rootcause_input", input))
        lf_esc_printf(stderr, "linfuzz-fuzz: out of memory\n");
    lf_rc_result_free(&r);
}

/* Whether a violating run's test is minimized before its entry is saved: a controlled, deterministic run
 * replays (LINFUZZ_FUZZ_MINIMIZE_TEST). */
static bool test_minimized(const lf_result *res, const lf_fc_run_info *info) {
    return !res->serial_nondeterminism && info->mode == LF_FC_CONTROLLED && info->stats.deterministic &&
           G.tmin_seconds > 0;
}

/* Captures the entry of the violating run h (checked as res) of case c, whose bytes are data: repetition run,
 * scheduled as info. With minimize_test, a controlled, deterministic run's test is minimized first
 * (testcase/minimize_test.h). A serial nondeterminism of the adapter (self-spec) is captured as an entry of its
 * own category. */
static lf_status capture_run(const uint8_t *data, size_t size, const lf_fuzz_case *c, unsigned run,
                             const lf_fc_run_info *info, const lf_history *h, const lf_result *res, const char *origin,
                             bool minimize_test, lf_violation_entry *e, char *err, size_t errlen) {
    char desc[4096];
    lf_fuzz_case_describe(desc, sizeof desc, c, G.adapter);
    /* A controlled run replays: minimize the test (not only its history) by re-running smaller cases. */
    uint8_t test[LF_FC_MAX_ENCODED];
    char test_summary[512] = "", why[512];
    lf_history test_h;
    lf_adapter_history_init(&test_h, G.adapter);
    lf_tmin_stats ts;
    bool has_test = false;
    size_t test_len = 0;
    bool nondet = res->serial_nondeterminism;
    if (minimize_test && test_minimized(res, info)) {
        lf_tmin_options to;
        lf_tmin_options_default(&to);
        to.seconds = G.tmin_seconds;
        to.balance_blocking = G.balanced;
        lf_fc_executor_on_stuck(&G.executor, NULL, NULL); /* a candidate that deadlocks is only rejected */
        has_test = lf_fc_minimize_test(G.adapter, &G.executor, &G.checker, NULL, data, size, run, &to, test, &test_len,
                                       &test_h, &ts, why, sizeof why);
        lf_fc_executor_on_stuck(&G.executor, on_stuck, NULL);
        if (has_test) lf_tmin_describe(test_summary, sizeof test_summary, &ts);
        lf_esc_printf(stderr, "linfuzz-fuzz: minimizing the test: %s\n", has_test ? test_summary : why);
    }
    lf_minimize_options mo;
    lf_minimize_options_default(&mo);
    mo.timeout_s = 30;
    lf_capture_input in = {
        .adapter = G.adapter->name,
        .expected_linearizable = G.adapter->linearizable,
        .origin = origin,
        .workload_format = LF_FUZZ_CASE_FORMAT,
        .workload_desc = desc,
        .workload = data,
        .workload_len = size,
        .full = h,
        .minimize = &mo,
        .has_serial = true, /* the prefix and the drain: thread `threads` (case_runner.h) */
        .serial_thread = c->threads,
        .check = &G.checker.check,
        .spec_mode = G.checker.mode == LF_SPEC_SELF ? "self" : NULL,
        .test = has_test ? test : NULL,
        .test_len = test_len,
        .test_history = has_test ? &test_h : NULL,
        .test_serial_thread = has_test ? ts.threads_after : 0,
        .test_summary = has_test ? test_summary : NULL,
    };
    lf_status st;
    lf_history evidence;
    if (nondet && lf_selfspec_nondeterminism(G.checker.self, h, &evidence)) {
        st = lf_capture_nondeterminism(&in, &evidence, res->reason, e, err, errlen);
        lf_history_free(&evidence);
    } else if (nondet) {
        snprintf(err, errlen, "no serial evidence of the nondeterminism (out of memory)");
        st = LF_ERR_NOMEM;
    } else {
        st = lf_capture_violation(&in, e, err, errlen);
    }
    lf_history_free(&test_h);
    if (st != LF_OK) return st;
    if ((G.adapter->may_block && !lf_entry_set_meta(e, "blocking", G.balanced ? "balanced" : "any")) ||
        !lf_entry_record_schedule(e, info, run, c->threads)) {
        lf_entry_free(e);
        snprintf(err, errlen, "out of memory");
        return LF_ERR_NOMEM;
    }
    return LF_OK;
}

/* The controlled twin of a free finding (testcase/controlled_twin.h): the same test under a controlled schedule
 * that violates too, captured as an entry of its own (exact replay, root causing, test minimization). One line
 * for scripts: "linfuzz-fuzz: twin adapter=.. found=yes|no schedules=N seconds=S same_shape=yes|no|-". */
static bool find_twin(const uint8_t *data, size_t size, const lf_violation_entry *free_entry, const char *free_origin,
                      lf_violation_entry *te) {
    lf_twin_options o;
    lf_twin_options_default(&o);
    o.schedules = G.twin_schedules;
    o.seconds = G.twin_seconds;
    o.balance_blocking = G.balanced;
    lf_twin t;
    char err[512];
    fprintf(stderr, "linfuzz-fuzz: a free run: searching a controlled schedule of the same test (at most %llu "
                    "schedules, %.0f s; LINFUZZ_FUZZ_TWIN=0: off)...\n",
            (unsigned long long)o.schedules, o.seconds);
    lf_fc_executor_on_stuck(&G.executor, NULL, NULL); /* a schedule that deadlocks is only passed over */
    bool ran = lf_fc_controlled_twin(G.adapter, &G.executor, &G.checker, NULL, data, size, &o, &t, err, sizeof err);
    lf_fc_executor_on_stuck(&G.executor, on_stuck, NULL);
    bool captured = false;
    if (!ran) {
        fprintf(stderr, "linfuzz-fuzz: no controlled twin: %s\n", err);
    } else if (t.found) {
        lf_method ms[LF_M_COUNT];
        lf_fuzz_case tc;
        lf_fuzz_case_decode(t.bytes, t.len, lf_fuzz_case_methods(G.adapter, ms), &tc);
        char origin[1024], sched[512];
        lf_schedule_describe(sched, sizeof sched, &t.info.schedule, tc.threads);
        snprintf(origin, sizeof origin, "controlled twin of a free finding (%.400s): schedule %llu of the search, "
                                        "controlled (%s)", free_origin, (unsigned long long)t.schedule_index, sched);
        lf_result res;
        lf_result_init(&res);
        res.verdict = LF_VIOLATION;
        captured =
            capture_run(t.bytes, t.len, &tc, 0, &t.info, &t.history, &res, origin, true, te, err, sizeof err) == LF_OK;
        lf_result_free(&res);
        if (!captured) fprintf(stderr, "linfuzz-fuzz: cannot build the twin's entry: %s\n", err);
    }
    const char *shape = lf_entry_meta(free_entry, "shape"), *twin_shape = captured ? lf_entry_meta(te, "shape") : NULL;
    fprintf(stderr, "linfuzz-fuzz: twin adapter=%s found=%s schedules=%llu seconds=%.3f same_shape=%s\n",
            G.adapter->name, captured ? "yes" : "no", (unsigned long long)t.tried, t.seconds,
            !captured ? "-" : shape && twin_shape && !strcmp(shape, twin_shape) ? "yes" : "no");
    lf_history_free(&t.history);
    return captured;
}

/* libFuzzer's -timeout (SIGALRM once a second; ClusterFuzz and OSS-Fuzz run with 25 s) measures the input's
 * time, and the analysis of a finding (test minimization, twin search, root causing) runs inside it: a long
 * one was filed as "timeout" instead of the bug (dpdk_ring_mpmc: 26 s after the detection, -timeout=25). The
 * alarm is held on the fuzzing thread while a finding is analysed (libFuzzer ignores it on other threads, and
 * the runs have their own watchdog); one that came meanwhile is dropped before the input goes on
 * (LINFUZZ_FUZZ_CONTINUE), since the time it counted was ours. */
static void hold_alarm(sigset_t *saved) {
    sigset_t alarm_only;
    sigemptyset(&alarm_only);
    sigaddset(&alarm_only, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &alarm_only, saved);
}

static void release_alarm(const sigset_t *saved) {
    sigset_t alarm_only;
    sigemptyset(&alarm_only);
    sigaddset(&alarm_only, SIGALRM);
    const struct timespec now = {0, 0};
    while (sigtimedwait(&alarm_only, NULL, &now) == SIGALRM)
        continue;
    pthread_sigmask(SIG_SETMASK, saved, NULL);
}

/* Minimises, saves and reports the first violation (then aborts, unless LINFUZZ_FUZZ_CONTINUE; continuing,
 * also the 2nd, 4th, 8th, ... up to LINFUZZ_FUZZ_CAPTURE captures). A serial nondeterminism of the adapter
 * (self-spec) is saved the same way, as an entry of its own category, with the serial evidence. A violation of
 * a free run gets its controlled twin saved beside it when one is found (find_twin). */
static void on_violation(const uint8_t *data, size_t size, const lf_fuzz_case *c, unsigned run,
                         const lf_result *res) {
    bool nondet = res->serial_nondeterminism;
    G.violations++;
    bool power_of_two = (G.violations & (G.violations - 1)) == 0;
    if (G.captured >= G.capture_max || !power_of_two) return;
    G.captured++;
    sigset_t saved_mask;
    hold_alarm(&saved_mask);
    double found_after = lf_now_s() - G.start;
    bool first = G.first_violation < 0;
    if (first) G.first_violation = found_after;
    char origin[512], err[512], path[PATH_MAX] = "", twin_path[PATH_MAX] = "", sched[512] = "";
    const lf_fc_run_info run_info = G.executor.last; /* the minimization below runs on the same executor */
    const lf_fc_run_info *info = &run_info;
    bool controlled = info->mode == LF_FC_CONTROLLED;
    if (controlled) lf_schedule_describe(sched, sizeof sched, &info->schedule, c->threads);
    snprintf(origin, sizeof origin, "fuzz_%s (libFuzzer%s), execution %llu, run %u of %u, %s%s%s%s",
             G.adapter->name, G.perturb ? "" : ", LINFUZZ_FUZZ_PERTURB=0", (unsigned long long)G.executions, run + 1,
             (unsigned)c->repeats, controlled ? "controlled (" : "free", sched, controlled ? ")" : "",
             controlled && !info->stats.deterministic ? ", NOT deterministic (watchdog or point budget)" : "");
    /* Without perturbation, or in a mode other than the input's, the case that ran differs from the input:
     * save what ran. */
    uint8_t ran[LF_FC_MAX_ENCODED];
    if (!G.perturb || G.mode != MODE_MIXED || G.memory != LF_FC_MEMORY_MIXED || G.strategy >= 0) {
        size = lf_fuzz_case_encode(c, ran);
        data = ran;
    }
    fprintf(stderr, "\nlinfuzz-fuzz: %s in %s (%zu ops, %s): %s\n%s", nondet ? "SERIAL NONDETERMINISM" : "VIOLATION",
            origin, G.history.n, res->engine, res->reason, nondet ? "" : "linfuzz-fuzz: minimizing...\n");
    lf_violation_entry e, te;
    /* Minimizing the test re-runs the code under test, which may crash (a use after free in a smaller case) with
     * no run of the fuzzer's in progress, hence no CRASH entry: the entry without the minimized test goes to
     * disk first, and the whole one replaces it (its name hashes the test too). */
    char early_path[PATH_MAX] = "";
    if (test_minimized(res, info)) {
        lf_violation_entry early;
        if (capture_run(data, size, c, run, info, &G.history, res, origin, false, &early, err, sizeof err) == LF_OK) {
            if (strcmp(save_entry(&early, early_path, sizeof early_path), "saved") != 0) early_path[0] = 0;
            lf_entry_free(&early);
        }
    }
    lf_status st = capture_run(data, size, c, run, info, &G.history, res, origin, true, &e, err, sizeof err);
    bool has_twin = false, saved_here = false;
    const char *saved = "not saved";
    if (st != LF_OK) {
        lf_esc_printf(stderr, "linfuzz-fuzz: cannot build the entry: %s\n", err);
        if (early_path[0]) { /* the early one stays: better than none */
            saved = "saved, without its minimized test";
            snprintf(path, sizeof path, "%s", early_path);
        }
    } else {
        lf_esc_puts(stderr, e.report, LF_ESC_KEEP_NEWLINE | LF_ESC_KEEP_TAB);
        /* On disk before anything else runs: the twin search and the root causing re-run the code under test,
         * which may crash (a use after free in another schedule), and the process may be killed. Saved again,
         * in place, when they add to it. */
        if (early_path[0]) { /* (the bucket's entry is the early one, ours: replaced, not kept as a duplicate) */
            if (lf_entry_save(&e, G.violations_dir, path, sizeof path, err, sizeof err) == LF_OK) {
                saved = "saved";
                if (strcmp(path, early_path) != 0) unlink(early_path);
            } else {
                lf_esc_printf(stderr, "linfuzz-fuzz: cannot save the entry: %s\n", err);
                saved = "saved, without its minimized test";
                snprintf(path, sizeof path, "%s", early_path);
            }
        } else {
            saved = save_entry(&e, path, sizeof path);
        }
        saved_here = !strcmp(saved, "saved");
    }
    report_entry(saved, path, true);
    /* One line for scripts (ci/quickstart.sh, ci/bench_fuzz.sh), at the detection: what follows is analysis. */
    lf_esc_printf(stderr,
                  "linfuzz-fuzz: %s adapter=%s seconds=%.3f executions=%llu runs=%llu mode=%s entry=%s memory=%s\n",
                  nondet ? "nondeterminism" : "violation", G.adapter->name, found_after,
                  (unsigned long long)G.executions, (unsigned long long)G.runs,
                  controlled ? (info->stats.deterministic ? "controlled" : "controlled-nondeterministic") : "free",
                  path[0] ? path : "-",
                  controlled ? lf_memory_model_name((lf_memory_model)info->stats.memory_model) : "machine");
    fflush(stderr);
    if (st == LF_OK) {
        if (!nondet && !controlled && G.twin_schedules > 0) has_twin = find_twin(data, size, &e, origin, &te);
        if (!nondet && G.rc_schedules > 0 && !G.minimizing) {
            /* root-caused on the twin when there is one: its run replays; the free entry gets the same causes */
            attach_root_cause(has_twin ? &te : &e, has_twin ? te.workload : data, has_twin ? te.workload_len : size,
                              has_twin ? 0 : run);
            if (has_twin && te.rootcause) {
                free(e.rootcause);
                e.rootcause = strdup(te.rootcause);
            }
            if (saved_here && e.rootcause &&
                lf_entry_save(&e, G.violations_dir, path, sizeof path, err, sizeof err) != LF_OK)
                lf_esc_printf(stderr, "linfuzz-fuzz: cannot save the root cause into the entry: %s\n", err);
        }
        if (has_twin) {
            const char *name = strrchr(path, '/');
            if (path[0] && !lf_entry_set_meta(&te, "twin_of", name ? name + 1 : path))
                fprintf(stderr, "linfuzz-fuzz: out of memory\n");
            lf_esc_puts(stderr, te.report, LF_ESC_KEEP_NEWLINE | LF_ESC_KEEP_TAB);
            const char *twin_saved = save_entry(&te, twin_path, sizeof twin_path);
            lf_esc_printf(stderr, "\nlinfuzz-fuzz: controlled twin (%s, replays exactly): %s\n", twin_saved,
                          twin_path[0] ? twin_path : "-");
        }
    }
    if (twin_path[0])
        lf_esc_printf(stderr, "linfuzz-fuzz: its controlled twin: %s repro %s ; %s rootcause %s\n", G.program,
                      twin_path, G.program, twin_path);
    if (first) snprintf(G.first_entry, sizeof G.first_entry, "%s", path);
    fflush(stderr);
    if (!G.keep_going && st == LF_OK) /* one crash per bug (bug_report.h) */
        lf_bug_report_die(nondet ? "serial nondeterminism" : "linearizability bug", has_twin ? &te : &e);
    if (!G.keep_going) abort();
    if (st == LF_OK) lf_entry_free(&e);
    if (has_twin) lf_entry_free(&te);
    release_alarm(&saved_mask);
}

/* The code under test crashed (testcase/crash_watch.h: a sanitizer's report, or a signal without one): save
 * its CRASH entry and say where it is; the process then dies as the crash has it (libFuzzer writes the crash
 * input). Nothing here looks like an assertion: the crash type and state are the sanitizer's. */
static void on_crash(void *ctx, const lf_violation_entry *e) {
    (void)ctx;
    char path[PATH_MAX] = "";
    const char *saved = save_entry(e, path, sizeof path);
    lf_esc_printf(stderr, "\nlinfuzz-fuzz: CRASH of %s in execution %llu, run %u: %s\n", G.adapter->name,
                  (unsigned long long)G.executions, G.cur_run + 1, lf_entry_meta(e, "reason"));
    report_entry(saved, path, false);
    lf_esc_printf(stderr, "linfuzz-fuzz: crash adapter=%s seconds=%.3f executions=%llu runs=%llu mode=%s entry=%s\n",
                  G.adapter->name, lf_now_s() - G.start, (unsigned long long)G.executions, (unsigned long long)G.runs,
                  lf_entry_meta(e, "schedule_mode") ? lf_entry_meta(e, "schedule_mode") : "-", path[0] ? path : "-");
    fflush(stderr);
}

/* LINFUZZ_FUZZ_STRATEGY: the case's runs controlled, under that strategy (a walk that would never switch gets a
 * chance, from the schedule's seed). */
static void force_strategy(lf_fuzz_case *c) {
    c->mode = LF_FC_CONTROLLED;
    c->schedule.strategy = (uint8_t)G.strategy;
    if (G.strategy == LF_SCHED_WALK && !c->schedule.walk_chance)
        c->schedule.walk_chance = (uint8_t)(1 + c->schedule.seed % 64);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (G.budget > 0 && lf_now_s() - G.start >= G.budget) {
        /* _Exit, not exit: libFuzzer treats a target calling exit() as a crash. Everything it keeps (the
         * corpus, crash inputs) is already on disk. */
        print_summary();
        fflush(stderr);
        _Exit(0);
    }
    if (G.probe_pending && !G.minimizing && lf_now_s() - G.start >= PROBE_AFTER_SECONDS) probe_adapter();
    lf_fuzz_case c;
    lf_fuzz_case_decode(data, size, G.n_methods, &c);
    if (!G.perturb) memset(&c.perturb, 0, sizeof c.perturb);
    if (G.mode == MODE_CONTROLLED) c.mode = LF_FC_CONTROLLED;
    if (G.mode == MODE_FREE) c.mode = LF_FC_FREE;
    if (G.strategy >= 0) force_strategy(&c);
    lf_fuzz_case_force_memory(&c, G.memory);
    if (G.minimizing) {
        if (G.pinned_mode < 0) G.pinned_mode = c.mode;
        if (c.mode != G.pinned_mode) return 0;
    }
    lf_fc_plan plan;
    if (!lf_fc_plan_build(&plan, &c, G.adapter)) return 0;
    if (G.balanced) lf_fc_plan_balance_blocking(&plan);
    G.executions++;
    /* A crash of the code under test becomes an entry too (testcase/crash_watch.h). Installed here, after
     * libFuzzer installed its signal handlers, so that a build without a sanitizer chains to them. */
    static bool watching;
    if (!watching) lf_crash_watch_install(on_crash, NULL);
    watching = true;
    uint8_t ran[LF_FC_MAX_ENCODED]; /* the case as it runs, when that is not the input (as on_violation saves) */
    bool rewritten = !G.perturb || G.mode != MODE_MIXED || G.strategy >= 0;
    size_t ran_len = rewritten ? lf_fuzz_case_encode(&c, ran) : 0;
    char origin[256];
    snprintf(origin, sizeof origin, "fuzz_%s (libFuzzer%s), execution %llu", G.adapter->name,
             G.perturb ? "" : ", LINFUZZ_FUZZ_PERTURB=0", (unsigned long long)G.executions);
    lf_crash_run running = {.adapter = G.adapter, .executor = &G.executor, .data = rewritten ? ran : data,
                            .len = rewritten ? ran_len : size, .c = &c, .origin = origin};
    G.cur_data = data;
    G.cur_size = size;
    G.cur_case = &c;
    lf_adapter_checker_new_case(&G.checker); /* the runs of this case share the self-spec's memo */
    for (unsigned r = 0; r < c.repeats; r++) {
        G.cur_run = r;
        running.run = r;
        lf_crash_watch_running(&running);
        bool ran_ok = lf_fc_execute(&G.executor, &plan, r, &G.history);
        lf_crash_watch_running(NULL);
        if (!ran_ok) break;
        G.runs++;
        const lf_fc_run_info *info = &G.executor.last;
        bool weak = info->mode == LF_FC_CONTROLLED && info->stats.memory_model != LF_MM_SC;
        if (info->mode == LF_FC_CONTROLLED) {
            G.controlled_runs++;
            G.nondeterministic += !info->stats.deterministic;
            G.watchdog += info->stats.watchdog;
            G.over_budget += info->stats.budget_exceeded;
            G.weak_runs += weak;
        } else {
            G.free_runs++;
        }
        if (info->stuck) { /* (the STUCK handler has ended the process: lf_stuck_watch_deadlock) */
            G.stuck++;
            continue;
        }
        if (weak && !info->stats.deterministic) { /* the model was given up mid-run: its history proves nothing */
            G.weak_discarded++;
            continue;
        }
        lf_result res;
        lf_result_init(&res);
        lf_adapter_checker_check(&G.checker, &G.history, &res);
        if (G.signal) {
            lf_history_signal(&G.history, history_counters);
            /* ablations: clear the part not wanted (nothing else writes these counters) */
            if (G.overlap_only) memset(history_counters + LF_SIGNAL_RANK, 0, LF_SIGNAL_SIZE - LF_SIGNAL_RANK);
            if (G.witness_only || G.nearmiss_only) memset(history_counters, 0, LF_SIGNAL_RANK);
            if (G.nearmiss_only) /* only the greedy steps that needed a reordering, and where it got stuck */
                for (size_t k = LF_SIGNAL_RANK; k < LF_SIGNAL_STUCK; k += LF_SIGNAL_RANKS) history_counters[k] = 0;
        }
        if (res.verdict == LF_VIOLATION || res.serial_nondeterminism) on_violation(data, size, &c, r, &res);
        if (res.verdict == LF_UNKNOWN) G.unknown++;
        lf_result_free(&res);
    }
    G.cur_case = NULL;
    lf_fc_plan_free(&plan);
    return 0;
}

/* A fresh case checked against the self-spec stays within stress's size (4 threads of at most 100 calls): the
 * self-spec's search replays the adapter's operations on one object across many of its states, and a case of 5
 * threads of 128 calls made ck_stack_batch's node arena overflow (2^21 nodes, an abort of correct code). */
static void keep_to_stress_size(lf_fuzz_case *c) {
    if (c->threads > 4) c->threads = 4;
    unsigned body = c->body_len[0] ? c->body_len[0] : 1;
    if ((unsigned)c->rounds * body > 100) c->rounds = (uint8_t)(100 / body > 0 ? 100 / body : 1);
    lf_fuzz_case_normalize(c, G.n_methods);
}

/* Fresh stress-shaped cases at first and then half of the time (below), else structured mutation most of the
 * time (decode, change the case, encode), libFuzzer's byte mutations for the rest, so that both kinds of
 * neighbour are explored. A quarter of the time only the schedule changes:
 * the same test under a nearby interleaving (a change point a step later, another priority, ...). */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
    if (!G.mutator) return LLVMFuzzerMutate(data, size, max_size);
    uint64_t rng = (uint64_t)seed * 0x9e3779b97f4a7c15ull + 1;
    unsigned kind = (unsigned)lf_rand_below(&rng, 4);
    bool warm = lf_now_s() - G.start < G.fresh_seconds;
    /* (while warm, every mutation is a fresh case: no byte mutation of the empty input or of a fresh case) */
    if (kind == 0 && !(warm && G.fresh_share && !G.minimizing)) return LLVMFuzzerMutate(data, size, max_size);
    lf_fuzz_case c;
    lf_fuzz_case_decode(data, size, G.n_methods, &c);
    /* A fresh stress-shaped case (lf_fuzz_case_random) instead of a neighbour: always during the first
     * G.fresh_seconds (LINFUZZ_FUZZ_FRESH_SECONDS) and while the input is tiny (an empty corpus starts from the
     * empty input), else one time in G.fresh_share (LINFUZZ_FUZZ_FRESH). Mutations of a small test reach racing
     * threads of many calls only after many executions, and on the bundled bugs random cases of stress's shape
     * find them faster than mutations of the corpus do (docs/fuzzing.md, "Fuzz target against stress"). Never
     * while libFuzzer minimizes a crash: that wants neighbours of the crash. */
    bool tiny = lf_fuzz_case_run_ops(&c) < FRESH_BELOW_OPS;
    if (G.fresh_share && !G.minimizing && (warm || tiny || lf_rand_below(&rng, G.fresh_share) == 0)) {
        /* one in G.short_share short (LINFUZZ_FUZZ_FRESH_SHORT): threads of 1 to 4 calls, cheap, and the
         * only fresh cases that end right after a lost wakeup (docs/fuzzing.md, "One CPU and short fresh
         * cases") */
        if (G.short_share && lf_rand_below(&rng, G.short_share) == 0)
            lf_fuzz_case_random_short(&c, G.n_methods, &rng);
        else
            lf_fuzz_case_random(&c, G.n_methods, G.adapter->type == LF_TYPE_SET, &rng);
        if (G.checker.mode == LF_SPEC_SELF) keep_to_stress_size(&c);
        uint8_t out[LF_FC_MAX_ENCODED];
        size_t len = lf_fuzz_case_encode(&c, out);
        if (len > max_size) return LLVMFuzzerMutate(data, size, max_size);
        memcpy(data, out, len);
        return len;
    }
    unsigned steps = 1 + (unsigned)lf_rand_below(&rng, 3);
    bool was_free = c.mode == LF_FC_FREE;
    for (unsigned i = 0; i < steps; i++) {
        if (kind == 1) {
            lf_fuzz_case_mutate_schedule(&c, &rng);
            lf_fuzz_case_normalize(&c, G.n_methods);
        } else {
            lf_fuzz_case_mutate(&c, G.n_methods, &rng);
        }
    }
    /* Free inputs breed free inputs (their coverage differs, so libFuzzer keeps them, and byte mutations that
     * shift the header turn one input in eight free): measured, a third of the runs of a mixed campaign were
     * free. A free input's structured offspring go back to controlled half of the time, which keeps free
     * mode to "some" executions (docs/scheduling.md, "Modes in practice"). */
    if (was_free && c.mode == LF_FC_FREE && lf_rand_below(&rng, 2) == 0) c.mode = LF_FC_CONTROLLED;
    uint8_t out[LF_FC_MAX_ENCODED];
    size_t len = lf_fuzz_case_encode(&c, out);
    if (len > max_size) return LLVMFuzzerMutate(data, size, max_size);
    memcpy(data, out, len);
    return len;
}
