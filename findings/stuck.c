/* STUCK findings: classification, entries and reports (see stuck.h). */
#include "findings/stuck.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

#include "linfuzz/adapter.h"
#include "linfuzz/check.h"
#include "linfuzz/format.h"
#include "linfuzz/report.h"
#include "util/escape.h"

/* What the returned ops leave in a container: values inserted by returned inserts, less values taken by
 * returned removes (never below 0). */
static uint64_t values_left(const lf_history *h, uint64_t *inserted, uint64_t *removed) {
    uint64_t ins = 0, rem = 0;
    for (size_t i = 0; i < h->n; i++) {
        const lf_op *op = &h->ops[i];
        const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)op->method);
        if (!mi || lf_op_pending(op)) continue;
        if (mi->role == LF_ROLE_INSERT && op->res_kind == LF_K_NONE) ins++;
        if (mi->role == LF_ROLE_REMOVE && (op->res_kind == LF_K_INT || op->res_kind == LF_K_NIL)) rem++;
    }
    if (inserted) *inserted = ins;
    if (removed) *removed = rem;
    return ins > rem ? ins - rem : 0;
}

static bool is_container(lf_type t) { return lf_type_boundable(t); }

/* Method m's name in h's type (a custom type's declared name). */
static const char *method_name(const lf_history *h, unsigned m) {
    const lf_method_decl *d = lf_history_method(h, m);
    return d ? d->name : "?";
}

/* Why one pending op may be waiting: 0 as specified (empty/full), 1 lost wakeup, 2 hang; *full_wait for an
 * insert waiting for room. */
static int classify(const lf_history *h, const lf_op *op, uint32_t may_block, uint64_t left, bool *full_wait) {
    *full_wait = false;
    if (!(may_block & LF_METHOD_BIT(op->method))) return 2;
    if (!is_container(h->type)) return 1;
    const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)op->method);
    if (mi && mi->role == LF_ROLE_INSERT) {
        *full_wait = true;
        return h->capacity && left >= h->capacity ? 0 : 1;
    }
    return left == 0 ? 0 : 1; /* a remove (or an observer) waiting for a value */
}

const char *lf_stuck_shape(const lf_history *h, uint32_t may_block) {
    uint64_t left = values_left(h, NULL, NULL);
    int worst = -1;
    bool any_empty = false;
    for (size_t i = 0; i < h->n; i++) {
        if (!lf_op_pending(&h->ops[i])) continue;
        bool full_wait;
        int c = classify(h, &h->ops[i], may_block, left, &full_wait);
        if (c == 0 && !full_wait) any_empty = true;
        if (c > worst) worst = c;
    }
    return worst == 2 ? "STUCK_HANG" : worst == 1 ? "STUCK_LOST_WAKEUP" : any_empty || worst < 0 ? "STUCK_EMPTY" : "STUCK_FULL";
}

/* "enq,deq": the names of the methods of mask, in lf_method order. */
static void write_methods(const lf_history *h, uint32_t mask, char out[256]) {
    size_t w = 0;
    out[0] = 0;
    for (int m = 0; m < LF_M_COUNT && w < 255; m++)
        if (mask & LF_METHOD_BIT(m)) w += (size_t)snprintf(out + w, 256 - w, "%s%s", w ? "," : "", method_name(h, (unsigned)m));
}

/* The methods of h's pending ops (bit per method); *observers: those of them declared observers. */
static uint32_t pending_methods(const lf_history *h, uint32_t *observers) {
    uint32_t mask = 0;
    *observers = 0;
    for (size_t i = 0; i < h->n; i++) {
        if (!lf_op_pending(&h->ops[i])) continue;
        mask |= LF_METHOD_BIT(h->ops[i].method);
        const lf_method_decl *d = lf_history_method(h, h->ops[i].method);
        if (d && (d->flags & LF_MF_OBSERVER)) *observers |= LF_METHOD_BIT(h->ops[i].method);
    }
    return mask;
}

void lf_stuck_methods(const lf_history *h, char out[256]) {
    uint32_t observers;
    write_methods(h, pending_methods(h, &observers), out);
}

void lf_stuck_signature_methods(const lf_history *h, char out[256]) {
    uint32_t observers, mask = pending_methods(h, &observers);
    write_methods(h, mask & ~observers ? mask & ~observers : mask, out);
}

void lf_stuck_bucket(const char *adapter, const lf_history *h, uint32_t may_block, char out[17]) {
    char methods[256], key[512];
    lf_stuck_methods(h, methods);
    int n = snprintf(key, sizeof key, "%s|%s|%s|%s", adapter ? adapter : "", lf_history_type_name(h),
                     lf_stuck_shape(h, may_block), methods);
    size_t len = n > 0 && (size_t)n < sizeof key ? (size_t)n : sizeof key - 1;
    snprintf(out, 17, "%016llx", (unsigned long long)XXH64(key, len, 0));
}

bool lf_entry_is_stuck(const lf_violation_entry *e) {
    const char *f = lf_entry_meta(e, "finding");
    return f && !strcmp(f, "stuck");
}

uint32_t lf_entry_may_block(const lf_violation_entry *e) {
    const char *list = lf_entry_meta(e, "may_block");
    uint32_t mask = 0;
    while (list && *list) {
        const char *end = strchr(list, ',');
        size_t len = end ? (size_t)(end - list) : strlen(list);
        unsigned m;
        if (lf_history_method_lookup(&e->full, list, len, &m)) mask |= LF_METHOD_BIT(m);
        list = end ? end + 1 : NULL;
    }
    return mask;
}

/* The explanation of one pending op: class (0 as specified, 1 lost wakeup, 2 hang), whether it waits for room. */
typedef struct why_key {
    lf_method method;
    int cls;
    bool full_wait;
} why_key;

static void write_one_why(FILE *f, const lf_history *h, why_key k, uint64_t ins, uint64_t rem, uint64_t left) {
    const char *type = lf_history_type_name(h), *name = method_name(h, k.method);
    if (k.cls == 2) {
        fprintf(f, "%s is not declared blocking (lf_adapter.may_block): if it waits for another thread by design, "
                   "declare it; otherwise this is a livelock, a lock that is never released, or a retry loop that "
                   "waits for something that does not come.\n",
                name);
    } else if (!is_container(h->type)) {
        fprintf(f, "%s may block (declared): it waits for another thread.\n", name);
    } else if (k.cls == 0 && k.full_wait) {
        fprintf(f, "%s may block (declared): it waits for room, and the ops that returned leave the %s full "
                   "(%" PRIu64 " of %" PRIu64 " values): under the specification it waits forever (the run "
                   "inserts more than the removes take); not a bug of the %s.\n",
                name, type, left, h->capacity, type);
    } else if (k.cls == 0) {
        fprintf(f, "%s may block (declared): it waits for a value, and the ops that returned leave the %s empty "
                   "(%" PRIu64 " inserted, %" PRIu64 " taken): under the specification it waits forever (the run "
                   "asks for more values than it gives; balanced runs, the default, plan no such run); not a bug "
                   "of the %s.\n",
                name, type, ins, rem, type);
    } else if (k.full_wait) {
        fprintf(f, "%s may block (declared), but the ops that returned leave room (%" PRIu64 " of %s%" PRIu64
                   " values): it could have gone in. A lost wakeup, or a deadlock inside the %s.\n",
                name, left, h->capacity ? "" : "unbounded ", h->capacity, type);
    } else {
        fprintf(f, "%s may block (declared), but the ops that returned leave %" PRIu64 " value%s in the %s: it "
                   "could have taken one. A lost wakeup, or a deadlock inside the %s.\n",
                name, left, left == 1 ? "" : "s", type, type);
    }
}

/* The "why" paragraph: the ops that never returned, grouped by method and explanation. */
static void write_why(FILE *f, const lf_history *h, uint32_t may_block) {
    uint64_t ins, rem, left = values_left(h, &ins, &rem);
    bool *done = calloc(h->n ? h->n : 1, sizeof *done);
    for (size_t i = 0; i < h->n; i++) {
        const lf_op *op = &h->ops[i];
        if (!lf_op_pending(op) || (done && done[i])) continue;
        why_key k = {(lf_method)op->method, 0, false};
        k.cls = classify(h, op, may_block, left, &k.full_wait);
        fprintf(f, "why: ");
        size_t listed = 0;
        for (size_t j = i; j < h->n; j++) { /* every pending op with the same explanation */
            const lf_op *o = &h->ops[j];
            bool fw;
            if (!lf_op_pending(o) || o->method != op->method || classify(h, o, may_block, left, &fw) != k.cls ||
                fw != k.full_wait)
                continue;
            if (done) done[j] = true;
            char d[160];
            lf_history_describe_op(h, o, d, sizeof d);
            fprintf(f, "%s%s", listed++ ? ", " : "", d);
            if (!done) break;
        }
        fprintf(f, " never returned. ");
        write_one_why(f, h, k, ins, rem, left);
    }
    free(done);
}

/* The report: header, why, timeline, the history in the text format. */
static void write_report(FILE *f, const lf_history *h, uint32_t may_block, const char *adapter, const char *origin,
                         const char *workload, const char *detector, const char *bucket) {
    size_t stuck = 0;
    for (size_t i = 0; i < h->n; i++) stuck += lf_op_pending(&h->ops[i]);
    fprintf(f, "=== STUCK  adapter=%s  type=%s  shape=%s ===\n", adapter ? adapter : "-", lf_history_type_name(h),
            lf_stuck_shape(h, may_block));
    if (origin) lf_esc_printf(f, "found by:   %s\n", origin);
    if (workload) lf_esc_printf(f, "workload:   %s\n", workload);
    if (detector) lf_esc_printf(f, "detected:   %s\n", detector);
    fprintf(f, "history:    %zu ops recorded, %zu never returned (shown pending, '>')\n", h->n, stuck);
    if (bucket) lf_esc_printf(f, "bucket:     %s\n", bucket);
    fputc('\n', f);
    write_why(f, h, may_block);
    fputc('\n', f);
    lf_write_pending_timeline(f, h, "timeline", "the ops that never returned");
}

void lf_write_pending_timeline(FILE *f, const lf_history *h, const char *title, const char *pending_ops) {
    bool *marked = calloc(h->n ? h->n : 1, sizeof *marked);
    for (size_t i = 0; marked && i < h->n; i++) marked[i] = lf_op_pending(&h->ops[i]);
    fprintf(f, "%s (one column per call/return event, in real-time order; [ call, ] return, > pending; %s are "
               "starred)\n",
            title, pending_ops);
    lf_report_timeline(f, h, marked, false, 0);
    free(marked);
    fprintf(f, "\nhistory (text format; %s are pending, '?')\n", pending_ops);
    lf_text_write_stream(f, h);
}

/* lf_stuck_write_report as a report writer. */
static void write_stuck_report(FILE *f, const lf_violation_entry *e, const void *unused) {
    (void)unused;
    lf_stuck_write_report(f, e);
}

lf_status lf_capture_stuck(const lf_stuck_input *in, lf_violation_entry *e, char *err, size_t errlen) {
    const lf_history *h = in->history;
    size_t stuck = 0;
    for (size_t i = 0; i < h->n; i++) stuck += lf_op_pending(&h->ops[i]);
    if (!stuck) {
        snprintf(err, errlen, "not stuck: every op of the history returned");
        return LF_ERR_FORMAT;
    }
    bool ok = lf_entry_init_run(e, h, in->workload, in->workload_len);
    char bucket[17], methods[256], may_block[256] = "", when[32], count[32], verdict[1024];
    lf_stuck_bucket(in->adapter, h, in->may_block, bucket);
    lf_stuck_methods(h, methods);
    for (int m = 0, w = 0; m < LF_M_COUNT; m++)
        if (in->may_block & LF_METHOD_BIT(m))
            w += snprintf(may_block + w, sizeof may_block - (size_t)w, "%s%s", w ? "," : "", method_name(h, (unsigned)m));
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(count, sizeof count, "%zu", stuck);
    /* the linearizability of what happened, for the record (pending ops may or may not have taken effect) */
    lf_check_options co;
    lf_check_options_default(&co);
    co.timeout_s = 10;
    lf_result r;
    lf_result_init(&r);
    lf_check(h, &co, &r);
    snprintf(verdict, sizeof verdict,
             "history (%zu ops): stuck: %zu op%s never returned (%s); %s\nthe ops so far, the stuck ones pending: %s "
             "[%s]%s%s\n",
             h->n, stuck, stuck == 1 ? "" : "s", methods, lf_stuck_shape(h, in->may_block), lf_verdict_name(r.verdict),
             r.engine, *r.reason ? ": " : "", r.reason);
    e->verdict = strdup(verdict);
    char sizes[32];
    snprintf(sizes, sizeof sizes, "%zu", h->n);
    ok = ok && e->verdict && lf_entry_set_meta(e, "entry", LF_ENTRY_FORMAT) && lf_entry_set_meta(e, "finding", "stuck") &&
         lf_entry_set_meta(e, "adapter", in->adapter) && lf_entry_set_meta(e, "type", lf_history_type_name(h)) &&
         lf_entry_set_meta(e, "expected", in->expected_linearizable ? "linearizable" : "not linearizable") &&
         lf_entry_set_meta(e, "created", when) && lf_entry_set_meta(e, "linfuzz_version", LF_LINFUZZ_VERSION) &&
         lf_entry_set_meta(e, "bucket", bucket) && lf_entry_set_meta(e, "shape", lf_stuck_shape(h, in->may_block)) &&
         lf_entry_set_meta(e, "stuck_ops", count) && lf_entry_set_meta(e, "stuck_methods", methods) &&
         lf_entry_set_meta(e, "may_block", may_block) && lf_entry_set_meta(e, "engine", r.engine) &&
         lf_entry_set_meta(e, "reason", *r.reason ? r.reason : lf_verdict_name(r.verdict)) &&
         lf_entry_set_meta(e, "minimize", "not minimized (a STUCK run: the whole history up to the stuck ops)") &&
         lf_entry_set_meta(e, "minimize_complete", "no") && lf_entry_set_meta(e, "full_ops", sizes) &&
         lf_entry_set_meta(e, "minimized_ops", sizes);
    lf_result_free(&r);
    if (ok) ok = lf_entry_set_source(e, in->origin, in->workload_format, in->workload_desc);
    if (ok && in->detector) ok = lf_entry_set_meta(e, "detected", in->detector);
    if (ok) ok = lf_entry_render_report(e, write_stuck_report, NULL);
    if (!ok) {
        lf_entry_free(e);
        snprintf(err, errlen, "out of memory");
        return LF_ERR_NOMEM;
    }
    return LF_OK;
}

void lf_stuck_write_report(FILE *f, const lf_violation_entry *e) {
    write_report(f, &e->full, lf_entry_may_block(e), lf_entry_meta(e, "adapter"), lf_entry_meta(e, "origin"),
                 lf_entry_meta(e, "workload"), lf_entry_meta(e, "detected"), lf_entry_meta(e, "bucket"));
}

void lf_stuck_write_why(FILE *f, const lf_violation_entry *e) { write_why(f, &e->full, lf_entry_may_block(e)); }
