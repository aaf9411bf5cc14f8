/* Decompression bombs: .lfz files of a few KB whose valid zstd frame expands to up to a GiB. The reader must
 * refuse each one with a message naming the file, and its peak memory (ru_maxrss) must stay within a few
 * MB of what it was, whatever the ratio: the declared payload is checked against the reader's budget
 * (lf_lfz_payload_budget) before anything is allocated, and a payload within it is decompressed in chunks,
 * growing with what arrives, its sections checked as they appear.
 *
 * `test_lfz_bomb --write DIR` writes the files instead (tests/cli/test_lfz_bomb.sh measures `linfuzz check`
 * on them with /usr/bin/time). The bombs are built in a stream (compressed and hashed chunk by chunk), so
 * making them needs no more memory than reading them should. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <zstd.h>

#include <xxhash.h>

#include "linfuzz/format.h"
#include "linfuzz/lfz.h"
#include "lfz_test_util.h"
#include "test_util.h"

/* What the payload holds: the first bytes given, then zeros up to `size`. */
typedef struct {
    const char *name; /* file name */
    uint64_t size;    /* payload bytes */
    uint8_t head[64]; /* the first bytes of the payload */
    size_t head_len;
    uint32_t sections; /* declared in the header */
    const char *why;   /* a fragment of the expected message */
    long max_kb;       /* peak memory may grow by at most this much */
} bomb;

/* The whole .lfz file of b (malloc'ed): its head, then zeros. */
static uint8_t *build(const bomb *b, size_t *len) {
    static const uint8_t zero = 0;
    return lfz_build_stream(b->head, b->head_len, &zero, 1, b->size - b->head_len, b->sections, 1, len);
}

/* Sanitizer builds: freed blocks wait in ASan's quarantine, which would count the payload buffer's earlier
 * sizes (1, 2, 4, ... MiB) against the reader; without it the peak is the reader's own. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "quarantine_size_mb=0"; }

static long peak_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* A section header at the start of the payload: kind, name, body length (body: 0 for the rest of a payload of
 * `size` bytes). */
static size_t section_head(uint8_t *p, uint8_t kind, const char *name, uint64_t body, uint64_t size) {
    if (!body) {
        uint8_t tmp[10];
        body = size - 2 - strlen(name);
        body -= lfz_varint(tmp, body);
        if (2 + strlen(name) + lfz_varint(tmp, body) + body != size) body++; /* the varint got shorter */
    }
    size_t n = 0;
    p[n++] = kind;
    n += lfz_varint(p + n, strlen(name));
    memcpy(p + n, name, strlen(name));
    n += strlen(name);
    return n + lfz_varint(p + n, body);
}

int main(int argc, char **argv) {
    const char *write_dir = argc == 3 && !strcmp(argv[1], "--write") ? argv[2] : NULL;
    const uint64_t GiB = UINT64_C(1) << 30, MiB = UINT64_C(1) << 20;
    /* 8 MiB: a chunk of output (1 MiB), zstd's context and window, allocator slack */
    const long small = 8 * 1024;
    bomb bombs[6] = {
        /* 1 GiB of zeros: the 32 KB file; beyond the budget, refused from the header */
        {.name = "zeros-1g.lfz", .size = GiB, .sections = 1, .why = "decompression bomb", .max_kb = small},
        /* a valid BYTES section of a GiB: beyond the budget too */
        {.name = "bytes-1g.lfz", .size = GiB, .sections = 1, .why = "decompression bomb", .max_kb = small},
        /* within the budget (60 MiB < the 64 MiB floor), but junk: refused at the first chunk */
        {.name = "zeros-60m.lfz", .size = 60 * MiB, .sections = 1, .why = "unknown section kind 0", .max_kb = small},
        /* within the budget, a history section whose body is zeros: refused when its type name is out */
        {.name = "history-60m.lfz", .size = 60 * MiB, .sections = 1, .why = "unknown type", .max_kb = small},
        /* within the budget, a text section declaring more than the payload holds */
        {.name = "text-60m.lfz",
         .size = 60 * MiB,
         .sections = 1,
         .why = "runs past the payload's end",
         .max_kb = small},
        /* within the budget, a history of a real type followed by zeros: its ops are decoded only once the
         * payload is complete, so this one costs its payload (at most the 64 MiB floor), never more */
        {.name = "counter-60m.lfz",
         .size = 60 * MiB,
         .sections = 1,
         .why = "unexpected bytes after the last op",
         .max_kb = 72 * 1024},
    };
    bombs[1].head_len = section_head(bombs[1].head, LF_LFZ_BYTES, "workload", 0, GiB);
    bombs[3].head_len = section_head(bombs[3].head, LF_LFZ_HISTORY, "history", 0, 60 * MiB);
    bombs[4].head_len = section_head(bombs[4].head, LF_LFZ_TEXT, "report", 61 * MiB, 0);
    bombs[5].head_len = section_head(bombs[5].head, LF_LFZ_HISTORY, "history", 0, 60 * MiB);
    bombs[5].head_len += lfz_varint(bombs[5].head + bombs[5].head_len, 7);
    memcpy(bombs[5].head + bombs[5].head_len, "counter", 7);
    bombs[5].head_len += 7;
    for (size_t i = 0; i < sizeof bombs / sizeof bombs[0]; i++) {
        const bomb *b = &bombs[i];
        size_t len;
        uint8_t *f = build(b, &len);
        CHECKF(len < 64 * 1024, "%s: %zu bytes", b->name, len);
        if (write_dir) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", write_dir, b->name);
            FILE *out = fopen(path, "wb");
            CHECKF(out && fwrite(f, 1, len, out) == len && fclose(out) == 0, "cannot write %s", path);
            free(f);
            continue;
        }
        long before = peak_kb();
        lf_lfz_reader r;
        char err[1024];
        lf_status s = lf_lfz_decode(&r, f, len, b->name, err, sizeof err);
        if (s == LF_OK) { /* histories are decoded on demand */
            lf_history h;
            s = lf_lfz_get_history(&r, &r.sections[0], &h, err, sizeof err);
            lf_lfz_reader_free(&r);
            if (s == LF_OK) lf_history_free(&h);
        }
        long grown = peak_kb() - before;
        printf("%s: %zu bytes expanding to %" PRIu64 " MiB: peak memory +%ld KB: %s\n", b->name, len, b->size >> 20,
               grown, s == LF_OK ? "accepted" : err);
        CHECKF(s == LF_ERR_FORMAT, "%s: status %d", b->name, s);
        CHECKF(s == LF_OK || (!strncmp(err, b->name, strlen(b->name)) && strstr(err, b->why)),
               "%s: message '%s' lacks '%s'", b->name, err, b->why);
        CHECKF(grown < b->max_kb, "%s: peak memory grew by %ld KB", b->name, grown);
        free(f);
    }
    /* The writer never writes what the reader would refuse: 70 MiB of zeros compress far beyond 256:1. */
    lf_lfz_writer w;
    lf_lfz_writer_init(&w);
    uint8_t *zeros = calloc(1, 70 * MiB);
    char err[1024];
    uint8_t *file = NULL;
    size_t file_len = 0;
    CHECK(lf_lfz_add_bytes(&w, "zeros", zeros, 70 * MiB, err, sizeof err) == LF_OK);
    lf_status ws = lf_lfz_encode(&w, 1, &file, &file_len, err, sizeof err);
    CHECKF(ws == LF_ERR_FORMAT && strstr(err, "decompression bomb") && strstr(err, "as text"), "status %d: %s", ws,
           ws ? err : "written");
    free(file);
    free(zeros);
    lf_lfz_writer_free(&w);
    /* The budget: 64 MiB from any file, 256 bytes per compressed byte beyond, never above the format's limit. */
    CHECK(lf_lfz_payload_budget(0) == LF_LFZ_BUDGET_FLOOR && lf_lfz_payload_budget(1000) == LF_LFZ_BUDGET_FLOOR);
    CHECK(lf_lfz_payload_budget(MiB) == 256 * MiB);
    CHECK(lf_lfz_payload_budget(UINT64_MAX) == LF_LFZ_MAX_PAYLOAD);
    TEST_DONE();
}
