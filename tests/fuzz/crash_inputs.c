/* Writes fuzzer inputs of r2_rwlock_list_both (two bugs in one adapter: add traverses unlocked, remove checks
 * unlocked) that make its fuzz target abort, for tests/fuzz/test_crash_state.sh:
 *
 *   DIR/add1, DIR/add2  two different tests that only add (after a serial prefix): the add bug, twice
 *   DIR/remove1         a test that only removes (and checks) after a serial prefix of adds: the remove bug
 *
 * Each is a controlled-mode case whose schedule is searched among fixed seeds (1, 2, ...) until one of its
 * repetitions violates: the same inputs in every run of one build, found in a handful of seeds. Exit 0 when
 * all three were written, 1 otherwise (naming the one not found). */
#include <stdio.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "linfuzz/history.h"
#include "testcase/case_replay.h"
#include "testcase/fuzz_case.h"

#define MAX_SEEDS 400

static int method_index(const lf_adapter *a, lf_method m) {
    lf_method ms[LF_M_COUNT];
    unsigned n = lf_fuzz_case_methods(a, ms);
    for (unsigned i = 0; i < n; i++)
        if (ms[i] == m) return (int)i;
    return -1;
}

/* Searches schedule seeds for a violating controlled case c; writes its bytes to path. */
static bool find(const lf_adapter *a, lf_fuzz_case c, const char *path) {
    lf_method ms[LF_M_COUNT];
    unsigned n_methods = lf_fuzz_case_methods(a, ms);
    for (uint64_t seed = 1; seed <= MAX_SEEDS; seed++) {
        c.mode = LF_FC_CONTROLLED;
        c.schedule.strategy = LF_SCHED_PCT;
        c.schedule.bound = 2;
        c.schedule.seed = seed;
        c.schedule.priority[0] = (uint8_t)(seed * 37);
        c.schedule.priority[1] = (uint8_t)(seed * 101 + 7);
        lf_fuzz_case_normalize(&c, n_methods);
        uint8_t bytes[LF_FC_MAX_ENCODED];
        size_t len = lf_fuzz_case_encode(&c, bytes);
        lf_replay_options o;
        lf_replay_options_default(&o);
        o.runs = c.repeats;
        o.seconds = 60;
        o.stop_at_first = true;
        lf_replay_result r;
        lf_adapter_history_init(&r.first, a);
        bool ok = lf_fc_replay(a, bytes, len, &o, &r);
        bool violated = ok && r.violations > 0;
        lf_history_free(&r.first);
        lf_history_free(&r.evidence);
        if (!violated) continue;
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
            fprintf(stderr, "crash_inputs: cannot write %s\n", path);
            return false;
        }
        printf("%s: schedule seed %llu, repetition %llu violates\n", path, (unsigned long long)seed,
               (unsigned long long)r.first_run);
        return true;
    }
    fprintf(stderr, "crash_inputs: no violating schedule among %d seeds for %s\n", MAX_SEEDS, path);
    return false;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: crash_inputs DIR\n");
        return 2;
    }
    const lf_adapter *a = lf_adapter_find("r2_rwlock_list_both");
    int add = a ? method_index(a, LF_M_ADD) : -1, rem = a ? method_index(a, LF_M_REMOVE) : -1,
        has = a ? method_index(a, LF_M_CONTAINS) : -1;
    if (add < 0 || rem < 0 || has < 0) {
        fprintf(stderr, "crash_inputs: no r2_rwlock_list_both set adapter in this build\n");
        return 2;
    }
    char path[4096];
    bool ok = true;
    /* two threads adding into the same gap (a lost insert); the drain's contains shows it */
    lf_fuzz_case c = {.threads = 2, .rounds = 2, .repeats = 16, .key_domain = 4, .drain = true, .body_len = {2, 2}};
    c.body[0][0] = (lf_fc_call){(uint8_t)add, 1};
    c.body[0][1] = (lf_fc_call){(uint8_t)add, 3};
    c.body[1][0] = (lf_fc_call){(uint8_t)add, 2};
    c.body[1][1] = (lf_fc_call){(uint8_t)add, 1};
    snprintf(path, sizeof path, "%s/add1", argv[1]);
    ok &= find(a, c, path);
    /* another test of the same bug: three threads, a prefilled neighbour */
    lf_fuzz_case c2 = {.threads = 3, .rounds = 1, .repeats = 16, .key_domain = 4, .drain = true,
                       .body_len = {2, 1, 2}, .prefix_len = 1};
    c2.prefix[0] = (lf_fc_call){(uint8_t)add, 0};
    c2.body[0][0] = (lf_fc_call){(uint8_t)add, 2};
    c2.body[0][1] = (lf_fc_call){(uint8_t)add, 3};
    c2.body[1][0] = (lf_fc_call){(uint8_t)add, 1};
    c2.body[2][0] = (lf_fc_call){(uint8_t)add, 3};
    c2.body[2][1] = (lf_fc_call){(uint8_t)add, 2};
    snprintf(path, sizeof path, "%s/add2", argv[1]);
    ok &= find(a, c2, path);
    /* keys added serially, then two threads removing the same keys: a double remove */
    lf_fuzz_case c3 = {.threads = 2, .rounds = 1, .repeats = 16, .key_domain = 4, .drain = true,
                       .body_len = {2, 2}, .prefix_len = 2};
    c3.prefix[0] = (lf_fc_call){(uint8_t)add, 1};
    c3.prefix[1] = (lf_fc_call){(uint8_t)add, 2};
    c3.body[0][0] = (lf_fc_call){(uint8_t)rem, 1};
    c3.body[0][1] = (lf_fc_call){(uint8_t)has, 2};
    c3.body[1][0] = (lf_fc_call){(uint8_t)rem, 1};
    c3.body[1][1] = (lf_fc_call){(uint8_t)rem, 2};
    snprintf(path, sizeof path, "%s/remove1", argv[1]);
    ok &= find(a, c3, path);
    return ok ? 0 : 1;
}
