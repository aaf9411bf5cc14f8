/* Baton words: how a controlled-mode worker sleeps until it may run, and how another thread wakes it.
 *
 * In controlled mode exactly one worker runs; handing the processor to another worker is "set the owner,
 * wake that worker" and "wait until I am the owner again". The waiter spins for a short while first (a
 * handoff to a thread that is still on a CPU then costs about a hundred nanoseconds) and then sleeps on a
 * futex, so that parked workers do not compete with the one that runs for the machine's cores. The wake side
 * makes the system call only when the waiter said it was going to sleep (Dekker-style with sequentially
 * consistent atomics on both sides), so most handoffs need no system call at all. */
#ifndef LINFUZZ_BATON_H
#define LINFUZZ_BATON_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct lf_baton {
    _Atomic uint32_t seq;      /* bumped by every wake; the futex word */
    _Atomic uint32_t sleeping; /* 1 while the waiter is (about to be) asleep in the kernel */
} lf_baton;

void lf_baton_init(lf_baton *b);

/* Wakes the thread that waits on b (if it sleeps, with a system call). */
void lf_baton_wake(lf_baton *b);

/* Waits on b until ready(arg) is true: checks it spin_iterations times with a pause in between, then sleeps,
 * re-checking after every wake. Only the thread that owns b waits on it. */
void lf_baton_wait(lf_baton *b, bool (*ready)(void *arg), void *arg, unsigned spin_iterations);

/* One pause of a busy-wait (the CPU's spin hint). */
static inline void lf_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause" ::: "memory");
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

#endif
