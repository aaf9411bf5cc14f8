/* Capturing a violation into an entry: minimise, explain, describe, render (see capture.h). */
#include "corpus/capture.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linfuzz/report.h"

/* Small histories get a second explanation from the WGL search: its reason names the longest linearizable
 * prefix and the state after it, which the monitors' reasons do not. */
#define WGL_EXPLAIN_MAX_OPS 400

/* Verdicts on h: auto, and WGL when small and auto was not WGL already. Returns how many results (each
 * initialised; free them) went to why[0..1]; the first one's verdict is h's verdict. */
static size_t explain(const lf_history *h, lf_result why[2]) {
    lf_check_options o;
    lf_check_options_default(&o);
    o.timeout_s = 10;
    lf_result_init(&why[0]);
    lf_check(h, &o, &why[0]);
    if (why[0].verdict != LF_VIOLATION || h->n > WGL_EXPLAIN_MAX_OPS || !strcmp(why[0].engine, "wgl")) return 1;
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

lf_verdict lf_entry_write_report(FILE *f, const lf_violation_entry *e) {
    lf_result why[2];
    size_t n_why = explain(&e->minimized, why);
    lf_verdict v = why[0].verdict;
    const char *cut = lf_entry_meta(e, "cut_stamp");
    lf_report_input in = {
        .adapter = lf_entry_meta(e, "adapter"),
        .origin = lf_entry_meta(e, "origin"),
        .workload = lf_entry_meta(e, "workload"),
        .minimize_summary = lf_entry_meta(e, "minimize"),
        .bucket = lf_entry_meta(e, "bucket"),
        .full_ops = e->full.n,
        .history = &e->minimized,
        .why = why,
        .n_why = v == LF_VIOLATION ? n_why : 0,
        .has_cut = cut != NULL,
        .cut_stamp = cut ? strtoull(cut, NULL, 10) : 0,
    };
    if (v != LF_VIOLATION)
        fprintf(f, "NOTE: the minimized history is no longer a violation for this checker (%s: %s)\n\n",
                lf_verdict_name(v), why[0].reason);
    lf_report_write(f, &in);
    for (size_t i = 0; i < n_why; i++) lf_result_free(&why[i]);
    return v;
}

static bool set_meta_u64(lf_violation_entry *e, const char *key, uint64_t v) {
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return lf_entry_set_meta(e, key, buf);
}

lf_status lf_capture_violation(const lf_capture_input *in, lf_violation_entry *e, char *err, size_t errlen) {
    lf_minimize_options mo;
    if (in->minimize)
        mo = *in->minimize;
    else
        lf_minimize_options_default(&mo);
    lf_entry_init(e, in->full->type);
    lf_minimize_stats ms;
    lf_verdict v = lf_minimize(in->full, &mo, &e->minimized, &ms);
    if (v != LF_VIOLATION) {
        snprintf(err, errlen, "the history is not a violation on re-check (%s)", lf_verdict_name(v));
        lf_entry_free(e);
        return LF_ERR_FORMAT;
    }
    bool ok = lf_history_copy(&e->full, in->full);
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
    char *verdict = NULL;
    size_t vlen = 0;
    FILE *vf = open_memstream(&verdict, &vlen);
    if (vf) {
        fprintf(vf, "history (%zu ops): %s [%s]: %s\n", in->full->n, lf_verdict_name(full_r.verdict), full_r.engine,
                full_r.reason);
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
    lf_violation_bucket(in->adapter, &e->minimized, ms.cut, ms.cut_stamp, bucket);
    int w = snprintf(summary, sizeof summary, "%zu -> %zu ops (%zu -> %zu threads): %zu values dropped, %zu "
                     "state-preserving ops dropped",
                     in->full->n, e->minimized.n, thread_count(in->full), thread_count(&e->minimized),
                     ms.values_dropped, ms.observers_dropped);
    if (ms.cut && w > 0 && (size_t)w < sizeof summary)
        w += snprintf(summary + w, sizeof summary - (size_t)w, ", cut at the first impossible return (%zu later ops "
                      "dropped, %zu in flight kept as pending)", ms.ops_cut, ms.ops_made_pending);
    if (ms.suffix && w > 0 && (size_t)w < sizeof summary)
        w += snprintf(summary + w, sizeof summary - (size_t)w, ", %zu ops before a forced state dropped (a quiescent %s)",
                      ms.ops_before_suffix,
                      in->full->type == LF_TYPE_REGISTER || in->full->type == LF_TYPE_CAS_REGISTER ? "write"
                                                                                                 : "empty result");
    if (w > 0 && (size_t)w < sizeof summary)
        snprintf(summary + w, sizeof summary - (size_t)w, "; %zu checks%s", ms.checks,
                 ms.complete ? "" : ", stopped by a budget (not minimal)");
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);

    ok = ok && e->workload && e->verdict && lf_entry_set_meta(e, "entry", LF_ENTRY_FORMAT) &&
         lf_entry_set_meta(e, "adapter", in->adapter) && lf_entry_set_meta(e, "type", lf_type_name(in->full->type)) &&
         lf_entry_set_meta(e, "expected", in->expected_linearizable ? "linearizable" : "not linearizable") &&
         lf_entry_set_meta(e, "created", when) && lf_entry_set_meta(e, "linfuzz_version", LF_LINFUZZ_VERSION) &&
         lf_entry_set_meta(e, "bucket", bucket) && lf_entry_set_meta(e, "shape", lf_violation_shape(&e->minimized)) &&
         lf_entry_set_meta(e, "engine", full_r.engine) && lf_entry_set_meta(e, "reason", full_r.reason) &&
         lf_entry_set_meta(e, "minimize", summary) &&
         lf_entry_set_meta(e, "minimize_complete", ms.complete ? "yes" : "no") &&
         set_meta_u64(e, "full_ops", in->full->n) && set_meta_u64(e, "minimized_ops", e->minimized.n);
    if (ok && ms.cut) ok = set_meta_u64(e, "cut_stamp", ms.cut_stamp);
    if (ok && in->origin) ok = lf_entry_set_meta(e, "origin", in->origin);
    if (ok && in->workload_format) ok = lf_entry_set_meta(e, "workload_format", in->workload_format);
    if (ok && in->workload_desc) ok = lf_entry_set_meta(e, "workload", in->workload_desc);
    lf_result_free(&full_r);
    lf_result_free(&min_r);

    /* the report, rendered exactly as `linfuzz show` renders it later */
    if (ok) {
        size_t rlen = 0;
        FILE *rf = open_memstream(&e->report, &rlen);
        ok = rf != NULL;
        if (rf) {
            lf_entry_write_report(rf, e);
            ok = fclose(rf) == 0;
        }
    }
    if (!ok) {
        lf_entry_free(e);
        snprintf(err, errlen, "out of memory");
        return LF_ERR_NOMEM;
    }
    return LF_OK;
}
