/* Stamps only matter by order: every engine must give the same answer on a history and on any copy of it
 * whose stamps went through a strictly increasing map (engines/generate/stamp_remap.h). Runs every history
 * under tests/data (the etcd histories included) through every engine (auto, monitor, brute, wgl,
 * hitting), on the original and on copies with the largest stamp at 2^64-1, the smallest at 0, dense stamps
 * at either end, and random spreads over the whole range, and requires the same verdict, deciding engine,
 * depth and conflicting ops. Decided answers must also agree across engines (hitting only ever proves).
 * Also the exact inputs of issue 14 that crashed or were mislabelled, with their verdicts. */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "generate/stamp_remap.h"
#include "linfuzz/check.h"
#include "linfuzz/format.h"
#include "test_util.h"

static const lf_engine ENGINES[] = {LF_ENGINE_AUTO, LF_ENGINE_MONITOR, LF_ENGINE_BRUTE, LF_ENGINE_WGL,
                                    LF_ENGINE_HITTING};
#define N_ENGINES (sizeof ENGINES / sizeof ENGINES[0])

typedef struct answer {
    lf_verdict verdict;
    const char *engine;
    int depth;
    uint32_t *culprits;
    size_t n_culprits;
    char reason[512];
} answer;

static void run(const lf_history *h, lf_engine e, answer *a) {
    lf_check_options o;
    lf_check_options_default(&o);
    o.engine = e;
    o.timeout_s = 0; /* budgets by steps only: answers must not depend on timing */
    lf_result r;
    lf_result_init(&r);
    lf_check(h, &o, &r);
    a->verdict = r.verdict;
    a->engine = r.engine;
    a->depth = r.depth;
    a->culprits = r.culprits;
    a->n_culprits = r.n_culprits;
    r.culprits = NULL;
    r.n_culprits = 0;
    snprintf(a->reason, sizeof a->reason, "%s", r.reason);
    lf_result_free(&r);
}

static bool same(const answer *a, const answer *b) {
    if (a->verdict != b->verdict || strcmp(a->engine, b->engine) != 0 || a->depth != b->depth) return false;
    if (a->n_culprits != b->n_culprits) return false;
    for (size_t i = 0; i < a->n_culprits; i++)
        if (a->culprits[i] != b->culprits[i]) return false;
    return true;
}

static size_t files, copies, decided;

static void check_history(const char *name, const lf_history *h) {
    files++;
    answer base[N_ENGINES];
    for (size_t e = 0; e < N_ENGINES; e++) run(h, ENGINES[e], &base[e]);
    /* Across engines: decided answers agree; hitting never reports a violation. */
    lf_verdict agreed = LF_UNKNOWN;
    for (size_t e = 0; e < N_ENGINES; e++) {
        if (base[e].verdict == LF_UNKNOWN) continue;
        CHECKF(!(ENGINES[e] == LF_ENGINE_HITTING && base[e].verdict == LF_VIOLATION), "%s: hitting reports a violation",
               name);
        if (agreed == LF_UNKNOWN) agreed = base[e].verdict;
        CHECKF(base[e].verdict == agreed, "%s: %s says %s, another engine %s (%s)", name,
               lf_engine_name(ENGINES[e]), lf_verdict_name(base[e].verdict), lf_verdict_name(agreed), base[e].reason);
    }
    decided += agreed != LF_UNKNOWN;
    for (int m = 0; m < LF_STAMPS_MAP_COUNT + 2; m++) {
        /* Two more spreads with other seeds. */
        lf_stamp_map map = m < LF_STAMPS_MAP_COUNT ? (lf_stamp_map)m : LF_STAMPS_SPREAD;
        lf_history c;
        CHECK(lf_history_copy(&c, h));
        CHECK(lf_history_remap_stamps(&c, map, 1000 + (uint64_t)m));
        char err[300];
        CHECKF(lf_history_validate(&c, err, sizeof err) == SIZE_MAX, "%s, %s: remapped copy is malformed: %s", name,
               lf_stamp_map_name(map), err);
        copies++;
        for (size_t e = 0; e < N_ENGINES; e++) {
            answer a;
            run(&c, ENGINES[e], &a);
            bool ok = same(&a, &base[e]);
            CHECKF(ok,
                   "%s, stamps %s (seed %d), engine %s: %s [%s, %zu culprits] (%s), original: %s [%s, %zu culprits] "
                   "(%s)",
                   name, lf_stamp_map_name(map), 1000 + m, lf_engine_name(ENGINES[e]), lf_verdict_name(a.verdict),
                   a.engine, a.n_culprits, a.reason, lf_verdict_name(base[e].verdict), base[e].engine,
                   base[e].n_culprits, base[e].reason);
            if (!ok) lf_text_write_stream(stderr, &c);
            free(a.culprits);
        }
        lf_history_free(&c);
    }
    for (size_t e = 0; e < N_ENGINES; e++) free(base[e].culprits);
}

static void check_file(const char *path) {
    lf_history h;
    char err[600];
    if (lf_history_read(path, &h, err, sizeof err) != LF_OK) {
        CHECKF(0, "%s", err);
        return;
    }
    check_history(path, &h);
    lf_history_free(&h);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every .hist and .lfz file under dir, recursively, in name order. */
static void walk(const char *dir) {
    DIR *d = opendir(dir);
    CHECKF(d != NULL, "cannot open %s", dir);
    if (!d) return;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char **grown = realloc(names, (n + 1) * sizeof *names);
        if (!grown) break;
        names = grown;
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat st;
        size_t len = strlen(names[i]);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            walk(path);
        else if ((len > 5 && !strcmp(names[i] + len - 5, ".hist")) || (len > 4 && !strcmp(names[i] + len - 4, ".lfz")))
            check_file(path);
        free(names[i]);
    }
    free(names);
}

/* The inputs of issue 14, each with every engine's expected answer (U: unknown allowed, i.e. not decided by
 * that engine; the monitors do not decide counters and kv). */
typedef struct regression {
    const char *name, *text;
    lf_verdict want; /* of brute, wgl and auto */
    bool monitor_decides, hitting_proves;
} regression;

static const regression REGRESSIONS[] = {
    {"counter inc returning at 2^64-1 (segfault)", "type counter\n0 18446744073709551615 18446744073709551615 inc\n",
     LF_LINEARIZABLE, false, true},
    {"kv put returning at 2^64-1 (segfault)", "type kv\n0 0 18446744073709551615 put 1 2\n", LF_LINEARIZABLE, false,
     true},
    {"queue enq returning at 2^64-1 (hitting segfault)", "type queue\n0 5 18446744073709551615 enq 1\n",
     LF_LINEARIZABLE, true, true},
    {"set contains -> false returning at 2^64-1 after a never-removed add",
     "type set\n0 1 2 add 1 -> true\n1 5 18446744073709551615 contains 1 -> false\n", LF_VIOLATION, true, false},
    {"counter get returning at 2^64-1", "type counter\n0 3 4 inc\n1 5 18446744073709551615 get -> 0\n", LF_VIOLATION,
     false, false},
    {"ambiguous set, a double removal then a pending remove (was 'violation: unsupported: ...')",
     "type set\n0 1 2 add 1 -> true\n1 3 4 remove 1 -> true\n2 5 10 remove 1 -> true\n3 6 ? remove 2\n"
     "0 7 8 add 1 -> true\n",
     LF_LINEARIZABLE, false, true},
    {"stack, a double removal then a pending pop",
     "type stack\n0 1 2 push 1\n1 3 4 pop -> 1\n2 5 6 pop -> 1\n3 7 ? pop\n",
     LF_VIOLATION, true, false},
    {"ambiguous stack, a double removal then a pending pop",
     "type stack\n0 1 2 push 1\n1 3 4 pop -> 1\n2 5 10 pop -> 1\n3 6 ? pop\n0 7 8 push 1\n", LF_LINEARIZABLE, false,
     true},
};

static void check_regressions(void) {
    for (size_t i = 0; i < sizeof REGRESSIONS / sizeof REGRESSIONS[0]; i++) {
        const regression *g = &REGRESSIONS[i];
        lf_history h;
        char err[300];
        CHECKF(lf_text_read_buffer(g->text, strlen(g->text), "regression.hist", &h, err, sizeof err) == LF_OK, "%s: %s",
               g->name, err);
        for (size_t e = 0; e < N_ENGINES; e++) {
            answer a;
            run(&h, ENGINES[e], &a);
            lf_verdict want = g->want;
            if (ENGINES[e] == LF_ENGINE_MONITOR && !g->monitor_decides) want = LF_UNKNOWN;
            if (ENGINES[e] == LF_ENGINE_HITTING && !g->hitting_proves) want = LF_UNKNOWN;
            CHECKF(a.verdict == want, "%s: engine %s says %s (%s), expected %s", g->name, lf_engine_name(ENGINES[e]),
                   lf_verdict_name(a.verdict), a.reason, lf_verdict_name(want));
            /* "unsupported" is never a violation */
            CHECKF(!(a.verdict == LF_VIOLATION && strstr(a.reason, "unsupported")), "%s: %s: %s", g->name,
                   lf_engine_name(ENGINES[e]), a.reason);
            free(a.culprits);
        }
        check_history(g->name, &h);
        lf_history_free(&h);
    }
}

int main(void) {
    check_regressions();
    walk(LINFUZZ_TEST_DATA);
    printf("%zu histories (%zu decided by some engine), %zu stamp-remapped copies, %zu engines each\n", files, decided,
           copies, N_ENGINES);
    CHECKF(files >= 200, "only %zu histories found", files);
    TEST_DONE();
}
