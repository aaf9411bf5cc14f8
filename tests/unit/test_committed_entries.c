/* Regression test over the committed violation entries (corpus/<adapter>/violations/, one per known-buggy
 * adapter; STUCK entries are no violations and are left to test_stuck): their minimized histories and reports
 * keep the bug, not a consequence of it (issue 13). For each entry, independently of the minimizer:
 *  - the recorded history's first impossible return is found by a search of its own over return stamps (the
 *    WGL engine on prefixes of events), and it is the stamp the entry records (meta cut_stamp);
 *  - the minimized history has that op (same thread, call, method), is a violation, and is linearizable just
 *    before that return (so that return is its first impossible one too);
 *  - the report names it on its "first bad:" line, and labels serial ops as prefix or drain;
 *  - minimizing the recorded history again gives the stored minimized history (after a change of the
 *    minimizer, `linfuzz show --reminimize corpus/<adapter>/violations ENTRY` updates the entries);
 *  - the counter's entry ends at a handful of ops.
 * Every check is against what the entry was checked against when found (its type's spec, a custom type's own,
 * or with meta "spec" = "self" the adapter's serial behaviour: the bank and pia_map entries of custom types). */
#include <dirent.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "findings/crash.h"
#include "findings/capture.h"
#include "findings/entry.h"
#include "findings/stuck.h"
#include "history_test_util.h"
#include "linfuzz/minimize.h"
#include "linfuzz/report.h"
#include "runtime/adapter_check.h"
#include "test_util.h"

#define CORPUS_DIR LINFUZZ_TEST_DATA "/../../corpus"

/* What the entry being checked was checked against (check_entry sets it). */
static const lf_check_options *against;

static lf_verdict wgl(const lf_history *h) {
    lf_check_options o = *against;
    o.engine = LF_ENGINE_WGL;
    o.timeout_s = 30;
    return verdict_with(h, &o);
}

/* The events of h up to stamp t, with the returns at t left out when before_t: ops returned by then kept,
 * ops called by then made pending, later ops dropped. */
static lf_verdict prefix_verdict(const lf_history *h, uint64_t t, bool before_t) {
    lf_history p;
    lf_history_init(&p, h->type);
    CHECK(lf_history_set_type_of(&p, h));
    p.has_init = h->has_init;
    p.init_kind = h->init_kind;
    p.init = h->init;
    p.capacity = h->capacity;
    for (size_t i = 0; i < h->n; i++) {
        lf_op op = h->ops[i];
        if (op.call > t) continue;
        if (!lf_op_pending(&op) && (op.ret > t || (before_t && op.ret == t))) lf_op_make_pending(&op);
        lf_history_push(&p, &op);
    }
    lf_verdict v = wgl(&p);
    lf_history_free(&p);
    return v;
}

static int cmp_u64(const void *pa, const void *pb) {
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* The stamp of h's first impossible return: the smallest return stamp whose prefix is a violation. */
static bool first_bad_stamp(const lf_history *h, uint64_t *out) {
    uint64_t *rets = malloc((h->n ? h->n : 1) * sizeof *rets);
    size_t n = 0;
    for (size_t i = 0; i < h->n; i++)
        if (!lf_op_pending(&h->ops[i])) rets[n++] = h->ops[i].ret;
    qsort(rets, n, sizeof *rets, cmp_u64);
    size_t lo = 0, hi = n; /* the answer is in [lo, hi); hi == n: none */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (prefix_verdict(h, rets[mid], false) == LF_VIOLATION)
            hi = mid;
        else
            lo = mid + 1;
    }
    bool found = lo < n;
    if (found) *out = rets[lo];
    free(rets);
    return found;
}

static void check_entry(const char *path, const char *adapter, size_t *n_entries) {
    lf_violation_entry e;
    char err[1024];
    if (lf_entry_load(path, &e, err, sizeof err) != LF_OK) {
        CHECKF(false, "%s", err);
        return;
    }
    if (lf_entry_is_stuck(&e) || lf_entry_is_crash(&e)) { /* no violation: a STUCK or CRASH entry
                                                             (test_stuck.c, test_corpus_entries.sh) */
        lf_entry_free(&e);
        return;
    }
    (*n_entries)++;
    lf_adapter_checker checker;
    CHECKF(lf_adapter_checker_for_saved(&checker, lf_entry_meta(&e, "adapter"), lf_entry_meta(&e, "spec"), NULL, err,
                                        sizeof err),
           "%s: %s", path, err);
    against = &checker.check;
    uint64_t t = 0;
    /* the history `minimized` comes from: the minimized test's run when the entry has one, else the recorded one */
    const lf_history *recorded = lf_entry_recorded(&e);
    CHECKF(first_bad_stamp(recorded, &t), "%s: the recorded history has no first impossible return", path);
    const char *stored = lf_entry_meta(&e, "cut_stamp");
    CHECKF(stored && strtoull(stored, NULL, 10) == t, "%s: first impossible return at %" PRIu64 ", entry says %s",
           path, t, stored ? stored : "nothing");

    /* the op(s) returning at t, in the recorded and in the minimized history */
    size_t bad_full = SIZE_MAX, bad_min = SIZE_MAX;
    for (size_t i = 0; i < recorded->n; i++)
        if (!lf_op_pending(&recorded->ops[i]) && recorded->ops[i].ret == t) bad_full = i;
    for (size_t i = 0; i < e.minimized.n && bad_full != SIZE_MAX; i++) {
        const lf_op *m = &e.minimized.ops[i], *f = &recorded->ops[bad_full];
        if (!lf_op_pending(m) && m->ret == t && m->thread == f->thread && m->call == f->call && m->method == f->method)
            bad_min = i;
    }
    CHECKF(bad_min != SIZE_MAX, "%s: the minimized history lost the first impossible return", path);
    CHECKF(wgl(&e.minimized) == LF_VIOLATION, "%s: the minimized history is not a violation", path);
    CHECKF(prefix_verdict(&e.minimized, t, true) == LF_LINEARIZABLE,
           "%s: the minimized history is impossible before the first impossible return", path);

    /* the report names it, and labels the serial part */
    char *report = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&report, &len);
    CHECK(f && lf_entry_write_report(f, &e, &checker.check) == LF_VIOLATION);
    if (f) fclose(f);
    if (report && bad_min != SIZE_MAX) {
        char desc[200], want[260];
        lf_history_describe_op(&e.minimized, &e.minimized.ops[bad_min], desc, sizeof desc);
        snprintf(want, sizeof want, ": %s", desc);
        const char *line = strstr(report, "\nfirst bad:  ");
        CHECKF(line && strstr(line, want) && strstr(line, want) < strchr(line + 1, '\n'),
               "%s: the report's first bad line does not name %s:\n%s", path, desc, report);
        uint32_t serial;
        if (lf_entry_serial_thread(&e, &serial))
            for (size_t i = 0; i < e.minimized.n; i++)
                if (e.minimized.ops[i].thread == serial)
                    CHECKF(strstr(report, " [prefix]") || strstr(report, " [drain]"),
                           "%s: serial op not labelled:\n%s", path, report);
    }
    free(report);

    /* the stored minimized history is this minimizer's */
    lf_violation_entry again;
    CHECKF(lf_capture_again(&e, &checker.check, &again, err, sizeof err) == LF_OK, "%s: %s", path, err);
    bool same = again.minimized.n == e.minimized.n;
    for (size_t i = 0; same && i < e.minimized.n; i++)
        same = !memcmp(&again.minimized.ops[i], &e.minimized.ops[i], sizeof(lf_op));
    CHECKF(same, "%s: minimizing again gives %zu ops, the entry has %zu: run `linfuzz show --reminimize %s/%s/violations "
           "%s` and commit the new entry", path, again.minimized.n, e.minimized.n, "corpus", adapter, path);
    lf_entry_free(&again);

    if (e.minimized.type == LF_TYPE_COUNTER)
        CHECKF(e.minimized.n <= 6, "%s: the counter bug kept %zu ops", path, e.minimized.n);
    printf("%-28s %4zu -> %2zu ops, first impossible return kept: %s\n", adapter, e.full.n, e.minimized.n,
           bad_min != SIZE_MAX ? "yes" : "NO");
    lf_adapter_checker_free(&checker);
    lf_entry_free(&e);
}

int main(void) {
    DIR *d = opendir(CORPUS_DIR);
    CHECKF(d != NULL, "cannot open %s", CORPUS_DIR);
    size_t n = 0;
    struct dirent *de;
    char dir[1024], path[2048];
    while (d && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        snprintf(dir, sizeof dir, "%s/%s/violations", CORPUS_DIR, de->d_name);
        DIR *v = opendir(dir);
        struct dirent *ve;
        while (v && (ve = readdir(v)) != NULL) {
            size_t l = strlen(ve->d_name);
            if (l < 5 || strcmp(ve->d_name + l - 4, ".lfz") != 0) continue;
            snprintf(path, sizeof path, "%s/%s", dir, ve->d_name);
            check_entry(path, de->d_name, &n);
        }
        if (v) closedir(v);
    }
    if (d) closedir(d);
    CHECKF(n >= 12, "%zu committed entries", n);
    TEST_DONE();
}
