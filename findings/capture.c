/* Capturing a violation into an entry: minimise, explain, describe, render (see capture.h). */
#include "findings/capture.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "findings/crash.h"
#include "findings/stuck.h"
#include "linfuzz/format.h"
#include "linfuzz/report.h"
#include "util/escape.h"

#include <xxhash.h>

/* Small histories get a second explanation from the WGL search: its reason names the longest linearizable
 * prefix and the state after it, which the monitors' reasons do not. */
#define WGL_EXPLAIN_MAX_OPS 400

#define CATEGORY_NONDETERMINISM "SERIAL_NONDETERMINISM"

size_t lf_entry_explain(const lf_history *h, const lf_check_options *check, lf_result why[2]) {
    lf_check_options o;
    if (check)
        o = *check;
    else
        lf_check_options_default(&o);
    o.engine = LF_ENGINE_AUTO;
    o.want_witness = false;
    o.timeout_s = 10;
    lf_result_init(&why[0]);
    lf_check(h, &o, &why[0]);
    if (why[0].verdict != LF_VIOLATION || h->n > WGL_EXPLAIN_MAX_OPS || strstr(why[0].engine, "wgl")) return 1;
    o.engine = LF_ENGINE_WGL;
    lf_result_init(&why[1]);
    lf_check(h, &o, &why[1]);
    if (why[1].verdict == LF_VIOLATION) return 2;
    lf_result_free(&why[1]);
    return 1;
}

static size_t thread_count(const lf_history *h) {
    size_t n = 0;
    uint32_t *seen = malloc((h->n ? h->n : 1) * sizeof *seen);
    if (!seen) return 0;
    for (size_t i = 0; i < h->n; i++) {
        size_t k = 0;
        while (k < n && seen[k] != h->ops[i].thread) k++;
        if (k == n) seen[n++] = h->ops[i].thread;
    }
    free(seen);
    return n;
}

/* A decimal number that fits in 64 bits, and nothing else. */
static bool parse_u64(const char *s, uint64_t *out) {
    if (!s || *s < '0' || *s > '9') return false;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10) return false;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    *out = v;
    return true;
}

static bool meta_u32(const lf_violation_entry *e, const char *key, uint32_t *out) {
    uint64_t v;
    if (!parse_u64(lf_entry_meta(e, key), &v) || v > UINT32_MAX) return false;
    *out = (uint32_t)v;
    return true;
}

bool lf_entry_serial_thread(const lf_violation_entry *e, uint32_t *thread) {
    return meta_u32(e, "serial_thread", thread);
}

/* The serial thread of the history `minimized` was minimized from (lf_entry_recorded): meta
 * "test_serial_thread" when the entry has a minimized test, else "serial_thread". */
static bool entry_recorded_serial_thread(const lf_violation_entry *e, uint32_t *thread) {
    return meta_u32(e, e->has_test ? "test_serial_thread" : "serial_thread", thread);
}

void lf_entry_report_input(const lf_violation_entry *e, lf_report_input *in, lf_rootcause *rc) {
    uint64_t cut = 0;
    memset(in, 0, sizeof *in);
    memset(rc, 0, sizeof *rc);
    char err[256];
    if (e->rootcause && lf_rootcause_parse(e->rootcause, strlen(e->rootcause), rc, err, sizeof err) == LF_OK) {
        in->causes = rc->causes;
        in->n_causes = rc->n;
        const char *input = lf_entry_meta(e, "rootcause_input"); /* docs/formats.md */
        in->causes_of_test = input && !strcmp(input, "test");
    }
    in->adapter = lf_entry_meta(e, "adapter");
    in->origin = lf_entry_meta(e, "origin");
    in->workload = lf_entry_meta(e, "workload");
    in->minimize_summary = lf_entry_meta(e, "minimize");
    in->bucket = lf_entry_meta(e, "bucket");
    in->full_ops = e->full.n;
    in->history = &e->minimized;
    in->has_cut = parse_u64(lf_entry_meta(e, "cut_stamp"), &cut);
    in->cut_stamp = cut;
    in->recorded = lf_entry_recorded(e);
    in->has_serial = entry_recorded_serial_thread(e, &in->serial_thread);
    in->test_summary = e->has_test ? lf_entry_meta(e, "test_minimize") : NULL;
}


const char *lf_entry_category(const lf_violation_entry *e) {
    const char *c = lf_entry_meta(e, "category");
    return c && !strcmp(c, CATEGORY_NONDETERMINISM) ? CATEGORY_NONDETERMINISM : NULL;
}

/* The report of a nondeterminism entry, from what it stores (re-running would need the adapter). */
static void write_nondeterminism_report(FILE *f, const lf_violation_entry *e, const void *unused) {
    (void)unused;
    const lf_history *h = &e->minimized;
    const char *reason = lf_entry_meta(e, "reason"), *origin = lf_entry_meta(e, "origin");
    const char *workload = lf_entry_meta(e, "workload"), *bucket = lf_entry_meta(e, "bucket");
    fprintf(f, "=== SERIAL NONDETERMINISM  adapter=%s  type=%s ===\n", lf_entry_meta(e, "adapter"),
            lf_history_type_name(h));
    if (origin) lf_esc_printf(f, "found by:   %s\n", origin);
    if (workload) lf_esc_printf(f, "workload:   %s\n", workload);
    fprintf(f, "history:    %zu ops recorded; the serial evidence: %zu ops\n", e->full.n, h->n);
    if (bucket) lf_esc_printf(f, "bucket:     %s\n", bucket);
    lf_esc_printf(f, "\nwhy: %s\n\n", reason ? reason : "-");
    fprintf(f, "Not a linearizability violation: the adapter, marked deterministic, gave different results (or\n"
               "states) for the same serial ops from a fresh object, so its serial runs cannot serve as its\n"
               "specification. Make it deterministic, or declare the method nondeterministic (LF_MF_NONDET),\n"
               "or give the type a specification (docs/custom-types.md).\n\n");
    fprintf(f, "serial ops from a fresh object, with the results of the first run (the last one differed later)\n");
    lf_text_write_header(f, h);
    for (size_t i = 0; i < h->n; i++) {
        char text[LF_TEXT_OP_MAX];
        text[lf_text_format_history_op(text, h, &h->ops[i])] = 0;
        fprintf(f, "%s\n", text);
    }
}

lf_verdict lf_entry_write_report(FILE *f, const lf_violation_entry *e, const lf_check_options *check) {
    if (lf_entry_is_crash(e)) { /* the code under test died: its own report */
        lf_crash_write_report(f, e);
        return LF_VIOLATION;
    }
    if (lf_entry_is_stuck(e)) { /* a finding about progress, not linearizability: its own report */
        lf_stuck_write_report(f, e);
        return LF_VIOLATION;
    }
    if (lf_entry_category(e)) {
        write_nondeterminism_report(f, e, NULL);
        return LF_UNKNOWN;
    }
    lf_result why[2];
    size_t n_why = lf_entry_explain(&e->minimized, check, why);
    lf_verdict v = why[0].verdict;
    lf_report_input in;
    lf_rootcause rc;
    lf_entry_report_input(e, &in, &rc);
    in.why = why;
    in.n_why = v == LF_VIOLATION ? n_why : 0;
    if (v != LF_VIOLATION)
        lf_esc_printf(f, "NOTE: the minimized history is no longer a violation for this checker (%s: %s)\n\n",
                      lf_verdict_name(v), why[0].reason);
    lf_report_write(f, &in);
    lf_rootcause_free(&rc);
    for (size_t i = 0; i < n_why; i++) lf_result_free(&why[i]);
    return v;
}

static bool set_meta_u64(lf_violation_entry *e, const char *key, uint64_t v) {
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return lf_entry_set_meta(e, key, buf);
}

/* lf_entry_write_report as a report writer (ctx: the check options). */
static void write_checked_report(FILE *f, const lf_violation_entry *e, const void *check) {
    lf_entry_write_report(f, e, check);
}

lf_status lf_capture_violation(const lf_capture_input *in, lf_violation_entry *e, char *err, size_t errlen) {
    lf_minimize_options mo;
    if (in->minimize)
        mo = *in->minimize;
    else
        lf_minimize_options_default(&mo);
    if (in->check) { /* the histories' checker, with the minimisation's engine and per-check budget */
        lf_check_options c = *in->check;
        c.engine = mo.check.engine;
        c.timeout_s = mo.check.timeout_s;
        c.want_witness = false;
        mo.check = c;
    }
    lf_entry_init(e, in->full->type);
    const lf_history *src = in->test_history ? in->test_history : in->full; /* what is minimized */
    lf_minimize_stats ms;
    lf_verdict v = lf_minimize(src, &mo, &e->minimized, &ms);
    if (v != LF_VIOLATION) {
        snprintf(err, errlen, "the %shistory is not a violation on re-check (%s)", in->test_history ? "test's " : "",
                 lf_verdict_name(v));
        lf_entry_free(e);
        return LF_ERR_FORMAT;
    }
    bool ok = lf_history_copy(&e->full, in->full);
    if (ok && in->test_history) ok = lf_entry_set_test(e, in->test, in->test_len, in->test_history);
    e->workload = malloc(in->workload_len ? in->workload_len : 1);
    if (ok && e->workload) {
        if (in->workload_len) memcpy(e->workload, in->workload, in->workload_len);
        e->workload_len = in->workload_len;
    }

    /* verdicts of both histories */
    lf_check_options co = mo.check;
    lf_result full_r, min_r;
    lf_result_init(&full_r);
    lf_result_init(&min_r);
    lf_check(in->full, &co, &full_r);
    lf_check(&e->minimized, &co, &min_r);
    lf_result test_r;
    lf_result_init(&test_r);
    if (in->test_history) lf_check(in->test_history, &co, &test_r);
    char *verdict = NULL;
    size_t vlen = 0;
    FILE *vf = open_memstream(&verdict, &vlen);
    if (vf) {
        fprintf(vf, "history (%zu ops): %s [%s]: %s\n", in->full->n, lf_verdict_name(full_r.verdict), full_r.engine,
                full_r.reason);
        if (in->test_history)
            fprintf(vf, "test (%zu ops): %s [%s]: %s\n", in->test_history->n, lf_verdict_name(test_r.verdict),
                    test_r.engine, test_r.reason);
        fprintf(vf, "minimized (%zu ops): %s [%s]: %s\n", e->minimized.n, lf_verdict_name(min_r.verdict),
                min_r.engine, min_r.reason);
        if (fclose(vf) != 0) {
            free(verdict);
            verdict = NULL;
        }
    }
    e->verdict = verdict;

    /* metadata */
    char bucket[17], summary[512], when[32];
    lf_violation_bucket(in->adapter, &e->minimized, ms.first_bad, ms.first_bad_stamp, bucket);
    /* how it was minimized, in the order the minimizer went */
    bool generic = in->full->type == LF_TYPE_CUSTOM || (in->check && (in->check->self || in->check->spec));
    FILE *sf = fmemopen(summary, sizeof summary, "w");
    if (sf) {
        fprintf(sf, "%s%zu -> %zu ops (%zu -> %zu threads): ", in->test_history ? "the minimized test's history: " : "",
                src->n, e->minimized.n, thread_count(src), thread_count(&e->minimized));
        if (ms.cut)
            fprintf(sf, "cut at the first impossible return (%zu later ops dropped, %zu in flight kept as pending), ",
                    ms.ops_cut, ms.ops_made_pending);
        else if (ms.first_bad)
            fprintf(sf, "the first impossible return kept, ");
        if (ms.lost_update)
            fprintf(sf, "a lost update: the get that returned fewer than the incs done before it kept with %s (%zu "
                        "ops dropped, the get lowered), ",
                    e->minimized.n == 3 ? "two overlapping incs before it" : "an inc before it", ms.lost_update_dropped);
        if (ms.unbounded && ms.capacity_dropped)
            fprintf(sf, "capacity %" PRIu64 " and %zu full answers dropped (a violation even for an unbounded %s), ",
                    in->full->capacity, ms.capacity_dropped, lf_type_name(in->full->type));
        else if (ms.unbounded)
            fprintf(sf, "capacity %" PRIu64 " dropped (a violation even for an unbounded %s), ", in->full->capacity,
                    lf_type_name(in->full->type));
        fprintf(sf, "%zu values dropped, %zu state-preserving ops dropped", ms.values_dropped, ms.observers_dropped);
        if (ms.incs_dropped)
            fprintf(sf, ", %zu incs ordered with every get dropped (the gets after them lowered)", ms.incs_dropped);
        if (ms.suffix)
            fprintf(sf, ", %zu ops before a forced state dropped (%s)", ms.ops_before_suffix,
                    generic ? "a quiescent point where every order returns to the initial state"
                    : in->full->type == LF_TYPE_REGISTER || in->full->type == LF_TYPE_CAS_REGISTER
                        ? "a quiescent write"
                        : "a quiescent empty result");
        fprintf(sf, "; %zu checks%s", ms.checks, ms.complete ? "" : ", stopped by a budget (not minimal)");
        fclose(sf); /* fmemopen keeps the text NUL-terminated within the buffer */
    } else {
        snprintf(summary, sizeof summary, "%zu -> %zu ops", in->full->n, e->minimized.n);
    }
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (in->created) snprintf(when, sizeof when, "%s", in->created);

    ok = ok && e->workload && e->verdict && lf_entry_set_meta(e, "entry", LF_ENTRY_FORMAT) &&
         lf_entry_set_meta(e, "adapter", in->adapter) && lf_entry_set_meta(e, "type", lf_history_type_name(in->full)) &&
         lf_entry_set_meta(e, "expected", in->expected_linearizable ? "linearizable" : "not linearizable") &&
         lf_entry_set_meta(e, "created", when) && lf_entry_set_meta(e, "linfuzz_version", LF_LINFUZZ_VERSION) &&
         lf_entry_set_meta(e, "bucket", bucket) &&
         lf_entry_set_meta(e, "shape", min_r.level != LF_LEVEL_NONE ? lf_level_name(min_r.level)
                                                                   : lf_violation_shape(&e->minimized)) &&
         lf_entry_set_meta(e, "engine", full_r.engine) && lf_entry_set_meta(e, "reason", full_r.reason) &&
         lf_entry_set_meta(e, "minimize", summary) &&
         lf_entry_set_meta(e, "minimize_complete", ms.complete ? "yes" : "no") &&
         set_meta_u64(e, "full_ops", in->full->n) && set_meta_u64(e, "minimized_ops", e->minimized.n);
    if (ok && ms.first_bad) ok = set_meta_u64(e, "cut_stamp", ms.first_bad_stamp);
    if (ok && in->has_serial) ok = set_meta_u64(e, "serial_thread", in->serial_thread);
    if (ok) ok = lf_entry_set_source(e, in->origin, in->workload_format, in->workload_desc);
    if (ok && in->spec_mode) ok = lf_entry_set_meta(e, "spec", in->spec_mode);
    if (ok && in->test_history)
        ok = set_meta_u64(e, "test_serial_thread", in->test_serial_thread) && set_meta_u64(e, "test_ops", in->test_history->n) &&
             (!in->test_summary || lf_entry_set_meta(e, "test_minimize", in->test_summary));
    lf_result_free(&test_r);
    lf_result_free(&full_r);
    lf_result_free(&min_r);
    if (ok && in->rootcause) {
        lf_rootcause rc;
        lf_status rst = lf_rootcause_parse(in->rootcause, strlen(in->rootcause), &rc, err, errlen);
        lf_rootcause_free(&rc);
        if (rst != LF_OK) {
            lf_entry_free(e);
            return rst;
        }
        ok = (e->rootcause = strdup(in->rootcause)) != NULL;
    }

    /* the report, rendered exactly as `linfuzz show` renders it later */
    if (ok) ok = lf_entry_render_report(e, write_checked_report, in->check);
    if (!ok) {
        lf_entry_free(e);
        snprintf(err, errlen, "out of memory");
        return LF_ERR_NOMEM;
    }
    return LF_OK;
}

void lf_nondeterminism_signature(const char *adapter, const lf_history *evidence, lf_violation_sig *sig,
                                 char bucket[17]) {
    const lf_method_decl *d = evidence->n ? lf_history_method(evidence, evidence->ops[evidence->n - 1].method) : NULL;
    snprintf(sig->type, sizeof sig->type, "%s", lf_history_type_name(evidence));
    sig->shape = CATEGORY_NONDETERMINISM;
    snprintf(sig->methods, sizeof sig->methods, "%s*1", d ? d->name : "-");
    snprintf(sig->cut_method, sizeof sig->cut_method, "%s", d ? d->name : "-");
    char key[256];
    int w = snprintf(key, sizeof key, "%s|%s|%s|%s", adapter ? adapter : "", sig->type, CATEGORY_NONDETERMINISM,
                     d ? d->name : "-");
    snprintf(bucket, 17, "%016llx", (unsigned long long)XXH64(key, w > 0 && (size_t)w < sizeof key ? (size_t)w : 0, 0));
}

lf_status lf_capture_nondeterminism(const lf_capture_input *in, const lf_history *evidence, const char *reason,
                                    lf_violation_entry *e, char *err, size_t errlen) {
    lf_entry_init(e, in->full->type);
    bool ok = lf_history_copy(&e->full, in->full) && lf_history_copy(&e->minimized, evidence);
    e->workload = malloc(in->workload_len ? in->workload_len : 1);
    ok = ok && e->workload;
    if (ok && in->workload_len) memcpy(e->workload, in->workload, in->workload_len);
    e->workload_len = ok ? in->workload_len : 0;
    char bucket[17], when[32];
    lf_violation_sig sig;
    lf_nondeterminism_signature(in->adapter, evidence, &sig, bucket);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (in->created) snprintf(when, sizeof when, "%s", in->created);
    size_t vlen = strlen(reason) + 64;
    e->verdict = malloc(vlen);
    if (e->verdict) snprintf(e->verdict, vlen, "history (%zu ops): unknown [self]: %s\n", in->full->n, reason);
    ok = ok && e->verdict && lf_entry_set_meta(e, "entry", LF_ENTRY_FORMAT) &&
         lf_entry_set_meta(e, "adapter", in->adapter) && lf_entry_set_meta(e, "type", lf_history_type_name(in->full)) &&
         lf_entry_set_meta(e, "expected", in->expected_linearizable ? "linearizable" : "not linearizable") &&
         lf_entry_set_meta(e, "created", when) && lf_entry_set_meta(e, "linfuzz_version", LF_LINFUZZ_VERSION) &&
         lf_entry_set_meta(e, "bucket", bucket) && lf_entry_set_meta(e, "shape", CATEGORY_NONDETERMINISM) &&
         lf_entry_set_meta(e, "category", CATEGORY_NONDETERMINISM) && lf_entry_set_meta(e, "engine", "self") &&
         lf_entry_set_meta(e, "reason", reason) && lf_entry_set_meta(e, "spec", in->spec_mode ? in->spec_mode : "self") &&
         lf_entry_set_meta(e, "minimize", "the serial evidence: not minimised") &&
         lf_entry_set_meta(e, "minimize_complete", "no") && set_meta_u64(e, "full_ops", in->full->n) &&
         set_meta_u64(e, "minimized_ops", evidence->n);
    if (ok && in->has_serial) ok = set_meta_u64(e, "serial_thread", in->serial_thread);
    if (ok) ok = lf_entry_set_source(e, in->origin, in->workload_format, in->workload_desc);
    if (ok) ok = lf_entry_render_report(e, write_nondeterminism_report, NULL);
    if (!ok) {
        lf_entry_free(e);
        snprintf(err, errlen, "out of memory");
        return LF_ERR_NOMEM;
    }
    return LF_OK;
}

lf_status lf_capture_again(const lf_violation_entry *old, const lf_check_options *check, lf_violation_entry *e,
                           char *err, size_t errlen) {
    uint32_t serial = 0;
    if (old->has_test && !entry_recorded_serial_thread(old, &serial)) lf_entry_serial_thread(old, &serial);
    return lf_capture_again_with_test(old, check, old->has_test ? old->test : NULL, old->test_len,
                                      old->has_test ? &old->test_history : NULL, serial,
                                      lf_entry_meta(old, "test_minimize"), e, err, errlen);
}

lf_status lf_capture_again_with_test(const lf_violation_entry *old, const lf_check_options *check, const uint8_t *test,
                                     size_t test_len, const lf_history *test_history, uint32_t test_serial_thread,
                                     const char *test_summary, lf_violation_entry *e, char *err, size_t errlen) {
    const char *expected = lf_entry_meta(old, "expected");
    lf_capture_input in = {
        .adapter = lf_entry_meta(old, "adapter"),
        .expected_linearizable = !expected || strcmp(expected, "not linearizable") != 0,
        .origin = lf_entry_meta(old, "origin"),
        .workload_format = lf_entry_meta(old, "workload_format"),
        .workload_desc = lf_entry_meta(old, "workload"),
        .workload = old->workload,
        .workload_len = old->workload_len,
        .full = &old->full,
        .created = lf_entry_meta(old, "created"),
        .check = check,
        .spec_mode = lf_entry_meta(old, "spec"),
    };
    in.has_serial = lf_entry_serial_thread(old, &in.serial_thread);
    if (test_history) { /* the minimized test: its history is the one minimized */
        in.test = test;
        in.test_len = test_len;
        in.test_history = test_history;
        in.test_summary = test_summary;
        in.test_serial_thread = test_serial_thread;
    }
    if (!in.adapter) {
        snprintf(err, errlen, "the entry names no adapter");
        return LF_ERR_FORMAT;
    }
    if (lf_entry_category(old)) { /* serial nondeterminism: its evidence is not a violation to minimise */
        const char *reason = lf_entry_meta(old, "reason");
        return lf_capture_nondeterminism(&in, &old->minimized, reason ? reason : "-", e, err, errlen);
    }
    /* the root causes are the run's, not the minimised history's: they stay */
    in.rootcause = old->rootcause;
    lf_status st = lf_capture_violation(&in, e, err, errlen);
    if (st != LF_OK) return st;
    /* so do how the run was scheduled (schedule, schedule_mode, schedule_run, ...: docs/scheduling.md) */
    for (size_t i = 0; i < old->n_meta; i++) {
        const char *k = old->meta[i].key;
        if ((!strcmp(k, "schedule") || !strncmp(k, "schedule_", 9)) && !lf_entry_set_meta(e, k, old->meta[i].value)) {
            lf_entry_free(e);
            snprintf(err, errlen, "out of memory");
            return LF_ERR_NOMEM;
        }
    }
    return LF_OK;
}
