/* The .lfz format: a zstd-compressed container of typed, named sections (docs/formats.md, byte by byte).
 *
 * One file holds any number of sections: histories (compact binary encoding), raw bytes (a fuzzer's
 * workload), text (a verdict, a report) and key/value metadata, so a corpus entry keeps its workload, full
 * history, minimised history and verdict together. Every byte of a file is covered by a checksum (header,
 * stored frame, decompressed payload), and the reader trusts no declared size: it allocates in proportion
 * to bytes it has actually decompressed and refuses anything malformed with LF_ERR_FORMAT and a message
 * "FILE: ..." naming the problem (and the payload offset inside the sections).
 *
 * Decompression bombs: zstd can expand one byte into 32768, so a 32 KB file can declare a 1 GiB payload. The
 * reader decompresses at most lf_lfz_payload_budget(compressed bytes): 64 MiB from any file, 256 bytes per
 * compressed byte beyond that, never more than the format's 4 GiB; a file declaring more is refused from
 * its header, before anything is allocated. Within the budget the payload is decompressed in chunks into
 * memory that grows with what arrives, and each section's header (kind, name, length) is checked as soon as
 * it is out, so junk is refused after its first chunk. Linfuzz's histories compress 2-20x (a million ops of
 * one thread repeating one op, the most regular history there is, about 10000x: 4 MB of payload, well
 * within the floor); the writer refuses to write a file the reader would refuse (keep such a history as
 * text).
 *
 * Decoded histories: an op takes 64 bytes in memory (lf_op) and as little as 3 in the payload, so a history
 * section is decoded only when its op count fits lf_lfz_history_budget(compressed bytes): 64 MiB of ops
 * (1,048,576 ops) from any file, 1 KiB per compressed byte beyond. Memory is taken only as ops are decoded, so a
 * section of junk is refused at its first bad op at the cost of the ops before it. Files are read from their
 * header on, never more than it declares, and only regular files, pipes and FIFOs are read at all.
 * docs/budgets.md states what reading a file of S bytes may cost in all. */
#ifndef LINFUZZ_LFZ_H
#define LINFUZZ_LFZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/format.h"
#include "linfuzz/history.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LF_LFZ_VERSION 1
#define LF_LFZ_HEADER_SIZE 56
#define LF_LFZ_MAX_PAYLOAD (UINT64_C(4) << 30) /* decompressed payload limit: 4 GiB */
#define LF_LFZ_BUDGET_FLOOR (UINT64_C(64) << 20) /* the reader decompresses this much from any file, */
#define LF_LFZ_BUDGET_RATIO 256                  /* and this many bytes per compressed byte beyond it */
#define LF_LFZ_HISTORY_FLOOR (UINT64_C(64) << 20) /* a decoded history's ops may take this much from any file, */
#define LF_LFZ_HISTORY_RATIO 1024                 /* and this many bytes per compressed byte beyond it */
#define LF_LFZ_MAX_SECTIONS 4096
#define LF_LFZ_MAX_NAME 64   /* section names: 1..64 chars of A-Z a-z 0-9 _ . - */
#define LF_LFZ_MAX_KEY 128   /* metadata keys: 1..128 chars of the same set */
#define LF_LFZ_MAX_PAIRS 4096 /* metadata pairs per section */
#define LF_LFZ_DEFAULT_LEVEL 3

typedef enum lf_lfz_kind {
    LF_LFZ_HISTORY = 1, /* an lf_history in the compact op encoding */
    LF_LFZ_BYTES = 2,   /* opaque bytes (e.g. "workload") */
    LF_LFZ_TEXT = 3,    /* UTF-8 text without NUL (e.g. "verdict", "report") */
    LF_LFZ_META = 4,    /* key/value pairs: keys as names, values UTF-8 text; stored sorted by key */
} lf_lfz_kind;

const char *lf_lfz_kind_name(lf_lfz_kind k); /* "history", "bytes", "text", "meta" */

typedef struct lf_lfz_pair {
    const char *key;
    const char *value;
} lf_lfz_pair;

/* ---- writing ---- */

/* Accumulates sections (encoded, uncompressed) until the container is encoded or saved. On error an add_*
 * call leaves the writer as it was and explains in err (no file name: nothing is written yet). */
typedef struct lf_lfz_writer {
    uint8_t *payload;
    size_t len, cap;
    uint32_t n_sections;
    char (*names)[LF_LFZ_MAX_NAME + 1]; /* names used so far: they must be unique */
    size_t max_history_ops;             /* the longest history added: the reader's budget must admit it */
} lf_lfz_writer;

void lf_lfz_writer_init(lf_lfz_writer *w);
void lf_lfz_writer_free(lf_lfz_writer *w);
/* The history must pass lf_history_validate (a file the reader would refuse is never written). */
lf_status lf_lfz_add_history(lf_lfz_writer *w, const char *name, const lf_history *h, char *err, size_t errlen);
lf_status lf_lfz_add_bytes(lf_lfz_writer *w, const char *name, const void *data, size_t len, char *err,
                           size_t errlen);
lf_status lf_lfz_add_text(lf_lfz_writer *w, const char *name, const char *text, char *err, size_t errlen);
/* Keys must be distinct; they are stored (and read back) in ascending byte order. */
lf_status lf_lfz_add_meta(lf_lfz_writer *w, const char *name, const lf_lfz_pair *pairs, size_t n, char *err,
                          size_t errlen);

/* Compresses the container (zstd level 1..19) into a new malloc'ed buffer. */
lf_status lf_lfz_encode(const lf_lfz_writer *w, int level, uint8_t **out, size_t *out_len, char *err,
                        size_t errlen);
/* Encodes and writes to path atomically (see lf_write_file_atomic). Errors name the path. */
lf_status lf_lfz_save(const lf_lfz_writer *w, const char *path, int level, char *err, size_t errlen);

/* ---- reading ---- */

/* The largest payload the reader decompresses from a frame of `compressed` bytes (see the top). */
uint64_t lf_lfz_payload_budget(uint64_t compressed);
/* The most memory the ops of one history decoded from a frame of `compressed` bytes may take (see the top):
 * a section declaring more ops than fit is refused before anything is allocated for them. */
uint64_t lf_lfz_history_budget(uint64_t compressed);

typedef struct lf_lfz_section {
    lf_lfz_kind kind;
    const char *name;          /* NUL-terminated */
    const uint8_t *data;       /* the section body as stored (BYTES: the bytes themselves) */
    size_t len;
    size_t offset;             /* payload offset of the body, for messages */
    const char *text;          /* TEXT: the body as a NUL-terminated string of len bytes; else NULL */
    const lf_lfz_pair *pairs;  /* META: n_pairs pairs in ascending key order; else NULL */
    size_t n_pairs;
} lf_lfz_section;

/* A decoded container. The structure of every section (names, text, metadata) is checked when it is
 * opened; a history section is decoded, and checked, by lf_lfz_get_history. */
typedef struct lf_lfz_reader {
    char *file;                /* name used in messages */
    uint64_t stored;           /* bytes of the compressed frame (0 for lf_lfz_decode_payload): the budgets' base */
    uint8_t *payload;          /* decompressed payload; sections point into it */
    size_t payload_len;
    char *strings;             /* NUL-terminated copies of names, texts, keys and values */
    lf_lfz_pair *pairs;        /* storage of all META sections' pairs */
    lf_lfz_section *sections;
    size_t n_sections;
} lf_lfz_reader;

/* Decodes a whole .lfz file held in memory; name is used in messages ("NAME: ..."). */
lf_status lf_lfz_decode(lf_lfz_reader *r, const void *file, size_t len, const char *name, char *err,
                        size_t errlen);
/* Parses an already decompressed payload declaring n_sections sections: the section and op decoders without
 * the header, compression and checksums around them (for the parser fuzz target). */
lf_status lf_lfz_decode_payload(lf_lfz_reader *r, const void *payload, size_t len, uint32_t n_sections,
                                const char *name, char *err, size_t errlen);
/* Reads and decodes path. LF_ERR_IO when it cannot be read, LF_ERR_FORMAT when it is not a valid .lfz. */
lf_status lf_lfz_open(lf_lfz_reader *r, const char *path, char *err, size_t errlen);
void lf_lfz_reader_free(lf_lfz_reader *r);

/* The first section of that kind (and name, unless name is NULL), or NULL. */
const lf_lfz_section *lf_lfz_find(const lf_lfz_reader *r, lf_lfz_kind kind, const char *name);
/* Number of HISTORY sections; lf_lfz_history_section(r, i) is the i-th of them in file order. */
size_t lf_lfz_history_count(const lf_lfz_reader *r);
const lf_lfz_section *lf_lfz_history_section(const lf_lfz_reader *r, size_t index);
/* Decodes a HISTORY section into h (initialised here; the caller frees it). The result has passed
 * lf_history_validate. */
lf_status lf_lfz_get_history(const lf_lfz_reader *r, const lf_lfz_section *s, lf_history *h, char *err,
                             size_t errlen);
/* Value of key in a META section, or NULL. */
const char *lf_lfz_meta_get(const lf_lfz_section *s, const char *key);

/* ---- single histories (what lf_history_read/lf_history_write use for .lfz) ---- */

/* Reads the history section called section_name (NULL: the first history section) of path. */
lf_status lf_lfz_read_history(const char *path, const char *section_name, lf_history *h, char *err,
                              size_t errlen);
/* Writes a container holding one history section named "history". */
lf_status lf_lfz_write_history(const char *path, const lf_history *h, int level, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
