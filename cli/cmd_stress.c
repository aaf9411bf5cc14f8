/* `linfuzz stress`: runs random workloads against one adapter until a violation is found or time is up.
 *
 * Run k uses the workload lf_workload_random(seed + k, threads, ops). Runs are controlled (runtime/sched: the
 * schedule lf_schedule_random(seed + k, ...) decides the interleaving) or free (the operating system's,
 * perturbed), as --mode says: mixed (the default) makes three runs in four controlled. A controlled run has a
 * memory model (--memory-model, docs/memory-models.md: mixed by default, drawn from the run's seed as the
 * fuzz targets' bytes would). A controlled run replays exactly with `--seed <its seed> --runs 1 --mode
 * controlled` and the same --memory-model (same threads and ops); of a free run only the workload can be
 * repeated that way. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "cli/commands.h"
#include "findings/stuck.h"
#include "linfuzz/format.h"
#include "linfuzz/selfspec.h"
#include "runtime/adapter_check.h"
#include "runtime/adapter_type.h"
#include "runtime/runner.h"
#include "options.h"
#include "testcase/fuzz_case.h"
#include "status_line.h"
#include "util/clock.h"
#include "util/parse.h"
#include "util/escape.h"

typedef enum stress_mode { MODE_MIXED, MODE_CONTROLLED, MODE_FREE } stress_mode;
static const char *const MODE_NAMES[] = {"mixed", "controlled", "free", NULL};
enum { BLOCKING_BALANCED, BLOCKING_ANY }; /* --blocking */
static const char *const BLOCKING_NAMES[] = {"balanced", "any", NULL};

typedef struct stress_options {
    const char *adapter, *out_dir;
    double seconds, timeout;
    uint64_t runs, threads, ops, seed;
    lf_clock_kind clock;
    lf_engine engine;
    int mode; /* stress_mode */
    lf_spec_mode spec;
    bool quiet, no_perturb;
    int blocking; /* BLOCKING_BALANCED or BLOCKING_ANY, -1 when not given */
    lf_cli_contract contract; /* --contract: the adapter held to another contract than its own */
    int memory;               /* --memory-model: LF_FC_MEMORY_MIXED or one model */
} stress_options;

/* --clock */
static bool parse_clock(const char *text, void *clock) { return lf_clock_from_name(text, clock); }
/* --memory-model */
static bool parse_memory(const char *text, void *memory) { return lf_fc_memory_from_name(text, memory); }

/* Whether run k is controlled. */
static bool run_controlled(const stress_options *o, uint64_t k) {
    return o->mode == MODE_CONTROLLED || (o->mode == MODE_MIXED && k % 4 != 3);
}

/* How run k was scheduled, for the reports ("controlled (pct ...)" or "free"), and how to repeat it. */
static void describe_schedule(char *buf, size_t len, char *again, size_t again_len, const stress_options *o,
                              const lf_adapter *a, const lf_runner *r, const lf_workload *w) {
    if (r->controlled) {
        char sched[512];
        lf_schedule_describe(sched, sizeof sched, &r->schedule, w->threads);
        snprintf(buf, len, "controlled (%s)%s", sched,
                 r->last_stats.deterministic ? "" : ", NOT deterministic (watchdog or point budget)");
    } else {
        snprintf(buf, len, "free%s", o->no_perturb ? " (no perturbation)" : "");
    }
    const char *contract = o->contract.text;
    snprintf(again, again_len,
             "linfuzz stress %s --seed %" PRIu64 " --runs 1 --threads %u --ops %u --mode %s%s%s%s%s%s%s",
             a->name, w->seed, w->threads, w->ops_per_thread, r->controlled ? "controlled" : "free",
             o->no_perturb ? " --no-perturb" : "", r->controlled ? " --memory-model " : "",
             r->controlled ? (o->memory == LF_FC_MEMORY_MIXED ? "mixed" : lf_memory_model_name((lf_memory_model)o->memory))
                           : "",
             contract ? " --contract '" : "", contract ? contract : "", contract ? "'" : "");
}

/* Writes the violating history; returns the exit status. */
static int report_violation(const stress_options *o, const lf_adapter *a, const lf_workload *w,
                            const lf_history *h, const lf_result *res, uint64_t run, const lf_runner *r) {
    char path[PATH_MAX], desc[512], err[512], how[768], again[512];
    snprintf(path, sizeof path, "%s/violation-%s-%" PRIu64 ".hist", o->out_dir, a->name, w->seed);
    lf_workload_describe(desc, sizeof desc, w, a);
    describe_schedule(how, sizeof how, again, sizeof again, o, a, r, w);
    lf_esc_printf(stderr, "linfuzz stress: %s: VIOLATION in run %" PRIu64 " (%zu ops, engine %s): %s\n", a->name,
                  run + 1, h->n, res->engine, res->reason);
    lf_esc_printf(stderr, "  workload: %s\n", desc);
    lf_esc_printf(stderr, "  schedule: %s\n", how);
    lf_esc_printf(stderr, "  %s: %s\n",
                  r->controlled && r->last_stats.deterministic ? "replay exactly" : "same workload", again);
    if (lf_history_write(path, h, err, sizeof err) != LF_OK) {
        lf_esc_printf(stderr, "linfuzz stress: cannot write the history: %s\n", err);
        return LF_EXIT_IO;
    }
    lf_esc_printf(stderr, "  history written to %s\n", path);
    lf_esc_printf(stdout, "%s\n", path);
    return LF_EXIT_VIOLATION;
}

/* The run in progress, for the STUCK handler (which runs on the watchdog's thread). */
typedef struct stuck_context {
    const stress_options *o;
    const lf_adapter *a;
    const lf_workload *w;
    uint64_t run;
    const lf_runner *runner;
    lf_status_line *line; /* erased before the report */
} stuck_context;

static void report_deadlock(const stuck_context *cx);

/* A run got stuck: report it, write its history (stuck ops pending), exit 5 (stuck threads cannot be taken
 * back). */
static void on_stuck(void *p, const lf_stuck_event *ev) {
    const stuck_context *cx = p;
    char desc[512], origin[128], detected[160], path[PATH_MAX], err[512];
    lf_workload_describe(desc, sizeof desc, cx->w, cx->a);
    snprintf(origin, sizeof origin, "linfuzz stress, run %" PRIu64, cx->run + 1);
    if (ev->deadlock)
        snprintf(detected, sizeof detected, "controlled run: every unfinished thread is blocked (a deadlock)");
    else
        snprintf(detected, sizeof detected, "no call and no return for %.1f s (deadline %.1f s)", ev->waited_s,
                 ev->deadline_s);
    lf_status_stop(cx->line); /* the run's thread is stuck: it will not touch the line again */
    lf_stuck_input in = {.adapter = cx->a->name, .expected_linearizable = cx->a->linearizable,
                         .may_block = lf_adapter_blocking(cx->a), .origin = origin, .workload_desc = desc,
                         .history = ev->history, .detector = detected};
    lf_violation_entry e;
    lf_esc_printf(stderr, "linfuzz stress: %s: STUCK in run %" PRIu64 ": %zu op%s never returned\n", cx->a->name,
                  cx->run + 1, ev->stuck, ev->stuck == 1 ? "" : "s");
    if (ev->deadlock) report_deadlock(cx);
    if (lf_capture_stuck(&in, &e, err, sizeof err) == LF_OK) {
        lf_esc_puts(stderr, e.report, LF_ESC_KEEP_NEWLINE | LF_ESC_KEEP_TAB);
        lf_entry_free(&e);
    }
    snprintf(path, sizeof path, "%s/stuck-%s-%" PRIu64 ".hist", cx->o->out_dir, cx->a->name, cx->w->seed);
    bool written = lf_history_write(path, ev->history, err, sizeof err) == LF_OK;
    if (written) {
        lf_esc_printf(stderr, "  history written to %s\n", path);
        lf_esc_printf(stdout, "%s\n", path);
    } else {
        lf_esc_printf(stderr, "linfuzz stress: cannot write the history: %s\n", err);
    }
    written &= fflush(NULL) == 0 && !ferror(stdout);
    _exit(written ? LF_EXIT_STUCK : LF_EXIT_IO); /* a finding that could not be kept is a failure to write */
}

/* A controlled run deadlocked: where each worker is, its schedule, and the command that replays it. */
static void report_deadlock(const stuck_context *cx) {
    char how[768], again[512], where[4096] = "";
    describe_schedule(how, sizeof how, again, sizeof again, cx->o, cx->a, cx->runner, cx->w);
    lf_plan p;
    if (lf_plan_build(&p, cx->w, cx->a)) {
        lf_runner_describe_stuck(where, sizeof where, cx->runner, &p);
        lf_plan_free(&p);
    }
    fprintf(stderr, "  a deadlock: every unfinished thread is blocked\n");
    lf_esc_write(stderr, where, strlen(where), LF_ESC_KEEP_NEWLINE); /* its lines: one per worker */
    lf_esc_printf(stderr, "  schedule: %s\n", how);
    lf_esc_printf(stderr, "  replay exactly: %s\n", again);
}

/* Writes the serial evidence of the adapter's nondeterminism; returns the exit status. */
static int report_nondeterminism(const stress_options *o, const lf_adapter *a, const lf_workload *w,
                                 lf_adapter_checker *c, const lf_history *h, const lf_result *res, uint64_t run) {
    char path[PATH_MAX], err[512];
    lf_esc_printf(stderr, "linfuzz stress: %s: SERIAL NONDETERMINISM in run %" PRIu64 " (%zu ops): %s\n", a->name,
                  run + 1, h->n, res->reason);
    lf_esc_printf(stderr,
                  "  not a linearizability violation: the adapter's serial runs differ, so its self-spec is void\n");
    lf_history ev;
    if (!lf_selfspec_nondeterminism(c->self, h, &ev)) return LF_EXIT_UNKNOWN;
    snprintf(path, sizeof path, "%s/nondeterminism-%s-%" PRIu64 ".hist", o->out_dir, a->name, w->seed);
    int status = LF_EXIT_UNKNOWN;
    if (lf_history_write(path, &ev, err, sizeof err) != LF_OK) {
        lf_esc_printf(stderr, "linfuzz stress: cannot write the evidence: %s\n", err);
        status = LF_EXIT_IO;
    } else {
        lf_esc_printf(stderr,
                      "  serial evidence (ops from a fresh object, the last one answered otherwise on a replay) "
                      "written to %s\n",
                      path);
        lf_esc_printf(stdout, "%s\n", path);
    }
    lf_history_free(&ev);
    return status;
}

/* One run of w on a, checked by c. False when the run could not be made. */
static bool run_checked(lf_runner *r, const lf_adapter *a, const lf_workload *w, lf_adapter_checker *c,
                        lf_history *h, lf_result *res) {
    if (!lf_runner_run_workload(r, a, w, h)) return false;
    if (r->last_stuck) return true; /* a deadlocked controlled run is reported, not checked */
    /* a weak run released mid-run (watchdog, point budget): the model was given up, the history proves nothing */
    if (r->controlled && r->last_stats.memory_model != LF_MM_SC && !r->last_stats.deterministic) return true;
    lf_adapter_checker_new_case(c);
    lf_adapter_checker_check(c, h, res);
    return true;
}

/* The adapter the command line names, held to --contract when given (with_contract: the storage for that copy),
 * and checked; NULL after a message when there is no such adapter or it is malformed. */
static const lf_adapter *stress_adapter(const stress_options *o, lf_adapter *with_contract) {
    const lf_adapter *a = lf_adapter_find(o->adapter);
    if (!a) {
        lf_esc_printf(stderr, "linfuzz stress: no adapter '%s' ('linfuzz adapters' lists them)\n", o->adapter);
        return NULL;
    }
    if (o->contract.text) { /* --contract: the adapter as declared, held to another contract */
        *with_contract = *a;
        with_contract->contract = o->contract.contract;
        a = with_contract;
    }
    char err[256];
    if (!lf_adapter_check(a, err, sizeof err)) {
        lf_esc_printf(stderr, "linfuzz stress: %s\n", err);
        return NULL;
    }
    return a;
}

/* Run `run`'s workload, drawn from the seed, and whether the run is controlled: then its schedule and memory
 * model too. */
static void plan_run(const stress_options *o, uint64_t run, bool balanced, lf_runner *runner, lf_workload *w) {
    lf_workload_random(w, o->seed + run, (uint32_t)o->threads, (uint32_t)o->ops);
    if (o->no_perturb) memset(&w->perturb, 0, sizeof w->perturb);
    w->balance_blocking = balanced;
    runner->controlled = run_controlled(o, run);
    if (runner->controlled) {
        size_t ops[LF_WORKLOAD_MAX_THREADS];
        for (unsigned t = 0; t < w->threads; t++) ops[t] = w->ops_per_thread;
        lf_schedule_random(&runner->schedule, w->seed, w->threads, ops);
        /* the model: mixed draws it from the run's seed as a fuzz case's byte would */
        lf_memory_model m = o->memory != LF_FC_MEMORY_MIXED
                                ? (lf_memory_model)o->memory
                                : lf_memory_model_of_byte((uint8_t)(w->seed * 0x9e3779b97f4a7c15ull >> 56));
        if (m != LF_MM_SC) lf_schedule_set_memory(&runner->schedule, m, w->seed);
    }
}

int lf_cmd_stress(int argc, char **argv) {
    stress_options o = {.blocking = -1};
    o.seed = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)(lf_now_s() * 1e9);
    const char *memory = getenv("LINFUZZ_MEMORY_MODEL");
    if (!lf_fc_memory_from_name(memory && *memory ? memory : "mixed", &o.memory)) {
        lf_esc_printf(stderr, "linfuzz stress: LINFUZZ_MEMORY_MODEL=%s: expected mixed, sc, tso or c11\n", memory);
        return LF_EXIT_USAGE;
    }
    lf_cli_operands adapter;
    int status = lf_cli_parse(&lf_command_stress, argc, argv, &o, &adapter);
    if (status != LF_CLI_GO_ON) return status;
    o.adapter = adapter.v[0];

    lf_adapter with_contract;
    const lf_adapter *a = stress_adapter(&o, &with_contract);
    if (!a) return LF_EXIT_USAGE;
    char err[256];
    if (!lf_clock_available(o.clock)) {
        lf_esc_printf(stderr, "linfuzz stress: clock '%s' is not available on this machine\n", lf_clock_name(o.clock));
        return LF_EXIT_USAGE;
    }
    struct stat st;
    if (stat(o.out_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        lf_esc_printf(stderr, "linfuzz stress: --out %s is not a directory\n", o.out_dir);
        return LF_EXIT_IO;
    }
    lf_runner runner;
    if (!lf_runner_init(&runner, (unsigned)o.threads, o.clock)) {
        lf_esc_printf(stderr, "linfuzz stress: cannot start %" PRIu64 " threads\n", o.threads);
        return LF_EXIT_IO;
    }
    lf_check_options copt;
    lf_check_options_default(&copt);
    copt.engine = o.engine;
    copt.timeout_s = o.timeout;
    lf_adapter_checker checker;
    char why[512], against[200];
    if (!lf_adapter_checker_init(&checker, a, o.spec, &copt, why, sizeof why)) {
        lf_esc_printf(stderr, "linfuzz stress: %s\n", why);
        lf_runner_free(&runner);
        return LF_EXIT_USAGE;
    }

    if (!o.quiet)
        lf_esc_printf(stderr,
                      "linfuzz stress: %s (%s, expected %s), %" PRIu64 " threads x %" PRIu64 " ops, seed %" PRIu64
                      ", clock %s, engine %s, mode %s, checked against %s\n",
                      a->name, lf_adapter_type_name(a), a->linearizable ? "linearizable" : "buggy", o.threads, o.ops,
                      o.seed, lf_clock_name(o.clock), lf_engine_name(o.engine), MODE_NAMES[o.mode],
                      lf_adapter_checker_describe(&checker, against, sizeof against));

    bool balanced;
    if (o.blocking >= 0) {
        balanced = o.blocking == BLOCKING_BALANCED;
    } else if (!lf_blocking_balanced(a, &balanced, err, sizeof err)) {
        lf_esc_printf(stderr, "linfuzz stress: %s\n", err);
        lf_runner_free(&runner);
        return LF_EXIT_USAGE;
    }
    stuck_context stuck = {.o = &o, .a = a, .runner = &runner};
    lf_runner_on_stuck(&runner, on_stuck, &stuck);
    lf_status_line *line = lf_status_start("linfuzz stress", o.quiet);
    stuck.line = line;
    lf_history h;
    lf_adapter_history_init(&h, a);
    double start = lf_now_s(), next_report = start + 1;
    uint64_t run = 0, ops_checked = 0, unknown = 0, controlled = 0, nondeterministic = 0, weak = 0;
    char first_unknown[512] = "";
    status = LF_EXIT_OK;
    for (; (!o.runs || run < o.runs) && lf_now_s() - start < o.seconds; run++) {
        lf_workload w;
        plan_run(&o, run, balanced, &runner, &w);
        stuck.w = &w;
        stuck.run = run;
        lf_result res;
        lf_result_init(&res);
        if (!run_checked(&runner, a, &w, &checker, &h, &res)) {
            lf_status_stop(line);
            line = NULL;
            lf_esc_printf(stderr, "linfuzz stress: out of memory or threads\n");
            status = LF_EXIT_IO;
            lf_result_free(&res);
            break;
        }
        controlled += runner.controlled;
        nondeterministic += runner.controlled && !runner.last_stats.deterministic;
        weak += runner.controlled && runner.last_stats.memory_model != LF_MM_SC;
        if (runner.controlled && runner.last_stuck) { /* (reported by on_stuck, which ended the process) */
            status = LF_EXIT_STUCK;
            lf_result_free(&res);
            run++;
            break;
        }
        ops_checked += h.n;
        if (res.verdict == LF_VIOLATION) {
            lf_status_stop(line);
            line = NULL;
            status = report_violation(&o, a, &w, &h, &res, run, &runner);
            lf_result_free(&res);
            run++;
            break;
        }
        if (res.serial_nondeterminism) {
            lf_status_stop(line);
            line = NULL;
            status = report_nondeterminism(&o, a, &w, &checker, &h, &res, run);
            lf_result_free(&res);
            run++;
            break;
        }
        if (res.verdict == LF_UNKNOWN && unknown++ == 0) snprintf(first_unknown, sizeof first_unknown, "%s", res.reason);
        lf_result_free(&res);
        double t = lf_now_s();
        if (line && t >= next_report) { /* the line is drawn a few times a second at most */
            lf_status_set(line, "%s: %" PRIu64 " runs (%.0f/s), %" PRIu64 " ops checked, %" PRIu64
                                " unknown, no violation yet",
                          a->name, run + 1, (run + 1) / (t - start), ops_checked, unknown);
            next_report = t + 0.1;
        }
    }
    lf_status_stop(line);
    double elapsed = lf_now_s() - start;
    if (!o.quiet || status != LF_EXIT_OK)
        fprintf(stderr,
                "linfuzz stress: %s: %" PRIu64 " runs in %.1fs (%.0f/s; %" PRIu64 " controlled, %" PRIu64
                " of them not deterministic, %" PRIu64 " under a weak memory model), %" PRIu64 " ops checked, %" PRIu64
                " unknown, %s\n",
                a->name, run, elapsed, elapsed > 0 ? run / elapsed : 0.0, controlled, nondeterministic, weak, ops_checked,
                unknown,
                status == LF_EXIT_VIOLATION ? "violation found"
                : status == LF_EXIT_STUCK   ? "deadlock found"
                : status == LF_EXIT_OK      ? "no violation"
                : status == LF_EXIT_UNKNOWN ? "serial nondeterminism"
                                            : "error");
    if (unknown) lf_esc_printf(stderr, "  first unknown verdict: %s\n", first_unknown);
    lf_history_free(&h);
    lf_adapter_checker_free(&checker);
    lf_runner_free(&runner);
    return status;
}

static const lf_opt OPTIONS[] = {
    {.name = "--seconds", .value = "S", LF_OPT_SECONDS_AT(stress_options, seconds, 0, LF_MAX_SECONDS), .def = "10",
     .help = "stop after S seconds (default 10)"},
    {.name = "--runs", .value = "N", LF_OPT_COUNT_AT(stress_options, runs, 0, UINT64_MAX),
     .help = "stop after N runs (default: no limit)"},
    {.name = "--threads", .value = "T", LF_OPT_COUNT_AT(stress_options, threads, 1, LF_WORKLOAD_MAX_THREADS), .def = "4",
     .help = "worker threads per run (default 4, at most " LF_OPT_STR(LF_WORKLOAD_MAX_THREADS) ")"},
    {.name = "--ops", .value = "N", LF_OPT_COUNT_AT(stress_options, ops, 1, LF_WORKLOAD_MAX_OPS), .def = "100",
     .help = "operations per thread per run (default 100)"},
    {.name = "--seed", .value = "S", LF_OPT_COUNT_AT(stress_options, seed, 0, UINT64_MAX),
     .help = "seed of the first run; run k uses S+k (default: from the clock, printed)"},
    {.name = "--out", .value = "DIR", LF_OPT_STRING_AT(stress_options, out_dir), .def = ".",
     .help = "where to write the violating history (default .)"},
    {.name = "--clock", .value = "C", LF_OPT_PARSED_AT(stress_options, clock, lf_clock_kind, parse_clock),
     .def = "ticket", .expects = "ticket or tsc",
     .help = "timestamps: ticket (default; seq_cst fetch-add) or tsc (x86-64 rdtscp)"},
    {.name = "--engine", .value = "E", LF_OPT_PARSED_AT(stress_options, engine, lf_engine, lf_cli_parse_engine),
     .def = "auto", .expects = LF_CLI_ENGINES, .help = "checking engine: auto (default), monitor, brute, wgl, hitting"},
    {.name = "--spec", .value = "M", LF_OPT_PARSED_AT(stress_options, spec, lf_spec_mode, lf_cli_parse_spec_mode),
     .def = "auto", .expects = LF_CLI_SPEC_MODES,
     .help = "what histories are checked against: auto (default: the spec of the adapter's type,\n"
             "else its own serial behaviour), type, or self (the self-spec, docs/custom-types.md)"},
    {.name = "--contract", .value = "C", LF_OPT_PARSED_AT(stress_options, contract, lf_cli_contract, lf_cli_parse_contract),
     .expects = LF_CLI_CONTRACTS,
     .help = "hold the adapter to contract C instead of the one it declares (docs/contracts.md),\n"
             "e.g. 'k-relaxed 4', per-producer, bag, lagging-full-empty, or linearizable"},
    {.name = "--timeout", .value = "SEC", LF_OPT_SECONDS_AT(stress_options, timeout, 0, LF_MAX_SECONDS), .def = "5",
     .help = "time budget per history for search engines (default 5; unknown when exceeded)"},
    {.name = "--no-perturb", LF_OPT_FLAG_AT(stress_options, no_perturb),
     .help = "no injected delays or yields in free runs (the schedule the OS gives)"},
    {.name = "--mode", .value = "M", LF_OPT_CHOICE_AT(stress_options, mode, MODE_NAMES), .def = "mixed",
     .help = "controlled (one thread at a time, a random schedule per run: deterministic), free\n"
             "(the OS's interleaving, perturbed) or mixed (default: 3 runs in 4 controlled)"},
    {.name = "--blocking", .value = "B", LF_OPT_CHOICE_AT(stress_options, blocking, BLOCKING_NAMES),
     .help = "balanced (the default for an adapter that declares blocking methods): plan no\n"
             "remove that could wait forever on a correct implementation, so that a STUCK run\n"
             "is a bug; any: plan them too (default: LINFUZZ_FUZZ_BLOCKING, as the fuzz targets)"},
    {.name = "--memory-model", .value = "M", LF_OPT_PARSED_AT(stress_options, memory, int, parse_memory),
     .expects = "mixed, sc, tso or c11",
     .help = "the memory model of controlled runs (docs/memory-models.md): sc, tso (x86 store\n"
             "buffers), c11 (the C11 model: stale reads that coherence allows), or mixed (default:\n"
             "drawn per run, a quarter sc, a quarter tso, half c11); LINFUZZ_MEMORY_MODEL sets the\n"
             "default"},
    {.name = "--quiet", .short_name = "-q", LF_OPT_FLAG_AT(stress_options, quiet), .help = "no progress lines"},
};

const lf_cli_command lf_command_stress = {
    .name = "stress",
    .summary = "fuzz an adapter with random concurrent workloads until a violation",
    .run = lf_cmd_stress,
    .usage = "linfuzz stress ADAPTER [options]",
    .about = "Repeats random workloads (op mix, argument domains and schedule perturbation drawn per run) on\n"
             "ADAPTER (see 'linfuzz adapters'), records each run's history and checks it. Stops at the first\n"
             "violation and writes that history to DIR/violation-ADAPTER-SEED.hist, where SEED is the run's\n"
             "workload seed. A progress line on stderr says how far it got (runs, ops checked, unknown verdicts):\n"
             "in place on a terminal, every 5 s elsewhere.",
    .options = OPTIONS,
    .n_options = LF_CLI_N_OPTIONS(OPTIONS),
    .help_column = 17,
    .notes = "A run in which some operation never returns (no call and no return for LINFUZZ_STUCK_SECONDS, by\n"
             "default 2 s + 1 ms per call of the run) is STUCK: the report says which ops and why they may wait,\n"
             "the history (stuck ops pending) goes to DIR/stuck-ADAPTER-SEED.hist, and the command exits 5.\n"
             "\n"
             "With the self-spec, serial nondeterminism of the adapter stops the runs too: its serial evidence is\n"
             "written to DIR/nondeterminism-ADAPTER-SEED.hist (not a linearizability violation: exit 3).\n"
             "\n"
             "exit: 0 no violation (unknown verdicts are counted and reported, not failures), 1 violation found,\n"
             "      2 bad usage, 3 serial nondeterminism, 4 the history could not be written, 5 stuck (an op never\n"
             "      returned, or a controlled run deadlocked).",
    .min_operands = 1,
    .max_operands = 1,
    .missing = "which adapter? ('linfuzz adapters' lists them)",
    .help_on_missing = true,
};
