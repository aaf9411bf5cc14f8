/* Crafting .lfz files for the tests of hostile input (test_lfz_bomb.c, test_read_budget.c), written once: a whole
 * file whose payload is a given head followed by a unit repeated, compressed and hashed chunk by chunk, so that a
 * file of a few KB standing for a GiB of payload costs no more memory to make than reading it should. The header
 * (magic, version, counts, sizes, the three checksums) is laid out as docs/formats.md says. */
#ifndef LINFUZZ_LFZ_TEST_UTIL_H
#define LINFUZZ_LFZ_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include <zstd.h>

#include "linfuzz/lfz.h"

static inline size_t lfz_varint(uint8_t *p, uint64_t v) {
    size_t n = 0;
    while (v >= 0x80) p[n++] = (uint8_t)(v | 0x80), v >>= 7;
    p[n++] = (uint8_t)v;
    return n;
}

static inline void lfz_put_le(uint8_t *p, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* The whole .lfz file (malloc'ed, *len bytes) declaring `sections` sections, whose payload is head[0..head_len)
 * then `reps` copies of unit[0..unit_len) (unit_len at most 1 MiB), compressed at `level`. */
static inline uint8_t *lfz_build_stream(const uint8_t *head, size_t head_len, const uint8_t *unit, size_t unit_len,
                                        uint64_t reps, uint32_t sections, int level, size_t *len) {
    enum { CHUNK = 1 << 20 };
    uint8_t *block = malloc(CHUNK);
    size_t per_block = CHUNK / unit_len;
    for (size_t i = 0; i < per_block; i++) memcpy(block + i * unit_len, unit, unit_len);
    uint64_t size = head_len + reps * unit_len;
    size_t cap = 1 << 16, n = LF_LFZ_HEADER_SIZE;
    uint8_t *f = calloc(1, cap);
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setPledgedSrcSize(c, size);
    XXH64_state_t *hs = XXH64_createState();
    XXH64_reset(hs, 0);
    uint64_t left = reps;
    for (int first = 1; first || left; first = 0) {
        const uint8_t *src = first ? head : block;
        size_t chunk = first ? head_len : (left < per_block ? left : per_block) * unit_len;
        if (!first) left -= chunk / unit_len;
        XXH64_update(hs, src, chunk);
        ZSTD_inBuffer in = {src, chunk, 0};
        ZSTD_EndDirective end = left ? ZSTD_e_continue : ZSTD_e_end;
        for (;;) {
            if (cap - n < ZSTD_CStreamOutSize()) f = realloc(f, cap *= 2);
            ZSTD_outBuffer out = {f, cap, n};
            size_t rest = ZSTD_compressStream2(c, &out, &in, end);
            n = out.pos;
            if (ZSTD_isError(rest)) {
                fprintf(stderr, "zstd: %s\n", ZSTD_getErrorName(rest));
                exit(2);
            }
            if (end == ZSTD_e_end ? rest == 0 : in.pos == in.size) break;
        }
    }
    static const uint8_t magic[8] = {0x89, 'L', 'F', 'Z', '\r', '\n', 0x1a, '\n'};
    memcpy(f, magic, 8);
    lfz_put_le(f + 8, LF_LFZ_VERSION, 2);
    lfz_put_le(f + 10, 0, 2);
    lfz_put_le(f + 12, sections, 4);
    lfz_put_le(f + 16, size, 8);
    lfz_put_le(f + 24, n - LF_LFZ_HEADER_SIZE, 8);
    lfz_put_le(f + 32, XXH64_digest(hs), 8);
    lfz_put_le(f + 40, XXH64(f + LF_LFZ_HEADER_SIZE, n - LF_LFZ_HEADER_SIZE, 0), 8);
    lfz_put_le(f + 48, XXH64(f, 48, 0), 8);
    XXH64_freeState(hs);
    ZSTD_freeCCtx(c);
    free(block);
    *len = n;
    return f;
}

#endif
