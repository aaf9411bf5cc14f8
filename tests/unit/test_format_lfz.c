/* The .lfz container: round trips (random histories of every type, several sections), canonical bytes,
 * writer errors, atomic files, and hostile input: every truncation and byte flip of a small file, and
 * crafted files with valid checksums that lie about sizes or break the section and op encodings. */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "linfuzz/format.h"
#include "linfuzz/lfz.h"
#include <xxhash.h>
#include "linfuzz/history.h"
#include "test_util.h"

static uint64_t rng_state;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static bool same_history(const lf_history *a, const lf_history *b) {
    if (a->type != b->type || a->has_init != b->has_init || a->n != b->n) return false;
    if (a->has_init && (a->init_kind != b->init_kind || (a->init_kind == LF_K_INT && a->init != b->init)))
        return false;
    return a->n == 0 || memcmp(a->ops, b->ops, a->n * sizeof *a->ops) == 0;
}

static int64_t random_value(void) {
    switch (rnd() % 6) {
    case 0: return INT64_MIN;
    case 1: return INT64_MAX;
    case 2: return (int64_t)(rnd() % 2000) - 1000;
    case 3: return (int64_t)rnd();
    default: return (int64_t)(rnd() % 50);
    }
}

/* A random result of a finished bulk or burst op of op->count values, of every shape its method allows. */
static void random_bulk_result(const lf_history *h, lf_op *op) {
    bool insert = lf_method_is_bulk_insert(op->method), burst = lf_method_is_burst(op->method);
    if (insert && burst) {
        op->res_kind = LF_K_INT;
        op->res = h->capacity ? (int64_t)(rnd() % (op->count + 1u)) : op->count;
    } else if (insert) {
        op->res_kind = h->capacity && rnd() % 3 == 0 ? LF_K_FULL : LF_K_NONE;
    } else if (rnd() % 4 == 0) {
        op->res_kind = LF_K_EMPTY;
    } else {
        op->res_kind = LF_K_INT;
        op->res = burst ? 1 + (int64_t)(rnd() % op->count) : op->count;
    }
}

/* A well-formed random history of the type: sequential threads, every method, every allowed result kind,
 * nil arguments, pending last ops, extreme values, and stamps near UINT64_MAX for some seeds. Fields the
 * op does not use stay zero, as the readers leave them. */
static void random_history(lf_history *h, lf_type type, size_t n) {
    lf_history_init(h, type);
    if (type == LF_TYPE_REGISTER || type == LF_TYPE_CAS_REGISTER) {
        int init = (int)(rnd() % 3);
        h->has_init = init != 0;
        h->init_kind = init == 2 ? LF_K_NIL : LF_K_INT;
        h->init = init == 1 ? random_value() : 0;
    }
    const lf_method_info *methods[LF_M_COUNT];
    int n_methods = 0;
    for (int m = 0; m < LF_M_COUNT; m++)
        if (lf_method_info_of(type, (lf_method)m)) methods[n_methods++] = lf_method_info_of(type, (lf_method)m);
    enum { T = 6 };
    uint64_t free_at[T];
    bool ended[T] = {false};
    uint64_t now = rnd() % 3 == 0 ? UINT64_MAX - 20 * (uint64_t)n - 100 : rnd() % 1000;
    for (int t = 0; t < T; t++) free_at[t] = now;
    int threads = 1 + (int)(rnd() % T);
    for (size_t i = 0; i < n; i++) {
        int t = (int)(rnd() % (uint64_t)threads);
        if (ended[t]) continue;
        lf_op op;
        memset(&op, 0, sizeof op);
        op.thread = (uint32_t)t * (rnd() % 4 == 0 ? 1000003u : 1u);
        now += rnd() % 3;
        op.call = now > free_at[t] ? now : free_at[t];
        const lf_method_info *mi = methods[rnd() % (uint64_t)n_methods];
        op.method = (uint8_t)mi->method;
        bool bulk = lf_method_is_bulk(op.method);
        if (bulk) op.count = (uint8_t)(1 + rnd() % LF_BULK_MAX); /* n values (history.h) */
        for (int a = 0; a < mi->nargs; a++) {
            if (rnd() % 8 == 0)
                op.arg_nil |= (uint8_t)(1u << a);
            else
                op.arg[a] = random_value();
        }
        if (rnd() % 25 == 0) {
            op.res_kind = LF_K_PENDING;
            ended[t] = true;
        } else {
            op.ret = op.call + rnd() % 9;
            free_at[t] = op.ret + 1;
            if (bulk) {
                random_bulk_result(h, &op);
            } else {
                lf_kind kinds[LF_K_COUNT];
                int nk = 0;
                for (int k = 0; k < LF_K_PENDING; k++)
                    if (mi->results & LF_KBIT(k)) kinds[nk++] = (lf_kind)k;
                op.res_kind = (uint8_t)kinds[rnd() % (uint64_t)nk];
                if (op.res_kind == LF_K_INT) op.res = random_value();
            }
        }
        /* a bulk op's values: an insert's n, a remove's returned ones */
        int values = !bulk ? 0 : lf_method_is_bulk_insert(op.method) ? op.count : op.res_kind == LF_K_INT ? (int)op.res : 0;
        for (int a = 0; a < values; a++) op.arg[a] = random_value();
        lf_history_push(h, &op);
    }
}

static lf_status decode(lf_lfz_reader *r, const uint8_t *file, size_t len, char *err, size_t errlen) {
    return lf_lfz_decode(r, file, len, "mem.lfz", err, errlen);
}

static void test_xxh64_vectors(void) {
    /* libxxhash gives the published XXH64 values (seed 0), the function zstd stores the low 32 bits of as its frame checksum. */
    CHECK(XXH64("", 0, 0) == 0xEF46DB3751D8E999ULL);
    CHECK(XXH64("a", 1, 0) == 0xD24EC4F1A98C6E5BULL);
    CHECK(XXH64("abc", 3, 0) == 0x44BC2CF5AD770999ULL);
    uint8_t data[1000];
    for (int i = 0; i < 1000; i++) data[i] = (uint8_t)(i * 7 + 3);
    size_t cap = ZSTD_compressBound(sizeof data);
    uint8_t *frame = malloc(cap);
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    size_t n = ZSTD_compress2(c, frame, cap, data, sizeof data);
    CHECK(!ZSTD_isError(n) && n > 4);
    uint32_t stored = (uint32_t)frame[n - 4] | (uint32_t)frame[n - 3] << 8 | (uint32_t)frame[n - 2] << 16 |
                      (uint32_t)frame[n - 1] << 24;
    CHECK(stored == (uint32_t)XXH64(data, sizeof data, 0));
    ZSTD_freeCCtx(c);
    free(frame);
}

static void test_history_round_trips(void) {
    char err[1024];
    int histories = 0;
    for (int type = 0; type < LF_TYPE_COUNT; type++) {
        for (int seed = 1; seed <= 40; seed++) {
            rng_state = (uint64_t)seed * 0x9E3779B97F4A7C15ULL + (uint64_t)type;
            lf_history h, back;
            size_t n = seed == 1 ? 0 : seed == 2 ? 1 : (size_t)(rnd() % 400);
            random_history(&h, (lf_type)type, n);
            CHECKF(lf_history_validate(&h, err, sizeof err) == SIZE_MAX, "generator: %s", err);
            lf_lfz_writer w;
            lf_lfz_writer_init(&w);
            CHECKF(lf_lfz_add_history(&w, "h", &h, err, sizeof err) == LF_OK, "%s", err);
            uint8_t *file;
            size_t len;
            CHECK(lf_lfz_encode(&w, 1 + seed % 5, &file, &len, err, sizeof err) == LF_OK);
            lf_lfz_reader r;
            lf_status s = decode(&r, file, len, err, sizeof err);
            CHECKF(s == LF_OK, "type %d seed %d: %s", type, seed, err);
            if (s == LF_OK) {
                CHECK(r.n_sections == 1 && lf_lfz_history_count(&r) == 1);
                s = lf_lfz_get_history(&r, lf_lfz_history_section(&r, 0), &back, err, sizeof err);
                CHECKF(s == LF_OK, "type %d seed %d: %s", type, seed, err);
                CHECKF(s == LF_OK && same_history(&h, &back), "type %d seed %d: history differs", type, seed);
                if (s == LF_OK) lf_history_free(&back);
                lf_lfz_reader_free(&r);
            }
            free(file);
            lf_lfz_writer_free(&w);
            lf_history_free(&h);
            histories++;
        }
    }
    CHECK(histories == 40 * LF_TYPE_COUNT);
}

/* A corpus-entry-like container: workload bytes, full and minimised history, verdict, report, metadata. */
static void build_entry(lf_lfz_writer *w, lf_history *full, lf_history *minimized) {
    char err[512];
    rng_state = 77;
    random_history(full, LF_TYPE_QUEUE, 300);
    bool *keep = calloc(full->n, sizeof *keep);
    for (size_t i = 0; i < full->n; i += 3) keep[i] = true;
    lf_history_select(minimized, full, keep);
    free(keep);
    static const uint8_t workload[] = {0, 1, 2, 0xff, 0, 0x80, 'x'};
    lf_lfz_writer_init(w);
    CHECK(lf_lfz_add_bytes(w, "workload", workload, sizeof workload, err, sizeof err) == LF_OK);
    CHECK(lf_lfz_add_history(w, "full", full, err, sizeof err) == LF_OK);
    CHECK(lf_lfz_add_history(w, "minimized", minimized, err, sizeof err) == LF_OK);
    CHECK(lf_lfz_add_text(w, "verdict", "violation: deq -> 7 before enq 7", err, sizeof err) == LF_OK);
    CHECK(lf_lfz_add_text(w, "report", "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x90\x9b\nline 2\n", err, sizeof err) == LF_OK);
    CHECK(lf_lfz_add_bytes(w, "empty", "", 0, err, sizeof err) == LF_OK);
    lf_lfz_pair meta[] = {{"seed", "12345"}, {"adapter", "ms-queue-buggy"}, {"build.id", ""}, {"Z-last", "z"}};
    CHECK(lf_lfz_add_meta(w, "meta", meta, 4, err, sizeof err) == LF_OK);
    CHECK(w->n_sections == 7);
}

/* Re-creates a writer from a reader, section by section; encoding it must give the same bytes. */
static void rebuild(const lf_lfz_reader *r, lf_lfz_writer *w) {
    char err[512];
    lf_lfz_writer_init(w);
    for (size_t i = 0; i < r->n_sections; i++) {
        const lf_lfz_section *s = &r->sections[i];
        lf_history h;
        switch (s->kind) {
        case LF_LFZ_HISTORY:
            CHECK(lf_lfz_get_history(r, s, &h, err, sizeof err) == LF_OK);
            CHECK(lf_lfz_add_history(w, s->name, &h, err, sizeof err) == LF_OK);
            lf_history_free(&h);
            break;
        case LF_LFZ_BYTES: CHECK(lf_lfz_add_bytes(w, s->name, s->data, s->len, err, sizeof err) == LF_OK); break;
        case LF_LFZ_TEXT: CHECK(lf_lfz_add_text(w, s->name, s->text, err, sizeof err) == LF_OK); break;
        case LF_LFZ_META: CHECK(lf_lfz_add_meta(w, s->name, s->pairs, s->n_pairs, err, sizeof err) == LF_OK); break;
        }
    }
}

static void test_sections(void) {
    char err[512];
    lf_lfz_writer w;
    lf_history full, minimized, h;
    build_entry(&w, &full, &minimized);
    uint8_t *file;
    size_t len;
    CHECK(lf_lfz_encode(&w, 3, &file, &len, err, sizeof err) == LF_OK);
    lf_lfz_reader r;
    CHECKF(decode(&r, file, len, err, sizeof err) == LF_OK, "%s", err);
    CHECK(r.n_sections == 7);
    if (r.n_sections == 7) {
        static const char *const names[] = {"workload", "full", "minimized", "verdict", "report", "empty", "meta"};
        static const lf_lfz_kind kinds[] = {LF_LFZ_BYTES, LF_LFZ_HISTORY, LF_LFZ_HISTORY, LF_LFZ_TEXT,
                                            LF_LFZ_TEXT,  LF_LFZ_BYTES,   LF_LFZ_META};
        for (int i = 0; i < 7; i++)
            CHECKF(strcmp(r.sections[i].name, names[i]) == 0 && r.sections[i].kind == kinds[i], "section %d", i);
        const lf_lfz_section *s = lf_lfz_find(&r, LF_LFZ_BYTES, "workload");
        CHECK(s && s->len == 7 && memcmp(s->data, "\0\1\2\xff\0\x80x", 7) == 0 && s->text == NULL);
        s = lf_lfz_find(&r, LF_LFZ_BYTES, "empty");
        CHECK(s && s->len == 0);
        s = lf_lfz_find(&r, LF_LFZ_TEXT, "report");
        CHECK(s && strcmp(s->text, "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x90\x9b\nline 2\n") == 0 && s->len == 22);
        CHECK(lf_lfz_find(&r, LF_LFZ_TEXT, NULL) == &r.sections[3]);
        CHECK(lf_lfz_find(&r, LF_LFZ_TEXT, "workload") == NULL); /* the name exists, but not as text */
        s = lf_lfz_find(&r, LF_LFZ_META, "meta");
        CHECK(s && s->n_pairs == 4);
        if (s && s->n_pairs == 4) {
            /* Stored in ascending byte order, whatever order they were given in. */
            CHECK(strcmp(s->pairs[0].key, "Z-last") == 0 && strcmp(s->pairs[1].key, "adapter") == 0);
            CHECK(strcmp(s->pairs[2].key, "build.id") == 0 && strcmp(s->pairs[3].key, "seed") == 0);
            CHECK(strcmp(lf_lfz_meta_get(s, "seed"), "12345") == 0 && strcmp(lf_lfz_meta_get(s, "build.id"), "") == 0);
            CHECK(lf_lfz_meta_get(s, "missing") == NULL);
        }
        CHECK(lf_lfz_history_count(&r) == 2 && lf_lfz_history_section(&r, 1) == &r.sections[2]);
        CHECK(lf_lfz_history_section(&r, 2) == NULL);
        CHECK(lf_lfz_get_history(&r, lf_lfz_history_section(&r, 0), &h, err, sizeof err) == LF_OK);
        CHECK(same_history(&h, &full));
        lf_history_free(&h);
        CHECK(lf_lfz_get_history(&r, lf_lfz_history_section(&r, 1), &h, err, sizeof err) == LF_OK);
        CHECK(same_history(&h, &minimized) && h.n == (full.n + 2) / 3);
        lf_history_free(&h);
        CHECK(lf_lfz_get_history(&r, &r.sections[3], &h, err, sizeof err) == LF_ERR_FORMAT);
        CHECKF(strcmp(err, "mem.lfz: section 'verdict' holds text, not a history") == 0, "%s", err);

        /* The encoding is canonical: rebuilding the container from what was read gives the same bytes. */
        lf_lfz_writer w2;
        rebuild(&r, &w2);
        uint8_t *file2;
        size_t len2;
        CHECK(lf_lfz_encode(&w2, 3, &file2, &len2, err, sizeof err) == LF_OK);
        CHECK(len2 == len && memcmp(file, file2, len) == 0);
        free(file2);
        lf_lfz_writer_free(&w2);
    }
    lf_lfz_reader_free(&r);
    free(file);

    /* An empty container is valid, but holds no history. */
    lf_lfz_writer empty;
    lf_lfz_writer_init(&empty);
    CHECK(lf_lfz_encode(&empty, 3, &file, &len, err, sizeof err) == LF_OK);
    CHECK(decode(&r, file, len, err, sizeof err) == LF_OK && r.n_sections == 0 && lf_lfz_history_count(&r) == 0);
    lf_lfz_reader_free(&r);
    free(file);
    lf_lfz_writer_free(&empty);
    lf_lfz_writer_free(&w);
    lf_history_free(&full);
    lf_history_free(&minimized);
}

static void test_writer_errors(void) {
    char err[512];
    lf_lfz_writer w;
    lf_lfz_writer_init(&w);
    CHECK(lf_lfz_add_text(&w, "a", "x", err, sizeof err) == LF_OK);
    CHECK(lf_lfz_add_text(&w, "a", "y", err, sizeof err) == LF_ERR_FORMAT && strstr(err, "already used"));
    CHECK(lf_lfz_add_bytes(&w, "", "", 0, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "is invalid"));
    CHECK(lf_lfz_add_bytes(&w, "two words", "", 0, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "is invalid"));
    char long_name[LF_LFZ_MAX_NAME + 2];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    CHECK(lf_lfz_add_bytes(&w, long_name, "", 0, err, sizeof err) == LF_ERR_FORMAT);
    long_name[LF_LFZ_MAX_NAME] = '\0';
    CHECK(lf_lfz_add_bytes(&w, long_name, "", 0, err, sizeof err) == LF_OK);
    CHECK(lf_lfz_add_text(&w, "bad", "ok \xff", err, sizeof err) == LF_ERR_FORMAT && strstr(err, "UTF-8 (byte 3)"));
    CHECK(lf_lfz_add_text(&w, "overlong", "\xc0\x80", err, sizeof err) == LF_ERR_FORMAT);
    CHECK(lf_lfz_add_text(&w, "surrogate", "\xed\xa0\x80", err, sizeof err) == LF_ERR_FORMAT);
    CHECK(lf_lfz_add_text(&w, "truncated", "\xe2\x86", err, sizeof err) == LF_ERR_FORMAT);
    lf_lfz_pair dup[] = {{"k", "1"}, {"k", "2"}};
    CHECK(lf_lfz_add_meta(&w, "m", dup, 2, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "given twice"));
    lf_lfz_pair badkey[] = {{"a b", "1"}};
    CHECK(lf_lfz_add_meta(&w, "m", badkey, 1, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "is invalid"));
    lf_lfz_pair badval[] = {{"k", "\x80"}};
    CHECK(lf_lfz_add_meta(&w, "m", badval, 1, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "not valid UTF-8"));
    lf_history h;
    lf_history_init(&h, LF_TYPE_QUEUE);
    lf_op a = {.call = 1, .ret = 5, .method = LF_M_ENQ, .arg = {1}}, b = {.call = 3, .ret = 6, .method = LF_M_ENQ};
    lf_history_push(&h, &a);
    lf_history_push(&h, &b);
    CHECK(lf_lfz_add_history(&w, "h", &h, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "malformed"));
    CHECK(w.n_sections == 2); /* failed adds change nothing */
    uint8_t *file;
    size_t len;
    CHECK(lf_lfz_encode(&w, 0, &file, &len, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "level 0"));
    CHECK(lf_lfz_encode(&w, 23, &file, &len, err, sizeof err) == LF_ERR_FORMAT);
    lf_history_free(&h);
    lf_lfz_writer_free(&w);
}

static int count_dir_entries(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static void test_files(void) {
    char dir[] = "/tmp/lfz_test_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256], path2[256], err[1024];
    snprintf(path, sizeof path, "%s/h.lfz", dir);
    snprintf(path2, sizeof path2, "%s/h.hist", dir);
    lf_history h, back;
    rng_state = 99;
    random_history(&h, LF_TYPE_DEQUE, 500);
    CHECKF(lf_history_write(path, &h, err, sizeof err) == LF_OK, "%s", err);
    CHECKF(lf_history_write(path, &h, err, sizeof err) == LF_OK, "%s", err); /* replaces it */
    CHECK(lf_history_write(path2, &h, err, sizeof err) == LF_OK);
    CHECK(count_dir_entries(dir) == 2); /* no temporary file left behind */
    CHECKF(lf_history_read(path, &back, err, sizeof err) == LF_OK, "%s", err);
    CHECK(same_history(&h, &back));
    lf_history_free(&back);
    CHECK(lf_history_read(path2, &back, err, sizeof err) == LF_OK && same_history(&h, &back));
    lf_history_free(&back);
    CHECK(lf_lfz_read_history(path, "history", &back, err, sizeof err) == LF_OK && same_history(&h, &back));
    lf_history_free(&back);
    CHECK(lf_lfz_read_history(path, "other", &back, err, sizeof err) == LF_ERR_FORMAT);
    CHECKF(strstr(err, "h.lfz: no history section named 'other'") != NULL, "%s", err);
    /* A text file named .lfz, a missing file, an unwritable place. */
    snprintf(path, sizeof path, "%s/text.lfz", dir);
    FILE *f = fopen(path, "w");
    fputs("type queue\n", f);
    fclose(f);
    CHECK(lf_history_read(path, &back, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "looks like a text history"));
    snprintf(path, sizeof path, "%s/missing.lfz", dir);
    CHECK(lf_history_read(path, &back, err, sizeof err) == LF_ERR_IO && strstr(err, "missing.lfz: cannot open"));
    snprintf(path, sizeof path, "%s/no/such/dir/x.lfz", dir);
    CHECK(lf_history_write(path, &h, err, sizeof err) == LF_ERR_IO && strstr(err, "x.lfz: cannot create"));
    snprintf(path, sizeof path, "%s/no/such/dir/x.hist", dir);
    CHECK(lf_history_write(path, &h, err, sizeof err) == LF_ERR_IO);
    /* The container without a history section. */
    lf_lfz_writer w;
    lf_lfz_writer_init(&w);
    lf_lfz_add_text(&w, "verdict", "ok", err, sizeof err);
    snprintf(path, sizeof path, "%s/nohist.lfz", dir);
    CHECK(lf_lfz_save(&w, path, 3, err, sizeof err) == LF_OK);
    CHECK(lf_history_read(path, &back, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "holds no history section"));
    lf_lfz_writer_free(&w);
    lf_history_free(&h);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

/* Every byte of a file is covered by a checksum (header bytes 0..47 by the header checksum, which covers
 * the two other checksums; the frame by the compressed-data checksum), so no byte is irrelevant: every
 * flip must be refused, and by the check that guards that byte. */
static void test_corruption(void) {
    char err[1024];
    lf_lfz_writer w;
    lf_lfz_writer_init(&w);
    lf_history h;
    rng_state = 5;
    random_history(&h, LF_TYPE_STACK, 12);
    CHECK(lf_lfz_add_history(&w, "history", &h, err, sizeof err) == LF_OK);
    CHECK(lf_lfz_add_text(&w, "verdict", "linearizable", err, sizeof err) == LF_OK);
    lf_lfz_pair kv[] = {{"seed", "1"}};
    CHECK(lf_lfz_add_meta(&w, "meta", kv, 1, err, sizeof err) == LF_OK);
    uint8_t *file;
    size_t len;
    CHECK(lf_lfz_encode(&w, 3, &file, &len, err, sizeof err) == LF_OK);
    lf_lfz_reader r;
    CHECK(decode(&r, file, len, err, sizeof err) == LF_OK);
    lf_lfz_reader_free(&r);
    uint8_t *copy = malloc(len);
    int refused = 0;
    for (size_t cut = 0; cut < len; cut++) {
        /* A fresh allocation of exactly cut bytes, so ASan sees any read past the end. */
        uint8_t *part = malloc(cut ? cut : 1);
        memcpy(part, file, cut);
        lf_status s = decode(&r, part, cut, err, sizeof err);
        const char *want = cut < LF_LFZ_HEADER_SIZE ? "shorter than the 56-byte .lfz header"
                                                     : "truncated: the header declares";
        CHECKF(s == LF_ERR_FORMAT && strncmp(err, "mem.lfz: ", 9) == 0 && strstr(err, want),
               "cut at %zu: status %d: %s", cut, s, err);
        refused += s == LF_ERR_FORMAT;
        if (s == LF_OK) lf_lfz_reader_free(&r);
        free(part);
    }
    static const uint8_t masks[] = {0x01, 0x10, 0x80, 0xff};
    for (size_t i = 0; i < len; i++) {
        for (size_t m = 0; m < sizeof masks; m++) {
            memcpy(copy, file, len);
            copy[i] ^= masks[m];
            lf_status s = decode(&r, copy, len, err, sizeof err);
            const char *want = i < 8    ? "bad magic"
                               : i < 10 ? "unsupported .lfz version"
                               : i < 56 ? "header checksum mismatch"
                                        : "compressed data checksum mismatch";
            CHECKF(s == LF_ERR_FORMAT && strstr(err, want), "byte %zu ^ 0x%02x: status %d: %s", i, masks[m], s, err);
            refused += s == LF_ERR_FORMAT;
            if (s == LF_OK) lf_lfz_reader_free(&r);
        }
    }
    CHECK(refused == (int)(len + len * sizeof masks));
    /* Extra bytes after the frame. */
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, file, len);
    longer[len] = 0;
    CHECK(decode(&r, longer, len + 1, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "1 unexpected bytes after"));
    free(longer);
    free(copy);
    free(file);
    lf_history_free(&h);
    lf_lfz_writer_free(&w);
}

/* ---- crafted files: an independent encoder following docs/formats.md, with valid checksums ---- */

typedef struct {
    uint8_t *p;
    size_t n, cap;
} tbuf;

static void tb_bytes(tbuf *b, const void *s, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
    }
    if (n) memcpy(b->p + b->n, s, n);
    b->n += n;
}
static void tb_u8(tbuf *b, uint8_t v) { tb_bytes(b, &v, 1); }
static void tb_varint(tbuf *b, uint64_t v) {
    while (v >= 0x80) {
        tb_u8(b, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    tb_u8(b, (uint8_t)v);
}
static void tb_str(tbuf *b, const char *s) {
    tb_varint(b, strlen(s));
    tb_bytes(b, s, strlen(s));
}
static uint64_t zz(int64_t v) { return ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0); }

static void tb_section(tbuf *payload, uint8_t kind, const char *name, const tbuf *body) {
    tb_u8(payload, kind);
    tb_str(payload, name);
    tb_varint(payload, body->n);
    tb_bytes(payload, body->p, body->n);
}

/* The history encoding without any validation, so malformed histories can be written. */
static void tb_history(tbuf *b, const lf_history *h) {
    static const lf_kind codes[] = {LF_K_NONE,  LF_K_INT, LF_K_NIL,  LF_K_EMPTY,  LF_K_TRUE,
                                    LF_K_FALSE, LF_K_OK,  LF_K_FAIL, LF_K_PENDING};
    tb_str(b, lf_type_name(h->type));
    tb_u8(b, !h->has_init ? 0 : h->init_kind == LF_K_NIL ? 2 : 1);
    if (h->has_init && h->init_kind != LF_K_NIL) tb_varint(b, zz(h->init));
    unsigned keys[2048], n_shapes = 0;
    int index[2048];
    for (int k = 0; k < 2048; k++) index[k] = -1;
    for (size_t i = 0; i < h->n; i++) {
        unsigned key = h->ops[i].method | (unsigned)h->ops[i].res_kind << 5 | (unsigned)h->ops[i].arg_nil << 9;
        if (index[key] < 0) index[key] = (int)n_shapes, keys[n_shapes++] = key;
    }
    tb_varint(b, n_shapes);
    for (unsigned k = 0; k < n_shapes; k++) {
        tb_str(b, lf_method_name((lf_method)(keys[k] & 31)));
        uint8_t code = 0;
        while (codes[code] != (lf_kind)((keys[k] >> 5) & 15)) code++;
        tb_u8(b, code);
        tb_u8(b, (uint8_t)(keys[k] >> 9));
    }
    tb_varint(b, h->n);
    uint64_t prev_call = 0;
    int64_t prev[3] = {0, 0, 0};
    for (size_t i = 0; i < h->n; i++) {
        const lf_op *op = &h->ops[i];
        tb_varint(b, (uint64_t)index[op->method | (unsigned)op->res_kind << 5 | (unsigned)op->arg_nil << 9]);
        tb_varint(b, op->thread);
        tb_varint(b, zz((int64_t)(op->call - prev_call)));
        prev_call = op->call;
        if (op->res_kind != LF_K_PENDING) tb_varint(b, op->ret - op->call);
        for (int a = 0; a < lf_method_info_of(h->type, (lf_method)op->method)->nargs; a++)
            if (!(op->arg_nil >> a & 1)) {
                tb_varint(b, zz((int64_t)((uint64_t)op->arg[a] - (uint64_t)prev[a])));
                prev[a] = op->arg[a];
            }
        if (op->res_kind == LF_K_INT) {
            tb_varint(b, zz((int64_t)((uint64_t)op->res - (uint64_t)prev[2])));
            prev[2] = op->res;
        }
    }
}

static void put_le(uint8_t *p, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Options for lying files. Zero means "tell the truth". */
typedef struct {
    uint64_t declared_payload;  /* payload size written in the header */
    uint64_t declared_sections; /* section count written in the header */
    uint16_t flags;
    bool no_content_size;       /* zstd frame without its content size */
    bool two_frames;            /* the frame twice */
    bool wrong_payload_hash;
} lies;

static uint8_t *make_file(const tbuf *payload, uint32_t n_sections, const lies *l, size_t *len) {
    size_t cap = 2 * ZSTD_compressBound(payload->n) + 64;
    uint8_t *f = calloc(1, LF_LFZ_HEADER_SIZE + cap);
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, l && l->no_content_size ? 0 : 1);
    size_t stored = ZSTD_compress2(c, f + LF_LFZ_HEADER_SIZE, cap, payload->p ? payload->p : (void *)"", payload->n);
    ZSTD_freeCCtx(c);
    if (l && l->two_frames) {
        memcpy(f + LF_LFZ_HEADER_SIZE + stored, f + LF_LFZ_HEADER_SIZE, stored);
        stored *= 2;
    }
    static const uint8_t magic[8] = {0x89, 'L', 'F', 'Z', '\r', '\n', 0x1a, '\n'};
    memcpy(f, magic, 8);
    put_le(f + 8, 1, 2);
    put_le(f + 10, l ? l->flags : 0, 2);
    put_le(f + 12, l && l->declared_sections ? l->declared_sections : n_sections, 4);
    put_le(f + 16, l && l->declared_payload ? l->declared_payload : payload->n, 8);
    put_le(f + 24, stored, 8);
    put_le(f + 32, XXH64(payload->p ? payload->p : (void *)"", payload->n, 0) + (l && l->wrong_payload_hash), 8);
    put_le(f + 40, XXH64(f + LF_LFZ_HEADER_SIZE, stored, 0), 8);
    put_le(f + 48, XXH64(f, 48, 0), 8);
    *len = LF_LFZ_HEADER_SIZE + stored;
    return f;
}

/* Expects the crafted file to be refused, when opened or when its first history is decoded, with a
 * message starting with the file name and containing fragment. */
static void expect_refused(const tbuf *payload, uint32_t n_sections, const lies *l, const char *fragment,
                           int line) {
    size_t len;
    uint8_t *f = make_file(payload, n_sections, l, &len);
    lf_lfz_reader r;
    char err[1024];
    lf_status s = lf_lfz_decode(&r, f, len, "crafted.lfz", err, sizeof err);
    if (s == LF_OK) {
        const lf_lfz_section *hs = lf_lfz_history_section(&r, 0);
        lf_history h;
        s = hs ? lf_lfz_get_history(&r, hs, &h, err, sizeof err) : LF_OK;
        if (s == LF_OK && hs) lf_history_free(&h);
        lf_lfz_reader_free(&r);
    }
    CHECKF(s == LF_ERR_FORMAT, "line %d: status %d (%s)", line, s, s ? err : "accepted");
    CHECKF(s == LF_OK || (strncmp(err, "crafted.lfz: ", 13) == 0 && strstr(err, fragment)),
           "line %d: message '%s' lacks '%s'", line, err, fragment);
    free(f);
}

/* One-section payload whose history body is given as raw bytes. */
static void history_payload(tbuf *payload, const tbuf *body) {
    payload->n = 0;
    tb_section(payload, LF_LFZ_HISTORY, "h", body);
}

#define REFUSED(payload, n, lies, fragment) expect_refused(payload, n, lies, fragment, __LINE__)

static void test_crafted_container(void) {
    tbuf body = {0}, p = {0};
    tb_str(&body, "hello");
    tb_section(&p, LF_LFZ_TEXT, "t", &body);
    /* The truthful file is accepted; everything below changes one thing. */
    size_t len;
    uint8_t *f = make_file(&p, 1, NULL, &len);
    lf_lfz_reader r;
    char err[512];
    CHECK(lf_lfz_decode(&r, f, len, "ok.lfz", err, sizeof err) == LF_OK && r.n_sections == 1);
    lf_lfz_reader_free(&r);
    free(f);

    REFUSED(&p, 1, (&(lies){.declared_payload = (UINT64_C(5) << 30)}), "exceeds the 4 GiB limit");
    REFUSED(&p, 1, (&(lies){.declared_payload = UINT64_MAX}), "exceeds the 4 GiB limit");
    REFUSED(&p, 1, (&(lies){.declared_payload = UINT64_C(3) << 30}), "cannot come from");
    REFUSED(&p, 1, (&(lies){.declared_payload = p.n + 1}), "content size disagrees");
    REFUSED(&p, 1, (&(lies){.declared_sections = 5000}), "more than the limit of 4096");
    REFUSED(&p, 1, (&(lies){.declared_sections = 4000}), "impossible in a");
    REFUSED(&p, 1, (&(lies){.declared_sections = 2}), "the payload ends after 1 of 2 declared sections");
    REFUSED(&p, 1, (&(lies){.flags = 1}), "unknown header flags 0x1");
    REFUSED(&p, 1, (&(lies){.no_content_size = true}), "does not record its content size");
    REFUSED(&p, 1, (&(lies){.two_frames = true}), "not exactly one zstd frame");
    REFUSED(&p, 1, (&(lies){.wrong_payload_hash = true}), "payload checksum mismatch");

    tbuf q = {0};
    tb_section(&q, 9, "t", &body);
    REFUSED(&q, 1, NULL, "unknown section kind 9");
    q.n = 0;
    tb_section(&q, LF_LFZ_TEXT, "", &body);
    REFUSED(&q, 1, NULL, "bad name");
    q.n = 0;
    tb_section(&q, LF_LFZ_TEXT, "a/b", &body);
    REFUSED(&q, 1, NULL, "bad name");
    q.n = 0;
    tb_section(&q, LF_LFZ_TEXT, "t", &body);
    tb_section(&q, LF_LFZ_BYTES, "t", &body);
    REFUSED(&q, 2, NULL, "two sections are named 't'");
    q.n = 0;
    tb_section(&q, LF_LFZ_TEXT, "t", &body);
    tb_u8(&q, 0);
    REFUSED(&q, 1, NULL, "1 unexpected bytes after the last declared section");
    q.n = 0;
    tb_u8(&q, LF_LFZ_BYTES);
    tb_str(&q, "b");
    tb_varint(&q, 1000);
    tb_str(&q, "short");
    REFUSED(&q, 1, NULL, "body of 1000 bytes runs past the payload's end");
    q.n = 0;
    tb_u8(&q, LF_LFZ_BYTES);
    tb_str(&q, "b");
    tb_u8(&q, 0x85);
    tb_u8(&q, 0x00); /* 5 written in two bytes */
    tb_bytes(&q, "12345", 5);
    REFUSED(&q, 1, NULL, "non-minimal varint");
    static const char *const bad_texts[] = {"\xff", "a\0b", "\xc3", "\xf4\x90\x80\x80", "\xe0\x80\x80"};
    static const size_t bad_lens[] = {1, 3, 1, 4, 3};
    for (int i = 0; i < 5; i++) {
        tbuf t = {0};
        tb_bytes(&t, bad_texts[i], bad_lens[i]);
        q.n = 0;
        tb_section(&q, LF_LFZ_TEXT, "t", &t);
        REFUSED(&q, 1, NULL, "text is not valid UTF-8");
        free(t.p);
    }
    /* Metadata: sorted distinct keys, valid key characters, UTF-8 values, exact length. */
    static const struct {
        int line;
        uint64_t count;         /* declared pairs */
        const char *strings[4]; /* keys and values as written, NULL-terminated */
        bool trailing_byte;
        const char *why;
    } bad_meta[] = {
        {__LINE__, 2, {"b", "1", "a", "2"}, false, "key 'a' is not after 'b'"},
        {__LINE__, 2, {"a", "1", "a", "2"}, false, "key 'a' is not after 'a'"},
        {__LINE__, 1, {"a=b", "1"}, false, "pair 0: key is not"},
        {__LINE__, 1, {"k", "\xc0\xaf"}, false, "pair 0: value is not valid UTF-8"},
        {__LINE__, 1000, {"k", "v"}, false, "pair count 1000 is impossible"},
        {__LINE__, 1, {"k", "v"}, true, "1 unexpected bytes after the last pair"},
    };
    tbuf m = {0};
    for (size_t i = 0; i < sizeof bad_meta / sizeof bad_meta[0]; i++) {
        m.n = 0;
        tb_varint(&m, bad_meta[i].count);
        for (int k = 0; k < 4 && bad_meta[i].strings[k]; k++) tb_str(&m, bad_meta[i].strings[k]);
        if (bad_meta[i].trailing_byte) tb_u8(&m, 7);
        q.n = 0;
        tb_section(&q, LF_LFZ_META, "m", &m);
        expect_refused(&q, 1, NULL, bad_meta[i].why, bad_meta[i].line);
    }
    free(m.p);
    free(q.p);
    free(body.p);
    free(p.p);
}

/* A history body built step by step: type, init, shapes, ops. */
static void test_crafted_history(void) {
    tbuf b = {0}, p = {0};
#define BODY(...)                  \
    do {                           \
        b.n = 0;                   \
        __VA_ARGS__;               \
        history_payload(&p, &b);   \
    } while (0)
    /* Sanity: a hand-built queue history "0 1 2 enq 5; 1 3 4 deq -> 5" is accepted and decoded right. */
    BODY(tb_str(&b, "queue"), tb_u8(&b, 0), tb_varint(&b, 2), tb_str(&b, "enq"), tb_u8(&b, 0), tb_u8(&b, 0),
         tb_str(&b, "deq"), tb_u8(&b, 1), tb_u8(&b, 0), tb_varint(&b, 2), tb_varint(&b, 0), tb_varint(&b, 0),
         tb_varint(&b, zz(1)), tb_varint(&b, 1), tb_varint(&b, zz(5)), tb_varint(&b, 1), tb_varint(&b, 1),
         tb_varint(&b, zz(2)), tb_varint(&b, 1), tb_varint(&b, zz(5)));
    size_t len;
    uint8_t *f = make_file(&p, 1, NULL, &len);
    lf_lfz_reader r;
    lf_history h;
    char err[512];
    CHECK(lf_lfz_decode(&r, f, len, "ok.lfz", err, sizeof err) == LF_OK);
    CHECKF(lf_lfz_get_history(&r, &r.sections[0], &h, err, sizeof err) == LF_OK, "%s", err);
    CHECK(h.type == LF_TYPE_QUEUE && h.n == 2);
    if (h.n == 2) {
        CHECK(h.ops[0].call == 1 && h.ops[0].ret == 2 && h.ops[0].method == LF_M_ENQ && h.ops[0].arg[0] == 5);
        CHECK(h.ops[1].thread == 1 && h.ops[1].call == 3 && h.ops[1].ret == 4 && h.ops[1].res_kind == LF_K_INT &&
              h.ops[1].res == 5);
    }
    lf_history_free(&h);
    lf_lfz_reader_free(&r);
    free(f);

#define SHAPE(name, code, nil) (tb_str(&b, name), tb_u8(&b, code), tb_u8(&b, nil))
#define QUEUE_ENQ_DEQ (tb_str(&b, "queue"), tb_u8(&b, 0), tb_varint(&b, 2), SHAPE("enq", 0, 0), SHAPE("deq", 3, 0))
    BODY(tb_str(&b, "heap"), tb_u8(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "unknown type 'heap'");
    BODY(tb_varint(&b, 1000), tb_str(&b, "queue"));
    REFUSED(&p, 1, NULL, "type name: length out of range");
    BODY(tb_str(&b, "queue"), tb_u8(&b, 1), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "an initial value is only allowed for register types, not queue");
    BODY(tb_str(&b, "register"), tb_u8(&b, 4), tb_varint(&b, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "init flag 4 is not 0, 1, 2 or 3");
    /* 3 after a built-in type's name: a capacity follows (containers only; at least 1); after another name, a
     * custom declaration (tests/unit/test_custom_types.c) */
    BODY(tb_str(&b, "register"), tb_u8(&b, 3), tb_varint(&b, 2), tb_varint(&b, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "a capacity is only allowed for stack, queue, pqueue and deque, not register");
    BODY(tb_str(&b, "queue"), tb_u8(&b, 3), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "capacity 0 (a capacity is at least 1)");
    BODY(tb_str(&b, "queue"), tb_u8(&b, 3));
    REFUSED(&p, 1, NULL, "capacity: truncated varint");
    BODY(tb_str(&b, "queue"), tb_u8(&b, 0), tb_varint(&b, 1), SHAPE("enq", 9, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "shape 0: enq -> full in a history without a capacity");
    BODY(tb_str(&b, "register"), tb_u8(&b, 1));
    REFUSED(&p, 1, NULL, "initial value: truncated varint");
    BODY(tb_str(&b, "queue"), tb_u8(&b, 0), tb_varint(&b, 100), SHAPE("enq", 0, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "shape count 100 is impossible");
    BODY(tb_str(&b, "queue"), tb_u8(&b, 0), tb_varint(&b, 1), SHAPE("push", 0, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "shape 0: unknown method 'push' for type queue");
    BODY(tb_str(&b, "queue"), tb_u8(&b, 0), tb_varint(&b, 1), SHAPE("deq", 10, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "shape 0: unknown result code 10");
    BODY(tb_str(&b, "queue"), tb_u8(&b, 3), tb_varint(&b, 2), tb_varint(&b, 1), SHAPE("deq", 9, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "shape 0: deq cannot return full");
    BODY(tb_str(&b, "queue"), tb_u8(&b, 0), tb_varint(&b, 1), SHAPE("deq", 4, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "shape 0: deq cannot return true");
    BODY(tb_str(&b, "queue"), tb_u8(&b, 0), tb_varint(&b, 1), SHAPE("enq", 1, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "shape 0: enq cannot return an integer");
    BODY(tb_str(&b, "queue"), tb_u8(&b, 0), tb_varint(&b, 1), SHAPE("enq", 0, 2), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "shape 0: nil flags 0x2 name arguments enq does not have");
    BODY(tb_str(&b, "queue"), tb_u8(&b, 0), tb_varint(&b, 2), SHAPE("enq", 0, 0), SHAPE("enq", 0, 0),
         tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "shape 1 repeats an earlier shape");
    /* An absurd op count must be refused before any allocation (ASan would abort on a 2^60-op calloc). */
    BODY(QUEUE_ENQ_DEQ, tb_varint(&b, UINT64_C(1) << 60), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0),
         tb_varint(&b, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "op count 1152921504606846976 is impossible");
    BODY(QUEUE_ENQ_DEQ, tb_varint(&b, 1), tb_varint(&b, 2), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "op 0: shape 2 is not in the shape table");
    BODY(QUEUE_ENQ_DEQ, tb_varint(&b, 2), tb_varint(&b, 1), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0),
         tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "op 0: shape 1 is used before the shapes listed ahead of it");
    BODY(QUEUE_ENQ_DEQ, tb_varint(&b, 1), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0),
         tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "shape 1 of the table is never used");
    BODY(QUEUE_ENQ_DEQ, tb_varint(&b, 1), tb_varint(&b, 0), tb_varint(&b, UINT64_C(1) << 32), tb_varint(&b, 0),
         tb_varint(&b, 0), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "op 0: thread 4294967296 is above 4294967295");
    BODY(QUEUE_ENQ_DEQ, tb_varint(&b, 1), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, zz(-2)),
         tb_varint(&b, 5), tb_varint(&b, 0));
    REFUSED(&p, 1, NULL, "op 0: return stamp overflows 64 bits");
    BODY(QUEUE_ENQ_DEQ, tb_varint(&b, 1), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0),
         tb_u8(&b, 0x80));
    REFUSED(&p, 1, NULL, "op 0: argument: truncated varint");
    BODY(QUEUE_ENQ_DEQ, tb_varint(&b, 1), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0),
         tb_bytes(&b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10));
    REFUSED(&p, 1, NULL, "op 0: argument: varint overflows 64 bits");
    BODY(QUEUE_ENQ_DEQ, tb_varint(&b, 1), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, 0),
         tb_varint(&b, 0), tb_u8(&b, 0));
    REFUSED(&p, 1, NULL, "1 unexpected bytes after the last op");
    /* Well-encoded but malformed histories: what lf_history_validate refuses, decoding refuses. */
    BODY(QUEUE_ENQ_DEQ, tb_varint(&b, 2), tb_varint(&b, 0), tb_varint(&b, 0), tb_varint(&b, zz(1)),
         tb_varint(&b, 4), tb_varint(&b, 0), tb_varint(&b, 1), tb_varint(&b, 0), tb_varint(&b, zz(2)),
         tb_varint(&b, 4));
    REFUSED(&p, 1, NULL, "malformed history: ops of thread 0 overlap");
#undef BODY
#undef SHAPE
#undef QUEUE_ENQ_DEQ
    free(b.p);
    free(p.p);
}

/* Decoding's streaming sequentiality check agrees with lf_history_validate on random, often malformed,
 * histories (overlaps, ops after pending ones, out-of-order calls, huge thread ids). */
static void test_decode_agrees_with_validate(void) {
    int accepted = 0, refused = 0;
    rng_state = 1234567;
    for (int iter = 0; iter < 3000; iter++) {
        lf_history h;
        lf_history_init(&h, LF_TYPE_SET);
        int n = 1 + (int)(rnd() % 10);
        for (int i = 0; i < n; i++) {
            lf_op op;
            memset(&op, 0, sizeof op);
            op.thread = (uint32_t)(rnd() % 3) + (rnd() % 20 == 0 ? 70000u : 0u);
            op.call = rnd() % 30;
            op.ret = op.call + rnd() % 6;
            op.method = LF_M_ADD;
            op.arg[0] = (int64_t)(rnd() % 5);
            op.res_kind = rnd() % 10 == 0 ? LF_K_PENDING : LF_K_TRUE;
            if (op.res_kind == LF_K_PENDING) op.ret = 0;
            lf_history_push(&h, &op);
        }
        char verr[400], err[1024];
        bool valid = lf_history_validate(&h, verr, sizeof verr) == SIZE_MAX;
        tbuf body = {0}, payload = {0};
        tb_history(&body, &h);
        history_payload(&payload, &body);
        size_t len;
        uint8_t *f = make_file(&payload, 1, NULL, &len);
        lf_lfz_reader r;
        lf_history back;
        lf_status s = lf_lfz_decode(&r, f, len, "p.lfz", err, sizeof err);
        CHECK(s == LF_OK);
        if (s == LF_OK) {
            s = lf_lfz_get_history(&r, &r.sections[0], &back, err, sizeof err);
            if (valid) {
                accepted++;
                CHECKF(s == LF_OK && same_history(&h, &back), "iteration %d: %s", iter, err);
                if (s == LF_OK) lf_history_free(&back);
            } else {
                refused++;
                CHECKF(s == LF_ERR_FORMAT && strstr(err, verr), "iteration %d: '%s' lacks '%s'", iter, err, verr);
            }
            lf_lfz_reader_free(&r);
        }
        free(f);
        free(body.p);
        free(payload.p);
        lf_history_free(&h);
    }
    CHECKF(accepted > 300 && refused > 300, "accepted %d, refused %d", accepted, refused);
}

/* The compact encoding must beat compressing the text: a recorded-looking 10^5-op queue history (eight
 * threads, nanosecond stamps, FIFO values). Prints the sizes for the record. */
static void test_size(void) {
    enum { N = 100000, T = 8 };
    lf_history h;
    lf_history_init(&h, LF_TYPE_QUEUE);
    rng_state = 42;
    uint64_t free_at[T] = {0}, now = 1000000;
    int64_t next_value = 1, head = 1;
    for (int i = 0; i < N; i++) {
        int t = 0;
        for (int k = 1; k < T; k++)
            if (free_at[k] < free_at[t]) t = k;
        lf_op op;
        memset(&op, 0, sizeof op);
        op.thread = (uint32_t)t;
        op.call = (now > free_at[t] ? now : free_at[t]) + 20 + rnd() % 380;
        op.ret = op.call + 80 + rnd() % 2420;
        now = op.call;
        free_at[t] = op.ret + 1;
        if (rnd() % 2) {
            op.method = LF_M_ENQ;
            op.arg[0] = next_value++;
            op.res_kind = LF_K_NONE;
        } else {
            op.method = LF_M_DEQ;
            op.res_kind = head < next_value ? LF_K_INT : LF_K_EMPTY;
            if (op.res_kind == LF_K_INT) op.res = head++;
        }
        lf_history_push(&h, &op);
    }
    char *text = NULL, err[512];
    size_t text_len = 0;
    FILE *f = open_memstream(&text, &text_len);
    CHECK(lf_text_write_stream(f, &h) == LF_OK);
    fclose(f);
    /* The default level only: at level 19 the text alone takes seconds to compress (measured once: text+zstd
     * 789572 bytes, .lfz 445181). */
    const int level = LF_LFZ_DEFAULT_LEVEL;
    size_t cap = ZSTD_compressBound(text_len);
    void *z = malloc(cap);
    size_t text_z = ZSTD_compress(z, cap, text, text_len, level);
    free(z);
    lf_lfz_writer w;
    lf_lfz_writer_init(&w);
    CHECK(lf_lfz_add_history(&w, "history", &h, err, sizeof err) == LF_OK);
    uint8_t *file;
    size_t len;
    CHECK(lf_lfz_encode(&w, level, &file, &len, err, sizeof err) == LF_OK);
    printf("10^5-op queue history, zstd level %d: text %zu bytes, text+zstd %zu, .lfz %zu (%.2f bytes/op)\n", level,
           text_len, text_z, len, (double)len / N);
    CHECKF(!ZSTD_isError(text_z) && len < text_z, ".lfz %zu bytes, text+zstd %zu", len, text_z);
    free(file);
    lf_lfz_writer_free(&w);
    free(text);
    lf_history_free(&h);
}

int main(void) {
    test_xxh64_vectors();
    test_history_round_trips();
    test_sections();
    test_writer_errors();
    test_files();
    test_corruption();
    test_crafted_container();
    test_crafted_history();
    test_decode_agrees_with_validate();
    test_size();
    TEST_DONE();
}
