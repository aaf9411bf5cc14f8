/* WGL on the hand-checked histories of tests/data/search_cases ( expected verdict on the first
 * line) under every search variant (partitioned or not, cache on or off, per-thread or bitset keys), with
 * every witness and every linearizable prefix checked; the true forms of H21/H22 (empty() and size()
 * observe the whole set) through a user-defined spec; sound coarse partition keys (H31); the fan(k)
 * family, where the cache must save most of the search; and the explanations of small violations. */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/format.h"
#include "test_util.h"
#include "wgl/wgl.h"
#include "wgl_test_util.h"

static void check_result(const char *what, const lf_history *h, const lf_result *r, lf_verdict expect) {
    CHECKF(r->verdict == expect, "%s: got %s, expected %s (%s)", what, lf_verdict_name(r->verdict),
           lf_verdict_name(expect), r->reason);
    lf_spec_env env;
    lf_spec_env_of_history(h, &env);
    const lf_spec *spec = lf_spec_builtin(h->type);
    char why[300] = "";
    if (r->verdict == LF_LINEARIZABLE) {
        CHECKF(order_is_valid(spec, &env, r->witness, r->witness_len, true, why, sizeof why), "%s: witness: %s", what,
               why);
        if (r->witness_len <= 60)
            CHECKF(witness_replays_in_brute(h, r->witness, r->witness_len), "%s: brute rejects the witness", what);
    } else if (r->verdict == LF_VIOLATION) {
        /* After a split the prefix is one of the failing part: check it against that part's ops. */
        lf_op *part = malloc((h->n ? h->n : 1) * sizeof *part);
        uint32_t *local = malloc((h->n ? h->n : 1) * sizeof *local), *mapped = NULL;
        size_t m = 0;
        uint64_t key = 0, k2 = 0;
        bool split = r->partitions > 1 && r->n_culprits && spec->partition_key &&
                     spec->partition_key(&env, &h->ops[r->culprits[0]], &key);
        for (size_t i = 0; i < h->n; i++) {
            local[i] = UINT32_MAX;
            if (!split || (spec->partition_key(&env, &h->ops[i], &k2) && k2 == key)) {
                local[i] = (uint32_t)m;
                part[m++] = h->ops[i];
            }
        }
        mapped = malloc((r->prefix_len ? r->prefix_len : 1) * sizeof *mapped);
        bool in_part = true;
        for (size_t i = 0; i < r->prefix_len; i++) {
            in_part = in_part && local[r->prefix[i]] != UINT32_MAX;
            mapped[i] = local[r->prefix[i]];
        }
        lf_spec_env part_env = env;
        part_env.ops = part;
        part_env.n = m;
        CHECKF(in_part && order_is_valid(spec, &part_env, mapped, r->prefix_len, false, why, sizeof why),
               "%s: prefix: %s", what, why);
        free(part);
        free(local);
        free(mapped);
        CHECKF(r->n_culprits >= 1, "%s: a violation names the ops that could not go next", what);
        for (size_t i = 0; i < r->n_culprits; i++) {
            CHECKF(r->culprits[i] < h->n, "%s: culprit %u out of range", what, r->culprits[i]);
            /* A culprit is not in the prefix: it is what could not be linearized after it. */
            for (size_t k = 0; k < r->prefix_len; k++)
                CHECKF(r->prefix[k] != r->culprits[i], "%s: culprit %u is in the prefix", what, r->culprits[i]);
        }
        char needle[32];
        snprintf(needle, sizeof needle, "op %u (", r->n_culprits ? r->culprits[0] : 0);
        CHECKF(strstr(r->reason, needle) != NULL, "%s: the reason names the culprit: %s", what, r->reason);
    }
}

static int seed_cases(void) {
    const char *dir = LINFUZZ_TEST_DATA "/search_cases";
    DIR *d = opendir(dir);
    CHECKF(d != NULL, "cannot open %s", dir);
    if (!d) return 0;
    int files = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".hist") != 0) continue;
        char path[512], err[512];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        lf_verdict expect = expect_of_file(path);
        CHECKF(expect != LF_UNKNOWN, "%s has no # expect: line", path);
        lf_history h;
        if (lf_history_read(path, &h, err, sizeof err) != LF_OK) {
            CHECKF(0, "%s", err);
            continue;
        }
        files++;
        for (size_t v = 0; v < N_WGL_VARIANTS; v++) {
            lf_wgl_options o;
            wgl_variant_options(&WGL_VARIANTS[v], &o);
            lf_result r;
            lf_result_init(&r);
            lf_wgl_check(&h, &o, &r);
            char what[600];
            snprintf(what, sizeof what, "%s [%s]", de->d_name, WGL_VARIANTS[v].name);
            check_result(what, &h, &r, expect);
            CHECKF(strcmp(r.engine, "wgl") == 0, "%s: engine %s", what, r.engine);
            lf_result_free(&r);
        }
        lf_history_free(&h);
    }
    closedir(d);
    return files;
}

/* ---- a user-defined spec: a set with size() and empty(), which observe the whole set ---- */

enum { USET_ADD = LF_M_COUNT + 1, USET_CONTAINS, USET_SIZE, USET_EMPTY };

static void uset_init(void *ctx, void *state) {
    (void)ctx;
    memset(state, 0, sizeof(uint64_t));
}

/* Values 0..63, one bit each. add -> true iff absent; contains -> presence; size -> count; empty. */
static bool uset_step(void *ctx, const void *state, const lf_op *op, void *next) {
    (void)ctx;
    uint64_t s;
    memcpy(&s, state, sizeof s);
    uint64_t bit = op->method == USET_ADD || op->method == USET_CONTAINS ? 1ull << (op->arg[0] & 63) : 0;
    bool pending = lf_op_pending(op);
    switch (op->method) {
    case USET_ADD:
        if (!pending && (op->res_kind == LF_K_TRUE) == ((s & bit) != 0)) return false;
        s |= bit;
        break;
    case USET_CONTAINS:
        if (!pending && (op->res_kind == LF_K_TRUE) != ((s & bit) != 0)) return false;
        break;
    case USET_SIZE:
        if (!pending && op->res != __builtin_popcountll(s)) return false;
        break;
    case USET_EMPTY:
        if (!pending && (op->res_kind == LF_K_TRUE) != (s == 0)) return false;
        break;
    default: return false;
    }
    memcpy(next, &s, sizeof s);
    return true;
}

static bool uset_key(const lf_spec_env *env, const lf_op *op, uint64_t *key) {
    (void)env;
    if (op->method == USET_SIZE || op->method == USET_EMPTY) return false; /* the whole set */
    *key = (uint64_t)op->arg[0];
    return true;
}

/* The same set keyed by value mod 2: coarse buckets, each still checked with the full spec. */
static bool uset_key_mod2(const lf_spec_env *env, const lf_op *op, uint64_t *key) {
    if (!uset_key(env, op, key)) return false;
    *key &= 1;
    return true;
}

static int uset_describe_op(const lf_op *op, char *buf, size_t len) {
    static const char *const names[] = {"add", "contains", "size", "empty"};
    const char *name = op->method >= USET_ADD && op->method <= USET_EMPTY ? names[op->method - USET_ADD] : "?";
    return snprintf(buf, len, "t%u %s %" PRId64, op->thread, name, op->arg[0]);
}

static const lf_spec USET = {
    .name = "uset",
    .state_size = sizeof(uint64_t),
    .init = uset_init,
    .step = uset_step,
    .partition_key = uset_key,
    .describe_op = uset_describe_op,
};

static lf_op mk(uint32_t thread, uint64_t call, uint64_t ret, int method, int64_t arg, lf_kind kind, int64_t res) {
    lf_op op;
    memset(&op, 0, sizeof op);
    op.thread = thread;
    op.call = call;
    op.ret = ret;
    op.method = (uint8_t)method;
    op.arg[0] = arg;
    op.res_kind = (uint8_t)kind;
    op.res = res;
    return op;
}

static void run_user(const lf_spec *spec, const lf_op *ops, size_t n, lf_result *r) {
    lf_spec_env env = {ops, n, LF_K_INT, 0, NULL, 0, NULL};
    lf_wgl_options o;
    lf_wgl_options_default(&o);
    o.want_witness = true;
    lf_result_init(r);
    lf_wgl_check_spec(spec, &env, &o, r);
}

static void user_spec_cases(void) {
    lf_result r;
    /* H21: insert(1) -> true; then empty() -> true. Per key, key 1 alone is fine and empty() has no key;
     * dropping it would say linearizable. */
    lf_op h21[] = {mk(0, 1, 2, USET_ADD, 1, LF_K_TRUE, 0), mk(1, 3, 4, USET_EMPTY, 0, LF_K_TRUE, 0)};
    run_user(&USET, h21, 2, &r);
    CHECKF(r.verdict == LF_VIOLATION, "H21 (empty): %s", r.reason);
    CHECKF(r.partitions == 1, "H21: an op observing the whole set keeps the history whole (%" PRIu64 " parts)",
           r.partitions);
    CHECKF(strstr(r.reason, "empty") != NULL, "H21: the reason uses the spec's op description: %s", r.reason);
    lf_result_free(&r);
    /* H22: insert(1), insert(2) concurrent, both true; then size() -> 1. */
    lf_op h22[] = {mk(0, 1, 3, USET_ADD, 1, LF_K_TRUE, 0), mk(1, 2, 4, USET_ADD, 2, LF_K_TRUE, 0),
                   mk(2, 5, 6, USET_SIZE, 0, LF_K_INT, 1)};
    run_user(&USET, h22, 3, &r);
    CHECKF(r.verdict == LF_VIOLATION, "H22 (size): %s", r.reason);
    CHECKF(r.partitions == 1, "H22: not split");
    lf_result_free(&r);
    h22[2].res = 2;
    run_user(&USET, h22, 3, &r);
    CHECKF(r.verdict == LF_LINEARIZABLE, "H22 with size 2: %s", r.reason);
    lf_result_free(&r);
    /* Without whole-set ops the same spec splits, and a failure hidden among other keys is found (H20). */
    lf_op h20[] = {mk(0, 1, 2, USET_ADD, 1, LF_K_TRUE, 0),      mk(1, 3, 4, USET_ADD, 2, LF_K_TRUE, 0),
                   mk(2, 5, 7, USET_CONTAINS, 1, LF_K_TRUE, 0), mk(3, 6, 8, USET_ADD, 2, LF_K_TRUE, 0),
                   mk(4, 9, 10, USET_CONTAINS, 2, LF_K_TRUE, 0)};
    run_user(&USET, h20, 5, &r);
    CHECKF(r.verdict == LF_VIOLATION, "H20 (user spec): %s", r.reason);
    CHECKF(r.partitions == 2, "H20: split into 2 parts, got %" PRIu64, r.partitions);
    CHECKF(strstr(r.reason, "key 2") != NULL, "H20: the failing part is key 2: %s", r.reason);
    CHECKF(r.n_culprits >= 1 && r.culprits[0] == 3, "H20: op 3 (the second add 2 -> true) cannot go next");
    lf_result_free(&r);
    /* H31: insert(0) -> true; contains(2) -> false, keyed mod 2 (0 and 2 collide): sound with a full spec. */
    lf_spec mod2 = USET;
    mod2.partition_key = uset_key_mod2;
    lf_op h31[] = {mk(0, 1, 2, USET_ADD, 0, LF_K_TRUE, 0), mk(1, 3, 4, USET_CONTAINS, 2, LF_K_FALSE, 0),
                   mk(2, 5, 6, USET_ADD, 1, LF_K_TRUE, 0)};
    run_user(&mod2, h31, 3, &r);
    CHECKF(r.verdict == LF_LINEARIZABLE, "H31 with colliding keys: %s", r.reason);
    CHECKF(r.partitions == 2, "H31: two buckets");
    CHECKF(r.witness_len == 3, "H31: merged witness of 3 ops, got %zu", r.witness_len);
    lf_result_free(&r);
}

/* ---- fan(k): k concurrent add(i+1) -> true, then contains(0) -> true (never true) ---- */

static void fan(lf_history *h, int k) {
    lf_history_init(h, LF_TYPE_SET);
    for (int i = 0; i < k; i++) {
        lf_op op = mk((uint32_t)i, (uint64_t)i + 1, (uint64_t)(k + i + 1), LF_M_ADD, i + 1, LF_K_TRUE, 0);
        lf_history_push(h, &op);
    }
    lf_op last = mk((uint32_t)k, (uint64_t)(2 * k + 1), (uint64_t)(2 * k + 2), LF_M_CONTAINS, 0, LF_K_TRUE, 0);
    lf_history_push(h, &last);
}

static void fan_cases(void) {
    for (int k = 4; k <= 9; k++) {
        lf_history h;
        fan(&h, k);
        lf_wgl_options o;
        lf_wgl_options_default(&o);
        o.partition = false;
        o.frontier = false; /* the WGL search itself: what its cache saves */
        lf_result with, without, split, capped;
        lf_result_init(&with);
        lf_result_init(&without);
        lf_result_init(&split);
        lf_result_init(&capped);
        lf_wgl_check(&h, &o, &with);
        o.use_cache = false;
        lf_wgl_check(&h, &o, &without);
        /* A step budget below what the uncached search needs makes it stop, undecided. */
        o.max_steps = without.steps / 2;
        lf_wgl_check(&h, &o, &capped);
        lf_wgl_options_default(&o);
        lf_wgl_check(&h, &o, &split);
        CHECKF(with.verdict == LF_VIOLATION && without.verdict == LF_VIOLATION && split.verdict == LF_VIOLATION,
               "fan(%d): %s / %s / %s", k, with.reason, without.reason, split.reason);
        /* With the cache each configuration is expanded once: about (k+2) 2^(k-1) steps ([Horn15]). */
        CHECKF(with.steps <= (uint64_t)(k + 2) << k, "fan(%d): %" PRIu64 " steps with the cache", k, with.steps);
        if (k >= 7)
            CHECKF(without.steps > 10 * with.steps, "fan(%d): the cache saves little (%" PRIu64 " vs %" PRIu64 ")", k,
                   with.steps, without.steps);
        CHECKF(split.partitions == (uint64_t)k + 1, "fan(%d): %" PRIu64 " parts", k, split.partitions);
        CHECKF(split.steps < 10, "fan(%d): partitioned, key 0 fails at once (%" PRIu64 " steps)", k, split.steps);
        if (without.steps >= 4096)
            CHECKF(capped.verdict == LF_UNKNOWN && strstr(capped.reason, "step budget"), "fan(%d) capped: %s", k,
                   capped.reason);
        lf_result_free(&with);
        lf_result_free(&without);
        lf_result_free(&split);
        lf_result_free(&capped);
        lf_history_free(&h);
    }
}

/* ---- explanations of small violations ---- */

static void explanation_cases(void) {
    /* H05: add 1 -> true; then contains 1 -> false. Prefix [op 0], then op 1 cannot go. */
    lf_history h;
    lf_history_init(&h, LF_TYPE_SET);
    lf_op a = mk(0, 1, 2, LF_M_ADD, 1, LF_K_TRUE, 0), b = mk(1, 3, 4, LF_M_CONTAINS, 1, LF_K_FALSE, 0);
    lf_history_push(&h, &a);
    lf_history_push(&h, &b);
    lf_result r;
    lf_result_init(&r);
    lf_wgl_check(&h, NULL, &r);
    CHECK(r.verdict == LF_VIOLATION);
    CHECKF(r.prefix_len == 1 && r.prefix[0] == 0, "H05 prefix is [0] (len %zu)", r.prefix_len);
    CHECKF(r.n_culprits == 1 && r.culprits[0] == 1, "H05 culprit is op 1");
    CHECKF(strstr(r.reason, "state {1}") && strstr(r.reason, "op 1 (t1 [3,4] contains 1 -> false)") &&
               strstr(r.reason, "not allowed"),
           "H05 reason: %s", r.reason);
    lf_result_free(&r);
    lf_history_free(&h);

    /* A read of a value never written, concurrent with a write: the deepest dead end is after the
     * write (state 5), where the read cannot go. */
    lf_history_init(&h, LF_TYPE_REGISTER);
    lf_op w = mk(0, 1, 10, LF_M_WRITE, 5, LF_K_NONE, 0), rd = mk(1, 2, 3, LF_M_READ, 0, LF_K_INT, 7);
    w.arg[0] = 5;
    lf_history_push(&h, &w);
    lf_history_push(&h, &rd);
    lf_result_init(&r);
    lf_wgl_check(&h, NULL, &r);
    CHECK(r.verdict == LF_VIOLATION);
    CHECKF(r.prefix_len == 1 && r.prefix[0] == 0 && r.n_culprits == 1 && r.culprits[0] == 1,
           "read 7: prefix [write], culprit the read");
    CHECKF(strstr(r.reason, "(1 of 2 ops, state 5)") && strstr(r.reason, "op 1 (t1 [2,3] read -> 7)"),
           "read 7 reason: %s", r.reason);
    lf_result_free(&r);
    lf_history_free(&h);
}

int main(void) {
    int files = seed_cases();
    CHECKF(files >= 31, "expected the 31 search case files, found %d", files);
    user_spec_cases();
    fan_cases();
    explanation_cases();
    TEST_DONE();
}
