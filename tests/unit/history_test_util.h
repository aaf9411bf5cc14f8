/* Helpers the unit tests share about histories, written once: a history read from text (or refused), a history
 * as text (for a failing comparison, or to compare with), one engine's verdict and the brute-force oracle's, the
 * names of the small generator's modes, and the variants of a history the differential tests check as well, which
 * must not change what the engines may answer: stamps halved (neighbours tie: equal stamps are concurrent) and the
 * value 1 written as nil. */
#ifndef LINFUZZ_HISTORY_TEST_UTIL_H
#define LINFUZZ_HISTORY_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute/brute.h"
#include "linfuzz/check.h"
#include "linfuzz/format.h"
#include "linfuzz/generate.h"
#include "linfuzz/history.h"
#include "test_util.h"

/* h in the text format, from the canonical writer (malloc'ed); NULL when it cannot be written. */
static inline char *history_text(const lf_history *h) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    lf_status s = lf_text_write_stream(f, h);
    fclose(f);
    if (s != LF_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Reads text (in the text format) into h, as the file "t.hist". */
static inline lf_status read_text(const char *text, lf_history *h, char *err, size_t errlen) {
    return lf_text_read_buffer(text, strlen(text), "t.hist", h, err, errlen);
}

/* The text reader refuses text with a message containing want. */
static inline void expect_refused(const char *text, const char *want) {
    lf_history h;
    char err[512] = "";
    lf_status st = read_text(text, &h, err, sizeof err);
    CHECKF(st == LF_ERR_FORMAT && strstr(err, want), "expected an error with '%s', got %d '%s' for:\n%s", want, st,
           err, text);
    if (st == LF_OK) lf_history_free(&h);
}

/* h as text on stderr (after what stdout holds), for a failing comparison. */
static inline void print_history(const lf_history *h) {
    fflush(stdout);
    lf_text_write_stream(stderr, h);
    fflush(stderr);
}

/* The verdict of lf_check with options o. */
static inline lf_verdict verdict_with(const lf_history *h, const lf_check_options *o) {
    lf_result r;
    lf_result_init(&r);
    lf_check(h, o, &r);
    lf_verdict v = r.verdict;
    lf_result_free(&r);
    return v;
}

/* The verdict of lf_check with engine e and a time budget of timeout_s seconds. */
static inline lf_verdict verdict_of(const lf_history *h, lf_engine e, double timeout_s) {
    lf_check_options o;
    lf_check_options_default(&o);
    o.engine = e;
    o.timeout_s = timeout_s;
    return verdict_with(h, &o);
}

/* The verdict of the brute-force oracle (engines/brute), with at most max_ops ops (0: its default). */
static inline lf_verdict brute_verdict(const lf_history *h, size_t max_ops) {
    lf_brute_options o;
    lf_brute_options_default(&o);
    if (max_ops) o.max_ops = max_ops;
    lf_result r;
    lf_result_init(&r);
    lf_brute_check(h, &o, &r);
    lf_verdict v = r.verdict;
    lf_result_free(&r);
    return v;
}

/* "constructed", "corrupted", "random": the name of a lf_gen_small mode. */
static inline const char *gen_mode_name(int mode) {
    return mode == LF_GEN_CONSTRUCTED ? "constructed" : mode == LF_GEN_CORRUPTED ? "corrupted" : "random";
}

/* Halves every stamp (rounding down), so that neighbouring events share a stamp; false when that makes the
 * history malformed (two ops of a thread would touch). */
static inline bool halve_stamps(lf_history *h) {
    for (size_t i = 0; i < h->n; i++) {
        h->ops[i].call /= 2;
        if (!lf_op_pending(&h->ops[i])) h->ops[i].ret /= 2;
    }
    char err[200];
    return lf_history_validate(h, err, sizeof err) == SIZE_MAX;
}

/* Turns the value 1 into nil wherever a value appears; false when nothing changed or the history became
 * malformed. */
static inline bool nil_for_one(lf_history *h) {
    bool changed = false;
    for (size_t i = 0; i < h->n; i++) {
        lf_op *op = &h->ops[i];
        const lf_method_info *mi = lf_method_info_of(h->type, (lf_method)op->method);
        for (int a = 0; a < (mi ? mi->nargs : 0); a++)
            if (!lf_arg_is_nil(op, a) && op->arg[a] == 1) {
                op->arg_nil |= (uint8_t)(1u << a);
                op->arg[a] = 0;
                changed = true;
            }
        if (op->res_kind == LF_K_INT && op->res == 1) {
            op->res_kind = LF_K_NIL;
            op->res = 0;
            changed = true;
        }
    }
    char err[200];
    return changed && lf_history_validate(h, err, sizeof err) == SIZE_MAX;
}

/* The tie and nil variants of h that are well-formed, copied into out (each to be freed with
 * lf_history_free), their names ("ties", "nil") into names; returns how many (0..2). */
static inline size_t tie_nil_variants(const lf_history *h, lf_history out[2], const char *names[2]) {
    size_t n = 0;
    if (lf_history_copy(&out[n], h)) {
        if (halve_stamps(&out[n]))
            names[n++] = "ties";
        else
            lf_history_free(&out[n]);
    }
    if (lf_history_copy(&out[n], h)) {
        if (nil_for_one(&out[n]))
            names[n++] = "nil";
        else
            lf_history_free(&out[n]);
    }
    return n;
}

#endif
