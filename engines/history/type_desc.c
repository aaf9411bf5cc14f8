/* Custom type declarations (linfuzz/history.h): checking, comparing, copying and formatting an lf_type_desc,
 * and the process-wide registry of named custom types that readers consult to attach a registered type (with
 * its spec) to a file's matching declaration. Kept apart from history.c so that the built-in tables and the
 * hot paths there stay as they were. */
#include "linfuzz/history.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/appendf.h"

static bool name_ok(const char *s, bool allow_dash) {
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > LF_CUSTOM_NAME_MAX || !(s[0] >= 'a' && s[0] <= 'z')) return false;
    for (size_t i = 1; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || (allow_dash && c == '-')))
            return false;
    }
    return true;
}

bool lf_type_desc_check(const lf_type_desc *d, char *err, size_t errlen) {
    lf_type builtin;
    if (!name_ok(d->name, true)) {
        snprintf(err, errlen, "type name '%.40s' is not [a-z][a-z0-9_-]* of at most %d characters",
                 d->name ? d->name : "", LF_CUSTOM_NAME_MAX);
        return false;
    }
    if (lf_type_from_name(d->name, strlen(d->name), &builtin)) {
        snprintf(err, errlen, "type name '%s' is a built-in type; a custom type needs a name of its own", d->name);
        return false;
    }
    if (d->n_methods < 1 || d->n_methods > LF_CUSTOM_MAX_METHODS || !d->methods) {
        snprintf(err, errlen, "type %s declares %zu methods; a custom type has 1 to %d", d->name, d->n_methods,
                 LF_CUSTOM_MAX_METHODS);
        return false;
    }
    /* Every result kind but "none" and "pending" may be declared (results then need "->"). */
    const uint16_t kinds = (uint16_t)((LF_KBIT(LF_K_COUNT) - 1u) & ~LF_KBIT(LF_K_NONE) & ~LF_KBIT(LF_K_PENDING));
    for (size_t i = 0; i < d->n_methods; i++) {
        const lf_method_decl *m = &d->methods[i];
        if (!name_ok(m->name, false)) {
            snprintf(err, errlen, "method %zu: name '%.40s' is not [a-z][a-z0-9_]* of at most %d characters", i,
                     m->name ? m->name : "", LF_CUSTOM_NAME_MAX);
            return false;
        }
        if (m->nargs > LF_CUSTOM_MAX_ARGS) {
            snprintf(err, errlen, "method %s: %u arguments; at most %d", m->name, m->nargs, LF_CUSTOM_MAX_ARGS);
            return false;
        }
        if (m->results != LF_KBIT(LF_K_NONE) && (m->results == 0 || (m->results & ~kinds))) {
            snprintf(err, errlen, "method %s: results must be none alone, or some result kinds (int, nil, empty, "
                     "true, false, ok, fail)", m->name);
            return false;
        }
        if (m->flags & ~LF_MF_ALL) {
            snprintf(err, errlen, "method %s: unknown flags 0x%x", m->name, m->flags & ~LF_MF_ALL);
            return false;
        }
        if ((m->flags & LF_MF_KEYED) && m->nargs == 0) {
            snprintf(err, errlen, "method %s: keyed, but it has no argument to be the key", m->name);
            return false;
        }
        for (size_t j = 0; j < i; j++)
            if (!strcmp(d->methods[j].name, m->name)) {
                snprintf(err, errlen, "method %s is declared twice", m->name);
                return false;
            }
    }
    return true;
}

bool lf_type_desc_equal(const lf_type_desc *a, const lf_type_desc *b) {
    if (a == b) return true;
    if (!a || !b || strcmp(a->name, b->name) != 0 || a->n_methods != b->n_methods) return false;
    for (size_t i = 0; i < a->n_methods; i++) {
        const lf_method_decl *x = &a->methods[i], *y = &b->methods[i];
        if (strcmp(x->name, y->name) || x->nargs != y->nargs || x->results != y->results || x->flags != y->flags)
            return false;
    }
    return true;
}

lf_type_desc *lf_type_desc_dup(const lf_type_desc *d) {
    size_t bytes = sizeof(lf_type_desc) + d->n_methods * sizeof(lf_method_decl) + strlen(d->name) + 1;
    for (size_t i = 0; i < d->n_methods; i++) bytes += strlen(d->methods[i].name) + 1;
    lf_type_desc *out = malloc(bytes);
    if (!out) return NULL;
    lf_method_decl *methods = (lf_method_decl *)(out + 1);
    char *names = (char *)(methods + d->n_methods);
    size_t len = strlen(d->name) + 1;
    memcpy(names, d->name, len);
    *out = (lf_type_desc){.name = names, .methods = methods, .n_methods = d->n_methods, .spec = d->spec};
    names += len;
    for (size_t i = 0; i < d->n_methods; i++) {
        methods[i] = d->methods[i];
        len = strlen(d->methods[i].name) + 1;
        memcpy(names, d->methods[i].name, len);
        methods[i].name = names;
        names += len;
    }
    return out;
}

void lf_type_desc_free(lf_type_desc *d) { free(d); }

int lf_method_decl_format(char *buf, size_t len, const lf_method_decl *m) {
    size_t w = 0;
#define PUT(...) lf_appendf(buf, len, &w, __VA_ARGS__)
    PUT("method %s %u", m->name, m->nargs);
    if (m->results != LF_KBIT(LF_K_NONE)) {
        const char *sep = " -> ";
        for (int k = LF_K_INT; k < LF_K_COUNT; k++)
            if (k != LF_K_PENDING && (m->results & LF_KBIT(k))) {
                PUT("%s%s", sep, lf_kind_name((lf_kind)k));
                sep = "|";
            }
    }
    if (m->flags & LF_MF_OBSERVER) PUT(" observer");
    if (m->flags & LF_MF_NONDET) PUT(" nondet");
    if (m->flags & LF_MF_BLOCKS) PUT(" blocks");
    if (m->flags & LF_MF_KEYED) PUT(" keyed");
#undef PUT
    return (int)w;
}

/* ---- the registry ---- */

#define MAX_REGISTERED 256

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static const lf_type_desc *registered[MAX_REGISTERED];
static size_t n_registered;

bool lf_type_register(const lf_type_desc *d, char *err, size_t errlen) {
    if (!lf_type_desc_check(d, err, errlen)) return false;
    bool ok = true;
    pthread_mutex_lock(&registry_lock);
    size_t i = 0;
    while (i < n_registered && strcmp(registered[i]->name, d->name) != 0) i++;
    if (i < n_registered) {
        if (!lf_type_desc_equal(registered[i], d)) {
            snprintf(err, errlen, "type %s is registered already with another declaration", d->name);
            ok = false;
        } else if (!registered[i]->spec && d->spec) {
            registered[i] = d; /* the declaration that brings a spec wins */
        }
    } else if (n_registered == MAX_REGISTERED) {
        snprintf(err, errlen, "more than %d custom types registered", MAX_REGISTERED);
        ok = false;
    } else {
        registered[n_registered++] = d;
    }
    pthread_mutex_unlock(&registry_lock);
    return ok;
}

const lf_type_desc *lf_type_find(const char *name, size_t len) {
    const lf_type_desc *found = NULL;
    pthread_mutex_lock(&registry_lock);
    for (size_t i = 0; i < n_registered && !found; i++)
        if (strlen(registered[i]->name) == len && memcmp(registered[i]->name, name, len) == 0) found = registered[i];
    pthread_mutex_unlock(&registry_lock);
    return found;
}
