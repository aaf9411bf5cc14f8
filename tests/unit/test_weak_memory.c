/* The weak memory models' handling of real memory (runtime/sched/weak_memory.h), beyond the litmus outcomes of
 * test_litmus.c: what memory shows the running thread and when, driven directly as the scheduler drives it.
 *  - c11: a plain load shown an older value finds it in memory for its own access, and the newest is back at
 *    its thread's next callback; a word changed behind the model's back is adopted (its older values are
 *    out of every window); a sub-word store keeps the release of the word's other bytes;
 *  - tso: a buffered store is in memory only while its thread runs, drains into global memory after its
 *    delay, under another thread's overlay too; a write the model did not see survives a switch;
 *  - the synchronisation of objects (locks, the recorder's stamps) orders what it should, and synchronisation
 *    right after a plain store (LF_OPAQUE_SYNC, a library call, free) orders that store before it;
 *  - a run released to free running leaves memory with every store made (lf_wm_release_thread);
 *  - 16-byte operations through lf_wm_direct_begin/end read and write the newest words. */
#include <string.h>

#include "sched/weak_memory.h"
#include "test_util.h"

static _Alignas(16) volatile uint64_t mem[4];

/* A chooser that answers from a script: the next scripted option each time (0 once the script is used up). */
typedef struct script {
    unsigned n, pos;
    unsigned opt[16];
} script;

static unsigned scripted(void *ctx, lf_wm_choice_kind kind, unsigned n) {
    (void)kind;
    script *s = ctx;
    unsigned k = s->pos < s->n ? s->opt[s->pos] : 0;
    s->pos++;
    return k < n ? k : n - 1;
}

static void begin(lf_wm *w, lf_memory_model m, script *s) {
    memset((void *)mem, 0, sizeof mem);
    lf_wm_set_chooser(w, scripted, s);
    lf_wm_run_begin(w, m, 2);
}

/* Thread t makes a plain store of v to mem[i] (the callback, the program's store, the next callback). */
static void plain_store(lf_wm *w, unsigned t, unsigned i, uint64_t v) {
    lf_wm_enter(w, t);
    lf_wm_plain_write(w, t, (void *)&mem[i], 8, 0x100 + i);
    mem[i] = v;
}

static void test_c11_stale_plain_load(lf_wm *w) {
    script s = {.n = 2, .opt = {0, 1}}; /* the first choice: newest; the second: one older */
    begin(w, LF_MM_C11, &s);
    lf_wm_switch_in(w, 0);
    plain_store(w, 0, 0, 7);
    plain_store(w, 0, 0, 8); /* (captures the 7) */
    lf_wm_enter(w, 0);       /* (captures the 8) */
    lf_wm_switch_out(w, 0);
    lf_wm_switch_in(w, 1);
    lf_wm_enter(w, 1);
    lf_wm_plain_read(w, 1, (const void *)&mem[0], 8, 0x200); /* window: 8, 7, 0; the script: 8 */
    CHECK(mem[0] == 8);
    lf_wm_enter(w, 1);
    lf_wm_plain_read(w, 1, (const void *)&mem[0], 8, 0x201); /* CoRR: 8 was read, so 8 again */
    CHECK(mem[0] == 8);
    lf_wm_switch_out(w, 1);
    lf_wm_run_end(w, NULL);

    s = (script){.n = 1, .opt = {1}};
    begin(w, LF_MM_C11, &s);
    lf_wm_switch_in(w, 0);
    plain_store(w, 0, 0, 7);
    plain_store(w, 0, 0, 8);
    lf_wm_enter(w, 0);
    lf_wm_switch_out(w, 0);
    lf_wm_switch_in(w, 1);
    lf_wm_enter(w, 1);
    lf_wm_plain_read(w, 1, (const void *)&mem[0], 8, 0x200);
    CHECKF(mem[0] == 7, "the load is shown the older 7, got %llu", (unsigned long long)mem[0]);
    lf_wm_enter(w, 1); /* its next callback: the newest is back before anything else */
    CHECK(mem[0] == 8);
    lf_wm_switch_out(w, 1);
    lf_wm_stats st;
    lf_wm_run_end(w, &st);
    CHECK(st.stale == 1 && st.races == 1);
    CHECK(mem[0] == 8);
}

static void test_c11_adopted(lf_wm *w) {
    script s = {.n = 4, .opt = {1, 1, 1, 1}}; /* always an older one when there is one */
    begin(w, LF_MM_C11, &s);
    lf_wm_switch_in(w, 0);
    plain_store(w, 0, 1, 5);
    lf_wm_enter(w, 0);
    lf_wm_switch_out(w, 0);
    mem[1] = 42; /* uninstrumented code writes the word */
    lf_wm_switch_in(w, 1);
    lf_wm_enter(w, 1);
    CHECK(lf_wm_load(w, 1, &mem[1], 8, LF_MO_RELAXED, 0x300) == 42); /* nothing older than what memory holds */
    lf_wm_switch_out(w, 1);
    lf_wm_stats st;
    lf_wm_run_end(w, &st);
    CHECK(st.adopted == 1 && st.stale == 0);
}

/* A release store of a 4-byte flag, then a relaxed 4-byte store to the other half of the same word by another
 * thread: an acquire load of the flag that reads the newer word still synchronises with the release. */
static void test_c11_subword_release(lf_wm *w) {
    script s = {.n = 8, .opt = {1, 1, 1, 1, 1, 1, 1, 1}};
    begin(w, LF_MM_C11, &s);
    volatile uint32_t *half = (volatile uint32_t *)&mem[0];
    lf_wm_switch_in(w, 0);
    lf_wm_enter(w, 0);
    lf_wm_store(w, 0, &mem[1], 8, 9, LF_MO_RELAXED, 0x400);     /* data */
    lf_wm_enter(w, 0);
    lf_wm_store(w, 0, &half[0], 4, 1, LF_MO_RELEASE, 0x401);    /* flag */
    lf_wm_switch_out(w, 0);
    lf_wm_switch_in(w, 1);
    lf_wm_enter(w, 1);
    lf_wm_store(w, 1, &half[1], 4, 3, LF_MO_RELAXED, 0x402);    /* the word's other half */
    lf_wm_enter(w, 1);
    uint64_t flag = lf_wm_load(w, 1, &half[0], 4, LF_MO_ACQUIRE, 0x403);
    lf_wm_enter(w, 1);
    uint64_t data = lf_wm_load(w, 1, &mem[1], 8, LF_MO_RELAXED, 0x404);
    CHECKF(flag == 1 && data == 9, "flag %llu, data %llu: the acquire synchronised", (unsigned long long)flag,
           (unsigned long long)data);
    lf_wm_switch_out(w, 1);
    lf_wm_run_end(w, NULL);
}

static void test_tso_views(lf_wm *w) {
    script s = {.n = 1, .opt = {3}}; /* the store waits 3 points */
    begin(w, LF_MM_TSO, &s);
    lf_wm_switch_in(w, 0);
    plain_store(w, 0, 0, 6);
    lf_wm_enter(w, 0); /* captured: buffered (due after 3 more points) */
    CHECK(mem[0] == 6); /* its own view */
    lf_wm_switch_out(w, 0);
    CHECK(mem[0] == 0); /* global memory */
    lf_wm_switch_in(w, 1);
    lf_wm_enter(w, 1);
    CHECK(lf_wm_load(w, 1, &mem[0], 8, LF_MO_SEQ_CST, 0x500) == 0); /* (an sc load is a MOV) */
    lf_wm_store(w, 1, &mem[2], 8, 11, LF_MO_RELAXED, 0x501);          /* T1's own, due 1 point later */
    mem[3] = 77; /* uninstrumented code of T1 */
    lf_wm_enter(w, 1);
    lf_wm_enter(w, 1); /* T0's store drains into global memory: shown, T1 does not overlay the word */
    CHECK(mem[0] == 6);
    lf_wm_switch_out(w, 1);
    CHECK(mem[2] == 11 && mem[3] == 77);
    lf_wm_run_end(w, NULL);
    CHECK(mem[0] == 6 && mem[2] == 11);
    /* a drain under the running thread's overlay: the saved global word takes it */
    s = (script){.n = 2, .opt = {2, 60}};
    begin(w, LF_MM_TSO, &s);
    lf_wm_switch_in(w, 0);
    lf_wm_enter(w, 0);
    lf_wm_store(w, 0, &mem[0], 8, 1, LF_MO_RELAXED, 0x600); /* due in 2 */
    lf_wm_switch_out(w, 0);
    lf_wm_switch_in(w, 1);
    lf_wm_enter(w, 1);
    lf_wm_store(w, 1, &mem[0], 8, 2, LF_MO_RELAXED, 0x601); /* T1's overlay of the same word, waits long */
    lf_wm_enter(w, 1);
    lf_wm_enter(w, 1); /* T0's 1 drains under T1's overlay */
    CHECK(mem[0] == 2);
    lf_wm_switch_out(w, 1);
    CHECK(mem[0] == 1);
    lf_wm_run_end(w, NULL);
    CHECK(mem[0] == 2); /* T1's store drains last */
}

static void test_sync_objects(lf_wm *w) {
    static const char lock;
    script s = {.n = 8, .opt = {1, 1, 1, 1, 1, 1, 1, 1}};
    begin(w, LF_MM_C11, &s);
    lf_wm_switch_in(w, 0);
    plain_store(w, 0, 0, 5);
    lf_wm_enter(w, 0);
    lf_wm_sync_object(w, 0, &lock); /* unlock */
    lf_wm_switch_out(w, 0);
    lf_wm_switch_in(w, 1);
    lf_wm_enter(w, 1);
    lf_wm_sync_object(w, 1, &lock); /* lock: the store happens-before */
    lf_wm_plain_read(w, 1, (const void *)&mem[0], 8, 0x700);
    CHECK(mem[0] == 5);
    lf_wm_switch_out(w, 1);
    lf_wm_stats st;
    lf_wm_run_end(w, &st);
    CHECK(st.stale == 0 && st.races == 0);
}

/* Synchronisation made right after a plain store, before the thread's next callback (LF_OPAQUE_SYNC() after an
 * initialisation, a wrapped library call, free): the store comes first, so a thread that synchronises later
 * sees it whatever the choices (the store was pending; it was ordered after the fence once). */
static void test_sync_after_plain_store(lf_wm *w) {
    for (int model = 0; model < 2; model++) {
        for (int drain = 0; drain < 2; drain++) {
            if (model == 0 && drain) continue; /* (lf_wm_drain does nothing in c11) */
            script s = {.n = 8, .opt = {60, 60, 60, 60, 60, 60, 60, 60}}; /* the oldest, the longest delay */
            begin(w, model ? LF_MM_TSO : LF_MM_C11, &s);
            lf_wm_switch_in(w, 0);
            plain_store(w, 0, 0, 5);
            if (drain) lf_wm_drain(w, 0);
            else lf_wm_sync(w, 0); /* no callback in between */
            lf_wm_switch_out(w, 0);
            lf_wm_switch_in(w, 1);
            lf_wm_enter(w, 1);
            lf_wm_sync(w, 1);
            lf_wm_plain_read(w, 1, (const void *)&mem[0], 8, 0xa00);
            CHECKF(mem[0] == 5, "%s, %s: the store before the synchronisation is seen, got %llu", model ? "tso" : "c11",
                   drain ? "drain" : "sync", (unsigned long long)mem[0]);
            lf_wm_switch_out(w, 1);
            lf_wm_run_end(w, NULL);
        }
    }
}

static void test_release(lf_wm *w) {
    script s = {.n = 2, .opt = {60, 60}};
    begin(w, LF_MM_TSO, &s);
    lf_wm_switch_in(w, 0);
    lf_wm_enter(w, 0);
    lf_wm_store(w, 0, &mem[0], 8, 3, LF_MO_RELAXED, 0x800);
    lf_wm_switch_out(w, 0);
    lf_wm_switch_in(w, 1);
    lf_wm_enter(w, 1);
    lf_wm_store(w, 1, &mem[1], 8, 4, LF_MO_RELAXED, 0x801);
    /* released while T1 runs: T1's view is memory, T0 writes its buffer back */
    lf_wm_release_thread(w, 1);
    lf_wm_release_thread(w, 0);
    CHECK(mem[0] == 3 && mem[1] == 4);
    lf_wm_abandon(w, NULL);
    CHECK(mem[0] == 3 && mem[1] == 4);
}

static void test_direct(lf_wm *w) {
    script s = {.n = 4, .opt = {1, 1, 1, 1}};
    begin(w, LF_MM_C11, &s);
    lf_wm_switch_in(w, 0);
    lf_wm_enter(w, 0);
    lf_wm_store(w, 0, &mem[2], 8, 1, LF_MO_RELAXED, 0x900);
    lf_wm_enter(w, 0);
    lf_wm_direct_begin(w, 0, &mem[2], 16, LF_MO_SEQ_CST);
    mem[2] = 10; /* the 16-byte operation itself */
    mem[3] = 20;
    lf_wm_direct_end(w, 0, &mem[2], 16, LF_MO_SEQ_CST, true, 0x901);
    lf_wm_switch_out(w, 0);
    lf_wm_switch_in(w, 1);
    lf_wm_enter(w, 1);
    /* relaxed loads may read older words, never older than what the thread saw... here: 10 or 1 or 0 */
    uint64_t a = lf_wm_load(w, 1, &mem[2], 8, LF_MO_SEQ_CST, 0x902); /* seq_cst: after the seq_cst RMW */
    CHECKF(a == 10, "a seq_cst load after the seq_cst 16-byte RMW reads 10, got %llu", (unsigned long long)a);
    lf_wm_switch_out(w, 1);
    lf_wm_run_end(w, NULL);
    CHECK(mem[2] == 10 && mem[3] == 20);
}

int main(void) {
    lf_wm *w = lf_wm_create();
    CHECK(w != NULL);
    if (!w) TEST_DONE();
    test_c11_stale_plain_load(w);
    test_c11_adopted(w);
    test_c11_subword_release(w);
    test_tso_views(w);
    test_sync_objects(w);
    test_sync_after_plain_store(w);
    test_release(w);
    test_direct(w);
    lf_wm_destroy(w);
    TEST_DONE();
}
