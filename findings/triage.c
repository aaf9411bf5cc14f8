/* Triage: collecting files, signatures and groups of findings (see triage.h). */
#include "findings/triage.h"
#include "findings/stuck.h"

#include "findings/capture.h"
#include "findings/crash.h"
#include "findings/rootcause_section.h"
#include "util/grow.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <xxhash.h>

/* ---- files ---- */

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !memcmp(s + n - m, suffix, m);
}

lf_triage_kind lf_triage_classify(const char *name, size_t *prefix_len) {
    if (ends_with(name, ".lfz")) return LF_TRIAGE_FILE_ENTRY;
    static const char *const kinds[] = {"crash-", "timeout-", "oom-", "leak-", "slow-unit-"};
    size_t n = strlen(name);
    if (n < 40) return LF_TRIAGE_FILE_OTHER;
    const char *hash = name + n - 40;
    for (size_t i = 0; i < 40; i++)
        if (!((hash[i] >= '0' && hash[i] <= '9') || (hash[i] >= 'a' && hash[i] <= 'f'))) return LF_TRIAGE_FILE_OTHER;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t kl = strlen(kinds[k]);
        if ((size_t)(hash - name) >= kl && !memcmp(hash - kl, kinds[k], kl)) {
            if (prefix_len) *prefix_len = (size_t)(hash - name) - kl;
            return LF_TRIAGE_FILE_INPUT;
        }
    }
    return LF_TRIAGE_FILE_OTHER;
}

static bool add_file(lf_triage_files *fs, const char *path, lf_triage_kind kind, const char *error) {
    if (!LF_GROW(fs->files, fs->cap, fs->n + 1, 64)) return false;
    lf_triage_file *f = &fs->files[fs->n];
    f->path = strdup(path);
    f->kind = kind;
    f->error = error ? strdup(error) : NULL;
    if (!f->path || (error && !f->error)) {
        free(f->path);
        free(f->error);
        return false;
    }
    fs->n++;
    return true;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Walks dir (symbolic links to directories are not followed; depth bounds nesting all the same). */
static bool walk(lf_triage_files *fs, const char *dir, int depth) {
    char msg[4200];
    if (depth > 32) {
        snprintf(msg, sizeof msg, "%s: directories nested too deep (a symlink loop?)", dir);
        return add_file(fs, dir, LF_TRIAGE_FILE_ERROR, msg);
    }
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(msg, sizeof msg, "%s: cannot read the directory: %s", dir, strerror(errno));
        return add_file(fs, dir, LF_TRIAGE_FILE_ERROR, msg);
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    struct dirent *de;
    while (ok && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue; /* ".", "..", hidden files and temporaries of atomic writes */
        if (!LF_GROW(names, cap, n + 1, 64)) {
            ok = false;
            break;
        }
        ok = (names[n] = strdup(de->d_name)) != NULL;
        if (ok) n++;
    }
    closedir(d);
    if (ok && n) qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; ok && i < n; i++) {
        size_t len = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(len);
        if (!path) {
            ok = false;
            break;
        }
        snprintf(path, len, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", names[i]);
        struct stat st, link;
        if (lstat(path, &link) != 0 || stat(path, &st) != 0) {
            snprintf(msg, sizeof msg, "%s: %s", path, strerror(errno));
            ok = add_file(fs, path, LF_TRIAGE_FILE_ERROR, msg);
        } else if (S_ISDIR(st.st_mode) && S_ISLNK(link.st_mode)) {
            /* not followed (as grep -r and find do): a link to .. or / would walk the same entries again and
             * again, or the whole file system; a directory named on the command line is followed */
            ok = add_file(fs, path, LF_TRIAGE_FILE_OTHER, NULL);
        } else if (S_ISDIR(st.st_mode)) {
            ok = walk(fs, path, depth + 1);
        } else if (S_ISREG(st.st_mode)) {
            ok = add_file(fs, path, lf_triage_classify(names[i], NULL), NULL);
        }
        free(path);
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    return ok;
}

bool lf_triage_collect(lf_triage_files *fs, const char *path) {
    struct stat st;
    char msg[4200];
    if (stat(path, &st) != 0) {
        snprintf(msg, sizeof msg, "%s: %s", path, strerror(errno));
        return add_file(fs, path, LF_TRIAGE_FILE_ERROR, msg);
    }
    if (S_ISDIR(st.st_mode)) return walk(fs, path, 0);
    return add_file(fs, path, ends_with(path, ".lfz") ? LF_TRIAGE_FILE_ENTRY : LF_TRIAGE_FILE_INPUT, NULL);
}

void lf_triage_files_free(lf_triage_files *fs) {
    for (size_t i = 0; i < fs->n; i++) {
        free(fs->files[i].path);
        free(fs->files[i].error);
    }
    free(fs->files);
    memset(fs, 0, sizeof *fs);
}

/* ---- findings ---- */

const char *lf_triage_category_name(lf_triage_category c) {
    switch (c) {
    case LF_TRIAGE_BUG:
        return "BUG";
    case LF_TRIAGE_CRASH:
        return "CRASH";
    case LF_TRIAGE_STUCK:
        return "STUCK";
    case LF_TRIAGE_SERIAL_NONDETERMINISM:
        return "SERIAL_NONDETERMINISM";
    case LF_TRIAGE_NOT_REPRODUCED:
        return "NOT_REPRODUCED";
    case LF_TRIAGE_KNOWN_BUG:
        return "KNOWN_BUG";
    }
    return "?";
}

bool lf_triage_category_unexpected(lf_triage_category c) {
    return c == LF_TRIAGE_BUG || c == LF_TRIAGE_CRASH || c == LF_TRIAGE_STUCK || c == LF_TRIAGE_SERIAL_NONDETERMINISM;
}

/* Formats a time as "YYYY-MM-DDTHH:MM:SSZ" (UTC) into out[24]. */
static void triage_format_time(int64_t unix_seconds, char out[24]) {
    time_t t = (time_t)unix_seconds;
    struct tm tm;
    if (!gmtime_r(&t, &tm) || !strftime(out, 24, "%Y-%m-%dT%H:%M:%SZ", &tm)) snprintf(out, 24, "-");
}

/* The file's modification time, or "-". */
static void file_time(const char *path, char out[24]) {
    struct stat st;
    if (stat(path, &st) == 0)
        triage_format_time((int64_t)st.st_mtime, out);
    else
        snprintf(out, 24, "-");
}

static bool well_formed_time(const char *s) {
    /* YYYY-MM-DDTHH:MM:SSZ: compares as text in time order */
    static const char layout[] = "dddd-dd-ddTdd:dd:ddZ";
    if (!s || strlen(s) != sizeof layout - 1) return false;
    for (size_t i = 0; layout[i]; i++)
        if (layout[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != layout[i]) return false;
    return true;
}

void lf_triage_init(lf_triage *t, lf_triage_by by) {
    memset(t, 0, sizeof *t);
    t->by = by;
}

static void free_groups(lf_triage *t) {
    for (size_t i = 0; i < t->n_groups; i++) {
        free(t->groups[i].label);
        free(t->groups[i].items);
    }
    free(t->groups);
    t->groups = NULL;
    t->n_groups = 0;
}

/* Frees what the item owns (not the item: it lives in t->items). */
static void item_free(lf_triage_item *it) {
    free(it->path);
    free(it->adapter);
    free(it->example);
    free(it->detail);
    free(it->workload);
    free(it->variant);
    free(it->crash_label);
}

void lf_triage_free(lf_triage *t) {
    for (size_t i = 0; i < t->n_items; i++) item_free(&t->items[i]);
    free(t->items);
    for (size_t i = 0; i < t->n_errors; i++) {
        free(t->errors[i].path);
        free(t->errors[i].message);
    }
    free(t->errors);
    free_groups(t);
    memset(t, 0, sizeof *t);
}

/* A new zeroed item owning a copy of path, or NULL. */
static lf_triage_item *new_item(lf_triage *t, const char *path, const char *adapter) {
    if (!LF_GROW(t->items, t->cap_items, t->n_items + 1, 32)) return NULL;
    lf_triage_item *it = &t->items[t->n_items];
    memset(it, 0, sizeof *it);
    it->duplicate_of = -1;
    it->path = strdup(path);
    it->adapter = strdup(adapter ? adapter : "?");
    if (!it->path || !it->adapter) {
        free(it->path);
        free(it->adapter);
        return NULL;
    }
    t->n_items++;
    return it;
}

static void drop_last_item(lf_triage *t) { item_free(&t->items[--t->n_items]); }

const char *lf_triage_by_name(lf_triage_by by) {
    switch (by) {
    case LF_TRIAGE_BY_SIGNATURE: return "signature";
    case LF_TRIAGE_BY_VARIANT: return "variant";
    case LF_TRIAGE_BY_BUCKET: return "bucket";
    case LF_TRIAGE_BY_SHAPE: return "shape";
    }
    return "?";
}

bool lf_triage_by_from_name(const char *name, lf_triage_by *by) {
    for (int b = LF_TRIAGE_BY_SIGNATURE; b <= LF_TRIAGE_BY_SHAPE; b++)
        if (!strcmp(name, lf_triage_by_name((lf_triage_by)b))) {
            *by = (lf_triage_by)b;
            return true;
        }
    return false;
}

/* The canonical form of e's minimized history and its hash (malloc'ed; NULL when out of memory). */
static char *variant_of(const lf_violation_entry *e, bool has_cut, uint64_t cut_stamp, char id[17]) {
    uint32_t serial;
    const char *sv = lf_entry_meta(e, "serial_thread");
    char *end = NULL;
    unsigned long long v = sv ? strtoull(sv, &end, 10) : 0;
    bool has_serial = sv && *sv && end && !*end && v <= UINT32_MAX;
    serial = (uint32_t)v;
    size_t len = lf_violation_canonical(&e->minimized, has_cut, cut_stamp, has_serial ? &serial : NULL, NULL, 0);
    char *text = malloc(len + 1);
    if (!text) return NULL;
    lf_violation_canonical(&e->minimized, has_cut, cut_stamp, has_serial ? &serial : NULL, text, len + 1);
    snprintf(id, 17, "%016llx", (unsigned long long)XXH64(text, len, 0));
    return text;
}

long lf_triage_add_violation(lf_triage *t, const char *path, bool is_input, const lf_violation_entry *e,
                             const char *saved) {
    lf_triage_item *it = new_item(t, path, lf_entry_meta(e, "adapter"));
    if (!it) return -1;
    it->is_input = is_input;
    const char *expected = lf_entry_meta(e, "expected");
    /* Only an explicit "not linearizable" claim makes a violation expected. A STUCK entry is a finding about
     * progress: always STUCK, whatever the adapter claims about linearizability. */
    bool stuck = lf_entry_is_stuck(e), crash = lf_entry_is_crash(e);
    bool known = expected && !strcmp(expected, "not linearizable");
    /* A crash entry (findings/crash.h) is a CRASH, or the known bug of a known-buggy adapter. */
    it->category = stuck   ? LF_TRIAGE_STUCK
                   : known ? LF_TRIAGE_KNOWN_BUG
                   : crash ? LF_TRIAGE_CRASH
                           : LF_TRIAGE_BUG;
    const char *created = lf_entry_meta(e, "created");
    if (well_formed_time(created))
        snprintf(it->first_seen, sizeof it->first_seen, "%s", created);
    else
        file_time(path, it->first_seen);
    const char *cut = lf_entry_meta(e, "cut_stamp");
    bool has_cut = cut != NULL;
    uint64_t cut_stamp = cut ? strtoull(cut, NULL, 10) : 0;
    if (crash) { /* the kind and the root site (findings/crash.h): the sites, read from the sanitizer's report */
        snprintf(it->sig.type, sizeof it->sig.type, "%s", lf_history_type_name(&e->minimized));
        it->sig.shape = "CRASH";
        snprintf(it->sig.cut_method, sizeof it->sig.cut_method, "-");
        const char *kind = lf_entry_meta(e, "crash_kind"), *bucket = lf_entry_meta(e, "bucket");
        snprintf(it->sig.methods, sizeof it->sig.methods, "%s", kind ? kind : "crash");
        snprintf(it->bucket, sizeof it->bucket, "%s", bucket ? bucket : "-");
        char label[1400];
        lf_crash_label(e, label, sizeof label);
        if (!(it->crash_label = strdup(label))) {
            drop_last_item(t);
            return -1;
        }
    } else if (stuck) { /* the stuck methods and why they wait (findings/stuck.h), recomputed like a violation's */
        uint32_t may_block = lf_entry_may_block(e);
        snprintf(it->sig.type, sizeof it->sig.type, "%s", lf_history_type_name(&e->minimized));
        it->sig.shape = lf_stuck_shape(&e->minimized, may_block);
        snprintf(it->sig.cut_method, sizeof it->sig.cut_method, "-");
        lf_stuck_signature_methods(&e->minimized, it->sig.methods);
        lf_stuck_bucket(it->adapter, &e->minimized, may_block, it->bucket);
    } else if (lf_entry_category(e)) { /* the serial evidence is no violation: its own signature */
        it->category = LF_TRIAGE_SERIAL_NONDETERMINISM;
        lf_nondeterminism_signature(it->adapter, &e->minimized, &it->sig, it->bucket);
    } else {
        lf_violation_signature(&e->minimized, has_cut, cut_stamp, &it->sig);
        lf_violation_bucket(it->adapter, &e->minimized, has_cut, cut_stamp, it->bucket);
    }
    if (e->rootcause) {
        lf_rootcause rc;
        char err[256];
        if (lf_rootcause_parse(e->rootcause, strlen(e->rootcause), &rc, err, sizeof err) == LF_OK)
            lf_rootcause_signature(&rc, it->cause, sizeof it->cause);
        lf_rootcause_free(&rc);
    }
    it->variant = variant_of(e, has_cut, cut_stamp, it->variant_id);
    const char *stored = lf_entry_meta(e, "bucket");
    it->bucket_differs = !stored || strcmp(stored, it->bucket) != 0;
    it->min_ops = e->minimized.n;
    it->full_ops = e->full.n;
    it->input_len = e->workload_len;
    const char *example = is_input ? saved : path;
    bool ok = it->variant != NULL;
    if (ok && example) ok = (it->example = strdup(example)) != NULL;
    if (ok && !is_input) {
        it->workload = malloc(e->workload_len ? e->workload_len : 1);
        ok = it->workload != NULL;
        if (ok) {
            if (e->workload_len) memcpy(it->workload, e->workload, e->workload_len);
            it->workload_len = e->workload_len;
        }
    }
    if (!ok) {
        drop_last_item(t);
        return -1;
    }
    return (long)(t->n_items - 1);
}

bool lf_triage_mark_not_violation(lf_triage *t, size_t item, const char *why) {
    if (item >= t->n_items) return false;
    lf_triage_item *it = &t->items[item];
    char *detail = strdup(why);
    if (!detail) return false;
    free(it->detail);
    it->detail = detail;
    it->category = LF_TRIAGE_NOT_REPRODUCED;
    it->not_violation = true;
    return true;
}

long lf_triage_add_duplicate(lf_triage *t, const char *path, size_t of) {
    if (of >= t->n_items) return -1;
    lf_triage_item *it = new_item(t, path, t->items[of].adapter);
    if (!it) return -1;
    const lf_triage_item *src = &t->items[of]; /* after new_item: items may have moved */
    it->is_input = true;
    it->category = src->category;
    it->not_violation = src->not_violation;
    file_time(path, it->first_seen);
    memcpy(it->bucket, src->bucket, sizeof it->bucket);
    it->bucket_differs = src->bucket_differs;
    it->sig = src->sig;
    memcpy(it->cause, src->cause, sizeof it->cause);
    memcpy(it->variant_id, src->variant_id, sizeof it->variant_id);
    it->variant = src->variant ? strdup(src->variant) : NULL;
    it->crash_label = src->crash_label ? strdup(src->crash_label) : NULL;
    it->min_ops = src->min_ops;
    it->full_ops = src->full_ops;
    it->input_len = src->workload_len;
    it->duplicate_of = (long)of;
    char detail[4200];
    snprintf(detail, sizeof detail, "the input of %s", src->path);
    it->detail = strdup(detail);
    if (!it->detail || (src->example && !(it->example = strdup(src->example))) || (src->variant && !it->variant) ||
        (src->crash_label && !it->crash_label)) {
        drop_last_item(t);
        return -1;
    }
    return (long)(t->n_items - 1);
}

long lf_triage_add_other(lf_triage *t, const char *path, const char *adapter, lf_triage_category category,
                         const char *detail, size_t input_len) {
    lf_triage_item *it = new_item(t, path, adapter);
    if (!it) return -1;
    it->is_input = true;
    it->category = category;
    file_time(path, it->first_seen);
    it->input_len = input_len;
    if (detail && !(it->detail = strdup(detail))) {
        drop_last_item(t);
        return -1;
    }
    return (long)(t->n_items - 1);
}

bool lf_triage_add_error(lf_triage *t, const char *path, const char *message, bool io) {
    if (!LF_GROW(t->errors, t->cap_errors, t->n_errors + 1, 16)) return false;
    lf_triage_error *er = &t->errors[t->n_errors];
    er->path = strdup(path);
    er->message = strdup(message);
    er->io = io;
    if (!er->path || !er->message) {
        free(er->path);
        free(er->message);
        return false;
    }
    t->n_errors++;
    return true;
}

long lf_triage_find_workload(const lf_triage *t, const char *adapter, const uint8_t *data, size_t len) {
    for (size_t i = 0; i < t->n_items; i++) {
        const lf_triage_item *it = &t->items[i];
        if (it->workload && it->workload_len == len && (len == 0 || !memcmp(it->workload, data, len)) &&
            (!adapter || !strcmp(adapter, it->adapter)))
            return (long)i;
    }
    return -1;
}

/* ---- groups ---- */

static bool is_violation(lf_triage_category c) {
    return c == LF_TRIAGE_BUG || c == LF_TRIAGE_KNOWN_BUG || c == LF_TRIAGE_SERIAL_NONDETERMINISM;
}
/* An item with a signature: a violation (or a serial nondeterminism), or a STUCK run captured as an entry
 * (an input that merely hung has none). */
static bool has_signature(const lf_triage_item *it) {
    return !it->not_violation && (is_violation(it->category) || it->sig.shape != NULL);
}

/* The group label of an item (malloc'ed). */
static char *label_of(const lf_triage *t, const lf_triage_item *it) {
    char buf[1400];
    if (has_signature(it)) {
        bool cut = strcmp(it->sig.cut_method, "-") != 0;
        switch (t->by) {
        case LF_TRIAGE_BY_SIGNATURE:
            if (it->crash_label) /* a crash: its kind and root site */
                snprintf(buf, sizeof buf, "%s", it->crash_label);
            else if (it->category == LF_TRIAGE_STUCK) /* no root cause here: the stuck methods and why they wait */
                snprintf(buf, sizeof buf, "%s %s %s", it->sig.type, it->sig.shape, it->sig.methods);
            else if (it->category == LF_TRIAGE_SERIAL_NONDETERMINISM) /* no linearizability bug, no root cause */
                snprintf(buf, sizeof buf, "%s, serial runs differ", it->sig.type);
            else if (it->cause[0])
                snprintf(buf, sizeof buf, "%s, root cause: %s", it->sig.type, it->cause);
            else
                snprintf(buf, sizeof buf, "%s, no root cause", it->sig.type);
            break;
        case LF_TRIAGE_BY_VARIANT:
            snprintf(buf, sizeof buf, "%.1300s", it->variant ? it->variant : "?");
            break;
        case LF_TRIAGE_BY_BUCKET:
            snprintf(buf, sizeof buf, "%s %s %s%s%s", it->sig.type, it->sig.shape, it->sig.methods,
                     cut ? ", cut at " : "", cut ? it->sig.cut_method : "");
            break;
        case LF_TRIAGE_BY_SHAPE:
            snprintf(buf, sizeof buf, "%s %s", it->sig.type, it->sig.shape);
            break;
        }
    } else if (it->category == LF_TRIAGE_CRASH) {
        snprintf(buf, sizeof buf, "replay %s", it->detail ? it->detail : "crashed");
    } else if (it->category == LF_TRIAGE_STUCK) {
        snprintf(buf, sizeof buf, "replay hung");
    } else if (it->not_violation) {
        snprintf(buf, sizeof buf, "entry whose minimized history is not a violation here");
    } else {
        snprintf(buf, sizeof buf, "no violation on replay");
    }
    return strdup(buf);
}

/* Whether item a is a smaller example than item b. */
static bool smaller(const lf_triage_item *a, const lf_triage_item *b) {
    if (a->min_ops != b->min_ops) return a->min_ops < b->min_ops;
    if (a->full_ops != b->full_ops) return a->full_ops < b->full_ops;
    if ((a->example != NULL) != (b->example != NULL)) return a->example != NULL;
    if (a->input_len != b->input_len) return a->input_len < b->input_len;
    return strcmp(a->path, b->path) < 0;
}

static int cmp_groups(const void *pa, const void *pb) {
    const lf_triage_group *a = pa, *b = pb;
    if (a->category != b->category) return (int)a->category - (int)b->category;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    int c = strcmp(a->adapter, b->adapter);
    return c ? c : strcmp(a->label, b->label);
}

bool lf_triage_group_all(lf_triage *t) {
    free_groups(t);
    if (!t->n_items) return true;
    t->groups = calloc(t->n_items, sizeof *t->groups); /* at most one group per item */
    if (!t->groups) return false;
    bool ok = true;
    for (size_t i = 0; ok && i < t->n_items; i++) {
        const lf_triage_item *it = &t->items[i];
        char *label = label_of(t, it);
        if (!label) {
            ok = false;
            break;
        }
        char id[17];
        if (has_signature(it) && t->by == LF_TRIAGE_BY_BUCKET) {
            memcpy(id, it->bucket, sizeof id);
        } else {
            char key[1600];
            int w = snprintf(key, sizeof key, "%s|%s|%s", it->adapter, lf_triage_category_name(it->category), label);
            size_t len = w > 0 && (size_t)w < sizeof key ? (size_t)w : sizeof key - 1;
            snprintf(id, sizeof id, "%016llx", (unsigned long long)XXH64(key, len, 0));
        }
        lf_triage_group *g = NULL;
        for (size_t k = 0; k < t->n_groups && !g; k++)
            if (!strcmp(t->groups[k].id, id) && !strcmp(t->groups[k].adapter, it->adapter) &&
                t->groups[k].category == it->category)
                g = &t->groups[k];
        if (!g) {
            g = &t->groups[t->n_groups];
            g->items = malloc(t->n_items * sizeof *g->items);
            if (!g->items) {
                free(label);
                ok = false;
                break;
            }
            t->n_groups++;
            g->category = it->category;
            g->label = label;
            memcpy(g->id, id, sizeof g->id);
            g->adapter = it->adapter;
            g->smallest = i;
            g->first_seen = it->first_seen;
        } else {
            free(label);
        }
        g->items[g->n_items++] = i;
        if (it->duplicate_of < 0) g->count++;
        if (smaller(it, &t->items[g->smallest])) g->smallest = i;
        /* "-" (unknown) sorts before digits: only a real time replaces a known one */
        if (strcmp(it->first_seen, "-") != 0 && (!strcmp(g->first_seen, "-") || strcmp(it->first_seen, g->first_seen) < 0))
            g->first_seen = it->first_seen;
    }
    /* distinct variants per group (a group's items are few: quadratic is fine) */
    for (size_t g = 0; ok && g < t->n_groups; g++) {
        lf_triage_group *gr = &t->groups[g];
        for (size_t a = 0; a < gr->n_items; a++) {
            const lf_triage_item *ia = &t->items[gr->items[a]];
            if (!ia->variant) continue;
            bool seen = false;
            for (size_t b = 0; b < a && !seen; b++)
                seen = t->items[gr->items[b]].variant && !strcmp(t->items[gr->items[b]].variant_id, ia->variant_id);
            gr->n_variants += !seen;
        }
    }
    if (ok) qsort(t->groups, t->n_groups, sizeof *t->groups, cmp_groups);
    return ok;
}

bool lf_triage_entry_group(const lf_violation_entry *e, lf_triage_category *category, char *label,
                           size_t label_len, char id[17]) {
    lf_triage t;
    lf_triage_init(&t, LF_TRIAGE_BY_SIGNATURE);
    bool ok = lf_triage_add_violation(&t, "-", false, e, NULL) >= 0 && lf_triage_group_all(&t) && t.n_groups == 1;
    if (ok) {
        *category = t.groups[0].category;
        snprintf(label, label_len, "%s", t.groups[0].label);
        memcpy(id, t.groups[0].id, 17);
    }
    lf_triage_free(&t);
    return ok;
}

void lf_shell_append_quoted(char *out, size_t len, const char *s) {
    size_t w = strlen(out);
    bool plain = *s != 0;
    for (const char *p = s; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:+,=@%-", *p)) plain = false;
    if (plain) {
        snprintf(out + w, len - w, "%s", s);
        return;
    }
    if (w + 1 < len) out[w++] = '\'';
    for (const char *p = s; *p && w + 5 < len; p++) {
        if (*p == '\'') {
            memcpy(out + w, "'\\''", 4);
            w += 4;
        } else {
            out[w++] = *p;
        }
    }
    if (w + 1 < len) out[w++] = '\'';
    out[w < len ? w : len - 1] = 0;
}

void lf_triage_repro_command(const lf_triage *t, const lf_triage_group *g, const char *bin, char *out, size_t len) {
    const lf_triage_item *it = &t->items[g->smallest];
    if (!len) return;
    if (it->example) {
        snprintf(out, len, "%s%s repro ", bin, t->entry_program ? t->entry_program : "linfuzz");
        lf_shell_append_quoted(out, len, it->example);
    } else {
        snprintf(out, len, "%sfuzz_%s -runs=100 ", bin, it->adapter);
        lf_shell_append_quoted(out, len, it->path);
    }
}
