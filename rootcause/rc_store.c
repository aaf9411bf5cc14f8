/* Storing root causes in an entry (rc_store.h). */
#include "rootcause/rc_store.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings/rootcause_section.h"
#include "linfuzz/format.h"

const char *lf_rc_stored_file(const char *file, const char *root, char *buf, size_t len) {
    char real_file[PATH_MAX], real_root[PATH_MAX];
    const char *f = realpath(file, real_file) ? real_file : file;
    if (realpath(root ? root : ".", real_root)) {
        size_t n = strlen(real_root);
        if (n == 1) n = 0; /* the root is "/" */
        if (!strncmp(f, real_root, n) && f[n] == '/' && f[n + 1]) {
            snprintf(buf, len, "%s", f + n + 1);
            return buf;
        }
    }
    /* linfuzz's own adapters, run from outside the tree: from the last "adapters/" on */
    const char *a = NULL;
    for (const char *p = strstr(f, "/adapters/"); p; p = strstr(p + 1, "/adapters/")) a = p + 1;
    snprintf(buf, len, "%s", a ? a : file);
    return buf;
}

/* r as a `rootcause` section (malloc'ed), files named by lf_rc_stored_file; NULL when out of memory or not
 * expressible. */
static char *format_section(const lf_rc_result *r, const char *root) {
    size_t n_max = r->n ? r->n : 1;
    lf_report_cause *rc = calloc(n_max, sizeof *rc);
    char (*files)[PATH_MAX] = calloc(n_max, sizeof *files);
    if (!rc || !files) {
        free(rc);
        free(files);
        return NULL;
    }
    size_t n = 0;
    for (size_t k = 0; k < r->n && n < LF_ROOTCAUSE_MAX_CANDIDATES; k++) {
        const lf_rc_candidate *c = &r->c[k];
        if (!c->exclusion && !c->resolved) continue; /* raw sites: the section holds only source regions */
        lf_report_cause *o = &rc[n];
        o->rank = (unsigned)(n + 1);
        o->exclusion = c->exclusion;
        o->summary = c->summary;
        if (c->exclusion) {
            o->methods[0] = c->methods[0];
            o->methods[1] = c->methods[1];
        } else {
            o->file = lf_rc_stored_file(c->file, root, files[n], sizeof files[n]);
            o->line_lo = c->lo;
            o->line_hi = c->hi;
            o->function = c->function[0] ? c->function : NULL;
            o->source = (const char *const *)c->source;
            o->n_source = c->n_source;
        }
        if (c->passing) {
            o->forbids = c->forbids;
            o->passing = c->passing;
        }
        if (c->validated) {
            o->validated = true;
            o->schedules = c->schedules;
            o->violations = c->violations;
        }
        n++;
    }
    char *text = lf_rootcause_format(rc, n);
    free(rc);
    free(files);
    return text;
}

lf_status lf_rc_attach(lf_violation_entry *e, const lf_rc_result *r, const char *root, char *err, size_t errlen) {
    char *text = format_section(r, root);
    if (!text) {
        snprintf(err, errlen, "the root causes cannot be written in the entry's format");
        return LF_ERR_FORMAT;
    }
    char why[512];
    lf_rootcause check;
    if (lf_rootcause_parse(text, strlen(text), &check, why, sizeof why) != LF_OK) { /* never: format parses */
        snprintf(err, errlen, "%s", why);
        free(text);
        return LF_ERR_FORMAT;
    }
    lf_rootcause_free(&check);
    free(e->rootcause);
    e->rootcause = text;
    return LF_OK;
}

lf_status lf_rc_store(const char *path, const char *out_dir, const char *root, lf_violation_entry *e,
                      const lf_rc_result *r, char *saved, size_t saved_len, char *err, size_t errlen) {
    char why[512];
    lf_status st = lf_rc_attach(e, r, root, why, sizeof why);
    if (st != LF_OK) {
        snprintf(err, errlen, "%s: %s", path, why);
        return st;
    }
    if (out_dir) return lf_entry_save(e, out_dir, saved, saved_len, err, errlen);
    /* in place: the same name (the content hash does not cover the rootcause section), replaced atomically */
    uint8_t *bytes = NULL;
    size_t len = 0;
    st = lf_entry_encode(e, &bytes, &len, why, sizeof why);
    if (st != LF_OK) {
        snprintf(err, errlen, "%s: %s", path, why);
        return st;
    }
    st = lf_write_bytes_atomic(path, bytes, len, err, errlen);
    free(bytes);
    if (st == LF_OK && saved) snprintf(saved, saved_len, "%s", path);
    return st;
}
