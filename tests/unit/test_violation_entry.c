/* Tests of findings (violation entries) and engines/report: capture builds a complete entry, entries
 * round-trip through bytes and files (name = bucket + content hash, stable), and every corrupt, truncated or
 * incomplete file is refused with a message naming it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "findings/capture.h"
#include "findings/entry.h"
#include "linfuzz/lfz.h"
#include "linfuzz/generate.h"
#include "linfuzz/report.h"
#include "test_util.h"

static bool same_history(const lf_history *a, const lf_history *b) {
    if (a->type != b->type || a->n != b->n) return false;
    for (size_t i = 0; i < a->n; i++) {
        const lf_op *x = &a->ops[i], *y = &b->ops[i];
        if (x->call != y->call || x->thread != y->thread || x->method != y->method || x->arg[0] != y->arg[0] ||
            x->arg[1] != y->arg[1] || x->res_kind != y->res_kind || x->res != y->res || x->arg_nil != y->arg_nil ||
            (!lf_op_pending(x) && x->ret != y->ret))
            return false;
    }
    return true;
}

static bool same_entry(const lf_violation_entry *a, const lf_violation_entry *b) {
    if (!same_history(&a->full, &b->full) || !same_history(&a->minimized, &b->minimized)) return false;
    if (a->workload_len != b->workload_len || memcmp(a->workload, b->workload, a->workload_len)) return false;
    if (strcmp(a->verdict, b->verdict) || strcmp(a->report, b->report) || a->n_meta != b->n_meta) return false;
    for (size_t i = 0; i < a->n_meta; i++)
        if (strcmp(a->meta[i].key, b->meta[i].key) || strcmp(a->meta[i].value, b->meta[i].value)) return false;
    return true;
}

/* A violating queue history (generated, corrupted until the checker says violation). */
static void violating_history(lf_history *h, uint64_t seed) {
    lf_gen_options g;
    lf_gen_options_default(&g);
    g.type = LF_TYPE_QUEUE;
    g.n_ops = 60;
    g.threads = 3;
    g.bad = 1;
    char err[256];
    for (g.seed = seed;; g.seed++) {
        if (!lf_gen_history(&g, h, err, sizeof err)) continue;
        lf_check_options o;
        lf_check_options_default(&o);
        lf_result r;
        lf_result_init(&r);
        lf_check(h, &o, &r);
        lf_verdict v = r.verdict;
        lf_result_free(&r);
        if (v == LF_VIOLATION) return;
        lf_history_free(h);
    }
}

static const uint8_t WORKLOAD[] = {1, 2, 3, 250, 0, 7};

static void capture(lf_violation_entry *e, const lf_history *h) {
    lf_capture_input in = {
        .adapter = "test_queue",
        .expected_linearizable = false,
        .origin = "test_violation_entry",
        .workload_format = "test-bytes 1",
        .workload_desc = "six bytes",
        .workload = WORKLOAD,
        .workload_len = sizeof WORKLOAD,
        .full = h,
    };
    char err[256];
    lf_status st = lf_capture_violation(&in, e, err, sizeof err);
    CHECKF(st == LF_OK, "capture: %s", err);
}

static void capture_is_complete(const lf_violation_entry *e, const lf_history *h) {
    static const char *const keys[] = {"entry", "adapter", "type", "expected", "created", "linfuzz_version",
                                       "bucket", "shape", "engine", "reason", "minimize", "minimize_complete",
                                       "full_ops", "minimized_ops", "origin", "workload_format", "workload"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        CHECKF(lf_entry_meta(e, keys[i]) != NULL, "meta '%s' missing", keys[i]);
    CHECK(!strcmp(lf_entry_meta(e, "entry"), LF_ENTRY_FORMAT));
    CHECK(!strcmp(lf_entry_meta(e, "type"), "queue"));
    CHECK(same_history(&e->full, h));
    CHECK(e->minimized.n > 0 && e->minimized.n < h->n);
    CHECK(strstr(e->report, "=== LINEARIZABILITY VIOLATION  adapter=test_queue  type=queue") != NULL);
    CHECK(strstr(e->report, "timeline") != NULL && strstr(e->report, "why (") != NULL);
    CHECK(strstr(e->verdict, "minimized (") != NULL);
    /* the stored report is exactly what lf_entry_write_report renders (what `linfuzz show` prints) */
    char *again = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&again, &len);
    CHECK(lf_entry_write_report(f, e, NULL) == LF_VIOLATION);
    fclose(f);
    CHECK(again && !strcmp(again, e->report));
    free(again);
}

static void round_trips(const lf_violation_entry *e) {
    uint8_t *bytes = NULL;
    size_t len = 0;
    char err[512];
    CHECK(lf_entry_encode(e, &bytes, &len, err, sizeof err) == LF_OK);
    lf_violation_entry back;
    CHECKF(lf_entry_decode(bytes, len, "mem", &back, err, sizeof err) == LF_OK, "%s", err);
    CHECK(same_entry(e, &back));
    lf_entry_free(&back);

    /* files: a nested directory that does not exist yet, the name from the content, stable across saves */
    char dir[] = "/tmp/linfuzz-entry-XXXXXX", sub[256], path[4096], path2[4096], name[LF_ENTRY_NAME_MAX];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(sub, sizeof sub, "%s/a/violations", dir);
    CHECKF(lf_entry_save(e, sub, path, sizeof path, err, sizeof err) == LF_OK, "%s", err);
    lf_entry_name(e, name);
    CHECK(strstr(path, name) != NULL);
    CHECK(!strncmp(name, lf_entry_meta(e, "bucket"), 16) && name[16] == '-');
    CHECK(lf_entry_load(path, &back, err, sizeof err) == LF_OK);
    CHECK(same_entry(e, &back));
    char found[4096];
    CHECK(lf_entry_find_bucket(sub, lf_entry_meta(e, "bucket"), found, sizeof found) && !strcmp(found, path));
    CHECK(!lf_entry_find_bucket(sub, "0123456789abcdef", found, sizeof found));
    /* same content, same name (the timestamp is not part of it); other workload, other name */
    lf_entry_set_meta(&back, "created", "2000-01-01T00:00:00Z");
    CHECK(lf_entry_save(&back, sub, path2, sizeof path2, err, sizeof err) == LF_OK && !strcmp(path, path2));
    back.workload[0] ^= 1;
    char other[LF_ENTRY_NAME_MAX];
    lf_entry_name(&back, other);
    CHECK(strcmp(other, name) != 0);
    lf_entry_free(&back);
    unlink(path);
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/a", dir);
    rmdir(sub);
    rmdir(dir);

    /* every flipped byte and every truncation is refused as malformed, never accepted or crashed on */
    size_t accepted = 0;
    for (size_t i = 0; i < len; i++) {
        bytes[i] ^= 0x10;
        if (lf_entry_decode(bytes, len, "flip", &back, err, sizeof err) != LF_ERR_FORMAT) accepted++;
        lf_entry_free(&back);
        bytes[i] ^= 0x10;
    }
    for (size_t cut = 0; cut < len; cut++) {
        if (lf_entry_decode(bytes, cut, "cut", &back, err, sizeof err) != LF_ERR_FORMAT) accepted++;
        lf_entry_free(&back);
    }
    CHECKF(accepted == 0, "%zu corrupt variants accepted", accepted);
    free(bytes);
    CHECK(lf_entry_load("/nonexistent/entry.lfz", &back, err, sizeof err) == LF_ERR_IO);
    lf_entry_free(&back);
}

/* Writes a container with the entry's sections, one of them altered by `variant`, and checks the loader's
 * verdict and message. */
static void incomplete(const lf_violation_entry *e, int variant, const char *expect) {
    lf_lfz_writer w;
    lf_lfz_writer_init(&w);
    char err[512];
    lf_history bigger;
    lf_history_copy(&bigger, &e->full);
    lf_history_push(&bigger, &(lf_op){.call = 1000000, .ret = 1000001, .thread = 77, .method = LF_M_ENQ});
    const lf_history *minimized = variant == 5 ? &bigger : &e->minimized;
    if (variant != 1) lf_lfz_add_bytes(&w, "workload", e->workload, e->workload_len, err, sizeof err);
    lf_lfz_add_history(&w, "history", &e->full, err, sizeof err);
    if (variant != 2) lf_lfz_add_history(&w, "minimized", minimized, err, sizeof err);
    lf_lfz_add_text(&w, "verdict", e->verdict, err, sizeof err);
    lf_lfz_add_text(&w, "report", e->report, err, sizeof err);
    lf_lfz_pair pairs[64];
    size_t n = 0;
    for (size_t i = 0; i < e->n_meta && n < 64; i++) {
        lf_lfz_pair p = e->meta[i];
        if (variant == 3 && !strcmp(p.key, "entry")) p.value = "linfuzz-violation 0";
        if (variant == 4 && !strcmp(p.key, "type")) p.value = "stack";
        if (variant == 6 && !strcmp(p.key, "adapter")) p.value = "Not An Adapter";
        if (variant == 7 && !strcmp(p.key, "bucket")) p.value = "xyz";
        pairs[n++] = p;
    }
    if (variant != 0) lf_lfz_add_meta(&w, "meta", pairs, n, err, sizeof err);
    uint8_t *bytes;
    size_t len;
    CHECK(lf_lfz_encode(&w, 3, &bytes, &len, err, sizeof err) == LF_OK);
    lf_violation_entry back;
    lf_status st = lf_entry_decode(bytes, len, "variant.lfz", &back, err, sizeof err);
    CHECKF(st == LF_ERR_FORMAT, "variant %d accepted", variant);
    CHECKF(strstr(err, "variant.lfz: ") == err && strstr(err, expect), "variant %d: message '%s'", variant, err);
    lf_entry_free(&back);
    free(bytes);
    lf_lfz_writer_free(&w);
    lf_history_free(&bigger);
}

static void shapes(void) {
    lf_history h;
    lf_history_init(&h, LF_TYPE_STACK);
    lf_history_push(&h, &(lf_op){.call = 1, .ret = 2, .method = LF_M_PUSH, .arg = {5}});
    lf_history_push(&h, &(lf_op){.call = 3, .ret = 4, .method = LF_M_POP, .res_kind = LF_K_EMPTY, .thread = 1});
    CHECK(!strcmp(lf_violation_shape(&h), "EMPTY_WHILE_PRESENT"));
    h.ops[1].res_kind = LF_K_INT;
    h.ops[1].res = 9;
    CHECK(!strcmp(lf_violation_shape(&h), "VALUE_NEVER_INSERTED"));
    h.ops[1].res = 5;
    lf_history_push(&h, &(lf_op){.call = 5, .ret = 6, .method = LF_M_POP, .res_kind = LF_K_INT, .res = 5});
    CHECK(!strcmp(lf_violation_shape(&h), "VALUE_RETURNED_TWICE"));
    h.type = LF_TYPE_COUNTER;
    h.n = 0;
    lf_history_push(&h, &(lf_op){.call = 1, .ret = 2, .method = LF_M_INC});
    lf_history_push(&h, &(lf_op){.call = 3, .ret = 4, .method = LF_M_INC, .thread = 1});
    lf_history_push(&h, &(lf_op){.call = 5, .ret = 6, .method = LF_M_GET, .res_kind = LF_K_INT, .res = 1});
    CHECK(!strcmp(lf_violation_shape(&h), "LOST_UPDATE"));
    char b1[17], b2[17], b3[17];
    lf_violation_bucket("a", &h, false, 0, b1);
    lf_violation_bucket("a", &h, false, 0, b2);
    lf_violation_bucket("b", &h, false, 0, b3);
    CHECK(strlen(b1) == 16 && !strcmp(b1, b2) && strcmp(b1, b3));
    lf_history_free(&h);
}

int main(void) {
    lf_history h;
    violating_history(&h, 11);
    lf_violation_entry e;
    capture(&e, &h);
    capture_is_complete(&e, &h);
    round_trips(&e);
    incomplete(&e, 0, "no meta section 'meta'");
    incomplete(&e, 1, "no bytes section 'workload'");
    incomplete(&e, 2, "no history section 'minimized'");
    incomplete(&e, 3, "meta 'entry' is 'linfuzz-violation 0'");
    incomplete(&e, 4, "not of type stack");
    incomplete(&e, 5, "the minimized history has");
    incomplete(&e, 6, "meta 'adapter'");
    incomplete(&e, 7, "meta 'bucket'");
    lf_entry_free(&e);

    /* capture refuses a history that is not a violation */
    lf_history ok;
    lf_history_init(&ok, LF_TYPE_QUEUE);
    lf_history_push(&ok, &(lf_op){.call = 1, .ret = 2, .method = LF_M_ENQ, .arg = {3}});
    lf_capture_input in = {.adapter = "x", .full = &ok};
    char err[256];
    CHECK(lf_capture_violation(&in, &e, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "not a violation"));
    lf_history_free(&ok);
    lf_history_free(&h);
    shapes();
    TEST_DONE();
}
