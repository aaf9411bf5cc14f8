/* `linfuzz repro ENTRY`: re-checks a violation entry's saved histories and re-runs its workload.
 *
 * The saved histories are evidence on their own (a checker verdict is deterministic), so they are re-checked
 * first. An entry found in controlled mode (docs/scheduling.md) is then replayed exactly: the recorded run
 * (its repetition, hence its schedule) once more, and its history must come back byte for byte identical to
 * the saved one ("replayed exactly: violation again, same history"). Last, the workload runs N times free
 * (the operating system's interleaving, other perturbation seeds each time) to tell how often the violation
 * shows without the schedule ([Cirisci20]: "witnessed, not reproduced" is a valid outcome for a rare race
 * in free mode); with --memory-model, the workload's controlled repetitions instead, under that memory model
 * (docs/memory-models.md: does the bug show under tso as well as c11?). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "cli/commands.h"
#include "findings/crash.h"
#include "findings/capture.h"
#include "findings/entry.h"
#include "findings/stuck.h"
#include "runtime/workload.h"
#include "runtime/adapter_check.h"
#include "runtime/adapter_oracle.h"
#include "runtime/adapter_type.h"
#include "testcase/controlled_twin.h"
#include "testcase/fuzz_case.h"
#include "runtime/sched.h"
#include "testcase/case_replay.h"
#include "util/parse.h"
#include "options.h"
#include "status_line.h"
#include "util/escape.h"

/* Whether the workload of a STUCK or CRASH entry can be re-run here; when not, note says why. */
static bool can_rerun(const lf_violation_entry *e, const lf_adapter *a, uint64_t runs, char *note, size_t note_len) {
    const char *format = lf_entry_meta(e, "workload_format");
    if (runs == 0)
        snprintf(note, note_len, "workload not re-run (--runs 0)");
    else if (!lf_fuzz_case_format_scheduled(format))
        snprintf(note, note_len, "workload not re-run: its format is %s, not '%s'", format ? format : "not recorded",
                 LF_FUZZ_CASE_FORMAT);
    else if (!a)
        snprintf(note, note_len, "workload not re-run: adapter '%s' is not in this build", lf_entry_meta(e, "adapter"));
    else
        return true;
    return false;
}

/* A STUCK entry: show what never returned, re-run the workload in a child until a run gets stuck. */
static int repro_stuck(const char *path, const lf_violation_entry *e, const lf_adapter *a, uint64_t runs, double seconds,
                       bool quiet) {
    if (!quiet) {
        printf("saved history (%zu ops): ", e->full.n);
        lf_esc_puts(stdout, e->verdict ? e->verdict : "\n", LF_ESC_KEEP_NEWLINE); /* its lines: one per verdict */
        for (size_t i = 0; i < e->full.n; i++)
            if (lf_op_pending(&e->full.ops[i])) {
                char d[160];
                lf_history_describe_op(&e->full, &e->full.ops[i], d, sizeof d);
                lf_esc_printf(stdout, "  never returned: %s\n", d);
            }
    }
    char note[512];
    if (can_rerun(e, a, runs, note, sizeof note)) {
        lf_replay_options o;
        lf_replay_options_default(&o);
        o.runs = runs;
        o.seconds = seconds;
        o.balance_blocking = lf_blocking_from_meta(a, lf_entry_meta(e, "blocking")); /* as the target ran it */
        o.format = lf_entry_meta(e, "workload_format");
        lf_isolated_replay r;
        /* the child's own watchdog needs its deadline; the limit only catches a child that stops answering */
        lf_fc_replay_isolated(a, e->workload, e->workload_len, &o, seconds + 60, "linfuzz repro", &r);
        if (r.outcome == LF_REPLAY_STUCK && r.has_entry) {
            if (!quiet) lf_esc_printf(stdout, "re-run: %s\n", r.detail);
            snprintf(note, sizeof note, "stuck again (%s, shape %s)", lf_entry_meta(&r.entry, "stuck_methods"),
                     lf_entry_meta(&r.entry, "shape"));
        } else if (r.outcome == LF_REPLAY_CLEAN) {
            snprintf(note, sizeof note, "not stuck in %llu runs (a rare schedule, or fixed)", (unsigned long long)r.runs);
        } else if (r.outcome == LF_REPLAY_VIOLATION) {
            snprintf(note, sizeof note, "not stuck, but run %llu violated linearizability: %s",
                     (unsigned long long)r.first_run + 1, lf_entry_meta(&r.entry, "reason"));
        } else {
            snprintf(note, sizeof note, "re-run %s: %s",
                     r.outcome == LF_REPLAY_CRASHED ? "crashed" : r.outcome == LF_REPLAY_STUCK ? "stopped answering" : "failed",
                     r.detail);
        }
        lf_entry_free(&r.entry);
    }
    lf_esc_printf(stdout, "%s: STUCK entry (%s: %s never returned); %s\n", path, lf_entry_meta(e, "shape"),
                  lf_entry_meta(e, "stuck_methods"), note);
    return LF_EXIT_STUCK;
}

/* A CRASH entry (findings/crash.h): the saved report is the evidence; the workload is replayed in a child
 * (testcase/case_replay.h), whose crash watch sends back the entry of its own crash: the same kind and root site
 * is the same crash, at the recorded run a controlled one replayed exactly. */
static int repro_crash(const char *path, const lf_violation_entry *e, const lf_adapter *a, uint64_t runs, double seconds,
                       bool quiet) {
    if (!quiet) printf("saved crash: %s\n", lf_entry_meta(e, "reason"));
    char note[768];
    if (can_rerun(e, a, runs, note, sizeof note)) {
        lf_replay_options o;
        lf_replay_options_default(&o);
        o.runs = runs;
        o.seconds = seconds;
        o.balance_blocking = lf_blocking_from_meta(a, lf_entry_meta(e, "blocking"));
        lf_isolated_replay r;
        lf_fc_replay_isolated(a, e->workload, e->workload_len, &o, seconds + 60, "linfuzz repro", &r);
        if (r.outcome == LF_REPLAY_CRASHED && r.has_entry) {
            const char *bucket = lf_entry_meta(&r.entry, "bucket"), *saved_bucket = lf_entry_meta(e, "bucket");
            const char *run = lf_entry_meta(&r.entry, "schedule_run"), *saved_run = lf_entry_meta(e, "schedule_run");
            bool same = bucket && saved_bucket && !strcmp(bucket, saved_bucket);
            bool exact = same && run && saved_run && !strcmp(run, saved_run) &&
                         !strcmp(lf_entry_meta(e, "schedule_mode") ? lf_entry_meta(e, "schedule_mode") : "", "controlled");
            snprintf(note, sizeof note, "crashed again%s: %s", exact ? ", at the recorded run (replayed exactly)"
                                                              : same ? " (the same crash)" : " (another crash)",
                     lf_entry_meta(&r.entry, "reason"));
        } else if (r.outcome == LF_REPLAY_CRASHED) {
            snprintf(note, sizeof note, "crashed again, without an entry: %s", r.detail);
        } else if (r.outcome == LF_REPLAY_CLEAN) {
            snprintf(note, sizeof note, "no crash in %llu runs (a build without the sanitizer, a rare schedule, or fixed)",
                     (unsigned long long)r.runs);
        } else if (r.outcome == LF_REPLAY_VIOLATION) {
            snprintf(note, sizeof note, "no crash, but run %llu violated linearizability: %s",
                     (unsigned long long)r.first_run + 1, lf_entry_meta(&r.entry, "reason"));
        } else {
            snprintf(note, sizeof note, "re-run %s: %s", r.outcome == LF_REPLAY_STUCK ? "stuck" : "failed", r.detail);
        }
        lf_entry_free(&r.entry);
    }
    printf("%s: CRASH entry (%s); %s\n", path, lf_entry_meta(e, "crash_kind"), note);
    return LF_EXIT_VIOLATION;
}

/* A free-mode entry has no recorded schedule: its controlled twin (testcase/controlled_twin.h) is the same test
 * under a controlled schedule that violates too, and replays exactly. Saved in twin_dir/ADAPTER/ when asked
 * (without test minimization: `linfuzz minimize-test` does that). 1 found, 0 not, -1 no threads or memory. */
static int controlled_twin(const lf_violation_entry *e, const char *path, const lf_adapter *a, const char *format,
                           lf_adapter_checker *checker, const char *twin_dir, bool quiet, char *note, size_t note_len) {
    lf_fc_executor x;
    if (!lf_fc_executor_init(&x, LF_CLOCK_TICKET)) return -1;
    lf_twin_options o;
    lf_twin_options_default(&o);
    o.balance_blocking = lf_blocking_from_meta(a, lf_entry_meta(e, "blocking"));
    lf_twin t;
    char err[512];
    if (!quiet) printf("found in free mode: searching a controlled schedule of the same test...\n");
    if (!lf_fc_controlled_twin(a, &x, checker, format, e->workload, e->workload_len, &o, &t, err, sizeof err)) {
        lf_fc_executor_free(&x);
        lf_history_free(&t.history);
        snprintf(note, note_len, "found in free mode; no controlled twin: %.400s", err);
        return 0;
    }
    char saved[4096] = "";
    if (t.found && twin_dir) {
        lf_method ms[LF_M_COUNT];
        lf_fuzz_case tc;
        lf_fuzz_case_decode(t.bytes, t.len, lf_fuzz_case_methods(a, ms), &tc);
        char desc[4096], origin[1024], dir[4096];
        lf_fuzz_case_describe(desc, sizeof desc, &tc, a);
        snprintf(origin, sizeof origin, "controlled twin of %.900s (linfuzz repro): schedule %llu of the search", path,
                 (unsigned long long)t.schedule_index);
        lf_minimize_options mo;
        lf_minimize_options_default(&mo);
        mo.timeout_s = 30;
        lf_capture_input in = {.adapter = a->name, .expected_linearizable = a->linearizable, .origin = origin,
                               .workload_format = LF_FUZZ_CASE_FORMAT, .workload_desc = desc, .workload = t.bytes,
                               .workload_len = t.len, .full = &t.history, .minimize = &mo, .has_serial = true,
                               .serial_thread = tc.threads, .check = &checker->check,
                               .spec_mode = checker->mode == LF_SPEC_SELF ? "self" : NULL};
        lf_violation_entry te;
        const char *name = strrchr(path, '/');
        snprintf(dir, sizeof dir, "%s/%s", twin_dir, a->name);
        if (lf_capture_violation(&in, &te, err, sizeof err) != LF_OK) {
            snprintf(saved, sizeof saved, "; not saved: %.300s", err);
        } else {
            if (!lf_entry_record_schedule(&te, &t.info, 0, tc.threads) ||
                !lf_entry_set_meta(&te, "twin_of", name ? name + 1 : path) ||
                (lf_entry_meta(e, "blocking") && !lf_entry_set_meta(&te, "blocking", lf_entry_meta(e, "blocking"))))
                snprintf(saved, sizeof saved, "; not saved: out of memory");
            else {
                char where[4096];
                if (lf_entry_save(&te, dir, where, sizeof where, err, sizeof err) == LF_OK)
                    snprintf(saved, sizeof saved, "; saved: %.3900s", where);
                else
                    snprintf(saved, sizeof saved, "; not saved: %.300s", err);
            }
            lf_entry_free(&te);
        }
    }
    if (t.found)
        snprintf(note, note_len,
                 "found in free mode; its controlled twin: schedule %llu of the search (%llu schedules, %.2f s) "
                 "violates and replays exactly%s%s",
                 (unsigned long long)t.schedule_index, (unsigned long long)t.tried, t.seconds, saved,
                 twin_dir ? "" : " (--save-twin DIR saves it)");
    else
        snprintf(note, note_len, "found in free mode: no exact replay; no controlled twin in %llu schedules (%.1f s)",
                 (unsigned long long)t.tried, t.seconds);
    lf_history_free(&t.history);
    lf_fc_executor_free(&x);
    return t.found ? 1 : 0;
}

/* The progress line of the runs of the workload. */
typedef struct rerun_progress {
    lf_status_line *line;
    uint64_t runs;
    double seconds;
} rerun_progress;

static void on_run(void *ctx, uint64_t runs, uint64_t violations) {
    const rerun_progress *p = ctx;
    lf_status_set(p->line,
                  "re-running the workload: run %" PRIu64 " of %" PRIu64 " (at most %g s), %" PRIu64 " violating so far",
                  runs, p->runs, p->seconds, violations);
}

/* Re-checks one saved history; returns its verdict. */
static lf_verdict recheck(const char *what, const lf_history *h, lf_adapter_checker *c, bool quiet) {
    lf_result r;
    lf_result_init(&r);
    lf_status_line *line = lf_status_start("linfuzz repro", quiet); /* a long check shows it is at work */
    lf_status_set(line, "re-checking the saved %s (%zu ops)", what, h->n);
    lf_adapter_checker_check(c, h, &r);
    lf_status_stop(line);
    if (!quiet)
        lf_esc_printf(stdout, "  %-9s (%zu ops): %s [%s]: %s\n", what, h->n, lf_verdict_name(r.verdict), r.engine,
                      r.reason);
    lf_verdict v = r.verdict;
    lf_result_free(&r);
    return v;
}

/* Replays the recorded run of a controlled-mode entry, checked as the entry was (checker); writes the outcome
 * to note. Returns 1 when it violated again, 0 when not, -1 when it could not run. */
static int replay_exactly(const lf_violation_entry *e, const lf_adapter *a, const char *format, bool test,
                          lf_adapter_checker *checker, bool quiet, char *note, size_t note_len) {
    const char *run_text = lf_entry_meta(e, "schedule_run");
    uint64_t run = 0;
    if (test || (run_text && !lf_parse_u64(run_text, 0, UINT32_MAX, &run))) run = 0; /* a test's run 0 violates */
    const uint8_t *data = test ? e->test : e->workload;
    size_t len = test ? e->test_len : e->workload_len;
    const lf_history *recorded = test ? &e->test_history : &e->full;
    const char *what = test ? "minimized test " : "";
    lf_history h;
    lf_adapter_history_init(&h, a);
    lf_fc_run_info info;
    bool balanced = lf_blocking_from_meta(a, lf_entry_meta(e, "blocking")); /* as the target ran it */
    if (!lf_fc_replay_run(a, format, balanced, data, len, (unsigned)run, &h, &info)) {
        lf_history_free(&h);
        return -1;
    }
    int violated = 0;
    if (info.stuck) {
        snprintf(note, note_len, "%sreplayed exactly: the run deadlocked (STUCK) instead", what);
    } else {
        lf_result r;
        lf_result_init(&r);
        lf_adapter_checker_check(checker, &h, &r);
        violated = r.verdict == LF_VIOLATION;
        bool same = lf_histories_identical(&h, recorded);
        const char *build = lf_entry_meta(e, "schedule_build");
        bool other_build = !build || strcmp(build, lf_sched_build_id()) != 0;
        const char *why = !info.stats.deterministic ? " (the replay was not deterministic: watchdog or point budget)"
                          : same || !other_build    ? ""
                                                    : " (recorded by another build: its scheduling points differ)";
        snprintf(note, note_len, "%s%s: %s, %s%s", what, same ? "replayed exactly" : "replayed",
                 violated ? "violation again" : lf_verdict_name(r.verdict),
                 same ? "same history" : "a DIFFERENT history", why);
        if (!quiet && other_build)
            lf_esc_printf(stdout, "  the entry was recorded by build %s, this is %s\n",
                          build ? build : "(not recorded)", lf_sched_build_id());
        if (!quiet)
            lf_esc_printf(
                stdout, "  exact replay of %srun %llu (%zu ops, %llu scheduling points, %llu switches): %s [%s]: %s\n",
                what, (unsigned long long)run + 1, h.n, (unsigned long long)info.stats.points,
                (unsigned long long)info.stats.switches, lf_verdict_name(r.verdict), r.engine, r.reason);
        lf_result_free(&r);
    }
    lf_history_free(&h);
    return violated;
}

/* Runs the entry's workload free (testcase/case_replay.h); returns the number of violating runs (-1: could
 * not run). */
static long rerun(const lf_violation_entry *e, const lf_adapter *a, const char *format, uint64_t runs,
                  double seconds, double timeout, lf_spec_mode spec, int memory, bool quiet, uint64_t *done) {
    lf_replay_options o;
    lf_replay_options_default(&o);
    o.runs = runs;
    o.seconds = seconds;
    o.check_timeout = timeout;
    o.balance_blocking = lf_blocking_from_meta(a, lf_entry_meta(e, "blocking")); /* as the target ran it */
    o.format = format;
    o.free_only = memory == LF_FC_MEMORY_MIXED;
    o.memory = memory; /* (a model: every run controlled under it) */
    o.spec = spec;
    lf_replay_result r;
    lf_adapter_history_init(&r.first, a);
    rerun_progress progress = {lf_status_start("linfuzz repro", quiet), runs, seconds};
    o.on_run = on_run;
    o.on_run_ctx = &progress;
    bool ok = lf_fc_replay(a, e->workload, e->workload_len, &o, &r);
    lf_status_stop(progress.line);
    *done = r.runs;
    if (!ok) lf_esc_printf(stderr, "linfuzz repro: cannot run the workload: %s\n", r.error);
    bool nondet_entry = lf_entry_category(e) != NULL;
    uint64_t found = nondet_entry ? r.nondeterministic : r.violations;
    if (ok && found && !quiet)
        printf("  first reappearance: run %" PRIu64 " (%zu ops): %s [%s]\n", r.first_run + 1, r.first.n, r.first_reason,
               r.first_engine);
    if (ok && !nondet_entry && r.nondeterministic && !quiet)
        printf("  and serial nondeterminism of the adapter in %" PRIu64 " runs\n", r.nondeterministic);
    lf_history_free(&r.first);
    lf_history_free(&r.evidence);
    return ok ? (long)found : -1;
}

/* A nondeterminism entry: its serial evidence replayed `runs` times on fresh objects; returns in how many
 * replays some result differed from the saved one (-1: could not replay). */
static long replay_evidence(const lf_violation_entry *e, const lf_adapter *a, uint64_t runs, bool quiet) {
    const lf_history *h = &e->minimized;
    char err[400];
    lf_adapter_oracle ao;
    if (!lf_adapter_oracle_init(&ao, a, h->n + 1, err, sizeof err) || !lf_adapter_can_replay(a, h, err, sizeof err)) {
        lf_esc_printf(stderr, "linfuzz repro: cannot replay the serial evidence: %s\n", err);
        return -1;
    }
    long differed = 0;
    for (uint64_t k = 0; k < runs; k++) {
        if (!ao.oracle.reset(ao.oracle.self)) {
            differed = -1;
            break;
        }
        for (size_t i = 0; i < h->n; i++) {
            lf_kind kind = LF_K_NONE;
            int64_t value = 0;
            lf_oracle_status st = ao.oracle.apply(ao.oracle.self, &h->ops[i], &kind, &value);
            bool same = st == LF_ORACLE_OK && (uint8_t)kind == h->ops[i].res_kind &&
                        (kind != LF_K_INT || value == h->ops[i].res);
            if (!same) {
                if (!differed && !quiet) {
                    char d[200], got[64];
                    lf_history_describe_op(h, &h->ops[i], d, sizeof d);
                    if (st != LF_ORACLE_OK)
                        snprintf(got, sizeof got, "%s", st == LF_ORACLE_BLOCKED ? "blocks" : "fails");
                    else if (kind == LF_K_INT)
                        snprintf(got, sizeof got, "-> %" PRId64, value);
                    else
                        snprintf(got, sizeof got, "%s%s", kind == LF_K_NONE ? "" : "-> ",
                                 kind == LF_K_NONE ? "no result" : lf_kind_name(kind));
                    printf("  first difference: replay %" PRIu64 ", op %zu (%s) answered %s\n", k + 1, i, d, got);
                }
                differed++;
                break;
            }
        }
    }
    lf_adapter_oracle_free(&ao);
    return differed;
}

typedef struct repro_args {
    uint64_t runs;
    double seconds, timeout;
    bool quiet, no_exact;
    const char *twin_dir; /* --save-twin */
    int memory;           /* --memory-model: LF_FC_MEMORY_MIXED (not given: re-runs free) or one model */
} repro_args;

/* --memory-model: one model, not mixed */
static bool parse_memory(const char *text, void *memory) {
    return lf_fc_memory_from_name(text, memory) && *(int *)memory != LF_FC_MEMORY_MIXED;
}

/* repro of a serial nondeterminism entry: its evidence is a serial run, replayed as such (runs times). The exit
 * code: a violation when it reappeared. */
static int repro_nondeterminism(const char *path, const lf_violation_entry *e, const lf_adapter *a,
                                const char *adapter_name, uint64_t runs, bool quiet) {
    /* serial nondeterminism: the evidence is a serial run, replayed as such */
    if (!quiet)
        lf_esc_printf(stdout, "%s: adapter %s, type %s: serial nondeterminism (%s)\n", path, adapter_name,
                      lf_history_type_name(&e->full), lf_entry_meta(e, "reason"));
    long differed = !a || runs == 0 ? 0 : replay_evidence(e, a, runs, quiet);
    if (differed < 0) return LF_EXIT_IO;
    if (!a)
        lf_esc_printf(stdout, "%s: serial nondeterminism; not replayed: adapter '%s' is not in this build\n", path,
                      adapter_name);
    else
        lf_esc_printf(stdout,
                      "%s: serial nondeterminism reappeared in %ld of %" PRIu64 " serial replays of its evidence\n",
                      path, differed, runs);
    return differed > 0 ? LF_EXIT_VIOLATION : LF_EXIT_OK;
}

/* Why the entry's workload cannot be re-run here (written into note), or NULL when it can: an unknown format, an
 * adapter not in this build or of another type than the entry (adapter_type: a history of a's type). */
static const char *why_not_rerun(const lf_violation_entry *e, const lf_adapter *a, const char *adapter_name,
                                 const char *format, const lf_history *adapter_type, char *note, size_t len) {
    if (!lf_fuzz_case_format_known(format)) {
        snprintf(note, len, "workload not re-run: its format is %s, not '%s'", format ? format : "not recorded",
                 LF_FUZZ_CASE_FORMAT);
        return note;
    }
    if (!a) {
        snprintf(note, len, "workload not re-run: adapter '%s' is not in this build", adapter_name);
        return note;
    }
    if (a->type != e->full.type ||
        (a->type == LF_TYPE_CUSTOM && !lf_type_desc_equal(adapter_type->custom, e->full.custom))) {
        snprintf(note, len, "workload not re-run: adapter '%s' is a %s now, the entry a %s", adapter_name,
                 lf_adapter_type_name(a), lf_history_type_name(&e->full));
        return note;
    }
    return NULL;
}

int lf_cmd_repro(int argc, char **argv) {
    repro_args args = {.memory = LF_FC_MEMORY_MIXED};
    lf_cli_operands entry;
    int status = lf_cli_parse(&lf_command_repro, argc, argv, &args, &entry);
    if (status != LF_CLI_GO_ON) return status;
    const char *path = entry.v[0];
    uint64_t runs = args.runs;
    double seconds = args.seconds, timeout = args.timeout;
    bool quiet = args.quiet, exact = !args.no_exact;
    const char *twin_dir = args.twin_dir;
    int memory = args.memory;
    lf_violation_entry e;
    char err[1024];
    lf_status st = lf_entry_load(path, &e, err, sizeof err);
    if (st != LF_OK) {
        lf_esc_printf(stderr, "linfuzz repro: %s\n", err);
        return st == LF_ERR_IO ? LF_EXIT_IO : LF_EXIT_USAGE;
    }
    const char *adapter_name = lf_entry_meta(&e, "adapter");
    const lf_adapter *a = lf_adapter_find(adapter_name);
    if (lf_entry_is_crash(&e)) {
        if (!quiet) printf("%s: adapter %s, type %s, CRASH\n", path, adapter_name, lf_history_type_name(&e.full));
        int code = repro_crash(path, &e, a, runs, seconds, quiet);
        lf_entry_free(&e);
        return code;
    }
    if (lf_entry_is_stuck(&e)) {
        if (!quiet)
            lf_esc_printf(stdout, "%s: adapter %s, type %s, STUCK\n", path, adapter_name,
                          lf_history_type_name(&e.full));
        int code = repro_stuck(path, &e, a, runs, seconds, quiet);
        lf_entry_free(&e);
        return code;
    }
    if (lf_entry_category(&e)) {
        int code = repro_nondeterminism(path, &e, a, adapter_name, runs, quiet);
        lf_entry_free(&e);
        return code;
    }
    lf_check_options o;
    lf_check_options_default(&o);
    o.timeout_s = timeout;
    const char *spec_meta = lf_entry_meta(&e, "spec");
    lf_adapter_checker checker;
    if (!lf_adapter_checker_for_saved(&checker, adapter_name, spec_meta, &o, err, sizeof err)) {
        lf_esc_printf(stderr, "linfuzz repro: %s: cannot re-check it: %s\n", path, err);
        lf_entry_free(&e);
        return LF_EXIT_USAGE;
    }
    if (!quiet) {
        char against[200];
        lf_esc_printf(stdout, "%s: adapter %s, type %s, checked against %s\n", path, adapter_name,
                      lf_history_type_name(&e.full), lf_adapter_checker_describe(&checker, against, sizeof against));
        printf("saved histories:\n");
    }
    lf_verdict vf = recheck("history", &e.full, &checker, quiet), vm = recheck("minimized", &e.minimized, &checker, quiet);
    bool saved_violation = vf == LF_VIOLATION || vm == LF_VIOLATION;
    if (!quiet && !(vf == LF_VIOLATION && vm == LF_VIOLATION))
        printf("  WARNING: a saved history is no longer a violation: the checker changed, or the entry is wrong\n");

    const char *format = lf_entry_meta(&e, "workload_format");
    lf_history adapter_type;
    if (a) lf_adapter_history_init(&adapter_type, a);
    long found = 0;
    int exact_found = 0;
    uint64_t done = 0;
    char rerun_note[256] = "", exact_note[512] = "";
    lf_method ms[LF_M_COUNT];
    lf_fuzz_case c;
    const char *why_not = why_not_rerun(&e, a, adapter_name, format, &adapter_type, rerun_note, sizeof rerun_note);
    if (!why_not) {
        lf_fuzz_case_decode_as(format, e.workload, e.workload_len, lf_fuzz_case_methods(a, ms), &c);
        if (!quiet) {
            char desc[4096];
            lf_fuzz_case_describe(desc, sizeof desc, &c, a);
            lf_esc_printf(stdout, "workload (%s): %s\n", format, desc);
        }
        if (!exact) {
            snprintf(exact_note, sizeof exact_note, "no exact replay (--no-exact)");
        } else if (c.mode != LF_FC_CONTROLLED) {
            exact_found = controlled_twin(&e, path, a, format, &checker, twin_dir, quiet, exact_note, sizeof exact_note);
            if (exact_found < 0) {
                fprintf(stderr, "linfuzz repro: cannot run the workload (out of memory or threads)\n");
                lf_adapter_checker_free(&checker);
                lf_entry_free(&e);
                return LF_EXIT_IO;
            }
        } else {
            exact_found = replay_exactly(&e, a, format, false, &checker, quiet, exact_note, sizeof exact_note);
            if (exact_found >= 0 && e.has_test) { /* the minimized test replays exactly too */
                size_t used = strlen(exact_note);
                snprintf(exact_note + used, sizeof exact_note - used, "; ");
                used = strlen(exact_note);
                int t = replay_exactly(&e, a, format, true, &checker, quiet, exact_note + used, sizeof exact_note - used);
                exact_found = t < 0 ? t : exact_found > 0 || t > 0;
            }
            if (exact_found < 0) {
                lf_esc_printf(stderr, "linfuzz repro: cannot run the workload (out of memory or threads)\n");
                lf_adapter_checker_free(&checker);
                lf_entry_free(&e);
                return LF_EXIT_IO;
            }
        }
        if (runs == 0) {
            snprintf(rerun_note, sizeof rerun_note, "no free runs (--runs 0)");
        } else {
            found = rerun(&e, a, format, runs, seconds, timeout,
                          spec_meta && !strcmp(spec_meta, "self") ? LF_SPEC_SELF : LF_SPEC_TYPE, memory, quiet, &done);
            if (found < 0) {
                lf_esc_printf(stderr, "linfuzz repro: cannot run the workload (out of memory or threads)\n");
                lf_adapter_checker_free(&checker);
                lf_entry_free(&e);
                return LF_EXIT_IO;
            }
            char how[64];
            snprintf(how, sizeof how, "%s", memory == LF_FC_MEMORY_MIXED ? "free"
                                            : memory == LF_MM_SC ? "controlled sc"
                                            : memory == LF_MM_TSO ? "controlled tso" : "controlled c11");
            snprintf(rerun_note, sizeof rerun_note, "violation reappeared in %ld of %" PRIu64 " %s runs (%.1f%%)",
                     found, done, how, done ? 100.0 * (double)found / (double)done : 0.0);
        }
    }
    lf_esc_printf(stdout, "%s: saved histories %s; %s%s%s\n", path,
                  vf == LF_VIOLATION && vm == LF_VIOLATION ? "are violations"
                  : saved_violation                        ? "partly violations"
                                                           : "are NOT violations",
                  exact_note, exact_note[0] ? "; " : "", rerun_note);
    lf_adapter_checker_free(&checker);
    lf_entry_free(&e);
    return saved_violation || found > 0 || exact_found > 0 ? LF_EXIT_VIOLATION : LF_EXIT_OK;
}

static const lf_opt OPTIONS[] = {
    {.name = "--runs", .value = "N", LF_OPT_COUNT_AT(repro_args, runs, 0, UINT64_MAX), .def = "200",
     .help = "free runs of the workload (default 200; 0: none; with 0 and --no-exact, only the\n"
             "re-check of the histories)"},
    {.name = "--no-exact", LF_OPT_FLAG_AT(repro_args, no_exact),
     .help = "skip the exact replay of a controlled-mode entry (and a free one's twin search)"},
    {.name = "--save-twin", .value = "DIR", LF_OPT_STRING_AT(repro_args, twin_dir),
     .help = "a free-mode entry: save its controlled twin, when found, in DIR/ADAPTER/"},
    {.name = "--memory-model", .value = "M", LF_OPT_PARSED_AT(repro_args, memory, int, parse_memory),
     .expects = "sc, tso or c11",
     .help = "re-run the workload N times controlled under memory model M (sc, tso or c11:\n"
             "its repetitions' schedules, docs/memory-models.md) instead of free"},
    {.name = "--seconds", .value = "S", LF_OPT_SECONDS_AT(repro_args, seconds, 0, LF_MAX_SECONDS), .def = "60",
     .help = "stop re-running after S seconds (default 60)"},
    {.name = "--timeout", .value = "SEC", LF_OPT_SECONDS_AT(repro_args, timeout, 0, LF_MAX_SECONDS), .def = "60",
     .help = "time budget per history for the search engines (default 60)"},
    {.name = "--quiet", .short_name = "-q", LF_OPT_FLAG_AT(repro_args, quiet),
     .help = "only the summary line (and no progress line on stderr: by default, while it\n"
             "works, what it does and the runs so far; in place on a terminal, every 5 s elsewhere)"},
};

const lf_cli_command lf_command_repro = {
    .name = "repro",
    .summary = "re-check a violation entry and re-run its workload",
    .run = lf_cmd_repro,
    .usage = "linfuzz repro ENTRY [options]",
    .about = "Reproduces a violation entry (a .lfz file written by a fuzz target, e.g. corpus/ADAPTER/violations/...):\n"
             "  1. re-checks its full and minimized histories (deterministic: both must still be violations);\n"
             "  2. an entry found in controlled mode: replays the recorded run exactly (same schedule) and compares\n"
             "     its history with the saved one (\"replayed exactly: violation again, same history\"); an entry\n"
             "     with a minimized test (linfuzz minimize-test) replays that test's run exactly too;\n"
             "     an entry found in free mode has no recorded schedule: its test is run under controlled schedules\n"
             "     instead until one violates (its controlled twin, which replays exactly; --save-twin saves it);\n"
             "  3. re-runs its workload free-running, N times with different perturbation seeds (with\n"
             "     --memory-model: controlled under that model, its repetitions' schedules), checks every\n"
             "     run and reports how often the violation reappears.\n"
             "Histories are checked as they were when found: against the adapter's own serial behaviour (the\n"
             "self-spec) when the entry says so (meta spec: self). An entry of serial nondeterminism (category\n"
             "SERIAL_NONDETERMINISM) instead replays its serial evidence N times on fresh objects and reports how\n"
             "often the results differ from the saved ones.",
    .options = OPTIONS,
    .n_options = LF_CLI_N_OPTIONS(OPTIONS),
    .help_column = 17,
    .notes = "A STUCK entry (a run in which some operation never returned) is re-run in a child process, whose\n"
             "watchdog declares a run stuck as the fuzz target's did; the runs stop at the first stuck one.\n"
             "\n"
             "exit: 1 the saved histories are violations or the violation reappeared (exactly or free), 0 neither,\n"
             "      5 a STUCK entry (whether or not it got stuck again; the last line says),\n"
             "      2 bad usage or not a valid entry (corrupt, truncated, missing sections), 4 unreadable file.",
    .min_operands = 1,
    .max_operands = 1,
    .missing = "which entry?",
    .help_on_missing = true,
    .extra = "one entry at a time ('%s' is extra)",
};
