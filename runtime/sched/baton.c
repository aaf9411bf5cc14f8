/* Baton words: spin-then-futex waiting and conditional wake-ups (see baton.h). */
#include "sched/baton.h"

#include <errno.h>
#include <sched.h>

#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

static void futex_wait(_Atomic uint32_t *word, uint32_t expected) {
    /* Returns on a wake, on a signal, or at once when *word != expected: the caller re-checks. */
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *word) {
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#else
/* Without futexes the waiter yields instead of sleeping: correct, only less efficient. */
static void futex_wait(_Atomic uint32_t *word, uint32_t expected) {
    (void)word;
    (void)expected;
    sched_yield();
}
static void futex_wake(_Atomic uint32_t *word) { (void)word; }
#endif

void lf_baton_init(lf_baton *b) {
    atomic_init(&b->seq, 0);
    atomic_init(&b->sleeping, 0);
}

void lf_baton_wake(lf_baton *b) {
    atomic_fetch_add_explicit(&b->seq, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&b->sleeping, memory_order_seq_cst)) futex_wake(&b->seq);
}

void lf_baton_wait(lf_baton *b, bool (*ready)(void *arg), void *arg, unsigned spin_iterations) {
    for (unsigned i = 0; i < spin_iterations; i++) {
        if (ready(arg)) return;
        lf_cpu_relax();
    }
    for (;;) {
        uint32_t seq = atomic_load_explicit(&b->seq, memory_order_seq_cst);
        atomic_store_explicit(&b->sleeping, 1, memory_order_seq_cst);
        /* The waker bumps seq before it reads `sleeping`; we set `sleeping` before the last check of ready():
         * either it sees us asleep and wakes us, or we see its change here. */
        if (ready(arg)) {
            atomic_store_explicit(&b->sleeping, 0, memory_order_relaxed);
            return;
        }
        futex_wait(&b->seq, seq);
        atomic_store_explicit(&b->sleeping, 0, memory_order_relaxed);
        if (ready(arg)) return;
    }
}
