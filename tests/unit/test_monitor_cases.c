/* Monitors on hand-checked histories: every hand-checked case (tests/data/monitor_cases), the tests/data/search_cases cases the
 * monitors apply to, tie semantics, pending operations, and the culprits named in violation reports. */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linfuzz/check.h"
#include "linfuzz/format.h"
#include "monitor/monitor.h"
#include "test_util.h"

/* Reads "# expect: X" from the first line of path; 1 linearizable, 0 violation, -1 none. */
static int expected_of(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[256] = "";
    if (!fgets(line, sizeof line, f)) line[0] = 0;
    fclose(f);
    if (strstr(line, "expect: linearizable")) return 1;
    if (strstr(line, "expect: violation")) return 0;
    return -1;
}

static bool is_monitor_type(lf_type t) {
    return t == LF_TYPE_REGISTER || t == LF_TYPE_SET || t == LF_TYPE_STACK || t == LF_TYPE_QUEUE ||
           t == LF_TYPE_PQUEUE || t == LF_TYPE_DEQUE;
}

/* Runs the monitor on every case of dir; with must_decide, unknown is a failure. Returns cases decided. */
static int run_dir(const char *dir, bool must_decide) {
    DIR *d = opendir(dir);
    CHECKF(d != NULL, "cannot open %s", dir);
    if (!d) return 0;
    int decided = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".hist")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        int exp = expected_of(path);
        CHECKF(exp >= 0, "%s has no '# expect:' line", path);
        lf_history h;
        char err[512];
        lf_status st = lf_history_read(path, &h, err, sizeof err);
        CHECKF(st == LF_OK, "%s", err);
        if (st != LF_OK) continue;
        if (is_monitor_type(h.type)) {
            lf_result r;
            lf_result_init(&r);
            lf_monitor_check(&h, NULL, &r);
            if (r.verdict == LF_UNKNOWN) {
                CHECKF(!must_decide, "%s: monitor says unknown: %s", path, r.reason);
                CHECKF(strncmp(r.reason, "unsupported:", 12) == 0, "%s: unknown without 'unsupported:': %s", path,
                       r.reason);
            } else {
                decided++;
                lf_verdict want = exp ? LF_LINEARIZABLE : LF_VIOLATION;
                CHECKF(r.verdict == want, "%s: expected %s, monitor says %s (%s)", path, lf_verdict_name(want),
                       lf_verdict_name(r.verdict), r.reason);
                if (r.verdict == LF_VIOLATION) {
                    CHECKF(r.reason[0] != 0, "%s: violation without a reason", path);
                    for (size_t k = 0; k < r.n_culprits; k++)
                        CHECKF(r.culprits[k] < h.n, "%s: culprit %u out of range", path, r.culprits[k]);
                }
            }
            lf_result_free(&r);
        }
        lf_history_free(&h);
    }
    closedir(d);
    return decided;
}

/* Checks the text history src with the monitor; returns the verdict and fills r (caller frees). */
static lf_verdict check_text(const char *src, lf_result *r) {
    lf_history h;
    char err[512];
    lf_status st = lf_text_read_buffer(src, strlen(src), "<test>", &h, err, sizeof err);
    CHECKF(st == LF_OK, "%s", err);
    lf_result_init(r);
    if (st != LF_OK) return LF_UNKNOWN;
    lf_monitor_check(&h, NULL, r);
    lf_history_free(&h);
    return r->verdict;
}

static void expect(const char *name, const char *src, lf_verdict want) {
    lf_result r;
    lf_verdict got = check_text(src, &r);
    CHECKF(got == want, "%s: expected %s, got %s (%s)", name, lf_verdict_name(want), lf_verdict_name(got), r.reason);
    lf_result_free(&r);
}

static bool has_culprit(const lf_result *r, uint32_t op) {
    for (size_t i = 0; i < r->n_culprits; i++)
        if (r->culprits[i] == op) return true;
    return false;
}

int main(void) {
    int n002 = run_dir(LINFUZZ_TEST_DATA "/monitor_cases", true);
    CHECKF(n002 == 86, "expected all 86 monitor cases (73 of the paper's types, 13 deques) decided, got %d", n002);
    run_dir(LINFUZZ_TEST_DATA "/search_cases", false);

    /* Tie semantics: equal stamps are concurrent (invocation before response). */
    expect("tie push/empty", "type stack\n0 1 2 push 1\n1 2 3 pop -> empty\n", LF_LINEARIZABLE);
    expect("tie push/pop", "type stack\n0 1 2 push 1\n1 2 3 pop -> 1\n", LF_LINEARIZABLE);
    expect("tie strict", "type stack\n0 1 2 push 1\n1 3 4 pop -> empty\n", LF_VIOLATION);
    expect("tie register", "type register\n0 1 2 write 1\n1 2 3 read -> 0\n", LF_LINEARIZABLE);

    /* Pending operations. */
    expect("pending push observed", "type stack\n0 1 ? push 1\n1 5 6 pop -> 1\n", LF_LINEARIZABLE);
    expect("pending push observed too early", "type stack\n1 1 2 pop -> 1\n0 3 ? push 1\n", LF_VIOLATION);
    expect("pending push unobserved", "type queue\n0 1 ? enq 1\n1 5 6 deq -> empty\n", LF_LINEARIZABLE);
    expect("pending peek dropped", "type queue\n0 1 2 enq 1\n1 3 ? peek\n", LF_LINEARIZABLE);
    expect("pending write read", "type register\n0 1 ? write 5\n1 3 4 read -> 5\n2 6 7 read -> 5\n",
           LF_LINEARIZABLE);
    expect("pending write then stale read",
           "type register\n0 1 ? write 5\n1 3 4 read -> 5\n2 6 7 read -> 0\n", LF_VIOLATION);
    expect("pending set add", "type set\n0 1 ? add 3\n1 2 3 contains 3 -> true\n2 4 5 contains 3 -> true\n",
           LF_LINEARIZABLE);
    lf_result r;
    CHECK(check_text("type stack\n0 1 2 push 1\n1 3 ? pop\n2 5 6 pop -> empty\n", &r) == LF_UNKNOWN);
    CHECKF(strncmp(r.reason, "unsupported:", 12) == 0, "%s", r.reason);
    lf_result_free(&r);

    /* Ambiguous and other types are handed on, not guessed. */
    CHECK(check_text("type queue\n0 1 2 enq 1\n1 3 4 enq 1\n", &r) == LF_UNKNOWN);
    CHECK(strstr(r.reason, "ambiguous") != NULL);
    lf_result_free(&r);
    CHECK(check_text("type register\ninit 4\n0 1 2 write 4\n", &r) == LF_UNKNOWN);
    lf_result_free(&r);
    CHECK(check_text("type cas-register\n0 1 2 write 4\n", &r) == LF_UNKNOWN);
    lf_result_free(&r);

    /* Removing a value twice is a violation even though it makes the history "ambiguous" syntactically. */
    expect("double pop", "type stack\n0 1 2 push 1\n1 3 4 pop -> 1\n2 5 6 pop -> 1\n", LF_VIOLATION);
    /* nil is a value like any other; for pqueue it is the smallest. */
    expect("nil values", "type pqueue\n0 1 2 insert 3\n0 3 4 insert nil\n1 5 6 poll -> nil\n1 7 8 poll -> 3\n",
           LF_LINEARIZABLE);
    expect("nil order", "type pqueue\n0 1 2 insert 3\n0 3 4 insert nil\n1 5 6 poll -> 3\n", LF_VIOLATION);
    expect("register nil init", "type register\ninit nil\n0 1 2 read -> nil\n0 3 4 write 1\n1 5 6 read -> 1\n",
           LF_LINEARIZABLE);
    expect("empty history", "type stack\n", LF_LINEARIZABLE);

    /* Culprits name the conflicting ops. */
    CHECK(check_text("type stack\n0 1 2 push 1\n0 3 4 pop -> 1\n1 5 6 peek -> 1\n", &r) == LF_VIOLATION);
    CHECK(has_culprit(&r, 1) && has_culprit(&r, 2));
    lf_result_free(&r);
    CHECK(check_text("type set\n0 1 2 add 1 -> true\n1 3 4 contains 1 -> false\n0 5 6 remove 1 -> true\n", &r) ==
          LF_VIOLATION);
    CHECK(has_culprit(&r, 0) && has_culprit(&r, 1) && has_culprit(&r, 2));
    CHECK(strstr(r.reason, "contains 1 -> false") != NULL);
    lf_result_free(&r);
    CHECK(check_text("type register\n0 1 2 write 1\n0 3 4 write 2\n1 5 6 read -> 1\n", &r) == LF_VIOLATION);
    CHECK(has_culprit(&r, 1));
    lf_result_free(&r);
    TEST_DONE();
}
