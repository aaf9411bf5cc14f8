/* The deferring ck_malloc of the ck hash tables (ck_deferred.h). */
#include "ck/ck_deferred.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct deferred_block {
    struct deferred_block *next;
} deferred_block;

static pthread_mutex_t deferred_lock = PTHREAD_MUTEX_INITIALIZER;
static deferred_block *deferred; /* blocks whose free was deferred */
static unsigned live_objects;

static void *hs_malloc(size_t size) {
    /* Room in front for the deferred-list link, keeping the caller's block 16-byte aligned. */
    char *p = malloc(size + 16);
    return p ? p + 16 : NULL;
}

static void hs_free(void *p, size_t size, bool defer) {
    (void)size;
    if (!p) return;
    deferred_block *b = (deferred_block *)((char *)p - 16);
    if (!defer) {
        free(b);
        return;
    }
    pthread_mutex_lock(&deferred_lock);
    b->next = deferred;
    deferred = b;
    pthread_mutex_unlock(&deferred_lock);
}

static void *hs_realloc(void *p, size_t old_size, size_t new_size, bool defer) {
    void *q = hs_malloc(new_size);
    if (!q) return NULL;
    if (p) memcpy(q, p, old_size < new_size ? old_size : new_size);
    hs_free(p, old_size, defer);
    return q;
}

struct ck_malloc lf_ck_deferred_allocator = {.malloc = hs_malloc, .realloc = hs_realloc, .free = hs_free};

void lf_ck_deferred_attach(void) {
    pthread_mutex_lock(&deferred_lock);
    live_objects++;
    pthread_mutex_unlock(&deferred_lock);
}

void lf_ck_deferred_detach(void) {
    pthread_mutex_lock(&deferred_lock);
    deferred_block *list = --live_objects == 0 ? deferred : NULL;
    if (list) deferred = NULL;
    pthread_mutex_unlock(&deferred_lock);
    while (list) {
        deferred_block *next = list->next;
        free(list);
        list = next;
    }
}
