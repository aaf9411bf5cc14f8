/* A register under a sequence lock (the Linux kernel's seqlock), and a reader that skips the re-validation
 * on its slow path.
 *
 * The value is too wide for one word here, so it lives in two: its low 16 bits and the rest (a stand-in for
 * any multi-word payload). A writer makes the sequence odd (CAS from an even value, which also excludes
 * other writers), stores both halves and makes it even again. A reader reads the sequence, both halves and
 * the sequence again; an odd or changed sequence means a writer overlapped, and it tries again.
 *
 * Bug (seqlock_register_no_recheck): after a failed first attempt, the reader waits until the sequence is
 * even and then reads both halves WITHOUT checking the sequence again ("the writer we met is done now"). A
 * second writer that starts in between is not noticed: the reader can combine one write's low half with
 * another write's high half, a value nobody wrote (inserted values differ in both halves). Finding it takes
 * two overlaps with writers inside one read, in windows without LF_YIELD(). Correct twin: seqlock_register,
 * whose slow path loops back to the validated read. Writers and readers that wait for an odd sequence spin
 * on it: in controlled mode such a spin is a run of points without progress, and the scheduler lets the
 * writer go on (docs/scheduling.md, "Spinning"). */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "linfuzz/adapter.h"
#include "common/variants.h"

#define LOW_BITS 16
#define LOW_MASK ((UINT64_C(1) << LOW_BITS) - 1)

typedef struct sq_register {
    _Atomic uint64_t sequence; /* odd while a writer is inside */
    _Atomic uint64_t low, high;
    bool skip_recheck;         /* the bug */
} sq_register;

static void *create_with(size_t max_ops, bool skip_recheck) {
    (void)max_ops;
    sq_register *r = malloc(sizeof *r);
    if (!r) return NULL;
    atomic_init(&r->sequence, 0);
    atomic_init(&r->low, 0);
    atomic_init(&r->high, 0);
    r->skip_recheck = skip_recheck;
    return r;
}
LF_VARIANT_CREATE(buggy_create, create_with, true)
LF_VARIANT_CREATE(correct_create, create_with, false)
static void sq_destroy(void *obj) { free(obj); }

static void sq_write(sq_register *r, int64_t v) {
    uint64_t seq;
    do {
        seq = atomic_load(&r->sequence);
    } while ((seq & 1) || !atomic_compare_exchange_weak(&r->sequence, &seq, seq + 1));
    atomic_store(&r->low, (uint64_t)v & LOW_MASK);
    atomic_store(&r->high, (uint64_t)v >> LOW_BITS);
    atomic_store(&r->sequence, seq + 2);
}

static int64_t combine(uint64_t low, uint64_t high) { return (int64_t)(high << LOW_BITS | low); }

static int64_t sq_read(sq_register *r) {
    for (;;) {
        uint64_t seq = atomic_load(&r->sequence);
        if (!(seq & 1)) {
            uint64_t low = atomic_load(&r->low), high = atomic_load(&r->high);
            if (atomic_load(&r->sequence) == seq) return combine(low, high);
        }
        /* A writer overlapped: wait until it is done. */
        while (atomic_load(&r->sequence) & 1) {
        }
        if (r->skip_recheck) { /* THE BUG: "it is done now", but another writer may have started */
            uint64_t low = atomic_load(&r->low), high = atomic_load(&r->high);
            return combine(low, high);
        }
    }
}

static lf_kind sq_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    sq_register *r = obj;
    if (m == LF_M_WRITE) {
        sq_write(r, args[0]);
        return LF_K_NONE;
    }
    *value = sq_read(r);
    return LF_K_INT;
}

#define REGISTER_METHODS (LF_METHOD_BIT(LF_M_WRITE) | LF_METHOD_BIT(LF_M_READ))

LF_DEFINE_ADAPTER(seqlock_register_no_recheck, LF_TYPE_REGISTER, false, REGISTER_METHODS, buggy_create, sq_destroy,
                  sq_op, "two-word register under a seqlock whose reader skips the re-check on its slow path");

LF_DEFINE_ADAPTER(seqlock_register, LF_TYPE_REGISTER, true, REGISTER_METHODS, correct_create, sq_destroy, sq_op,
                  "seqlock_register_no_recheck's correct twin: the slow path reads again with the full check");
