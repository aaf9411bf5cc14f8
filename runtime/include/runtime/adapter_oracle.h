/* An adapter seen serially, as the self-spec's oracle (linfuzz/selfspec.h): reset destroys the object and
 * creates a fresh one, apply performs one op and reports its result, fingerprint is the adapter's.
 *
 * Serial replays run on the calling thread, unperturbed (no LF_YIELD point fires: the thread has no
 * perturbation bound), with thread_enter/thread_leave around each object's life. A thread-affine adapter
 * (lf_adapter.thread_affine) instead gets one worker thread per recorded thread id, which enters the object
 * before its first op there and leaves it before the object is destroyed; ops are handed over one at a time,
 * so the replay is still serial. Methods declared LF_MF_BLOCKS are asked first (would_block) and never called
 * when they would block: the oracle answers LF_ORACLE_BLOCKED. */
#ifndef LINFUZZ_ADAPTER_ORACLE_H
#define LINFUZZ_ADAPTER_ORACLE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linfuzz/adapter.h"
#include "linfuzz/selfspec.h"

#define LF_ORACLE_MAX_WORKERS 64 /* recorded threads a thread-affine replay can serve */

typedef struct lf_oracle_worker lf_oracle_worker;

typedef struct lf_adapter_oracle {
    lf_oracle oracle; /* what the self-spec uses; oracle.self is this struct */
    const lf_adapter *adapter;
    lf_history type;  /* the adapter's type: method arities and flags */
    size_t max_ops;   /* create(max_ops): the longest serial replay */
    void *obj;        /* the current instance, or NULL */
    bool entered;     /* the calling thread entered obj (not thread-affine) */
    lf_oracle_worker *workers[LF_ORACLE_MAX_WORKERS];
    uint32_t worker_thread[LF_ORACLE_MAX_WORKERS]; /* the recorded thread each worker serves */
    size_t n_workers;
    uint64_t creates;
} lf_adapter_oracle;

/* An oracle over a (not started: the first reset creates the object). max_ops bounds the ops of one serial
 * replay (set it to at least the length of the histories checked). False when a cannot be replayed: a blocking
 * method without would_block, or a type it does not declare properly (message in err). */
bool lf_adapter_oracle_init(lf_adapter_oracle *o, const lf_adapter *a, size_t max_ops, char *err, size_t errlen);
void lf_adapter_oracle_free(lf_adapter_oracle *o);
/* The bound of later creates (it grows only). */
void lf_adapter_oracle_reserve(lf_adapter_oracle *o, size_t max_ops);

/* Whether h can be replayed on the adapter: the adapter's type (a custom type: an equal declaration), only
 * methods it implements, no nil argument (adapters take integers). False with a message naming the op. */
bool lf_adapter_can_replay(const lf_adapter *a, const lf_history *h, char *err, size_t errlen);

#endif
