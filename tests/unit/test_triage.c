/* Tests of triage (findings/triage.c) and of isolated replays (testcase/case_replay.c): file names are
 * classified as libFuzzer writes them; directories are walked in order; hand-made violations group by
 * adapter (one line per bug, its variants counted) unless a confirmed root cause tells them apart, and by
 * canonical form, bucket or shape when asked; the committed known-buggy adapters' entries keep the bucket they
 * were saved with and group with a re-capture of their own history; many violations of every known-buggy
 * adapter, from two independent series of runs, give one group per adapter with the same signature both
 * times and in any order; a crash input with an entry's workload counts once; replays of crashing, hanging,
 * buggy and correct adapters come back as CRASHED, STUCK, VIOLATION (with a complete entry) and CLEAN; an entry
 * whose minimized history is linearizable is named with a warning and listed as NOT_REPRODUCED. */
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "linfuzz/adapter.h"
#include "findings/crash.h"
#include "findings/capture.h"
#include "findings/entry.h"
#include "findings/stuck.h"
#include "findings/triage.h"
#include "linfuzz/format.h"
#include "runtime/adapter_check.h"
#include "corpus_test_util.h"
#include "test_util.h"
#include "testcase/case_runner.h"
#include "testcase/fuzz_case.h"
#include "findings/rootcause_section.h"
#include "testcase/case_replay.h"

#define CORPUS_DIR LINFUZZ_TEST_DATA "/../../corpus"
#define HEX40 "0123456789abcdef0123456789abcdef01234567"

static char tmpdir[256];

static void write_file(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    CHECKF(f && fwrite(data, 1, len, f) == len && fclose(f) == 0, "cannot write %s", path);
}

/* ---- file names and directory walks ---- */

static void classify(void) {
    size_t p = 99;
    CHECK(lf_triage_classify("crash-" HEX40, &p) == LF_TRIAGE_FILE_INPUT && p == 0);
    CHECK(lf_triage_classify("treiber_aba-crash-" HEX40, &p) == LF_TRIAGE_FILE_INPUT && p == 12);
    CHECK(lf_triage_classify("timeout-" HEX40, &p) == LF_TRIAGE_FILE_INPUT);
    CHECK(lf_triage_classify("x-oom-" HEX40, &p) == LF_TRIAGE_FILE_INPUT && p == 2);
    CHECK(lf_triage_classify("slow-unit-" HEX40, NULL) == LF_TRIAGE_FILE_INPUT);
    CHECK(lf_triage_classify("1c2673e92cf26600-f6f1eb2358b16127.lfz", NULL) == LF_TRIAGE_FILE_ENTRY);
    CHECK(lf_triage_classify("crash-0123", NULL) == LF_TRIAGE_FILE_OTHER);                   /* short hash */
    CHECK(lf_triage_classify("crash-" "0123456789ABCDEF0123456789abcdef01234567", NULL) == LF_TRIAGE_FILE_OTHER);
    CHECK(lf_triage_classify(HEX40, NULL) == LF_TRIAGE_FILE_OTHER); /* a corpus input: hash, no kind */
    CHECK(lf_triage_classify("fuzz.log", NULL) == LF_TRIAGE_FILE_OTHER);
}

static void collect(void) {
    char dir[300], path[400];
    snprintf(dir, sizeof dir, "%s/walk", tmpdir);
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/sub", dir);
    mkdir(path, 0777);
    static const char *const files[] = {"b.lfz", "a.lfz", "sub/c.lfz", "crash-" HEX40, "k3-timeout-" HEX40, "seed",
                                        ".hidden.lfz"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        write_file(path, "x", 1);
    }
    snprintf(path, sizeof path, "%s/zloop", dir);
    CHECK(symlink("..", path) == 0); /* a loop: not followed (it read the same files 32 times over) */
    lf_triage_files fs = {0};
    CHECK(lf_triage_collect(&fs, dir));
    snprintf(path, sizeof path, "%s/missing", tmpdir);
    CHECK(lf_triage_collect(&fs, path));
    snprintf(path, sizeof path, "%s/seed", dir);
    CHECK(lf_triage_collect(&fs, path)); /* named explicitly: an input, whatever its name */
    /* name order within a directory; sub/ walked where it sorts; hidden files skipped */
    static const char *const want[] = {"a.lfz", "b.lfz", "crash-" HEX40, "k3-timeout-" HEX40, "seed", "sub/c.lfz",
                                       "zloop"};
    static const lf_triage_kind kinds[] = {LF_TRIAGE_FILE_ENTRY, LF_TRIAGE_FILE_ENTRY, LF_TRIAGE_FILE_INPUT,
                                           LF_TRIAGE_FILE_INPUT, LF_TRIAGE_FILE_OTHER, LF_TRIAGE_FILE_ENTRY,
                                           LF_TRIAGE_FILE_OTHER};
    CHECKF(fs.n == 9, "%zu files", fs.n);
    for (size_t i = 0; i < 7 && i < fs.n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, want[i]);
        CHECKF(!strcmp(fs.files[i].path, path) && fs.files[i].kind == kinds[i], "file %zu: %s kind %d", i,
               fs.files[i].path, fs.files[i].kind);
    }
    if (fs.n == 9) {
        CHECK(fs.files[7].kind == LF_TRIAGE_FILE_ERROR && strstr(fs.files[7].error, "missing: "));
        CHECK(fs.files[8].kind == LF_TRIAGE_FILE_INPUT);
    }
    lf_triage_files_free(&fs);
}

/* ---- hand-made violations ---- */

/* Captures a violation entry of adapter from a text history (which must be a violation). */
static void capture_text(lf_violation_entry *e, const char *adapter, bool expected, const char *text) {
    lf_history h;
    char err[512];
    lf_status st = lf_text_read_buffer(text, strlen(text), "hand-made", &h, err, sizeof err);
    CHECKF(st == LF_OK, "parse: %s", err);
    static const uint8_t workload[] = {3, 1, 4, 1, 5};
    lf_capture_input in = {
        .adapter = adapter,
        .expected_linearizable = expected,
        .origin = "test_triage",
        .workload = workload,
        .workload_len = sizeof workload,
        .full = &h,
    };
    st = lf_capture_violation(&in, e, err, sizeof err);
    CHECKF(st == LF_OK, "capture: %s", err);
    lf_history_free(&h);
}

/* Two pops return the value of one push: VALUE_RETURNED_TWICE, push*1,pop*2 (values and times differ). */
static const char TWICE_A[] = "type stack\n0 1 2 push 1\n0 3 4 pop -> 1\n1 5 6 pop -> 1\n";
static const char TWICE_B[] = "type stack\n1 10 20 push 7\n0 30 45 pop -> 7\n1 50 60 pop -> 7\n2 70 80 push 8\n";
/* Sequential pushes of 1 and 2, then a pop of 1: LIFO_ORDER. */
static const char LIFO[] = "type stack\n0 1 2 push 1\n0 3 4 push 2\n0 5 6 pop -> 1\n";
/* Sequential incs, then a get that misses one: LOST_UPDATE with 2 and with 3 incs. */
static const char LOST2[] = "type counter\n0 1 2 inc\n1 3 4 inc\n0 5 6 get -> 1\n";
static const char LOST3[] = "type counter\n0 1 2 inc\n1 3 4 inc\n0 5 6 inc\n1 7 8 get -> 2\n";

static const lf_triage_group *group_of(const lf_triage *t, size_t item) {
    for (size_t g = 0; g < t->n_groups; g++)
        for (size_t k = 0; k < t->groups[g].n_items; k++)
            if (t->groups[g].items[k] == item) return &t->groups[g];
    return NULL;
}

static void grouping(void) {
    lf_violation_entry e[7];
    capture_text(&e[0], "stack_x", false, TWICE_A);
    capture_text(&e[1], "stack_x", false, TWICE_B);
    capture_text(&e[2], "stack_x", false, LIFO);
    capture_text(&e[3], "stack_y", true, TWICE_A); /* same history, another adapter, which claims linearizability */
    capture_text(&e[4], "counter_x", false, LOST2);
    capture_text(&e[5], "counter_x", false, LOST3);
    capture_text(&e[6], "stack_x", false, TWICE_B);
    CHECK(!strcmp(lf_entry_meta(&e[0], "shape"), "VALUE_RETURNED_TWICE"));
    CHECK(!strcmp(lf_entry_meta(&e[2], "shape"), "LIFO_ORDER"));
    CHECK(!strcmp(lf_entry_meta(&e[4], "shape"), "LOST_UPDATE"));
    lf_entry_set_meta(&e[6], "created", "2020-01-02T03:04:05Z"); /* found long ago */

    for (int by = LF_TRIAGE_BY_SIGNATURE; by <= LF_TRIAGE_BY_SHAPE; by++) {
        lf_triage t;
        lf_triage_init(&t, (lf_triage_by)by);
        static const char *const names[] = {"a.lfz", "b.lfz", "c.lfz", "d.lfz", "e.lfz", "f.lfz", "g.lfz"};
        for (int i = 0; i < 7; i++) CHECK(lf_triage_add_violation(&t, names[i], false, &e[i], NULL) == i);
        CHECK(lf_triage_group_all(&t));
        const lf_triage_group *twice = group_of(&t, 0), *lifo = group_of(&t, 2), *other = group_of(&t, 3);
        const lf_triage_group *twice_b = group_of(&t, 1), *lost2 = group_of(&t, 4), *lost3 = group_of(&t, 5);
        CHECK(twice_b && twice_b == group_of(&t, 6));
        CHECK(twice && twice->category == LF_TRIAGE_KNOWN_BUG);
        CHECK(twice_b && !strcmp(twice_b->first_seen, "2020-01-02T03:04:05Z"));
        CHECK(other && other != twice && other->category == LF_TRIAGE_BUG && !strcmp(other->adapter, "stack_y"));
        CHECK(t.n_groups > 0 && &t.groups[0] == other); /* BUG before KNOWN_BUG */
        /* the counters' minimized histories are the same, renamed: inc on one thread, then get -> 0 on another */
        CHECK(lost2 && lost2 == lost3 && lost2->count == 2 && lost2->n_variants == 1);
        CHECKF(!strcmp(t.items[4].variant, "counter: t0 [0,1] inc; t1 [2,3] get -> 0!"), "variant '%s'",
               t.items[4].variant);
        if (by == LF_TRIAGE_BY_SIGNATURE) {
            /* one adapter, one bug: whatever the histories look like, one line, with its variants */
            CHECK(twice && twice == twice_b && twice == lifo && twice->count == 4 && twice->n_variants == 3);
            CHECKF(twice && !strcmp(twice->label, "stack, no root cause"), "label '%s'", twice ? twice->label : "");
            CHECK(twice && twice->smallest == 0); /* 3 ops each: TWICE_A is first */
            CHECK(twice && !strcmp(twice->first_seen, "2020-01-02T03:04:05Z"));
            CHECK(t.n_groups == 3);
        } else if (by == LF_TRIAGE_BY_VARIANT) {
            /* TWICE_A's push and first pop are on one thread, TWICE_B's push and second pop: two variants */
            CHECK(twice && twice != twice_b && lifo != twice && lifo != twice_b && twice->count == 1);
            CHECKF(twice && !strcmp(twice->label, "stack: t0 [0,1] push v1; t0 [2,3] pop -> v1; t1 [4,5] pop -> v1!"),
                   "label '%s'", twice ? twice->label : "");
            CHECK(t.n_groups == 5);
        } else if (by == LF_TRIAGE_BY_BUCKET) {
            CHECK(twice && twice == twice_b && lifo != twice && twice->count == 3);
            CHECK(twice && !strcmp(twice->id, lf_entry_meta(&e[0], "bucket")));
            CHECK(t.n_groups == 4);
        } else {
            CHECK(twice && twice == twice_b && lifo != twice);
            CHECK(lost2 && !strcmp(lost2->label, "counter LOST_UPDATE"));
            CHECK(t.n_groups == 4);
        }
        for (size_t i = 0; i < t.n_items; i++) CHECK(!t.items[i].bucket_differs);
        lf_triage_free(&t);
    }

    /* an input with an entry's workload is the same finding: one more file, not one more count */
    lf_triage t;
    lf_triage_init(&t, LF_TRIAGE_BY_SIGNATURE);
    CHECK(lf_triage_add_violation(&t, "dir/a.lfz", false, &e[0], NULL) == 0);
    CHECK(lf_triage_add_violation(&t, "dir/lifo.lfz", false, &e[2], NULL) == 1);
    CHECK(lf_triage_find_workload(&t, NULL, e[0].workload, e[0].workload_len) == 0); /* the first with those bytes */
    CHECK(lf_triage_find_workload(&t, "stack_x", e[0].workload, e[0].workload_len) == 0);
    CHECK(lf_triage_find_workload(&t, "stack_y", e[0].workload, e[0].workload_len) == -1); /* another adapter */
    static const uint8_t other_bytes[] = {9, 9};
    CHECK(lf_triage_find_workload(&t, NULL, other_bytes, sizeof other_bytes) == -1);
    CHECK(lf_triage_add_duplicate(&t, "dir/crash-" HEX40, 0) == 2);
    CHECK(lf_triage_add_other(&t, "dir/stack_x/crash-" HEX40, "stack_x", LF_TRIAGE_CRASH,
                              "killed by signal 11 (Segmentation fault)", 10) == 3);
    CHECK(lf_triage_add_other(&t, "dir/crash-2", "stack_x", LF_TRIAGE_NOT_REPRODUCED, "no violation in 200 runs",
                              10) == 4);
    CHECK(lf_triage_add_error(&t, "dir/corrupt.lfz", "dir/corrupt.lfz: bad", false));
    CHECK(lf_triage_group_all(&t));
    CHECK(t.n_groups == 3 && t.n_errors == 1);
    const lf_triage_group *g0 = group_of(&t, 0);
    CHECK(g0 && g0 == group_of(&t, 2) && g0 == group_of(&t, 1) && g0->count == 2 && g0->n_items == 3);
    CHECK(t.items[2].duplicate_of == 0 && t.items[2].is_input && !strcmp(t.items[2].example, "dir/a.lfz"));
    CHECK(t.n_groups == 3 && t.groups[0].category == LF_TRIAGE_CRASH && t.groups[1].category == LF_TRIAGE_NOT_REPRODUCED);
    CHECK(lf_triage_category_unexpected(LF_TRIAGE_CRASH) && !lf_triage_category_unexpected(LF_TRIAGE_KNOWN_BUG));

    /* reproduce commands: the entry when there is one, else the fuzz target on the input; quoted paths */
    char cmd[512];
    lf_triage_repro_command(&t, g0, "build/bin/", cmd, sizeof cmd);
    CHECKF(!strcmp(cmd, "build/bin/linfuzz repro dir/a.lfz"), "'%s'", cmd);
    lf_triage_repro_command(&t, &t.groups[0], "", cmd, sizeof cmd);
    CHECKF(!strcmp(cmd, "fuzz_stack_x -runs=100 dir/stack_x/crash-" HEX40), "'%s'", cmd);
    lf_triage_free(&t);
    lf_triage_init(&t, LF_TRIAGE_BY_SIGNATURE);
    CHECK(lf_triage_add_violation(&t, "my dir/it's.lfz", false, &e[0], NULL) == 0);
    CHECK(lf_triage_group_all(&t));
    lf_triage_repro_command(&t, &t.groups[0], "", cmd, sizeof cmd);
    CHECKF(!strcmp(cmd, "linfuzz repro 'my dir/it'\\''s.lfz'"), "'%s'", cmd);
    lf_triage_free(&t);
    for (int i = 0; i < 7; i++) lf_entry_free(&e[i]);
}

/* ---- the committed entries of the known-buggy adapters ---- */

static void committed_entries(void) {
    DIR *d = opendir(CORPUS_DIR);
    CHECKF(d != NULL, "cannot open %s", CORPUS_DIR);
    if (!d) return;
    lf_triage t;
    lf_triage_init(&t, LF_TRIAGE_BY_BUCKET);
    size_t n = 0;
    struct dirent *de;
    char dir[1024], path[2048], err[1024];
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        snprintf(dir, sizeof dir, "%s/%s/violations", CORPUS_DIR, de->d_name);
        DIR *v = opendir(dir);
        if (!v) continue;
        struct dirent *ve;
        while ((ve = readdir(v)) != NULL) {
            if (lf_triage_classify(ve->d_name, NULL) != LF_TRIAGE_FILE_ENTRY) continue;
            snprintf(path, sizeof path, "%s/%s", dir, ve->d_name);
            lf_violation_entry e;
            CHECKF(lf_entry_load(path, &e, err, sizeof err) == LF_OK, "%s", err);
            if (lf_entry_is_crash(&e)) { /* no violation to capture again (crash entries: test_crash.c) */
                lf_entry_free(&e);
                continue;
            }
            long i = lf_triage_add_violation(&t, path, false, &e, NULL);
            /* the bucket recomputed from the minimized history is the one it was named and saved with */
            CHECKF(i >= 0 && !t.items[i].bucket_differs && !strncmp(ve->d_name, t.items[i].bucket, 16),
                   "%s: bucket recomputed as %s", path, i >= 0 ? t.items[i].bucket : "?");
            bool stuck = lf_entry_is_stuck(&e); /* a known bug that makes an op never return */
            CHECK(i >= 0 && t.items[i].category == (stuck ? LF_TRIAGE_STUCK : LF_TRIAGE_KNOWN_BUG));
            /* capturing its full history again under the same adapter (checked as it was: meta "spec") gives the
             * same signature */
            lf_adapter_checker checker;
            CHECKF(lf_adapter_checker_for_saved(&checker, lf_entry_meta(&e, "adapter"), lf_entry_meta(&e, "spec"), NULL,
                                                err, sizeof err),
                   "%s", err);
            lf_capture_input in = {
                .adapter = lf_entry_meta(&e, "adapter"),
                .expected_linearizable = false,
                .workload = e.workload,
                .workload_len = e.workload_len,
                .full = lf_entry_recorded(&e), /* what `minimized` came from (a minimized test's run, if any) */
                .check = &checker.check,
                .spec_mode = lf_entry_meta(&e, "spec"),
            };
            lf_stuck_input sin = {.adapter = lf_entry_meta(&e, "adapter"), .may_block = lf_entry_may_block(&e),
                                  .workload = e.workload, .workload_len = e.workload_len, .history = &e.full};
            lf_violation_entry again;
            lf_status cst = stuck ? lf_capture_stuck(&sin, &again, err, sizeof err)
                                  : lf_capture_violation(&in, &again, err, sizeof err);
            CHECKF(cst == LF_OK, "%s", err);
            /* a root cause, when the entry has one, is its signature: the recapture carries the same one */
            if (cst == LF_OK && e.rootcause) again.rootcause = strdup(e.rootcause);
            lf_adapter_checker_free(&checker);
            long k = lf_triage_add_violation(&t, "again.lfz", false, &again, NULL);
            CHECK(k >= 0 && !strcmp(t.items[k].bucket, t.items[i].bucket));
            lf_entry_free(&again);
            lf_entry_free(&e);
            n++;
        }
        closedir(v);
    }
    closedir(d);
    CHECKF(n >= 10, "%zu committed entries", n);
    CHECK(lf_triage_group_all(&t));
    /* Each entry and its recapture land in the same group; two committed entries of one bug (found in free and
     * in controlled mode) share theirs. */
    size_t total = 0;
    for (size_t g = 0; g < t.n_groups; g++) {
        CHECK(t.groups[g].count % 2 == 0);
        total += t.groups[g].count;
    }
    CHECKF(total == 2 * n && t.n_groups <= n, "%zu groups holding %zu items for %zu entries", t.n_groups, total, n);
    lf_triage_free(&t);
}

/* ---- root causes take precedence ---- */

static void root_causes(void) {
    lf_violation_entry e[8];
    capture_text(&e[6], "stack_x", false, LIFO);
    capture_text(&e[7], "stack_x", false, TWICE_B);
    capture_text(&e[0], "stack_x", false, TWICE_A);
    capture_text(&e[1], "stack_x", false, LIFO);
    capture_text(&e[2], "stack_x", false, TWICE_B);
    capture_text(&e[3], "stack_x", false, TWICE_A);
    capture_text(&e[4], "stack_x", false, TWICE_B);
    capture_text(&e[5], "stack_x", false, TWICE_A);
    static const char *const src[] = {"    long v = atomic_load(&s->slot[i]);", "    atomic_store(&s->slot[i], 0);"};
    lf_report_cause pop = {.rank = 1, .summary = "pop() stack.c:41-42 must be atomic", .file = "src/stack.c",
                           .line_lo = 41, .line_hi = 42, .function = "pop", .source = src, .n_source = 2,
                           .forbids = 37, .passing = 200, .validated = true, .schedules = 5000, .violations = 0};
    lf_report_cause push = pop;
    push.summary = "push() stack.c:20-21 must be atomic";
    push.line_lo = 20;
    push.line_hi = 21;
    push.function = "push";
    lf_report_cause unconfirmed = pop;
    unconfirmed.violations = 3; /* validated, but violations remained: not a cause */
    lf_report_cause both[2] = {unconfirmed, push};
    both[0].rank = 1;
    both[1].rank = 2;
    e[0].rootcause = lf_rootcause_format(&pop, 1);
    e[1].rootcause = lf_rootcause_format(&pop, 1);       /* another history, the same region: one bug */
    e[2].rootcause = lf_rootcause_format(both, 2);       /* the best confirmed one is push: another bug */
    e[3].rootcause = lf_rootcause_format(&unconfirmed, 1); /* nothing confirmed: grouped by the history */
    /* another finding of pop's bug confirms an overlapping region of pop: the same bug (treiber_aba's findings
     * confirmed lines 90-93 and 91-93 of pop) */
    lf_report_cause pop_wider = pop;
    pop_wider.summary = "pop() stack.c:40-42 must be atomic";
    pop_wider.line_lo = 40;
    static const char *const src3[] = {"    size_t i = top(s);", "    long v = atomic_load(&s->slot[i]);",
                                       "    atomic_store(&s->slot[i], 0);"};
    pop_wider.source = src3;
    pop_wider.n_source = 3;
    e[4].rootcause = lf_rootcause_format(&pop_wider, 1);
    /* a region whose function is unknown is grouped by its lines */
    lf_report_cause anon = pop;
    anon.function = NULL;
    anon.summary = "stack.c:41-42 must be atomic";
    e[5].rootcause = lf_rootcause_format(&anon, 1);
    /* another finding of push's bug confirms a region of a helper push calls: the same op, the same bug
     * (elim_stack_takes_claimed: es_op() in some findings, offer() in others, both in push); and a joined
     * candidate whose first region runs in push */
    lf_report_cause helper = push;
    helper.summary = "offer() stack.c:60-61 (in push) must be atomic";
    helper.function = "offer";
    helper.line_lo = 60;
    helper.line_hi = 61;
    e[6].rootcause = lf_rootcause_format(&helper, 1);
    lf_report_cause joined = helper;
    joined.summary = "offer() stack.c:60-61 (in push) and take() stack.c:70-71 (in pop) must be atomic";
    e[7].rootcause = lf_rootcause_format(&joined, 1);
    for (int i = 0; i < 8; i++) CHECK(e[i].rootcause);
    lf_triage t;
    lf_triage_init(&t, LF_TRIAGE_BY_SIGNATURE);
    for (int i = 0; i < 8; i++) CHECK(lf_triage_add_violation(&t, "x.lfz", false, &e[i], NULL) == i);
    CHECK(lf_triage_group_all(&t));
    CHECKF(t.n_groups == 4, "%zu groups", t.n_groups);
    CHECK(group_of(&t, 6) && group_of(&t, 6) == group_of(&t, 2) && group_of(&t, 7) == group_of(&t, 2));
    const lf_triage_group *g0 = group_of(&t, 0), *g2 = group_of(&t, 2), *g3 = group_of(&t, 3), *g5 = group_of(&t, 5);
    CHECK(g0 && g0 == group_of(&t, 1) && g0 == group_of(&t, 4) && g0->count == 3);
    CHECKF(g0 && !strcmp(g0->label, "stack, root cause: pop in src/stack.c"), "'%s'", g0 ? g0->label : "");
    CHECKF(g2 && g2 != g0 && !strcmp(g2->label, "stack, root cause: push in src/stack.c"), "'%s'",
           g2 ? g2->label : "");
    CHECKF(g3 && g3 != g0 && g3 != g2 && !strcmp(g3->label, "stack, no root cause"), "'%s'", g3 ? g3->label : "");
    CHECKF(g5 && g5 != g0 && g5 != g2 && g5 != g3 && !strcmp(g5->label, "stack, root cause: region src/stack.c:41-42"),
           "'%s'", g5 ? g5->label : "");
    lf_triage_free(&t);

    /* an exclusion names its methods in a fixed order */
    lf_report_cause ex = {.rank = 1, .exclusion = true, .summary = "pop must not overlap push",
                          .methods = {"push", "pop"}, .validated = true, .schedules = 100};
    char *text = lf_rootcause_format(&ex, 1);
    lf_rootcause rc;
    char err[256], key[128];
    CHECK(text && lf_rootcause_parse(text, strlen(text), &rc, err, sizeof err) == LF_OK);
    CHECK(lf_rootcause_signature(&rc, key, sizeof key) && !strcmp(key, "exclusion pop||push"));
    lf_rootcause_free(&rc);
    free(text);
    for (int i = 0; i < 8; i++) lf_entry_free(&e[i]);
}

/* ---- one group per bug, the same in every run ---- */

#define PER_ADAPTER 3

/* Up to `want` violations of adapter a on the fuzz case `workload`, each captured as a fuzz target would,
 * from runs first_run, first_run + 1, ... (each run has its own perturbation seeds). Returns how many. */
static size_t violations_of(const lf_adapter *a, const uint8_t *workload, size_t len, unsigned first_run, size_t want,
                            lf_violation_entry *out) {
    lf_method ms[LF_M_COUNT];
    lf_fuzz_case c;
    lf_fuzz_case_decode(workload, len, lf_fuzz_case_methods(a, ms), &c);
    lf_fc_plan plan;
    lf_fc_executor x;
    size_t got = 0;
    if (!lf_fc_plan_build(&plan, &c, a)) return 0;
    if (!lf_fc_executor_init(&x, LF_CLOCK_TICKET)) {
        lf_fc_plan_free(&plan);
        return 0;
    }
    lf_check_options co;
    lf_check_options_default(&co);
    lf_history h;
    lf_history_init(&h, a->type);
    for (unsigned r = first_run; r < first_run + 2000 && got < want; r++) {
        if (!lf_fc_execute(&x, &plan, r, &h)) break;
        lf_result res;
        lf_result_init(&res);
        lf_check(&h, &co, &res);
        if (res.verdict == LF_VIOLATION) {
            char err[512];
            lf_capture_input in = {.adapter = a->name, .expected_linearizable = a->linearizable,
                                   .origin = "test_triage", .workload_format = LF_FUZZ_CASE_FORMAT,
                                   .workload = workload, .workload_len = len, .full = &h, .has_serial = true,
                                   .serial_thread = c.threads};
            CHECKF(lf_capture_violation(&in, &out[got], err, sizeof err) == LF_OK, "%s: %s", a->name, err);
            got++;
        }
        lf_result_free(&res);
    }
    lf_history_free(&h);
    lf_fc_executor_free(&x);
    lf_fc_plan_free(&plan);
    return got;
}

typedef struct group_key {
    char adapter[64], id[17], label[128];
    size_t count;
} group_key;

static int cmp_group_key(const void *pa, const void *pb) {
    return strcmp(((const group_key *)pa)->adapter, ((const group_key *)pb)->adapter);
}

/* Triages n entries in the order given by perm; the groups, sorted by adapter, go to keys. */
static size_t triage_keys(lf_violation_entry *const *entries, const size_t *perm, size_t n, group_key *keys) {
    lf_triage t;
    lf_triage_init(&t, LF_TRIAGE_BY_SIGNATURE);
    for (size_t i = 0; i < n; i++) CHECK(lf_triage_add_violation(&t, "e.lfz", false, entries[perm[i]], NULL) >= 0);
    CHECK(lf_triage_group_all(&t));
    size_t ng = t.n_groups;
    for (size_t g = 0; g < ng; g++) {
        snprintf(keys[g].adapter, sizeof keys[g].adapter, "%s", t.groups[g].adapter);
        memcpy(keys[g].id, t.groups[g].id, sizeof keys[g].id);
        snprintf(keys[g].label, sizeof keys[g].label, "%s", t.groups[g].label);
        keys[g].count = t.groups[g].count;
        /* every item of the group is the group's adapter's */
        for (size_t k = 0; k < t.groups[g].n_items; k++)
            CHECK(!strcmp(t.items[t.groups[g].items[k]].adapter, t.groups[g].adapter));
    }
    lf_triage_free(&t);
    qsort(keys, ng, sizeof *keys, cmp_group_key);
    return ng;
}

static void one_group_per_bug(void) {
    static const char *const buggy[] = {"k1_counter_lost_update", "k3_trylock_queue", "k4_reread_cas_register",
                                        "ms_queue_lost_tail", "r1_afek_stack_no_swap", "r2_rwlock_list_add",
                                        "r2_rwlock_list_remove", "r3_optimistic_list_add", "r3_optimistic_list_remove",
                                        "scal_k_fifo", "scal_k_stack", "treiber_aba"};
    enum { N_BUGGY = sizeof buggy / sizeof buggy[0] };
    static lf_violation_entry series[2][N_BUGGY * PER_ADAPTER];
    lf_violation_entry *all[2][N_BUGGY * PER_ADAPTER];
    size_t n[2] = {0, 0}, variants = 0;
    char dir[1024], path[2048];
    for (size_t b = 0; b < N_BUGGY; b++) {
        const lf_adapter *a = lf_adapter_find(buggy[b]);
        CHECKF(a != NULL, "no adapter %s", buggy[b]);
        /* two independent series of runs of its seed inputs (which perturb the schedule): different runs,
         * different histories. k4's seeds violate about once in a thousand runs: it starts with a case of a
         * campaign's entry that does about once in twenty (threads=4 rounds=17 keys=3, heavy perturbation). */
        snprintf(dir, sizeof dir, "%s/%s/seeds", CORPUS_DIR, buggy[b]);
        for (int s = 0; s < 2 && a; s++) {
            size_t got = 0;
            if (!strcmp(buggy[b], "k4_reread_cas_register")) {
                /* methods: 0 write, 1 read, 2 cas */
                lf_fuzz_case k4 = {.mode = LF_FC_FREE, .threads = 4, .rounds = 17, .repeats = 15, .key_domain = 3,
                                   .drain = true,
                                   .perturb = {.point_chance = 512, .gap_chance = 128, .spin_max = 300,
                                               .yield_share = 160},
                                   .seed = 1592590337, .body_len = {4, 5, 4, 4}};
                static const lf_fc_call bodies[4][5] = {{{0, 6}, {0, 0}, {2, 1}, {0, 0}},
                                                        {{1, 20}, {1, 7}, {2, 10}, {0, 13}, {1, 16}},
                                                        {{2, 12}, {0, 17}, {1, 20}, {2, 23}},
                                                        {{0, 21}, {1, 24}, {2, 27}, {0, 30}}};
                for (int t = 0; t < 4; t++) memcpy(k4.body[t], bodies[t], sizeof bodies[t]);
                lf_fuzz_case_normalize(&k4, 3);
                uint8_t bytes[LF_FC_MAX_ENCODED];
                size_t len = lf_fuzz_case_encode(&k4, bytes);
                got += violations_of(a, bytes, len, (unsigned)s * 5000, PER_ADAPTER, &series[s][n[s]]);
            }
            DIR *d = opendir(dir);
            struct dirent *de;
            while (d && got < PER_ADAPTER && (de = readdir(d)) != NULL) {
                if (de->d_name[0] == '.') continue;
                snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
                uint8_t seed[LF_FC_MAX_ENCODED + 64];
                FILE *f = fopen(path, "rb");
                size_t len = f ? fread(seed, 1, sizeof seed, f) : 0;
                if (f) fclose(f);
                got += violations_of(a, seed, len, (unsigned)s * 5000, PER_ADAPTER - got, &series[s][n[s] + got]);
            }
            if (d) closedir(d);
            CHECKF(got >= 2, "%s: %zu violations in series %d", buggy[b], got, s);
            for (size_t k = 0; k < got; k++) all[s][n[s] + k] = &series[s][n[s] + k];
            n[s] += got;
        }
    }
    group_key keys[4][N_BUGGY * PER_ADAPTER];
    size_t perm[N_BUGGY * PER_ADAPTER], ng[4];
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < n[s]; i++) perm[i] = i;
        ng[2 * s] = triage_keys(all[s], perm, n[s], keys[2 * s]);
        for (size_t i = 0; i < n[s]; i++) perm[i] = n[s] - 1 - i; /* the same findings, read in reverse */
        ng[2 * s + 1] = triage_keys(all[s], perm, n[s], keys[2 * s + 1]);
    }
    /* one group per adapter (each has one known bug), the same signature in both series and both orders */
    for (int v = 0; v < 4; v++) CHECKF(ng[v] == N_BUGGY, "view %d: %zu groups for %d buggy adapters", v, ng[v], N_BUGGY);
    for (int v = 1; v < 4; v++)
        for (size_t g = 0; g < N_BUGGY && ng[v] == N_BUGGY && ng[0] == N_BUGGY; g++)
            CHECKF(!strcmp(keys[v][g].adapter, keys[0][g].adapter) && !strcmp(keys[v][g].id, keys[0][g].id) &&
                       !strcmp(keys[v][g].label, keys[0][g].label),
                   "%s: signature %s '%s' vs %s '%s'", keys[0][g].adapter, keys[0][g].id, keys[0][g].label,
                   keys[v][g].id, keys[v][g].label);
    /* ... while the histories differ: there are more variants than adapters (the signature does not hide them) */
    lf_triage t;
    lf_triage_init(&t, LF_TRIAGE_BY_VARIANT);
    for (size_t i = 0; i < n[0]; i++) lf_triage_add_violation(&t, "e.lfz", false, all[0][i], NULL);
    CHECK(lf_triage_group_all(&t));
    variants = t.n_groups;
    lf_triage_free(&t);
    CHECKF(variants > N_BUGGY, "%zu variants", variants);
    printf("one group per bug: %zu and %zu violations of %d buggy adapters, %zu/%zu/%zu/%zu groups; %zu variants\n",
           n[0], n[1], N_BUGGY, ng[0], ng[1], ng[2], ng[3], variants);
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < n[s]; i++) lf_entry_free(&series[s][i]);
}

/* ---- isolated replays ---- */

static void *reg_create(size_t max_ops) {
    (void)max_ops;
    return calloc(1, sizeof(int64_t));
}
static void reg_destroy(void *obj) { free(obj); }
static lf_kind crash_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    if (m == LF_M_READ) abort();
    *(int64_t *)obj = args[0];
    (void)value;
    return LF_K_NONE;
}
static lf_kind hang_op(void *obj, lf_method m, const int64_t *args, int64_t *value) {
    if (m == LF_M_READ)
        for (;;) {
            struct timespec ts = {1, 0};
            nanosleep(&ts, NULL);
        }
    *(int64_t *)obj = args[0];
    (void)value;
    return LF_K_NONE;
}
static const lf_adapter CRASHING = {.name = "crashing_register", .type = LF_TYPE_REGISTER, .linearizable = true,
                                    .methods = LF_METHOD_BIT(LF_M_WRITE) | LF_METHOD_BIT(LF_M_READ),
                                    .create = reg_create, .destroy = reg_destroy, .op = crash_op};
static const lf_adapter HANGING = {.name = "hanging_register", .type = LF_TYPE_REGISTER, .linearizable = true,
                                   .methods = LF_METHOD_BIT(LF_M_WRITE) | LF_METHOD_BIT(LF_M_READ),
                                   .create = reg_create, .destroy = reg_destroy, .op = hang_op};

static void replays(void) {
    /* two threads writing and reading (for a register adapter, method 0 is write and 1 read) */
    lf_fuzz_case c = {.threads = 2, .rounds = 2, .repeats = 1, .key_domain = 2, .body_len = {2, 2}};
    c.body[0][0] = (lf_fc_call){0, 5};
    c.body[0][1] = (lf_fc_call){1, 0};
    c.body[1][0] = (lf_fc_call){1, 0};
    c.body[1][1] = (lf_fc_call){0, 6};
    lf_fuzz_case_normalize(&c, 2);
    uint8_t regs[LF_FC_MAX_ENCODED];
    size_t regs_len = lf_fuzz_case_encode(&c, regs);
    lf_replay_options o;
    lf_replay_options_default(&o);
    o.runs = 20;
    o.seconds = 5;
    lf_isolated_replay r;
    CHECK(lf_fc_replay_isolated(&CRASHING, regs, regs_len, &o, 30, "test", &r) == LF_REPLAY_CRASHED);
    CHECKF(strstr(r.detail, "signal 6") != NULL, "detail '%s'", r.detail);
    lf_entry_free(&r.entry);
    double t0 = (double)time(NULL);
    CHECK(lf_fc_replay_isolated(&HANGING, regs, regs_len, &o, 1.5, "test", &r) == LF_REPLAY_STUCK);
    CHECKF((double)time(NULL) - t0 < 10, "the hung child was not killed on time");
    lf_entry_free(&r.entry);

    /* the committed k3 entry's workload: k3 violates again (often: it stops at the first), lock_queue never */
    /* (the free-mode entry: a controlled one from another build, the sanitizer build say, need not replay) */
    char dir[1024], entry_path[2048];
    snprintf(dir, sizeof dir, "%s/k3_trylock_queue/violations", CORPUS_DIR);
    lf_violation_entry e;
    bool have = lf_test_load_entry_of_format(dir, LF_FUZZ_CASE_FORMAT_V1, &e, entry_path, sizeof entry_path);
    CHECKF(have, "no free-mode (fuzz-case 1) k3 entry in %s", dir);
    if (!have) return;
    o.runs = 5000;
    o.seconds = 20;
    o.format = LF_FUZZ_CASE_FORMAT_V1;
    const lf_adapter *k3 = lf_adapter_find("k3_trylock_queue"), *lockq = lf_adapter_find("lock_queue");
    CHECK(k3 && lockq);
    CHECK(lf_fc_replay_isolated(k3, e.workload, e.workload_len, &o, 120, "test replay", &r) == LF_REPLAY_VIOLATION);
    if (r.outcome == LF_REPLAY_VIOLATION) {
        CHECK(!strcmp(lf_entry_meta(&r.entry, "adapter"), "k3_trylock_queue"));
        CHECK(!strcmp(lf_entry_meta(&r.entry, "expected"), "not linearizable"));
        CHECK(strstr(lf_entry_meta(&r.entry, "origin"), "test replay, run ") != NULL);
        CHECK(r.entry.workload_len == e.workload_len && !memcmp(r.entry.workload, e.workload, e.workload_len));
        CHECK(r.entry.minimized.n > 0 && r.entry.minimized.n <= r.entry.full.n);
        CHECK(r.runs == r.first_run + 1);
    }
    lf_entry_free(&r.entry);
    o.runs = 30;
    CHECK(lf_fc_replay_isolated(lockq, e.workload, e.workload_len, &o, 120, "test", &r) == LF_REPLAY_CLEAN);
    CHECK(r.runs == 30);
    lf_entry_free(&r.entry);

    /* in-process replay counts every violating run when not stopping at the first */
    lf_replay_result rr;
    lf_history_init(&rr.first, k3->type);
    o.runs = 200;
    CHECK(lf_fc_replay(k3, e.workload, e.workload_len, &o, &rr));
    CHECK(rr.runs == 200 && rr.violations >= 1 && rr.first.n > 0 && rr.first_engine != NULL);
    CHECK(rr.nondeterministic == 0 && !rr.first_nondeterministic);
    lf_history_free(&rr.first);
    lf_history_free(&rr.evidence);
    lf_entry_free(&e);
}

/* ---- entries that are no violation ---- */

/* An entry of adapter whose minimized history was replaced by a linearizable one, saved in dir. */
static void save_not_violation(const char *adapter, bool expected, const char *dir, char *path, size_t len) {
    lf_violation_entry e;
    capture_text(&e, adapter, expected, LOST2);
    char err[512];
    lf_history_free(&e.minimized);
    static const char FINE[] = "type counter\n0 1 2 inc\n0 3 4 get -> 1\n";
    CHECK(lf_text_read_buffer(FINE, strlen(FINE), "fine", &e.minimized, err, sizeof err) == LF_OK);
    CHECKF(lf_entry_save(&e, dir, path, len, err, sizeof err) == LF_OK, "%s", err);
    lf_entry_free(&e);
}

/* Runs `linfuzz triage ARGS` with stdout and stderr in out; returns its exit status. */
static int run_triage(const char *args, char *out, size_t len) {
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "LINFUZZ_PROGRESS=0 %s triage %s 2>&1", LINFUZZ_BIN, args);
    FILE *p = popen(cmd, "r");
    size_t n = p ? fread(out, 1, len - 1, p) : 0;
    out[n] = 0;
    int st = p ? pclose(p) : -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* An entry whose minimized history is linearizable shows no bug: triage warns, naming it, and lists it as
 * NOT_REPRODUCED, apart from the adapter's violations, whatever the adapter claims (it was KNOWN_BUG or BUG
 * without a word). */
static void not_violations(void) {
    char dir[300], known[400], claimed[400], real[400], args[1300], out[8192];
    snprintf(dir, sizeof dir, "%s/stale", tmpdir);
    save_not_violation("k1_counter_lost_update", false, dir, known, sizeof known);
    save_not_violation("atomic_counter", true, dir, claimed, sizeof claimed);
    lf_violation_entry e;
    capture_text(&e, "k1_counter_lost_update", false, LOST3);
    char err[512];
    CHECK(lf_entry_save(&e, dir, real, sizeof real, err, sizeof err) == LF_OK);
    lf_entry_free(&e);
    snprintf(args, sizeof args, "'%s'", dir);
    int rc = run_triage(args, out, sizeof out);
    CHECKF(rc == 0, "exit %d: %s", rc, out); /* nothing unexpected: no BUG group */
    char warn[600];
    snprintf(warn, sizeof warn, "%s: WARNING: its minimized history (2 ops) is linearizable", known);
    CHECKF(strstr(out, warn) != NULL, "no warning about %s in: %s", known, out);
    snprintf(warn, sizeof warn, "%s: WARNING: its minimized history (2 ops) is linearizable", claimed);
    CHECKF(strstr(out, warn) != NULL, "no warning about %s in: %s", claimed, out);
    CHECKF(strstr(out, "| NOT_REPRODUCED | 1 | atomic_counter | entry whose minimized history is not a violation here |") &&
               strstr(out, "| NOT_REPRODUCED | 1 | k1_counter_lost_update | entry whose minimized history is not a "
                           "violation here |") &&
               strstr(out, "| KNOWN_BUG | 1 | k1_counter_lost_update | counter, no root cause |") && !strstr(out, "| BUG |"),
           "table: %s", out);
    snprintf(warn, sizeof warn, "%s: WARNING", real);
    CHECK(strstr(out, warn) == NULL);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "%s/linfuzz-triage-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    classify();
    collect();
    grouping();
    committed_entries();
    root_causes();
    one_group_per_bug();
    replays();
    not_violations();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    TEST_DONE();
}
