/* Violation entries: building the metadata, naming by content, saving atomically, strict loading. */
#include "findings/entry.h"

#include "findings/rootcause_section.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>


/* Sections of an entry, in file order. */
#define SEC_WORKLOAD "workload"
#define SEC_HISTORY "history"
#define SEC_MINIMIZED "minimized"
#define SEC_VERDICT "verdict"
#define SEC_REPORT "report"
#define SEC_ROOTCAUSE "rootcause" /* optional */
#define SEC_TEST "test"                 /* optional, with SEC_TEST_HISTORY */
#define SEC_TEST_HISTORY "test_history" /* optional, with SEC_TEST */
#define SEC_META "meta"

void lf_entry_init(lf_violation_entry *e, lf_type type) {
    memset(e, 0, sizeof *e);
    lf_history_init(&e->full, type);
    lf_history_init(&e->minimized, type);
    lf_history_init(&e->test_history, type);
}

bool lf_entry_init_run(lf_violation_entry *e, const lf_history *h, const uint8_t *workload, size_t len) {
    lf_entry_init(e, h->type);
    bool ok = lf_history_copy(&e->full, h) && lf_history_copy(&e->minimized, h);
    e->workload = malloc(len ? len : 1);
    ok = ok && e->workload;
    if (ok) {
        if (len) memcpy(e->workload, workload, len);
        e->workload_len = len;
    }
    return ok;
}

const lf_history *lf_entry_recorded(const lf_violation_entry *e) { return e->has_test ? &e->test_history : &e->full; }

bool lf_entry_set_test(lf_violation_entry *e, const uint8_t *test, size_t len, const lf_history *h) {
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) return false;
    if (len) memcpy(copy, test, len);
    lf_history_free(&e->test_history);
    lf_history_init(&e->test_history, h->type);
    if (!lf_history_copy(&e->test_history, h)) {
        free(copy);
        return false;
    }
    free(e->test);
    e->test = copy;
    e->test_len = len;
    e->has_test = true;
    return true;
}

void lf_entry_free(lf_violation_entry *e) {
    lf_history_free(&e->full);
    lf_history_free(&e->minimized);
    lf_history_free(&e->test_history);
    free(e->test);
    free(e->workload);
    free(e->verdict);
    free(e->report);
    free(e->rootcause);
    for (size_t i = 0; i < e->n_meta; i++) {
        free((char *)e->meta[i].key);
        free((char *)e->meta[i].value);
    }
    free(e->meta);
    memset(e, 0, sizeof *e);
}

const char *lf_entry_meta(const lf_violation_entry *e, const char *key) {
    for (size_t i = 0; i < e->n_meta; i++)
        if (!strcmp(e->meta[i].key, key)) return e->meta[i].value;
    return NULL;
}

bool lf_entry_set_meta(lf_violation_entry *e, const char *key, const char *value) {
    char *v = strdup(value);
    if (!v) return false;
    size_t pos = 0;
    while (pos < e->n_meta && strcmp(e->meta[pos].key, key) < 0) pos++;
    if (pos < e->n_meta && !strcmp(e->meta[pos].key, key)) {
        free((char *)e->meta[pos].value);
        e->meta[pos].value = v;
        return true;
    }
    char *k = strdup(key);
    lf_lfz_pair *grown = realloc(e->meta, (e->n_meta + 1) * sizeof *grown);
    if (!k || !grown) {
        free(k);
        free(v);
        if (grown) e->meta = grown;
        return false;
    }
    e->meta = grown;
    memmove(&e->meta[pos + 1], &e->meta[pos], (e->n_meta - pos) * sizeof *e->meta);
    e->meta[pos] = (lf_lfz_pair){k, v};
    e->n_meta++;
    return true;
}

bool lf_entry_set_source(lf_violation_entry *e, const char *origin, const char *workload_format, const char *workload_desc) {
    return (!origin || lf_entry_set_meta(e, "origin", origin)) &&
           (!workload_format || lf_entry_set_meta(e, "workload_format", workload_format)) &&
           (!workload_desc || lf_entry_set_meta(e, "workload", workload_desc));
}

bool lf_entry_render_report(lf_violation_entry *e, lf_entry_report_writer write, const void *ctx) {
    size_t len = 0;
    FILE *f = open_memstream(&e->report, &len);
    if (!f) return false;
    write(f, e, ctx);
    return fclose(f) == 0;
}

/* ---- naming ---- */

static void hash_history(XXH64_state_t *s, const lf_history *h) {
    uint32_t type = (uint32_t)h->type;
    XXH64_update(s, &type, sizeof type);
    if (h->type == LF_TYPE_CUSTOM) XXH64_update(s, lf_history_type_name(h), strlen(lf_history_type_name(h)));
    for (size_t i = 0; i < h->n; i++) {
        const lf_op *op = &h->ops[i];
        /* field by field, so that names stay what they were as the struct grows */
        uint64_t fields[6] = {op->call, lf_op_pending(op) ? 0 : op->ret, (uint64_t)op->arg[0], (uint64_t)op->arg[1],
                              (uint64_t)op->res, op->thread};
        uint8_t small[3] = {op->method, op->arg_nil, op->res_kind};
        XXH64_update(s, fields, sizeof fields);
        XXH64_update(s, small, sizeof small);
        /* arguments 2 and 3 (methods of three or four arguments) only when there are any, so that the names of
         * entries of ops with at most two arguments stay what they were */
        if (op->arg[2] || op->arg[3]) XXH64_update(s, &op->arg[2], 2 * sizeof op->arg[2]);
        if (op->count) XXH64_update(s, &op->count, sizeof op->count); /* bulk and burst ops only */
    }
}

void lf_entry_name(const lf_violation_entry *e, char out[LF_ENTRY_NAME_MAX]) {
    XXH64_state_t *s = XXH64_createState();
    uint64_t content = 0;
    if (s) {
        XXH64_reset(s, 0);
        const char *adapter = lf_entry_meta(e, "adapter");
        if (adapter) XXH64_update(s, adapter, strlen(adapter) + 1);
        if (e->workload_len) XXH64_update(s, e->workload, e->workload_len);
        hash_history(s, &e->full);
        hash_history(s, &e->minimized);
        if (e->has_test && e->test_len) XXH64_update(s, e->test, e->test_len);
        content = XXH64_digest(s);
        XXH64_freeState(s);
    }
    const char *bucket = lf_entry_meta(e, "bucket");
    snprintf(out, LF_ENTRY_NAME_MAX, "%.16s-%016llx.lfz", bucket ? bucket : "0000000000000000",
             (unsigned long long)content);
}

/* ---- saving ---- */

bool lf_mkdirs(const char *dir) {
    char path[4096];
    size_t len = strlen(dir);
    if (len == 0 || len >= sizeof path) {
        errno = ENAMETOOLONG;
        return false;
    }
    memcpy(path, dir, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (path[i] != '/' && path[i] != 0) continue;
        char saved = path[i];
        path[i] = 0;
        if (mkdir(path, 0777) != 0 && errno != EEXIST) return false;
        path[i] = saved;
    }
    struct stat st;
    if (stat(dir, &st) != 0) return false;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return false;
    }
    return true;
}

static lf_status fill_writer(const lf_violation_entry *e, lf_lfz_writer *w, char *err, size_t errlen) {
    lf_status st = lf_lfz_add_bytes(w, SEC_WORKLOAD, e->workload, e->workload_len, err, errlen);
    if (st == LF_OK) st = lf_lfz_add_history(w, SEC_HISTORY, &e->full, err, errlen);
    if (st == LF_OK) st = lf_lfz_add_history(w, SEC_MINIMIZED, &e->minimized, err, errlen);
    if (st == LF_OK) st = lf_lfz_add_text(w, SEC_VERDICT, e->verdict ? e->verdict : "", err, errlen);
    if (st == LF_OK) st = lf_lfz_add_text(w, SEC_REPORT, e->report ? e->report : "", err, errlen);
    if (st == LF_OK && e->rootcause) st = lf_lfz_add_text(w, SEC_ROOTCAUSE, e->rootcause, err, errlen);
    if (st == LF_OK && e->has_test) st = lf_lfz_add_bytes(w, SEC_TEST, e->test, e->test_len, err, errlen);
    if (st == LF_OK && e->has_test) st = lf_lfz_add_history(w, SEC_TEST_HISTORY, &e->test_history, err, errlen);
    if (st == LF_OK) st = lf_lfz_add_meta(w, SEC_META, e->meta, e->n_meta, err, errlen);
    return st;
}

lf_status lf_entry_encode(const lf_violation_entry *e, uint8_t **out, size_t *out_len, char *err, size_t errlen) {
    lf_lfz_writer w;
    lf_lfz_writer_init(&w);
    lf_status st = fill_writer(e, &w, err, errlen);
    if (st == LF_OK) st = lf_lfz_encode(&w, LF_LFZ_DEFAULT_LEVEL, out, out_len, err, errlen);
    lf_lfz_writer_free(&w);
    return st;
}

lf_status lf_entry_save(const lf_violation_entry *e, const char *dir, char *path, size_t path_len, char *err,
                        size_t errlen) {
    char name[LF_ENTRY_NAME_MAX], full_path[4096];
    lf_entry_name(e, name);
    if (snprintf(full_path, sizeof full_path, "%s/%s", dir, name) >= (int)sizeof full_path) {
        snprintf(err, errlen, "%s: path too long", dir);
        return LF_ERR_IO;
    }
    if (!lf_mkdirs(dir)) {
        snprintf(err, errlen, "%s: cannot create the directory: %s", dir, strerror(errno));
        return LF_ERR_IO;
    }
    lf_lfz_writer w;
    lf_lfz_writer_init(&w);
    char why[512];
    lf_status st = fill_writer(e, &w, why, sizeof why);
    if (st != LF_OK)
        snprintf(err, errlen, "%s: %s", full_path, why);
    else
        st = lf_lfz_save(&w, full_path, LF_LFZ_DEFAULT_LEVEL, err, errlen);
    lf_lfz_writer_free(&w);
    if (st == LF_OK && path) snprintf(path, path_len, "%s", full_path);
    return st;
}

/* ---- loading ---- */

static bool name_chars(const char *s, size_t max) {
    size_t n = strlen(s);
    if (n == 0 || n > max) return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-'))
            return false;
    return true;
}

static bool hex16(const char *s) {
    if (strlen(s) != 16) return false;
    for (int i = 0; i < 16; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return false;
    return true;
}

static char *copy_text(const lf_lfz_section *s) {
    char *t = malloc(s->len + 1);
    if (t) {
        memcpy(t, s->text, s->len);
        t[s->len] = 0;
    }
    return t;
}

/* Fills e from an opened container; messages name the file. */
static lf_status from_reader(const lf_lfz_reader *r, lf_violation_entry *e, char *err, size_t errlen) {
    const char *file = r->file;
    const lf_lfz_section *meta = lf_lfz_find(r, LF_LFZ_META, SEC_META);
    const lf_lfz_section *workload = lf_lfz_find(r, LF_LFZ_BYTES, SEC_WORKLOAD);
    const lf_lfz_section *verdict = lf_lfz_find(r, LF_LFZ_TEXT, SEC_VERDICT);
    const lf_lfz_section *report = lf_lfz_find(r, LF_LFZ_TEXT, SEC_REPORT);
    const lf_lfz_section *full = lf_lfz_find(r, LF_LFZ_HISTORY, SEC_HISTORY);
    const lf_lfz_section *minimized = lf_lfz_find(r, LF_LFZ_HISTORY, SEC_MINIMIZED);
    const lf_lfz_section *rootcause = lf_lfz_find(r, LF_LFZ_TEXT, SEC_ROOTCAUSE);
    const lf_lfz_section *test = lf_lfz_find(r, LF_LFZ_BYTES, SEC_TEST);
    const lf_lfz_section *test_history = lf_lfz_find(r, LF_LFZ_HISTORY, SEC_TEST_HISTORY);
    const char *missing = !meta        ? "meta section 'meta'"
                          : !workload  ? "bytes section 'workload'"
                          : !full      ? "history section 'history'"
                          : !minimized ? "history section 'minimized'"
                          : !verdict   ? "text section 'verdict'"
                          : !report    ? "text section 'report'"
                                       : NULL;
    if (missing) {
        snprintf(err, errlen, "%s: not a violation entry: no %s", file, missing);
        return LF_ERR_FORMAT;
    }
    if (!test != !test_history) {
        snprintf(err, errlen, "%s: violation entry: section '%s' without '%s'", file, test ? SEC_TEST : SEC_TEST_HISTORY,
                 test ? SEC_TEST_HISTORY : SEC_TEST);
        return LF_ERR_FORMAT;
    }
    const char *format = lf_lfz_meta_get(meta, "entry");
    if (!format || strcmp(format, LF_ENTRY_FORMAT) != 0) {
        snprintf(err, errlen, "%s: not a violation entry: meta 'entry' is %s%s%s (expected '%s')", file,
                 format ? "'" : "", format ? format : "missing", format ? "'" : "", LF_ENTRY_FORMAT);
        return LF_ERR_FORMAT;
    }
    const char *adapter = lf_lfz_meta_get(meta, "adapter"), *type_name = lf_lfz_meta_get(meta, "type");
    const char *bucket = lf_lfz_meta_get(meta, "bucket");
    lf_type type = LF_TYPE_CUSTOM;
    if (!adapter || !name_chars(adapter, 63)) {
        snprintf(err, errlen, "%s: violation entry: meta 'adapter' is missing or not an adapter name", file);
        return LF_ERR_FORMAT;
    }
    /* a built-in type, or a custom one (its declaration travels with the histories) */
    if (!type_name || (!lf_type_from_name(type_name, strlen(type_name), &type) && !name_chars(type_name, 32))) {
        snprintf(err, errlen, "%s: violation entry: meta 'type' is missing or not a history type", file);
        return LF_ERR_FORMAT;
    }
    if (!bucket || !hex16(bucket)) {
        snprintf(err, errlen, "%s: violation entry: meta 'bucket' is missing or not 16 hex digits", file);
        return LF_ERR_FORMAT;
    }
    lf_entry_init(e, type);
    lf_status st = lf_lfz_get_history(r, full, &e->full, err, errlen);
    if (st == LF_OK) st = lf_lfz_get_history(r, minimized, &e->minimized, err, errlen);
    if (st == LF_OK && test_history) st = lf_lfz_get_history(r, test_history, &e->test_history, err, errlen);
    e->has_test = test != NULL;
    if (st != LF_OK) {
        lf_entry_free(e);
        return st;
    }
    if (e->full.type != type || e->minimized.type != type || strcmp(lf_history_type_name(&e->full), type_name) ||
        (type == LF_TYPE_CUSTOM && !lf_type_desc_equal(e->full.custom, e->minimized.custom)) ||
        (test && (e->test_history.type != type ||
                  (type == LF_TYPE_CUSTOM && !lf_type_desc_equal(e->full.custom, e->test_history.custom))))) {
        snprintf(err, errlen, "%s: violation entry: its histories are not of type %s (meta 'type')", file, type_name);
        lf_entry_free(e);
        return LF_ERR_FORMAT;
    }
    if (e->minimized.n > lf_entry_recorded(e)->n || e->minimized.n == 0) {
        snprintf(err, errlen, "%s: violation entry: the minimized history has %zu ops (%s: %zu)", file,
                 e->minimized.n, test ? "test_history" : "full", lf_entry_recorded(e)->n);
        lf_entry_free(e);
        return LF_ERR_FORMAT;
    }
    if (rootcause) {
        lf_rootcause rc;
        char why[512];
        lf_status rst = lf_rootcause_parse(rootcause->text, rootcause->len, &rc, why, sizeof why);
        lf_rootcause_free(&rc);
        if (rst != LF_OK) {
            snprintf(err, errlen, "%s: violation entry: %s", file, why);
            lf_entry_free(e);
            return rst;
        }
    }
    e->workload = malloc(workload->len ? workload->len : 1);
    e->verdict = copy_text(verdict);
    e->report = copy_text(report);
    e->rootcause = rootcause ? copy_text(rootcause) : NULL;
    if (test) e->test = malloc(test->len ? test->len : 1);
    bool ok = e->workload && e->verdict && e->report && (!rootcause || e->rootcause) && (!test || e->test);
    if (ok) {
        memcpy(e->workload, workload->data, workload->len);
        e->workload_len = workload->len;
        if (test) memcpy(e->test, test->data, test->len);
        e->test_len = test ? test->len : 0;
    }
    for (size_t i = 0; ok && i < meta->n_pairs; i++) ok = lf_entry_set_meta(e, meta->pairs[i].key, meta->pairs[i].value);
    if (!ok) {
        lf_entry_free(e);
        snprintf(err, errlen, "%s: out of memory", file);
        return LF_ERR_NOMEM;
    }
    return LF_OK;
}

lf_status lf_entry_decode(const void *data, size_t len, const char *name, lf_violation_entry *e, char *err,
                          size_t errlen) {
    lf_lfz_reader r;
    lf_entry_init(e, LF_TYPE_REGISTER);
    lf_status st = lf_lfz_decode(&r, data, len, name, err, errlen);
    if (st != LF_OK) return st;
    st = from_reader(&r, e, err, errlen);
    lf_lfz_reader_free(&r);
    return st;
}

lf_status lf_entry_load(const char *path, lf_violation_entry *e, char *err, size_t errlen) {
    lf_lfz_reader r;
    lf_entry_init(e, LF_TYPE_REGISTER);
    lf_status st = lf_lfz_open(&r, path, err, errlen);
    if (st != LF_OK) return st;
    st = from_reader(&r, e, err, errlen);
    lf_lfz_reader_free(&r);
    return st;
}

bool lf_entry_find_bucket(const char *dir, const char *bucket, char *path, size_t path_len) {
    DIR *d = opendir(dir);
    if (!d) return false;
    bool found = false;
    size_t bl = strlen(bucket);
    struct dirent *de;
    while (!found && (de = readdir(d)) != NULL) {
        size_t nl = strlen(de->d_name);
        if (nl > bl + 5 && !strncmp(de->d_name, bucket, bl) && de->d_name[bl] == '-' &&
            !strcmp(de->d_name + nl - 4, ".lfz")) {
            snprintf(path, path_len, "%s/%s", dir, de->d_name);
            found = true;
        }
    }
    closedir(d);
    return found;
}
