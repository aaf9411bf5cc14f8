/* The .lfz container: section encoding, compact history encoding, zstd framing and checksums, and the
 * hostile-input-proof reader (layout in docs/formats.md, API in lfz_format.h). */
#include "linfuzz/lfz.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "format/input_file.h"
#include "format/type_decl.h"
#include "history/seq_check.h"
#include "util/big_alloc.h"
#include "util/escape.h"
#include "util/grow.h"
#include <xxhash.h>

static const uint8_t MAGIC[8] = {0x89, 'L', 'F', 'Z', '\r', '\n', 0x1a, '\n'};

/* zstd cannot expand data more than this: its densest block is an RLE block, 3 header bytes plus one byte
 * standing for at most 128 KiB (ZSTD_BLOCKSIZE_MAX), i.e. 32768 output bytes per input byte. A header
 * declaring more is lying, and believing it would let a tiny file demand a huge allocation. */
#define ZSTD_MAX_RATIO 32768u

/* Every op is at least 3 bytes (shape, thread, call delta), every shape at least 4 (name length, one name
 * byte, result code, nil mask), every section at least 4 (kind, name length, one name byte, body length),
 * every metadata pair at least 3 (key length, one key byte, value length). Declared counts are checked
 * against the bytes that remain before anything is allocated for them. */
#define MIN_OP_BYTES 3
#define MIN_SHAPE_BYTES 4
#define MIN_SECTION_BYTES 4
#define MIN_PAIR_BYTES 3
#define MAX_TYPE_NAME 32

/* Result codes of the encoding, fixed by the format (independent of the lf_kind enum's numbering). */
static const lf_kind RESULT_CODES[] = {LF_K_NONE, LF_K_INT,   LF_K_NIL, LF_K_EMPTY,  LF_K_TRUE,
                                       LF_K_FALSE, LF_K_OK,   LF_K_FAIL, LF_K_PENDING, LF_K_FULL};
#define N_RESULT_CODES (sizeof RESULT_CODES / sizeof RESULT_CODES[0])

/* A shape is what an op is apart from its numbers: method, result kind and which arguments are nil. */
#define SHAPE_KEY(method, kind, nil) ((unsigned)(method) | (unsigned)(kind) << 5 | (unsigned)(nil) << 9)
#define N_SHAPE_KEYS (1u << (9 + LF_CUSTOM_MAX_ARGS))
_Static_assert(LF_M_COUNT <= 32 && LF_CUSTOM_MAX_METHODS <= 32 && LF_K_COUNT <= 16 && LF_CUSTOM_MAX_ARGS <= 8,
               "shape keys pack method in 5 bits, kind in 4 and the nil flags in one bit per argument");
/* The value slots of an op's numbers: its arguments, then its result (RESULT_SLOT). */
#define RESULT_SLOT LF_CUSTOM_MAX_ARGS
/* The init byte's extension value (docs/formats.md): after a built-in container's name it announces a capacity
 * (api, linfuzz 0.3), after a name no built-in type has a custom type's declaration block. One value for both,
 * so that files written by either branch read unchanged; the type name, read first, tells them apart. */
#define INIT_CAPACITY 3
#define INIT_CUSTOM_DECL 3
/* After a built-in stack or queue name: a contract other than linearizability (docs/contracts.md), with the
 * capacity (0: none) before it. Only histories with such a contract are written with it, so every other file is
 * byte for byte what it was; earlier readers refuse it ("init flag 4"), never misread it. */
#define INIT_CONTRACT 4

const char *lf_lfz_kind_name(lf_lfz_kind k) {
    switch (k) {
    case LF_LFZ_HISTORY: return "history";
    case LF_LFZ_BYTES: return "bytes";
    case LF_LFZ_TEXT: return "text";
    case LF_LFZ_META: return "meta";
    }
    return "?";
}

__attribute__((format(printf, 3, 4))) static lf_status fail(char *err, size_t errlen, const char *fmt, ...) {
    if (errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return LF_ERR_FORMAT;
}

static uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0); }

/* Two's-complement reinterpretation spelled out, so it is defined behaviour in C. */
static int64_t as_signed(uint64_t x) { return x <= (uint64_t)INT64_MAX ? (int64_t)x : -(int64_t)(UINT64_MAX - x) - 1; }

static int64_t unzigzag(uint64_t u) { return as_signed((u >> 1) ^ (0 - (u & 1))); }

/* Values are stored as differences, modulo 2^64, from the previous value in the same slot (argument 0,
 * argument 1, ... argument 3, result): recorded values are mostly counters (enq 1, enq 2, ...) and results follow them in
 * order (deq -> 1, deq -> 2, ...), so the differences are short. */
static uint64_t value_delta(int64_t v, int64_t prev) { return zigzag(as_signed((uint64_t)v - (uint64_t)prev)); }
static int64_t value_undelta(uint64_t zz, int64_t prev) { return as_signed((uint64_t)prev + (uint64_t)unzigzag(zz)); }

static void put_le(uint8_t *p, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int bytes) {
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

/* ---- growable byte buffer (writer side) ---- */

typedef struct {
    uint8_t *p;
    size_t len, cap;
} buffer;

static bool buf_reserve(buffer *b, size_t extra) {
    if (b->cap - b->len >= extra) return true;
    if (extra > SIZE_MAX / 2 - b->len) return false;
    return LF_GROW(b->p, b->cap, b->len + extra, 256);
}

/* Callers reserve first; the put_* helpers never fail. */
static inline void put_varint(buffer *b, uint64_t v) {
    while (v >= 0x80) {
        b->p[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->p[b->len++] = (uint8_t)v;
}

static inline void put_bytes(buffer *b, const void *s, size_t n) {
    if (n) memcpy(b->p + b->len, s, n);
    b->len += n;
}

#define VARINT_MAX 10

/* ---- validation shared by writer and reader ---- */

static bool name_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
}

static bool valid_name(const char *s, size_t n, size_t max) {
    if (n == 0 || n > max) return false;
    for (size_t i = 0; i < n; i++)
        if (!name_char((unsigned char)s[i])) return false;
    return true;
}

/* Well-formed UTF-8 (lf_utf8_char) without NUL. Returns the offset of the first bad byte, or n when the text
 * is fine. */
static size_t utf8_bad_offset(const uint8_t *s, size_t n) {
    size_t i = 0, len;
    uint32_t cp;
    while (i < n && (len = lf_utf8_char(s + i, n - i, &cp)) != 0 && cp != 0) i += len;
    return i;
}

/* ---- writer ---- */

void lf_lfz_writer_init(lf_lfz_writer *w) { memset(w, 0, sizeof *w); }

void lf_lfz_writer_free(lf_lfz_writer *w) {
    free(w->payload);
    free(w->names);
    memset(w, 0, sizeof *w);
}

static lf_status check_new_name(const lf_lfz_writer *w, const char *name, char *err, size_t errlen) {
    size_t n = strlen(name);
    if (!valid_name(name, n, LF_LFZ_MAX_NAME))
        return fail(err, errlen, "section name '%.80s' is invalid: use 1-%d characters of A-Z a-z 0-9 _ . -", name,
                    LF_LFZ_MAX_NAME);
    for (uint32_t i = 0; i < w->n_sections; i++)
        if (strcmp(w->names[i], name) == 0)
            return fail(err, errlen, "section name '%s' is already used in this container", name);
    if (w->n_sections >= LF_LFZ_MAX_SECTIONS)
        return fail(err, errlen, "a container holds at most %d sections", LF_LFZ_MAX_SECTIONS);
    return LF_OK;
}

static lf_status nomem(char *err, size_t errlen) {
    if (errlen) snprintf(err, errlen, "out of memory");
    return LF_ERR_NOMEM;
}

/* Appends one section (kind, name, body) to the payload; the name has been checked. */
static lf_status append_section(lf_lfz_writer *w, lf_lfz_kind kind, const char *name, const void *body,
                                size_t len, char *err, size_t errlen) {
    if (w->len + len + 2 * VARINT_MAX + LF_LFZ_MAX_NAME + 1 > LF_LFZ_MAX_PAYLOAD)
        return fail(err, errlen, "section '%s' would make the payload larger than the 4 GiB limit", name);
    size_t name_len = strlen(name);
    buffer b = {w->payload, w->len, w->cap};
    if (!buf_reserve(&b, 1 + 2 * VARINT_MAX + name_len + len)) return nomem(err, errlen);
    char(*names)[LF_LFZ_MAX_NAME + 1] = realloc(w->names, (w->n_sections + 1) * sizeof *names);
    if (!names) {
        w->payload = b.p, w->cap = b.cap;
        return nomem(err, errlen);
    }
    w->names = names;
    memcpy(names[w->n_sections], name, name_len + 1);
    b.p[b.len++] = (uint8_t)kind;
    put_varint(&b, name_len);
    put_bytes(&b, name, name_len);
    put_varint(&b, len);
    put_bytes(&b, body, len);
    w->payload = b.p, w->len = b.len, w->cap = b.cap;
    w->n_sections++;
    return LF_OK;
}

lf_status lf_lfz_add_bytes(lf_lfz_writer *w, const char *name, const void *data, size_t len, char *err,
                           size_t errlen) {
    lf_status s = check_new_name(w, name, err, errlen);
    return s ? s : append_section(w, LF_LFZ_BYTES, name, data, len, err, errlen);
}

lf_status lf_lfz_add_text(lf_lfz_writer *w, const char *name, const char *text, char *err, size_t errlen) {
    lf_status s = check_new_name(w, name, err, errlen);
    if (s) return s;
    size_t n = strlen(text);
    size_t bad = utf8_bad_offset((const uint8_t *)text, n);
    if (bad != n) return fail(err, errlen, "text of section '%s' is not valid UTF-8 (byte %zu)", name, bad);
    return append_section(w, LF_LFZ_TEXT, name, text, n, err, errlen);
}

static int cmp_pair_key(const void *a, const void *b) {
    return strcmp(((const lf_lfz_pair *)a)->key, ((const lf_lfz_pair *)b)->key);
}

lf_status lf_lfz_add_meta(lf_lfz_writer *w, const char *name, const lf_lfz_pair *pairs, size_t n, char *err,
                          size_t errlen) {
    lf_status s = check_new_name(w, name, err, errlen);
    if (s) return s;
    if (n > LF_LFZ_MAX_PAIRS) return fail(err, errlen, "section '%s': more than %d pairs", name, LF_LFZ_MAX_PAIRS);
    lf_lfz_pair *sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted) return nomem(err, errlen);
    if (n) memcpy(sorted, pairs, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_pair_key);
    buffer b = {0};
    s = buf_reserve(&b, VARINT_MAX) ? LF_OK : nomem(err, errlen);
    if (s == LF_OK) put_varint(&b, n);
    for (size_t i = 0; i < n && s == LF_OK; i++) {
        size_t kn = strlen(sorted[i].key), vn = strlen(sorted[i].value);
        if (!valid_name(sorted[i].key, kn, LF_LFZ_MAX_KEY))
            s = fail(err, errlen, "section '%s': key '%.80s' is invalid: use 1-%d characters of A-Z a-z 0-9 _ . -",
                     name, sorted[i].key, LF_LFZ_MAX_KEY);
        else if (i && strcmp(sorted[i - 1].key, sorted[i].key) == 0)
            s = fail(err, errlen, "section '%s': key '%s' is given twice", name, sorted[i].key);
        else if (utf8_bad_offset((const uint8_t *)sorted[i].value, vn) != vn)
            s = fail(err, errlen, "section '%s': value of key '%s' is not valid UTF-8", name, sorted[i].key);
        else if (!buf_reserve(&b, 2 * VARINT_MAX + kn + vn))
            s = nomem(err, errlen);
        else {
            put_varint(&b, kn);
            put_bytes(&b, sorted[i].key, kn);
            put_varint(&b, vn);
            put_bytes(&b, sorted[i].value, vn);
        }
    }
    if (s == LF_OK) s = append_section(w, LF_LFZ_META, name, b.p, b.len, err, errlen);
    free(sorted);
    free(b.p);
    return s;
}

static int result_code_of(lf_kind k) {
    for (size_t c = 0; c < N_RESULT_CODES; c++)
        if (RESULT_CODES[c] == k) return (int)c;
    return -1;
}

/* The values a bulk or burst op carries in arg (history.h): an insert's n offered, a remove's returned ones. */
static int bulk_values(const lf_op *op) {
    return lf_method_is_bulk_insert(op->method) ? op->count : op->res_kind == LF_K_INT ? (int)op->res : 0;
}

/* The compact op encoding (docs/formats.md): a table of the shapes used, then per op its shape index,
 * thread, call as a signed delta from the previous op's call, ret - call, the non-nil arguments and an
 * integer result, all as (zigzag) varints. Recorded stamps grow steadily, so the deltas stay short. */
static lf_status encode_history(buffer *b, const lf_history *h, char *err, size_t errlen) {
    char msg[400];
    if (lf_history_validate(h, msg, sizeof msg) != SIZE_MAX)
        return fail(err, errlen, "the history is malformed: %s", msg);
    int16_t *shape_of_key = malloc(N_SHAPE_KEYS * sizeof *shape_of_key);
    unsigned *shape_keys = malloc(N_SHAPE_KEYS * sizeof *shape_keys);
    if (!shape_of_key || !shape_keys) {
        free(shape_of_key);
        free(shape_keys);
        return nomem(err, errlen);
    }
    for (unsigned k = 0; k < N_SHAPE_KEYS; k++) shape_of_key[k] = -1;
    size_t n_shapes = 0;
    for (size_t i = 0; i < h->n; i++) {
        const lf_op *op = &h->ops[i];
        unsigned key = SHAPE_KEY(op->method, op->res_kind, op->arg_nil);
        if (shape_of_key[key] < 0) {
            shape_of_key[key] = (int16_t)n_shapes;
            shape_keys[n_shapes++] = key;
        }
    }
    lf_status s = LF_OK;
    const char *type_name = lf_history_type_name(h);
    size_t type_len = strlen(type_name);
    /* shapes: name length, name (at most 32), result code, nil mask; a custom declaration: count, then per
     * method name length, name, arity, results, flags */
    size_t decl_bytes = h->type == LF_TYPE_CUSTOM ? VARINT_MAX + LF_CUSTOM_MAX_METHODS * (2 * VARINT_MAX + 34) : 0;
    if (!buf_reserve(b, 5 * VARINT_MAX + 2 + type_len + 1 + decl_bytes + n_shapes * (VARINT_MAX + 2 + 32))) {
        s = nomem(err, errlen);
        goto done;
    }
    put_varint(b, type_len);
    put_bytes(b, type_name, type_len);
    /* The init byte: 0 nothing, 1 an integer initial value, 2 a nil one (registers), 3 an extension whose
     * meaning the type name decides: a built-in container's capacity (linfuzz 0.3) or a custom type's
     * declaration block (a name no built-in type has). A file without either reads as before. */
    if (h->type == LF_TYPE_CUSTOM) {
        b->p[b->len++] = INIT_CUSTOM_DECL;
        unsigned nm = lf_history_method_count(h);
        put_varint(b, nm);
        for (unsigned m = 0; m < nm; m++) {
            const lf_method_decl *d = lf_history_method(h, m);
            size_t mlen = strlen(d->name);
            put_varint(b, mlen);
            put_bytes(b, d->name, mlen);
            b->p[b->len++] = d->nargs;
            put_varint(b, d->results);
            b->p[b->len++] = d->flags;
        }
    } else if (!lf_contract_is_default(&h->contract)) {
        b->p[b->len++] = INIT_CONTRACT;
        put_varint(b, h->capacity);
        b->p[b->len++] = h->contract.order;
        b->p[b->len++] = h->contract.full_empty;
        if (h->contract.order == LF_ORDER_K_RELAXED) put_varint(b, h->contract.k);
    } else if (h->capacity) {
        b->p[b->len++] = INIT_CAPACITY;
        put_varint(b, h->capacity);
    } else if (!h->has_init) {
        b->p[b->len++] = 0;
    } else if (h->init_kind == LF_K_NIL) {
        b->p[b->len++] = 2;
    } else {
        b->p[b->len++] = 1;
        put_varint(b, zigzag(h->init));
    }
    put_varint(b, n_shapes);
    for (size_t k = 0; k < n_shapes; k++) {
        unsigned key = shape_keys[k];
        const char *m = lf_history_method(h, key & 31)->name;
        size_t mlen = strlen(m);
        put_varint(b, mlen);
        put_bytes(b, m, mlen);
        b->p[b->len++] = (uint8_t)result_code_of((lf_kind)((key >> 5) & 15));
        b->p[b->len++] = (uint8_t)(key >> 9);
    }
    put_varint(b, h->n);
    uint64_t prev_call = 0;
    int64_t prev_value[RESULT_SLOT + 1] = {0}; /* the arguments, the result */
    for (size_t i = 0; i < h->n; i++) {
        const lf_op *op = &h->ops[i];
        if (!buf_reserve(b, (7 + 1 + LF_BULK_MAX) * VARINT_MAX)) {
            s = nomem(err, errlen);
            goto done;
        }
        put_varint(b, (uint64_t)shape_of_key[SHAPE_KEY(op->method, op->res_kind, op->arg_nil)]);
        put_varint(b, op->thread);
        uint64_t delta = op->call - prev_call; /* modulo 2^64, read back the same way */
        put_varint(b, zigzag(as_signed(delta)));
        prev_call = op->call;
        if (!lf_op_pending(op)) put_varint(b, op->ret - op->call);
        int nargs = lf_history_method(h, op->method)->nargs;
        for (int a = 0; a < nargs; a++)
            if (!lf_arg_is_nil(op, a)) {
                put_varint(b, value_delta(op->arg[a], prev_value[a]));
                prev_value[a] = op->arg[a];
            }
        if (op->res_kind == LF_K_INT) {
            put_varint(b, value_delta(op->res, prev_value[RESULT_SLOT]));
            prev_value[RESULT_SLOT] = op->res;
        }
        if (h->type != LF_TYPE_CUSTOM && lf_method_is_bulk(op->method)) { /* n, then the values (linfuzz 0.4) */
            put_varint(b, op->count);
            for (int a = 0, values = bulk_values(op); a < values; a++) {
                put_varint(b, value_delta(op->arg[a], prev_value[a]));
                prev_value[a] = op->arg[a];
            }
        }
    }
done:
    free(shape_of_key);
    free(shape_keys);
    return s;
}

lf_status lf_lfz_add_history(lf_lfz_writer *w, const char *name, const lf_history *h, char *err, size_t errlen) {
    lf_status s = check_new_name(w, name, err, errlen);
    if (s) return s;
    buffer b = {0};
    s = encode_history(&b, h, err, errlen);
    if (s == LF_OK) s = append_section(w, LF_LFZ_HISTORY, name, b.p, b.len, err, errlen);
    if (s == LF_OK && h->n > w->max_history_ops) w->max_history_ops = h->n;
    free(b.p);
    return s;
}

lf_status lf_lfz_encode(const lf_lfz_writer *w, int level, uint8_t **out, size_t *out_len, char *err,
                        size_t errlen) {
    *out = NULL;
    *out_len = 0;
    if (level < 1 || level > ZSTD_maxCLevel())
        return fail(err, errlen, "compression level %d is outside 1..%d", level, ZSTD_maxCLevel());
    size_t bound = ZSTD_compressBound(w->len);
    uint8_t *file = malloc(LF_LFZ_HEADER_SIZE + bound);
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    if (!file || !cctx) {
        free(file);
        ZSTD_freeCCtx(cctx);
        return nomem(err, errlen);
    }
    /* The frame carries its content size (checked against the header) and zstd's own checksum. */
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
    size_t stored = ZSTD_compress2(cctx, file + LF_LFZ_HEADER_SIZE, bound, w->payload ? w->payload : (void *)"",
                                   w->len);
    ZSTD_freeCCtx(cctx);
    if (ZSTD_isError(stored)) {
        free(file);
        return fail(err, errlen, "zstd compression failed: %s", ZSTD_getErrorName(stored));
    }
    if (w->len > lf_lfz_payload_budget(stored)) { /* the reader would take it for a decompression bomb */
        free(file);
        return fail(err, errlen,
                    "the %zu-byte payload compresses to %zu bytes, more than %d:1 beyond the first 64 MiB, which the "
                    "reader refuses as a decompression bomb: keep a history this regular as text (.hist)",
                    w->len, stored, LF_LFZ_BUDGET_RATIO);
    }
    if (w->max_history_ops > lf_lfz_history_budget(stored) / sizeof(lf_op)) { /* the reader would refuse it */
        free(file);
        return fail(err, errlen,
                    "a history of %zu ops compresses to %zu bytes, beyond the %" PRIu64 " ops the reader decodes from "
                    "a file this size (64 MiB of ops, or %d bytes per compressed byte): keep a history this regular "
                    "as text (.hist)",
                    w->max_history_ops, stored, lf_lfz_history_budget(stored) / sizeof(lf_op), LF_LFZ_HISTORY_RATIO);
    }
    memcpy(file, MAGIC, sizeof MAGIC);
    put_le(file + 8, LF_LFZ_VERSION, 2);
    put_le(file + 10, 0, 2);
    put_le(file + 12, w->n_sections, 4);
    put_le(file + 16, w->len, 8);
    put_le(file + 24, stored, 8);
    put_le(file + 32, XXH64(w->payload ? w->payload : (void *)"", w->len, 0), 8);
    put_le(file + 40, XXH64(file + LF_LFZ_HEADER_SIZE, stored, 0), 8);
    put_le(file + 48, XXH64(file, 48, 0), 8);
    *out = file;
    *out_len = LF_LFZ_HEADER_SIZE + stored;
    return LF_OK;
}

lf_status lf_lfz_save(const lf_lfz_writer *w, const char *path, int level, char *err, size_t errlen) {
    uint8_t *file;
    size_t len;
    char msg[300];
    lf_status s = lf_lfz_encode(w, level, &file, &len, msg, sizeof msg);
    if (s) {
        snprintf(err, errlen, "%s: %s", path, msg);
        return s;
    }
    s = lf_write_bytes_atomic(path, file, len, err, errlen);
    free(file);
    return s;
}

/* ---- reader ---- */

typedef struct {
    const uint8_t *base; /* the payload */
    size_t pos, end;     /* payload offsets */
} cursor;

/* Reads an unsigned LEB128 varint; returns NULL or why it is malformed. Encodings must be minimal, so
 * each value has exactly one form and re-encoding a file reproduces it. */
static const char *rd_varint(cursor *c, uint64_t *out) {
    if (c->pos < c->end && c->base[c->pos] < 0x80) {
        *out = c->base[c->pos++];
        return NULL;
    }
    uint64_t v = 0;
    for (int i = 0;; i++) {
        if (c->pos >= c->end) return "truncated varint";
        uint8_t byte = c->base[c->pos++];
        if (i == 9 && byte > 1) return "varint overflows 64 bits";
        v |= (uint64_t)(byte & 0x7f) << (7 * i);
        if (!(byte & 0x80)) {
            if (byte == 0 && i > 0) return "non-minimal varint";
            *out = v;
            return NULL;
        }
    }
}

static const char *rd_u8(cursor *c, uint8_t *out) {
    if (c->pos >= c->end) return "truncated";
    *out = c->base[c->pos++];
    return NULL;
}

/* Reads a length-prefixed string of at most max bytes; *s points into the payload. */
static const char *rd_string(cursor *c, size_t max, const uint8_t **s, size_t *n) {
    uint64_t len;
    const char *why = rd_varint(c, &len);
    if (why) return why;
    if (len > max) return "length out of range";
    if (len > c->end - c->pos) return "string runs past the end";
    *s = c->base + c->pos;
    *n = (size_t)len;
    c->pos += (size_t)len;
    return NULL;
}

/* Messages about a section name the file, the section and the payload offset of the problem. */
typedef struct {
    const lf_lfz_reader *r;
    const lf_lfz_section *s;
    size_t index;
    char *err;
    size_t errlen;
} section_ctx;

__attribute__((format(printf, 3, 4))) static lf_status sec_fail(const section_ctx *sc, size_t offset,
                                                                const char *fmt, ...) {
    int w = snprintf(sc->err, sc->errlen, "%s: payload offset %zu: section %zu '%s' (%s): ", sc->r->file, offset,
                     sc->index, sc->s->name ? sc->s->name : "?", lf_lfz_kind_name(sc->s->kind));
    if (w >= 0 && (size_t)w < sc->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(sc->err + w, sc->errlen - (size_t)w, fmt, ap);
        va_end(ap);
    }
    return LF_ERR_FORMAT;
}

typedef struct {
    const lf_method_decl *mi;
    unsigned method;
    uint8_t kind, nil;
} shape;

/* A custom type's declaration block, after its name and the INIT_CUSTOM_DECL byte. */
static lf_status decode_declaration(const section_ctx *sc, cursor *c, const uint8_t *name, size_t name_len,
                                    lf_history *h) {
    const char *why;
    char msg[256];
    lf_decl_builder b;
    if (!lf_decl_begin(&b, (const char *)name, name_len, msg, sizeof msg))
        return sec_fail(sc, c->pos, "unknown type '%.*s' (%s)", (int)name_len, (const char *)name, msg);
    uint64_t count;
    if ((why = rd_varint(c, &count))) return sec_fail(sc, c->pos, "method count: %s", why);
    if (count < 1 || count > LF_CUSTOM_MAX_METHODS)
        return sec_fail(sc, c->pos, "type %s declares %" PRIu64 " methods (1 to %d)", b.name, count,
                        LF_CUSTOM_MAX_METHODS);
    for (uint64_t m = 0; m < count; m++) {
        const uint8_t *str;
        size_t n;
        uint8_t nargs, flags;
        uint64_t results;
        size_t at = c->pos;
        if ((why = rd_string(c, LF_CUSTOM_NAME_MAX, &str, &n)) || (why = rd_u8(c, &nargs)) ||
            (why = rd_varint(c, &results)) || (why = rd_u8(c, &flags)))
            return sec_fail(sc, c->pos, "method %" PRIu64 ": %s", m, why);
        if (!lf_decl_add(&b, (const char *)str, n, nargs, results > UINT16_MAX ? UINT32_MAX : (unsigned)results,
                         flags, msg, sizeof msg))
            return sec_fail(sc, at, "method %" PRIu64 ": %s", m, msg);
    }
    if (!lf_decl_attach(&b, h, msg, sizeof msg)) {
        snprintf(sc->err, sc->errlen, "%s: %s", sc->r->file, msg);
        return LF_ERR_NOMEM;
    }
    return LF_OK;
}

/* The history's header: type name, a custom type's declaration, the init flag with its capacity, contract
 * or initial value. */
static lf_status decode_history_header(const section_ctx *sc, cursor *c, lf_history *h) {
    const char *why;
    const uint8_t *str;
    size_t n;
    if ((why = rd_string(c, MAX_TYPE_NAME, &str, &n))) return sec_fail(sc, c->pos, "type name: %s", why);
    lf_type type;
    bool builtin = lf_type_from_name((const char *)str, n, &type);
    const uint8_t *type_name = str;
    size_t type_len = n;
    uint8_t init;
    if (!builtin && (c->pos >= c->end || c->base[c->pos] != INIT_CUSTOM_DECL))
        return sec_fail(sc, c->pos, "unknown type '%.*s'", (int)n, (const char *)str);
    if ((why = rd_u8(c, &init))) return sec_fail(sc, c->pos, "init flag: %s", why);
    if (init == INIT_CUSTOM_DECL && !builtin) {
        lf_status ds = decode_declaration(sc, c, type_name, type_len, h);
        if (ds != LF_OK) {
            lf_history_free(h);
            return ds;
        }
        type = LF_TYPE_CUSTOM;
        init = 0;
    } else if (init == INIT_CAPACITY) {
        uint64_t cap;
        h->type = type;
        if (!lf_type_boundable(type))
            return sec_fail(sc, c->pos - 1, "a capacity is only allowed for stack, queue, pqueue and deque, not %s",
                            lf_type_name(type));
        if ((why = rd_varint(c, &cap))) return sec_fail(sc, c->pos, "capacity: %s", why);
        if (cap == 0) return sec_fail(sc, c->pos - 1, "capacity 0 (a capacity is at least 1)");
        h->capacity = cap;
        init = 0;
    } else if (init == INIT_CONTRACT && builtin && (type == LF_TYPE_QUEUE || type == LF_TYPE_STACK)) {
        size_t at = c->pos - 1;
        uint64_t cap, k = 0;
        uint8_t order, fe;
        h->type = type;
        if ((why = rd_varint(c, &cap))) return sec_fail(sc, c->pos, "capacity: %s", why);
        if (cap && !lf_type_boundable(type))
            return sec_fail(sc, at, "a capacity is only allowed for stack, queue, pqueue and deque, not %s",
                            lf_type_name(type));
        if ((why = rd_u8(c, &order)) || (why = rd_u8(c, &fe))) return sec_fail(sc, c->pos, "contract: %s", why);
        if (order == LF_ORDER_K_RELAXED && (why = rd_varint(c, &k))) return sec_fail(sc, c->pos, "contract K: %s", why);
        lf_contract ct = {order, fe, k <= LF_CONTRACT_MAX_K ? (uint32_t)k : 0};
        char cwhy[200];
        if (lf_contract_is_default(&ct))
            return sec_fail(sc, at, "init flag 4 with the default contract (written as flag 0 or 3)");
        if (!lf_contract_valid(type, &ct, cwhy, sizeof cwhy)) return sec_fail(sc, at, "%s", cwhy);
        h->capacity = cap;
        h->contract = ct;
        init = 0;
    } else {
        h->type = type;
    }
    if (init > 3) return sec_fail(sc, c->pos - 1, "init flag %u is not 0, 1, 2 or 3", init);
    if (init && type != LF_TYPE_REGISTER && type != LF_TYPE_CAS_REGISTER)
        return sec_fail(sc, c->pos - 1, "an initial value is only allowed for register types, not %s",
                        lf_history_type_name(h));
    if (init == 1) {
        uint64_t v;
        if ((why = rd_varint(c, &v))) return sec_fail(sc, c->pos, "initial value: %s", why);
        h->init = unzigzag(v);
    }
    h->has_init = init != 0;
    h->init_kind = init == 2 ? LF_K_NIL : LF_K_INT;
    return LF_OK;
}

/* The shape table: each distinct (method, result kind, nil arguments) the ops use, in order of first use. */
static lf_status decode_shape_table(const section_ctx *sc, cursor *c, const lf_history *h, shape *shapes,
                                    uint64_t *shape_count) {
    const char *why;
    const uint8_t *str;
    size_t n;
    uint64_t n_shapes;
    if ((why = rd_varint(c, &n_shapes))) return sec_fail(sc, c->pos, "shape count: %s", why);
    if (n_shapes > N_SHAPE_KEYS || n_shapes > (c->end - c->pos) / MIN_SHAPE_BYTES)
        return sec_fail(sc, c->pos, "shape count %" PRIu64 " is impossible in the %zu bytes left", n_shapes,
                        c->end - c->pos);
    bool key_seen[N_SHAPE_KEYS] = {false};
    for (size_t k = 0; k < n_shapes; k++) {
        size_t at = c->pos;
        if ((why = rd_string(c, 32, &str, &n))) return sec_fail(sc, c->pos, "shape %zu: method name: %s", k, why);
        unsigned method;
        const lf_method_decl *mi =
            lf_history_method_lookup(h, (const char *)str, n, &method) ? lf_history_method(h, method) : NULL;
        if (!mi)
            return sec_fail(sc, at, "shape %zu: unknown method '%.*s' for type %s", k, (int)n, (const char *)str,
                            lf_history_type_name(h));
        uint8_t code, nil;
        if ((why = rd_u8(c, &code)) || (why = rd_u8(c, &nil)))
            return sec_fail(sc, c->pos, "shape %zu: %s", k, why);
        if (code >= N_RESULT_CODES) return sec_fail(sc, c->pos - 2, "shape %zu: unknown result code %u", k, code);
        lf_kind kind = RESULT_CODES[code];
        if (kind != LF_K_PENDING && !(mi->results & LF_KBIT(kind)))
            return sec_fail(sc, c->pos - 2, "shape %zu: %s cannot return %s", k, mi->name,
                            kind == LF_K_INT ? "an integer" : lf_kind_name(kind));
        if (kind == LF_K_FULL && !h->capacity)
            return sec_fail(sc, c->pos - 2, "shape %zu: %s -> full in a history without a capacity", k, mi->name);
        if (nil >> mi->nargs)
            return sec_fail(sc, c->pos - 1, "shape %zu: nil flags 0x%x name arguments %s does not have", k, nil,
                            mi->name);
        unsigned key = SHAPE_KEY(method, kind, nil);
        if (key_seen[key]) return sec_fail(sc, at, "shape %zu repeats an earlier shape", k);
        key_seen[key] = true;
        shapes[k] = (shape){mi, method, (uint8_t)kind, nil};
    }
    *shape_count = n_shapes;
    return LF_OK;
}

/* Op i: its shape index, thread, call and return stamps, arguments, result and a burst's values (stamps and
 * values delta-coded against the previous op's, carried in *prev_call and prev_value). */
static lf_status decode_op(const section_ctx *sc, cursor *c, lf_history *h, size_t i, const shape *shapes,
                           uint64_t n_shapes, size_t *next_new_shape, uint64_t *prev_call, int64_t *prev_value) {
    const char *why;
    lf_op *op = &h->ops[i];
    memset(op, 0, sizeof *op);
    size_t at = c->pos;
    uint64_t v;
    if ((why = rd_varint(c, &v))) {
        return sec_fail(sc, c->pos, "op %zu: shape: %s", i, why);
    }
    if (v >= n_shapes || v > *next_new_shape) {
        return sec_fail(sc, at, "op %zu: shape %" PRIu64 " is %s", i, v,
                        v >= n_shapes ? "not in the shape table" : "used before the shapes listed ahead of it");
    }
    if (v == *next_new_shape) (*next_new_shape)++;
    const shape *sh = &shapes[v];
    op->method = (uint8_t)sh->method;
    op->res_kind = sh->kind;
    op->arg_nil = sh->nil;
    if ((why = rd_varint(c, &v))) {
        return sec_fail(sc, c->pos, "op %zu: thread: %s", i, why);
    }
    if (v > UINT32_MAX) {
        return sec_fail(sc, at, "op %zu: thread %" PRIu64 " is above 4294967295", i, v);
    }
    op->thread = (uint32_t)v;
    if ((why = rd_varint(c, &v))) {
        return sec_fail(sc, c->pos, "op %zu: call stamp: %s", i, why);
    }
    op->call = *prev_call + (uint64_t)unzigzag(v); /* modulo 2^64, as written */
    *prev_call = op->call;
    if (sh->kind != LF_K_PENDING) {
        if ((why = rd_varint(c, &v))) {
            return sec_fail(sc, c->pos, "op %zu: return stamp: %s", i, why);
        }
        if (v > UINT64_MAX - op->call) {
            return sec_fail(sc, c->pos, "op %zu: return stamp overflows 64 bits", i);
        }
        op->ret = op->call + v;
    }
    for (int a = 0; a < sh->mi->nargs && !why; a++)
        if (!(sh->nil >> a & 1) && !(why = rd_varint(c, &v)))
            prev_value[a] = op->arg[a] = value_undelta(v, prev_value[a]);
    if (why) {
        return sec_fail(sc, c->pos, "op %zu: argument: %s", i, why);
    }
    if (sh->kind == LF_K_INT) {
        if ((why = rd_varint(c, &v))) {
            return sec_fail(sc, c->pos, "op %zu: result: %s", i, why);
        }
        prev_value[RESULT_SLOT] = op->res = value_undelta(v, prev_value[RESULT_SLOT]);
    }
    if (h->type != LF_TYPE_CUSTOM && lf_method_is_bulk(op->method)) {
        if ((why = rd_varint(c, &v))) {
            return sec_fail(sc, c->pos, "op %zu: value count: %s", i, why);
        }
        bool insert = lf_method_is_bulk_insert(op->method);
        if (v < 1 || v > LF_BULK_MAX || (sh->kind == LF_K_INT && (op->res < (insert ? 0 : 1) || op->res > (int64_t)v))) {
            return sec_fail(sc, at, "op %zu: %s of %" PRIu64 " values answering %" PRId64 " (1 to %d values; a "
                            "burst answers 0 to n inserted, 1 to n returned)", i, sh->mi->name, v, op->res,
                            LF_BULK_MAX);
        }
        op->count = (uint8_t)v;
        for (int a = 0, values = bulk_values(op); a < values && !why; a++)
            if (!(why = rd_varint(c, &v))) prev_value[a] = op->arg[a] = value_undelta(v, prev_value[a]);
        if (why) {
            return sec_fail(sc, c->pos, "op %zu: value: %s", i, why);
        }
    }
    return LF_OK;
}

static lf_status decode_history_body(const section_ctx *sc, lf_history *h) {
    const lf_lfz_section *sec = sc->s;
    cursor c = {sc->r->payload, sec->offset, sec->offset + sec->len};
    const char *why;
    lf_history_init(h, LF_TYPE_REGISTER);
    lf_status hs = decode_history_header(sc, &c, h);
    if (hs != LF_OK) return hs;

    uint64_t n_shapes = 0;
    shape shapes[N_SHAPE_KEYS];
    lf_status ss = decode_shape_table(sc, &c, h, shapes, &n_shapes);
    if (ss != LF_OK) return ss;

    uint64_t n_ops;
    if ((why = rd_varint(&c, &n_ops))) return sec_fail(sc, c.pos, "op count: %s", why);
    if (n_ops > (c.end - c.pos) / MIN_OP_BYTES)
        return sec_fail(sc, c.pos, "op count %" PRIu64 " is impossible in the %zu bytes left", n_ops, c.end - c.pos);
    uint64_t budget = lf_lfz_history_budget(sc->r->stored);
    if (n_ops > budget / sizeof *h->ops)
        return sec_fail(sc, c.pos,
                        "declares %" PRIu64 " ops (%" PRIu64 " bytes in memory) from a %" PRIu64 "-byte frame; linfuzz "
                        "decodes at most %" PRIu64 " ops from a file this size (64 MiB of ops, or %d bytes per "
                        "compressed byte): refused (keep a history this regular as text)",
                        n_ops, n_ops * sizeof *h->ops, sc->r->stored, budget / sizeof *h->ops, LF_LFZ_HISTORY_RATIO);
    if (n_ops) {
        /* Address space for every op at once (no copies as it fills); memory is taken only as ops are decoded,
         * so junk refused at its first bad op costs the ops before it. */
        h->ops = lf_big_malloc((size_t)n_ops * sizeof *h->ops);
        if (!h->ops) {
            snprintf(sc->err, sc->errlen, "%s: out of memory for %" PRIu64 " ops", sc->r->file, n_ops);
            return LF_ERR_NOMEM;
        }
        h->cap = (size_t)n_ops;
    }
    lf_seq_check seq;
    lf_seq_check_init(&seq);
    lf_status st = LF_OK;
    size_t next_new_shape = 0;
    uint64_t prev_call = 0;
    int64_t prev_value[RESULT_SLOT + 1] = {0}; /* the arguments, the result */
    for (size_t i = 0; i < n_ops; i++) {
        st = decode_op(sc, &c, h, i, shapes, n_shapes, &next_new_shape, &prev_call, prev_value);
        if (st != LF_OK) break;
        h->n = i + 1;
        if (!lf_seq_check_add(&seq, h, i)) {
            snprintf(sc->err, sc->errlen, "%s: out of memory", sc->r->file);
            st = LF_ERR_NOMEM;
            break;
        }
    }
    if (st == LF_OK && c.pos != c.end)
        st = sec_fail(sc, c.pos, "%zu unexpected bytes after the last op", c.end - c.pos);
    if (st == LF_OK && next_new_shape != n_shapes)
        st = sec_fail(sc, c.pos, "shape %zu of the table is never used", next_new_shape);
    if (st == LF_OK && seq.need_full_validate) {
        char msg[400];
        if (lf_history_validate(h, msg, sizeof msg) != SIZE_MAX)
            st = sec_fail(sc, sec->offset, "malformed history: %s", msg);
    }
    lf_seq_check_free(&seq);
    if (st != LF_OK) lf_history_free(h);
    return st;
}

/* Every early error return of the body leaves h to be freed here (a custom type's declaration may be owned). */
static lf_status decode_history(const section_ctx *sc, lf_history *h) {
    lf_status st = decode_history_body(sc, h);
    if (st != LF_OK) lf_history_free(h);
    return st;
}

void lf_lfz_reader_free(lf_lfz_reader *r) {
    free(r->file);
    free(r->payload);
    free(r->strings);
    free(r->pairs);
    free(r->sections);
    memset(r, 0, sizeof *r);
}

/* Copies n bytes into the string arena with a terminating NUL. The arena has payload_len + 1 bytes, enough
 * for all strings: each one is preceded in the payload by at least one length byte, which pays for its NUL. */
static char *arena_put(char **arena, const uint8_t *s, size_t n) {
    char *out = *arena;
    if (n) memcpy(out, s, n);
    out[n] = '\0';
    *arena += n + 1;
    return out;
}

static int cmp_name_ptr(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static lf_status parse_meta(section_ctx *sc, lf_lfz_section *s, char **arena, size_t *n_pairs_total,
                            size_t *pairs_cap) {
    lf_lfz_reader *r = (lf_lfz_reader *)sc->r;
    cursor c = {r->payload, s->offset, s->offset + s->len};
    const char *why;
    uint64_t n;
    if ((why = rd_varint(&c, &n))) return sec_fail(sc, c.pos, "pair count: %s", why);
    if (n > LF_LFZ_MAX_PAIRS || n > (c.end - c.pos) / MIN_PAIR_BYTES)
        return sec_fail(sc, c.pos, "pair count %" PRIu64 " is impossible in the %zu bytes left", n, c.end - c.pos);
    if (!LF_GROW(r->pairs, *pairs_cap, *n_pairs_total + (size_t)n, 16)) {
        snprintf(sc->err, sc->errlen, "%s: out of memory", r->file);
        return LF_ERR_NOMEM;
    }
    /* Pointers into r->pairs are fixed up once all sections are parsed (the array may still move). */
    s->n_pairs = (size_t)n;
    s->pairs = (const lf_lfz_pair *)(uintptr_t)*n_pairs_total;
    const char *prev_key = NULL;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *k, *v;
        size_t kn, vn;
        size_t at = c.pos;
        if ((why = rd_string(&c, LF_LFZ_MAX_KEY, &k, &kn))) return sec_fail(sc, c.pos, "pair %zu: key: %s", i, why);
        if (!valid_name((const char *)k, kn, LF_LFZ_MAX_KEY))
            return sec_fail(sc, at, "pair %zu: key is not 1-%d characters of A-Z a-z 0-9 _ . -", i, LF_LFZ_MAX_KEY);
        char *key = arena_put(arena, k, kn);
        if (prev_key && strcmp(prev_key, key) >= 0)
            return sec_fail(sc, at, "pair %zu: key '%s' is not after '%s' (keys are stored sorted and distinct)",
                            i, key, prev_key);
        at = c.pos;
        if ((why = rd_string(&c, SIZE_MAX, &v, &vn))) return sec_fail(sc, c.pos, "pair %zu: value: %s", i, why);
        size_t bad = utf8_bad_offset(v, vn);
        if (bad != vn) return sec_fail(sc, at + 1 + bad, "pair %zu: value is not valid UTF-8 text", i);
        r->pairs[*n_pairs_total + i] = (lf_lfz_pair){key, arena_put(arena, v, vn)};
        prev_key = key;
    }
    if (c.pos != c.end) return sec_fail(sc, c.pos, "%zu unexpected bytes after the last pair", c.end - c.pos);
    *n_pairs_total += (size_t)n;
    return LF_OK;
}

/* Whether a reader's complaint only means that the bytes ended (more may still arrive). */
static bool ran_out(const char *why) {
    return why && (!strcmp(why, "truncated") || !strcmp(why, "truncated varint") ||
                   !strcmp(why, "string runs past the end"));
}

/* Reads the header of section i at c: kind, name (*name, *name_len point into the payload) and body length,
 * which must fit in the payload of payload_end bytes; sets s->kind, s->offset, s->len and moves c past the
 * header. While the payload is still arriving (c->end < payload_end), a header that is not complete yet
 * sets *more and leaves c alone. */
static lf_status section_header(const lf_lfz_reader *r, cursor *c, size_t payload_end, uint32_t i, uint32_t declared,
                                lf_lfz_section *s, const uint8_t **name, size_t *name_len, bool *more, char *err,
                                size_t errlen) {
    cursor h = *c;
    bool partial = c->end < payload_end;
    uint8_t kind;
    uint64_t body_len;
    const char *why;
    *more = false;
    if ((why = rd_u8(&h, &kind)) && !partial)
        return fail(err, errlen, "%s: payload offset %zu: the payload ends after %" PRIu32 " of %" PRIu32
                    " declared sections", r->file, c->pos, i, declared);
    if (!why && (kind < LF_LFZ_HISTORY || kind > LF_LFZ_META))
        return fail(err, errlen, "%s: payload offset %zu: section %" PRIu32 ": unknown section kind %u", r->file,
                    c->pos, i, kind);
    if (!why) why = rd_string(&h, LF_LFZ_MAX_NAME, name, name_len);
    if (partial && ran_out(why)) {
        *more = true;
        return LF_OK;
    }
    if (why || !valid_name((const char *)*name, *name_len, LF_LFZ_MAX_NAME))
        return fail(err, errlen, "%s: payload offset %zu: section %" PRIu32 ": bad name: %s", r->file, c->pos + 1, i,
                    why ? why : "not 1-64 characters of A-Z a-z 0-9 _ . -");
    why = rd_varint(&h, &body_len);
    if (partial && ran_out(why)) {
        *more = true;
        return LF_OK;
    }
    const char *kind_name = lf_lfz_kind_name((lf_lfz_kind)kind);
    if (why)
        return fail(err, errlen, "%s: payload offset %zu: section %" PRIu32 " '%.*s' (%s): body length: %s", r->file,
                    h.pos, i, (int)*name_len, (const char *)*name, kind_name, why);
    if (body_len > payload_end - h.pos)
        return fail(err, errlen,
                    "%s: payload offset %zu: section %" PRIu32 " '%.*s' (%s): body of %" PRIu64
                    " bytes runs past the payload's end (%zu bytes left)",
                    r->file, h.pos, i, (int)*name_len, (const char *)*name, kind_name, body_len, payload_end - h.pos);
    s->kind = (lf_lfz_kind)kind;
    s->offset = h.pos;
    s->len = (size_t)body_len;
    c->pos = h.pos;
    return LF_OK;
}

/* Splits the verified payload into sections and checks each one's structure. */
static lf_status parse_sections(lf_lfz_reader *r, uint32_t declared, char *err, size_t errlen) {
    if (declared > r->payload_len / MIN_SECTION_BYTES)
        return fail(err, errlen, "%s: header declares %" PRIu32 " sections, impossible in a %zu-byte payload",
                    r->file, declared, r->payload_len);
    r->sections = calloc(declared ? declared : 1, sizeof *r->sections);
    r->strings = malloc(r->payload_len + 1);
    const char **names = malloc((declared ? declared : 1) * sizeof *names);
    if (!r->sections || !r->strings || !names) {
        free(names);
        snprintf(err, errlen, "%s: out of memory", r->file);
        return LF_ERR_NOMEM;
    }
    char *arena = r->strings;
    size_t n_pairs = 0, pairs_cap = 0;
    cursor c = {r->payload, 0, r->payload_len};
    lf_status st = LF_OK;
    for (uint32_t i = 0; i < declared && st == LF_OK; i++) {
        lf_lfz_section *s = &r->sections[i];
        section_ctx sc = {r, s, i, err, errlen};
        const uint8_t *name;
        size_t name_len;
        bool more;
        if ((st = section_header(r, &c, r->payload_len, i, declared, s, &name, &name_len, &more, err, errlen)))
            break;
        s->name = names[i] = arena_put(&arena, name, name_len);
        s->data = r->payload + s->offset;
        c.pos += s->len;
        if (s->kind == LF_LFZ_TEXT) {
            size_t bad = utf8_bad_offset(s->data, s->len);
            if (bad != s->len)
                st = sec_fail(&sc, s->offset + bad, "text is not valid UTF-8 (or holds a NUL byte)");
            else
                s->text = arena_put(&arena, s->data, s->len);
        } else if (s->kind == LF_LFZ_META) {
            st = parse_meta(&sc, s, &arena, &n_pairs, &pairs_cap);
        }
        r->n_sections = i + 1;
    }
    if (st == LF_OK && c.pos != c.end)
        st = fail(err, errlen, "%s: payload offset %zu: %zu unexpected bytes after the last declared section",
                  r->file, c.pos, c.end - c.pos);
    if (st == LF_OK) {
        qsort(names, declared, sizeof *names, cmp_name_ptr);
        for (uint32_t i = 1; i < declared && st == LF_OK; i++)
            if (strcmp(names[i - 1], names[i]) == 0)
                st = fail(err, errlen, "%s: two sections are named '%s'", r->file, names[i]);
    }
    if (st == LF_OK)
        for (size_t i = 0; i < r->n_sections; i++)
            if (r->sections[i].kind == LF_LFZ_META)
                /* when every meta section is empty no array exists: NULL + 0 is undefined, keep NULL */
                r->sections[i].pairs = r->pairs ? r->pairs + (uintptr_t)r->sections[i].pairs : NULL;
    free(names);
    return st;
}

/* ---- streaming decompression ---- */

uint64_t lf_lfz_history_budget(uint64_t compressed) {
    uint64_t b = compressed > (UINT64_MAX - LF_LFZ_HISTORY_FLOOR) / LF_LFZ_HISTORY_RATIO
                     ? UINT64_MAX
                     : LF_LFZ_HISTORY_FLOOR + compressed * LF_LFZ_HISTORY_RATIO;
    return b;
}

uint64_t lf_lfz_payload_budget(uint64_t compressed) {
    uint64_t b = compressed > LF_LFZ_MAX_PAYLOAD / LF_LFZ_BUDGET_RATIO ? LF_LFZ_MAX_PAYLOAD
                                                                       : compressed * LF_LFZ_BUDGET_RATIO;
    if (b < LF_LFZ_BUDGET_FLOOR) b = LF_LFZ_BUDGET_FLOOR;
    return b < LF_LFZ_MAX_PAYLOAD ? b : LF_LFZ_MAX_PAYLOAD;
}

#define INFLATE_FIRST_BYTES (1u << 20) /* the payload buffer starts this big and doubles as output arrives */

/* Checks the headers of the sections that have arrived in r->payload[0, avail) of a payload_len-byte payload:
 * *pos is where the next unchecked header starts, *index its number. A history body starts with its type
 * name, checked as soon as it is out too. */
static lf_status scan_arrived(const lf_lfz_reader *r, size_t avail, size_t payload_len, uint32_t declared,
                              size_t *pos, uint32_t *index, char *err, size_t errlen) {
    while (*index < declared && *pos < avail) {
        cursor c = {r->payload, *pos, avail};
        lf_lfz_section s;
        const uint8_t *name, *type;
        size_t name_len, type_len;
        bool more;
        lf_status st = section_header(r, &c, payload_len, *index, declared, &s, &name, &name_len, &more, err, errlen);
        if (st != LF_OK || more) return st;
        cursor body = {r->payload, s.offset, s.offset + s.len < avail ? s.offset + s.len : avail};
        lf_type t;
        if (s.kind == LF_LFZ_HISTORY && !rd_string(&body, MAX_TYPE_NAME, &type, &type_len) &&
            !lf_type_from_name((const char *)type, type_len, &t)) {
            /* a name that is not built in is a custom type only when its declaration block follows (the init
             * byte INIT_CUSTOM_DECL); when that byte has not arrived yet, the history's decoder decides later */
            bool custom = body.pos < body.end ? r->payload[body.pos] == INIT_CUSTOM_DECL : s.offset + s.len > avail;
            if (!custom)
                return fail(err, errlen,
                            "%s: payload offset %zu: section %" PRIu32 " '%.*s' (history): unknown type '%.*s'",
                            r->file, body.pos, *index, (int)name_len, (const char *)name, (int)type_len,
                            (const char *)type);
        }
        *pos = s.offset + s.len;
        ++*index;
    }
    if (*index == declared && *pos < avail)
        return fail(err, errlen, "%s: payload offset %zu: %zu unexpected bytes after the last declared section",
                    r->file, *pos, payload_len - *pos);
    return LF_OK;
}

/* Decompresses the stored frame into r->payload: payload_len bytes, as the header and the frame both declare
 * (and within the budget). The buffer grows with the output, and the sections are checked as they arrive. */
static lf_status inflate_payload(lf_lfz_reader *r, const uint8_t *frame, size_t stored, size_t payload_len,
                                 uint32_t declared, char *err, size_t errlen) {
    size_t cap = payload_len < INFLATE_FIRST_BYTES ? payload_len : INFLATE_FIRST_BYTES, out = 0, pos = 0;
    uint32_t index = 0;
    r->payload = malloc(cap ? cap : 1);
    ZSTD_DCtx *d = ZSTD_createDCtx();
    if (!r->payload || !d) {
        ZSTD_freeDCtx(d);
        snprintf(err, errlen, "%s: out of memory for a %zu-byte payload", r->file, payload_len);
        return LF_ERR_NOMEM;
    }
    ZSTD_inBuffer in = {frame, stored, 0};
    lf_status st = LF_OK;
    for (;;) {
        if (out == cap && cap < payload_len) {
            size_t grown = cap > payload_len / 2 ? payload_len : cap * 2;
            uint8_t *p = realloc(r->payload, grown);
            if (!p) {
                snprintf(err, errlen, "%s: out of memory for a %zu-byte payload", r->file, payload_len);
                st = LF_ERR_NOMEM;
                break;
            }
            r->payload = p;
            cap = grown;
        }
        ZSTD_outBuffer ob = {r->payload, cap, out};
        size_t in_before = in.pos;
        size_t left = ZSTD_decompressStream(d, &ob, &in);
        if (ZSTD_isError(left)) {
            st = fail(err, errlen, "%s: zstd: %s", r->file, ZSTD_getErrorName(left));
            break;
        }
        bool progress = ob.pos != out || in.pos != in_before;
        out = ob.pos;
        if ((st = scan_arrived(r, out, payload_len, declared, &pos, &index, err, errlen)) != LF_OK) break;
        if (left == 0) break; /* the frame is complete */
        if (!progress) {
            st = fail(err, errlen, "%s: the zstd frame does not decompress to the declared %zu bytes", r->file,
                      payload_len);
            break;
        }
    }
    ZSTD_freeDCtx(d);
    if (st == LF_OK && out != payload_len)
        st = fail(err, errlen, "%s: decompressed %zu bytes, the header declares %zu", r->file, out, payload_len);
    r->payload_len = out;
    return st;
}

/* The header's fields, once checked. */
typedef struct lfz_header {
    uint32_t n_sections;
    uint64_t payload_len, stored;
} lfz_header;

#define LEN_UNKNOWN UINT64_MAX /* check_header: the file is a stream whose length is not known yet */

/* The checks of the header (docs/formats.md, "Reading hostile files", 1-8): f holds the first `have` bytes of
 * a file of file_len bytes (LEN_UNKNOWN for a stream not read to its end; have is then at least the header).
 * Needs no byte of the frame, so a reader refuses a bad header before reading further. */
static lf_status check_header(const uint8_t *f, size_t have, uint64_t file_len, const char *name, lfz_header *hd,
                              char *err, size_t errlen) {
    size_t magic_cmp = have < sizeof MAGIC ? have : sizeof MAGIC;
    if (memcmp(f, MAGIC, magic_cmp) != 0) {
        bool texty = have > 0 && (f[0] == '#' || f[0] == 't' || f[0] == ' ' || f[0] == '\n');
        return fail(err, errlen, "%s: not an .lfz file (bad magic bytes)%s", name,
                    texty ? "; it looks like a text history, which should not be named .lfz" : "");
    }
    if (have < LF_LFZ_HEADER_SIZE)
        return fail(err, errlen, "%s: truncated: %zu bytes, shorter than the %d-byte .lfz header", name, have,
                    LF_LFZ_HEADER_SIZE);
    uint64_t version = get_le(f + 8, 2);
    if (version != LF_LFZ_VERSION)
        return fail(err, errlen, "%s: unsupported .lfz version %" PRIu64 " (this build reads version %d)", name,
                    version, LF_LFZ_VERSION);
    if (get_le(f + 48, 8) != XXH64(f, 48, 0))
        return fail(err, errlen, "%s: header checksum mismatch (the header is corrupted)", name);
    uint64_t flags = get_le(f + 10, 2), n_sections = get_le(f + 12, 4), payload_len = get_le(f + 16, 8),
             stored = get_le(f + 24, 8);
    if (flags != 0) return fail(err, errlen, "%s: unknown header flags 0x%" PRIx64, name, flags);
    if (file_len != LEN_UNKNOWN) {
        uint64_t rest = file_len - LF_LFZ_HEADER_SIZE;
        if (stored > rest)
            return fail(err, errlen,
                        "%s: truncated: the header declares %" PRIu64 " compressed bytes, the file has %" PRIu64,
                        name, stored, rest);
        if (stored < rest)
            return fail(err, errlen, "%s: %" PRIu64 " unexpected bytes after the compressed payload", name,
                        rest - stored);
    }
    if (n_sections > LF_LFZ_MAX_SECTIONS)
        return fail(err, errlen, "%s: declares %" PRIu64 " sections, more than the limit of %d", name, n_sections,
                    LF_LFZ_MAX_SECTIONS);
    if (payload_len > LF_LFZ_MAX_PAYLOAD || payload_len > SIZE_MAX - 1)
        return fail(err, errlen, "%s: declared payload of %" PRIu64 " bytes exceeds the 4 GiB limit", name,
                    payload_len);
    if (payload_len > stored * ZSTD_MAX_RATIO)
        return fail(err, errlen,
                    "%s: declared payload of %" PRIu64 " bytes cannot come from %" PRIu64 " compressed bytes "
                    "(zstd expands at most %ux)",
                    name, payload_len, stored, ZSTD_MAX_RATIO);
    if (stored > ZSTD_compressBound((size_t)payload_len))
        return fail(err, errlen,
                    "%s: declares %" PRIu64 " compressed bytes, more than any zstd frame of the declared %" PRIu64
                    "-byte payload takes",
                    name, stored, payload_len);
    uint64_t budget = lf_lfz_payload_budget(stored);
    if (payload_len > budget)
        return fail(err, errlen,
                    "%s: declares a payload of %" PRIu64 " bytes from %" PRIu64 " compressed bytes (%" PRIu64
                    ":1); linfuzz decompresses at most %" PRIu64 " bytes from a file this size (64 MiB, or %d bytes "
                    "per compressed byte): refused as a decompression bomb",
                    name, payload_len, stored, stored ? payload_len / stored : payload_len, budget,
                    LF_LFZ_BUDGET_RATIO);
    hd->n_sections = (uint32_t)n_sections;
    hd->payload_len = payload_len;
    hd->stored = stored;
    return LF_OK;
}

lf_status lf_lfz_decode(lf_lfz_reader *r, const void *file_data, size_t len, const char *name, char *err,
                        size_t errlen) {
    memset(r, 0, sizeof *r);
    if (errlen) err[0] = '\0';
    r->file = strdup(name);
    if (!r->file) return nomem(err, errlen);
    const uint8_t *f = file_data;
    lfz_header hd;
    lf_status st = check_header(f, len, len, name, &hd, err, errlen);
    if (st != LF_OK) goto out;
    uint64_t payload_len = hd.payload_len, stored = hd.stored;
    r->stored = stored;
    const uint8_t *frame = f + LF_LFZ_HEADER_SIZE;
    if (get_le(f + 40, 8) != XXH64(frame, (size_t)stored, 0)) {
        st = fail(err, errlen, "%s: compressed data checksum mismatch (the file is corrupted)", name);
        goto out;
    }
    /* From here on the bytes are as written, so failures mean a buggy or deliberately crafted file. */
    unsigned long long content = ZSTD_getFrameContentSize(frame, (size_t)stored);
    if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN || content != payload_len) {
        st = fail(err, errlen, "%s: the zstd frame %s", name,
                  content == ZSTD_CONTENTSIZE_ERROR     ? "header is invalid"
                  : content == ZSTD_CONTENTSIZE_UNKNOWN ? "does not record its content size"
                                                        : "content size disagrees with the .lfz header");
        goto out;
    }
    size_t frame_size = ZSTD_findFrameCompressedSize(frame, (size_t)stored);
    if (ZSTD_isError(frame_size) || frame_size != stored) {
        st = fail(err, errlen, "%s: the compressed data is not exactly one zstd frame", name);
        goto out;
    }
    if ((st = inflate_payload(r, frame, (size_t)stored, (size_t)payload_len, hd.n_sections, err, errlen)))
        goto out;
    size_t got = r->payload_len;
    if (get_le(f + 32, 8) != XXH64(r->payload, got, 0)) {
        st = fail(err, errlen, "%s: payload checksum mismatch", name);
        goto out;
    }
    st = parse_sections(r, hd.n_sections, err, errlen);
out:
    if (st != LF_OK) lf_lfz_reader_free(r);
    return st;
}

lf_status lf_lfz_decode_payload(lf_lfz_reader *r, const void *payload, size_t len, uint32_t n_sections,
                                const char *name, char *err, size_t errlen) {
    memset(r, 0, sizeof *r);
    if (errlen) err[0] = '\0';
    r->file = strdup(name);
    r->payload = malloc(len ? len : 1);
    if (!r->file || !r->payload) {
        lf_lfz_reader_free(r);
        return nomem(err, errlen);
    }
    if (len) memcpy(r->payload, payload, len);
    r->payload_len = len;
    lf_status st = parse_sections(r, n_sections, err, errlen);
    if (st != LF_OK) lf_lfz_reader_free(r);
    return st;
}

/* Reads up to want bytes more into *data (grown as they arrive, from 64 KiB, never beyond want in total). */
static lf_status read_more(lf_input *in, uint8_t **data, size_t *len, size_t *cap, size_t want, const char *path,
                           char *err, size_t errlen) {
    while (*len < want) {
        if (*len == *cap) {
            size_t grown = *cap < want / 2 ? *cap * 2 : want;
            uint8_t *p = realloc(*data, grown);
            if (!p) {
                snprintf(err, errlen, "%s: out of memory reading the file", path);
                return LF_ERR_NOMEM;
            }
            *data = p;
            *cap = grown;
        }
        size_t ask = (*cap < want ? *cap : want) - *len;
        size_t got = lf_input_read(in, *data + *len, ask);
        if (got == SIZE_MAX) {
            snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
            return LF_ERR_IO;
        }
        *len += got;
        if (got < ask) break; /* the end of the file */
    }
    return LF_OK;
}

lf_status lf_lfz_open(lf_lfz_reader *r, const char *path, char *err, size_t errlen) {
    memset(r, 0, sizeof *r);
    /* Never more than the file's header declares: the header first (a wrong magic is refused after 8 bytes,
     * a bomb after 56), then the frame it declares, and one byte to see whether a stream goes on after it.
     * A regular file's length is known, so its header is checked against it before the frame is read. */
    lf_input in;
    lf_status st = lf_open_input(path, &in, err, errlen);
    if (st != LF_OK) return st;
    size_t cap = 1 << 16, len = 0;
    uint8_t *data = malloc(cap);
    if (!data) {
        lf_input_close(&in);
        snprintf(err, errlen, "%s: out of memory reading the file", path);
        return LF_ERR_NOMEM;
    }
    st = read_more(&in, &data, &len, &cap, LF_LFZ_HEADER_SIZE, path, err, errlen);
    lfz_header hd;
    if (st == LF_OK && len == LF_LFZ_HEADER_SIZE) {
        uint64_t file_len = in.regular ? in.size : LEN_UNKNOWN;
        if ((st = check_header(data, len, file_len, path, &hd, err, errlen)) == LF_OK)
            st = read_more(&in, &data, &len, &cap, LF_LFZ_HEADER_SIZE + (size_t)hd.stored + 1, path, err, errlen);
        if (st == LF_OK && len > LF_LFZ_HEADER_SIZE + hd.stored)
            st = fail(err, errlen, "%s: unexpected bytes after the compressed payload (%s)", path,
                      in.regular ? "the file grew while it was read" : "the stream goes on past the size its header declares");
    }
    lf_input_close(&in);
    if (st == LF_OK) st = lf_lfz_decode(r, data, len, path, err, errlen);
    free(data);
    return st;
}

const lf_lfz_section *lf_lfz_find(const lf_lfz_reader *r, lf_lfz_kind kind, const char *name) {
    for (size_t i = 0; i < r->n_sections; i++)
        if (r->sections[i].kind == kind && (!name || strcmp(r->sections[i].name, name) == 0))
            return &r->sections[i];
    return NULL;
}

size_t lf_lfz_history_count(const lf_lfz_reader *r) {
    size_t n = 0;
    for (size_t i = 0; i < r->n_sections; i++) n += r->sections[i].kind == LF_LFZ_HISTORY;
    return n;
}

const lf_lfz_section *lf_lfz_history_section(const lf_lfz_reader *r, size_t index) {
    for (size_t i = 0; i < r->n_sections; i++)
        if (r->sections[i].kind == LF_LFZ_HISTORY && index-- == 0) return &r->sections[i];
    return NULL;
}

lf_status lf_lfz_get_history(const lf_lfz_reader *r, const lf_lfz_section *s, lf_history *h, char *err,
                             size_t errlen) {
    lf_history_init(h, LF_TYPE_REGISTER);
    if (s->kind != LF_LFZ_HISTORY)
        return fail(err, errlen, "%s: section '%s' holds %s, not a history", r->file, s->name,
                    lf_lfz_kind_name(s->kind));
    section_ctx sc = {r, s, (size_t)(s - r->sections), err, errlen};
    return decode_history(&sc, h);
}

const char *lf_lfz_meta_get(const lf_lfz_section *s, const char *key) {
    for (size_t i = 0; i < s->n_pairs; i++)
        if (strcmp(s->pairs[i].key, key) == 0) return s->pairs[i].value;
    return NULL;
}

lf_status lf_lfz_read_history(const char *path, const char *section_name, lf_history *h, char *err,
                              size_t errlen) {
    lf_history_init(h, LF_TYPE_REGISTER);
    lf_lfz_reader r;
    lf_status st = lf_lfz_open(&r, path, err, errlen);
    if (st) return st;
    const lf_lfz_section *s = lf_lfz_find(&r, LF_LFZ_HISTORY, section_name);
    if (!s) {
        if (section_name)
            st = fail(err, errlen, "%s: no history section named '%s'", path, section_name);
        else
            st = fail(err, errlen, "%s: the container holds no history section", path);
    } else {
        st = lf_lfz_get_history(&r, s, h, err, errlen);
    }
    lf_lfz_reader_free(&r);
    return st;
}

lf_status lf_lfz_write_history(const char *path, const lf_history *h, int level, char *err, size_t errlen) {
    lf_lfz_writer w;
    lf_lfz_writer_init(&w);
    char msg[600];
    lf_status st = lf_lfz_add_history(&w, "history", h, msg, sizeof msg);
    if (st)
        snprintf(err, errlen, "%s: %s", path, msg);
    else
        st = lf_lfz_save(&w, path, level, err, errlen);
    lf_lfz_writer_free(&w);
    return st;
}
