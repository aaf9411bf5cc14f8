/* The adapter as the self-spec's oracle: fresh objects, serial ops on the calling thread or on one worker
 * per recorded thread (thread-affine adapters), blocking methods asked first, fingerprints (adapter_oracle.h). */
#include "runtime/adapter_oracle.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/adapter_type.h"
#include "runtime/perturb.h"

/* ---- thread-affine workers: one job at a time, handed over under a mutex ---- */

typedef enum job_kind { JOB_NONE, JOB_ENTER, JOB_LEAVE, JOB_OP, JOB_QUIT } job_kind;

struct lf_oracle_worker {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    job_kind job;
    bool done;
    bool entered; /* entered the current object */
    /* the op job */
    const lf_adapter *a;
    void *obj;
    lf_method m;
    int64_t args[LF_CUSTOM_MAX_ARGS];
    int64_t value;
    lf_kind kind;
};

static void *worker_main(void *arg) {
    lf_oracle_worker *w = arg;
    lf_perturb_bind(NULL);
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (w->job == JOB_NONE || w->done) pthread_cond_wait(&w->cond, &w->lock);
        job_kind job = w->job;
        pthread_mutex_unlock(&w->lock);
        if (job == JOB_ENTER && w->a->thread_enter) w->a->thread_enter(w->obj);
        if (job == JOB_LEAVE && w->a->thread_leave) w->a->thread_leave(w->obj);
        if (job == JOB_OP) w->kind = w->a->op(w->obj, w->m, w->args, &w->value);
        pthread_mutex_lock(&w->lock);
        w->done = true;
        pthread_cond_broadcast(&w->cond);
        if (job == JOB_QUIT) break;
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/* Runs one job on w and waits for it. */
static void worker_do(lf_oracle_worker *w, job_kind job) {
    pthread_mutex_lock(&w->lock);
    w->job = job;
    w->done = false;
    pthread_cond_broadcast(&w->cond);
    while (!w->done) pthread_cond_wait(&w->cond, &w->lock);
    w->job = JOB_NONE;
    pthread_mutex_unlock(&w->lock);
}

static lf_oracle_worker *worker_for(lf_adapter_oracle *o, uint32_t thread) {
    for (size_t i = 0; i < o->n_workers; i++)
        if (o->worker_thread[i] == thread) return o->workers[i];
    if (o->n_workers == LF_ORACLE_MAX_WORKERS) return NULL;
    lf_oracle_worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->a = o->adapter;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->cond, NULL);
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        pthread_mutex_destroy(&w->lock);
        pthread_cond_destroy(&w->cond);
        free(w);
        return NULL;
    }
    o->workers[o->n_workers] = w;
    o->worker_thread[o->n_workers++] = thread;
    return w;
}

/* ---- the oracle ---- */

static void drop_object(lf_adapter_oracle *o) {
    if (!o->obj) return;
    const lf_adapter *a = o->adapter;
    for (size_t i = 0; i < o->n_workers; i++)
        if (o->workers[i]->entered) {
            worker_do(o->workers[i], JOB_LEAVE);
            o->workers[i]->entered = false;
        }
    if (o->entered && a->thread_leave) a->thread_leave(o->obj);
    o->entered = false;
    a->destroy(o->obj);
    o->obj = NULL;
}

static bool oracle_reset(void *self) {
    lf_adapter_oracle *o = self;
    drop_object(o);
    lf_perturb_bind(NULL); /* serial replays are never perturbed */
    o->obj = o->adapter->create(o->max_ops);
    o->creates++;
    if (!o->obj) return false;
    if (!o->adapter->thread_affine) {
        if (o->adapter->thread_enter) o->adapter->thread_enter(o->obj);
        o->entered = true;
    }
    for (size_t i = 0; i < o->n_workers; i++) o->workers[i]->obj = o->obj;
    return true;
}

static lf_oracle_status oracle_apply(void *self, const lf_op *op, lf_kind *kind, int64_t *value) {
    lf_adapter_oracle *o = self;
    const lf_adapter *a = o->adapter;
    const lf_method_decl *d = lf_history_method(&o->type, op->method);
    /* bulk and burst ops are replayed by no oracle: their adapters are checked against the built-in specs */
    if (!o->obj || !d || op->arg_nil || (o->type.type != LF_TYPE_CUSTOM && lf_method_is_bulk(op->method)))
        return LF_ORACLE_ERROR;
    int64_t args[LF_CUSTOM_MAX_ARGS] = {0};
    for (unsigned i = 0; i < d->nargs && i < LF_CUSTOM_MAX_ARGS; i++) args[i] = op->arg[i];
    if ((d->flags & LF_MF_BLOCKS) && a->would_block && a->would_block(o->obj, (lf_method)op->method, args))
        return LF_ORACLE_BLOCKED;
    *value = 0;
    if (!a->thread_affine) {
        *kind = a->op(o->obj, (lf_method)op->method, args, value);
        return LF_ORACLE_OK;
    }
    lf_oracle_worker *w = worker_for(o, op->thread);
    if (!w) return LF_ORACLE_ERROR;
    w->obj = o->obj;
    if (!w->entered) {
        worker_do(w, JOB_ENTER);
        w->entered = true;
    }
    w->m = (lf_method)op->method;
    memcpy(w->args, args, sizeof w->args);
    worker_do(w, JOB_OP);
    *kind = w->kind;
    *value = w->value;
    return LF_ORACLE_OK;
}

static uint64_t oracle_fingerprint(void *self) {
    lf_adapter_oracle *o = self;
    return o->obj ? o->adapter->fingerprint(o->obj) : 0;
}

bool lf_adapter_oracle_init(lf_adapter_oracle *o, const lf_adapter *a, size_t max_ops, char *err, size_t errlen) {
    memset(o, 0, sizeof *o);
    if (!lf_adapter_check(a, err, errlen)) return false; /* blocking methods need would_block */
    o->adapter = a;
    lf_adapter_history_init(&o->type, a);
    o->max_ops = max_ops ? max_ops : 1;
    o->oracle = (lf_oracle){o, oracle_reset, oracle_apply, a->fingerprint ? oracle_fingerprint : NULL};
    return true;
}

void lf_adapter_oracle_reserve(lf_adapter_oracle *o, size_t max_ops) {
    if (max_ops > o->max_ops) o->max_ops = max_ops;
}

void lf_adapter_oracle_free(lf_adapter_oracle *o) {
    drop_object(o);
    for (size_t i = 0; i < o->n_workers; i++) {
        lf_oracle_worker *w = o->workers[i];
        worker_do(w, JOB_QUIT);
        pthread_join(w->thread, NULL);
        pthread_mutex_destroy(&w->lock);
        pthread_cond_destroy(&w->cond);
        free(w);
    }
    o->n_workers = 0;
}

bool lf_adapter_can_replay(const lf_adapter *a, const lf_history *h, char *err, size_t errlen) {
    lf_history type;
    lf_adapter_history_init(&type, a);
    bool same = h->type == type.type && (h->type != LF_TYPE_CUSTOM || lf_type_desc_equal(h->custom, type.custom));
    if (!same) {
        snprintf(err, errlen, "the history is of type %s, adapter %s of type %s", lf_history_type_name(h), a->name,
                 lf_adapter_type_name(a));
        return false;
    }
    lf_method ms[LF_M_COUNT];
    unsigned nm = lf_adapter_methods(a, ms);
    for (size_t i = 0; i < h->n; i++) {
        const lf_op *op = &h->ops[i];
        bool implemented = false;
        for (unsigned k = 0; k < nm; k++) implemented |= ms[k] == op->method;
        char d[200];
        if (!implemented || op->arg_nil) {
            lf_history_describe_op(h, op, d, sizeof d);
            snprintf(err, errlen, "op %zu (%s): %s", i, d,
                     !implemented ? "adapter lacks this method" : "a nil argument cannot be passed to an adapter");
            return false;
        }
    }
    return true;
}
