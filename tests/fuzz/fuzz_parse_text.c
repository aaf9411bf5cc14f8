/* libFuzzer target: the strict text history reader on arbitrary bytes. It must never crash or hang; a refusal
 * must name the file and a line; the reader's fast path must agree with its general parser alone (status,
 * message, history); an accepted history must survive text and .lfz round trips unchanged and be checkable by
 * the monitors, and so must its edge variants (edge_variant.h: stamps at 0 or 2^64-1, values at INT64_MIN/MAX,
 * thread ids at 2^32-1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/text_reader.h"
#include "linfuzz/check.h"
#include "linfuzz/lfz.h"
#include "linfuzz/format.h"
#include "edge_variant.h"
#include "history_equal.h"

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "fuzz_parse_text: %s: %s\n", what, detail);
    abort();
}

/* h must survive text and .lfz round trips unchanged and be checkable by the monitors. */
static void round_trips(const lf_history *h) {
    char err[1024];
    /* Text round trip. */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) abort();
    if (lf_text_write_stream(f, h) != LF_OK) fail("writer", "failed");
    fclose(f);
    lf_history again;
    if (lf_text_read_buffer(text, len, "roundtrip.hist", &again, err, sizeof err) != LF_OK)
        fail("re-reading the written text failed", err);
    if (!lf_fuzz_histories_equal(h, &again)) fail("text round trip", "changed the history");
    lf_history_free(&again);
    free(text);

    /* Compressed round trip. */
    lf_lfz_writer w;
    lf_lfz_writer_init(&w);
    uint8_t *file = NULL;
    size_t file_len = 0;
    if (lf_lfz_add_history(&w, "history", h, err, sizeof err) != LF_OK ||
        lf_lfz_encode(&w, 1, &file, &file_len, err, sizeof err) != LF_OK)
        fail("lfz encode", err);
    lf_lfz_writer_free(&w);
    lf_lfz_reader r;
    if (lf_lfz_decode(&r, file, file_len, "roundtrip.lfz", err, sizeof err) != LF_OK) fail("lfz decode", err);
    if (lf_lfz_get_history(&r, lf_lfz_history_section(&r, 0), &again, err, sizeof err) != LF_OK)
        fail("lfz history", err);
    if (!lf_fuzz_histories_equal(h, &again)) fail("lfz round trip", "changed the history");
    lf_history_free(&again);
    lf_lfz_reader_free(&r);
    free(file);

    /* The monitors decide or hand on anything the reader accepts, without crashing. */
    lf_check_options o;
    lf_check_options_default(&o);
    o.engine = LF_ENGINE_MONITOR;
    lf_result res;
    lf_result_init(&res);
    lf_check(h, &o, &res);
    lf_result_free(&res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    lf_history h;
    char err[1024];
    lf_status st = lf_text_read_buffer((const char *)data, size, "fuzz.hist", &h, err, sizeof err);

    /* The general parser alone (no fast path) gives the same answer. */
    lf_history slow;
    char slow_err[1024];
    lf_status slow_st =
        lf_text_read_buffer_with((const char *)data, size, "fuzz.hist", &slow, slow_err, sizeof slow_err, false, false);
    if (slow_st != st) fail("the fast path and the general parser disagree on the status", st ? err : slow_err);
    if (st == LF_OK) {
        if (!lf_fuzz_histories_equal(&h, &slow)) fail("the fast path and the general parser read different histories", "");
        lf_history_free(&slow);
    } else if (strcmp(err, slow_err) != 0) {
        fail("the fast path and the general parser word the error differently", err);
    }

    if (st == LF_ERR_FORMAT) {
        if (strncmp(err, "fuzz.hist:", 10) != 0 || err[10] < '1' || err[10] > '9')
            fail("error message does not name file and line", err);
        return 0;
    }
    if (st != LF_OK) return 0;
    round_trips(&h);
    /* And the same history with its stamps, values and thread ids at the edges of their ranges. */
    for (int v = 0; v < LF_EDGE_VARIANTS; v++) {
        lf_history e;
        if (!lf_fuzz_edge_variant(&h, v, &e)) break;
        if (lf_history_validate(&e, err, sizeof err) != SIZE_MAX) fail("edge variant is malformed", err);
        round_trips(&e);
        lf_history_free(&e);
    }
    lf_history_free(&h);
    return 0;
}
