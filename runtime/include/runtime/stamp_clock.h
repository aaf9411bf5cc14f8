/* Timestamp sources for recording call and return events (docs/runner.md, "Timestamps").
 *
 * A history is only as sound as its stamps: if op A's return stamp is below op B's call stamp, the checker
 * assumes A finished before B started, so every effect of A must be visible before B's first access. Hence
 * the call stamp must be taken before the operation's first shared-memory access and the return stamp after
 * its last, with barriers that neither the compiler nor a weakly ordered CPU can move the operation across.
 *
 *  LF_CLOCK_TICKET: a seq_cst fetch-add on one shared counter. Portable and correct on any C11 machine: the
 *    RMWs on the counter are totally ordered, a return ticket's release pairs with a later call ticket's
 *    acquire (RMWs extend release sequences), so A.ret < B.call implies A happens-before B. Stamps are
 *    distinct. Costs one contended cache line (which also perturbs the schedule a little).
 *  LF_CLOCK_TSC (x86-64 only): rdtscp with fences. Call: "rdtscp; lfence" (later loads cannot start before
 *    the read). Return: "mfence; rdtscp" (earlier stores are globally visible first, per the Intel SDM).
 *    Needs an invariant TSC synchronised across cores; stamps of different threads may tie, and a tie means
 *    "concurrent" in the history format, which is sound. No shared cache line. */
#ifndef LINFUZZ_STAMP_CLOCK_H
#define LINFUZZ_STAMP_CLOCK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum lf_clock_kind { LF_CLOCK_TICKET, LF_CLOCK_TSC } lf_clock_kind;

/* The shared ticket counter, alone on its cache line. */
typedef struct lf_ticket_clock {
    _Alignas(64) _Atomic uint64_t next;
    char pad[64 - sizeof(uint64_t)];
} lf_ticket_clock;

const char *lf_clock_name(lf_clock_kind k);
bool lf_clock_from_name(const char *name, lf_clock_kind *out);
/* Whether this build and CPU can use k (TSC: x86-64 with rdtscp and an invariant TSC). */
bool lf_clock_available(lf_clock_kind k);

static inline uint64_t lf_ticket_stamp(lf_ticket_clock *c) {
    return atomic_fetch_add_explicit(&c->next, 1, memory_order_seq_cst);
}

#if defined(__x86_64__)
static inline uint64_t lf_tsc_call_stamp(void) {
    uint32_t lo, hi, aux;
    __asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}
static inline uint64_t lf_tsc_return_stamp(void) {
    uint32_t lo, hi, aux;
    __asm__ __volatile__("mfence\n\trdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}
#define LF_HAVE_TSC 1
#else
#define LF_HAVE_TSC 0
#endif

/* Stamps for kind k; the compiler folds the branch when k is constant in the caller's loop. */
static inline uint64_t lf_call_stamp(lf_clock_kind k, lf_ticket_clock *c) {
#if LF_HAVE_TSC
    if (k == LF_CLOCK_TSC) return lf_tsc_call_stamp();
#endif
    (void)k;
    return lf_ticket_stamp(c);
}
static inline uint64_t lf_return_stamp(lf_clock_kind k, lf_ticket_clock *c) {
#if LF_HAVE_TSC
    if (k == LF_CLOCK_TSC) return lf_tsc_return_stamp();
#endif
    (void)k;
    return lf_ticket_stamp(c);
}

#endif
