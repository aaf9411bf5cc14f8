/* libFuzzer target: the .lfz decoder. The first byte picks the layer: even, the bytes are a whole file (magic,
 * header, checksums, zstd frame); odd, they are an already decompressed payload declaring (byte >> 1) sections,
 * so mutations reach the section and op decoders behind the checksums. Decoding must never crash, hang or
 * over-allocate; every history it accepts must be valid and re-encode to an identical history, and so must its
 * edge variants (edge_variant.h: stamps at 0 or 2^64-1, values at INT64_MIN/MAX, thread ids at 2^32-1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/lfz.h"
#include "edge_variant.h"
#include "history_equal.h"

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "fuzz_parse_lfz: %s: %s\n", what, detail);
    abort();
}

/* h must re-encode and decode to an identical history. */
static void round_trip(const lf_history *h) {
    char err[1024];
    lf_history again;
    lf_lfz_writer w;
    lf_lfz_writer_init(&w);
    uint8_t *file = NULL;
    size_t len = 0;
    if (lf_lfz_add_history(&w, "history", h, err, sizeof err) != LF_OK ||
        lf_lfz_encode(&w, 1, &file, &len, err, sizeof err) != LF_OK)
        fail("re-encode", err);
    lf_lfz_writer_free(&w);
    lf_lfz_reader r2;
    if (lf_lfz_decode(&r2, file, len, "again.lfz", err, sizeof err) != LF_OK ||
        lf_lfz_get_history(&r2, lf_lfz_history_section(&r2, 0), &again, err, sizeof err) != LF_OK)
        fail("decode of the re-encoded history", err);
    if (!lf_fuzz_histories_equal(h, &again)) fail("round trip", "changed the history");
    lf_history_free(&again);
    lf_lfz_reader_free(&r2);
    free(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    char err[1024];
    lf_lfz_reader r;
    lf_status st = (data[0] & 1) ? lf_lfz_decode_payload(&r, data + 1, size - 1, data[0] >> 1, "fuzz.payload", err,
                                                         sizeof err)
                                 : lf_lfz_decode(&r, data + 1, size - 1, "fuzz.lfz", err, sizeof err);
    if (st != LF_OK) {
        if (st == LF_ERR_FORMAT && strncmp(err, "fuzz.", 5) != 0) fail("error does not name the file", err);
        return 0;
    }
    for (size_t i = 0; i < lf_lfz_history_count(&r); i++) {
        lf_history h;
        if (lf_lfz_get_history(&r, lf_lfz_history_section(&r, i), &h, err, sizeof err) != LF_OK) continue;
        if (lf_history_validate(&h, err, sizeof err) != SIZE_MAX) fail("accepted an invalid history", err);
        round_trip(&h);
        /* And the same history with its stamps, values and thread ids at the edges of their ranges (the deltas
         * of the encoding wrap modulo 2^64). */
        for (int v = 0; v < LF_EDGE_VARIANTS; v++) {
            lf_history e;
            if (!lf_fuzz_edge_variant(&h, v, &e)) break;
            round_trip(&e);
            lf_history_free(&e);
        }
        lf_history_free(&h);
    }
    lf_lfz_reader_free(&r);
    return 0;
}
