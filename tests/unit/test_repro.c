/* Tests of `linfuzz repro` and `linfuzz show` on entries made here the way the fuzz targets make them
 * (so they run in every build, gcc too): a known-buggy adapter's free-mode entry is re-found by free runs, a
 * controlled-mode entry is replayed exactly (same history, 20 times out of 20) before the free runs, an entry
 * of the first workload format ("fuzz-case 1") is re-run in free mode, a clean entry gives exit 0, corrupt
 * and foreign files are refused with exit 2, a missing one with exit 4. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linfuzz/adapter.h"
#include "findings/capture.h"
#include "findings/entry.h"
#include "linfuzz/lfz.h"
#include "test_util.h"
#include "testcase/case_runner.h"
#include "testcase/fuzz_case.h"
#include "testcase/case_replay.h"

static char tmpdir[] = "/tmp/linfuzz-repro-XXXXXX";

/* Runs a shell command; returns its exit status, its stdout+stderr in out (malloc'ed). */
static int run(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int run(char **out, const char *fmt, ...) {
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    char full[8300];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    size_t k;
    while (p && (k = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += k;
        if (cap - len < 2) buf = realloc(buf, cap *= 2);
    }
    buf[len] = 0;
    int status = p ? pclose(p) : -1;
    *out = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* k1's lost update made likely: two threads of incs, every yield point between the load and the store
 * perturbed (half sched_yield, which lets the other thread in even when both share one busy core; half a
 * busy-wait, which widens the window when they run in parallel), and a final get. */
static lf_fuzz_case k1_case(void) {
    lf_fuzz_case c;
    memset(&c, 0, sizeof c);
    c.threads = 2;
    c.rounds = 16;
    c.repeats = 4;
    c.key_domain = 1;
    c.drain = true;
    c.perturb = (lf_perturb){.point_chance = 1024, .gap_chance = 0, .spin_max = 2000, .yield_share = 128};
    c.seed = 12345;
    c.mode = LF_FC_FREE;
    for (unsigned t = 0; t < 2; t++) {
        c.body_len[t] = 4;
        for (unsigned i = 0; i < 4; i++) c.body[t][i] = (lf_fc_call){1, 0}; /* counter methods: get, inc */
    }
    return c;
}

/* Runs case c on adapter a until the checker says violation (or max runs); fills h. */
static bool find_violation(const lf_adapter *a, const lf_fuzz_case *c, lf_history *h, unsigned max) {
    lf_fc_plan p;
    lf_fc_executor x;
    bool found = false;
    if (!lf_fc_plan_build(&p, c, a)) return false;
    if (!lf_fc_executor_init(&x, LF_CLOCK_TICKET)) return false;
    for (unsigned r = 0; r < max && !found; r++) {
        if (!lf_fc_execute(&x, &p, r, h)) break;
        lf_check_options o;
        lf_check_options_default(&o);
        lf_result res;
        lf_result_init(&res);
        lf_check(h, &o, &res);
        found = res.verdict == LF_VIOLATION;
        lf_result_free(&res);
    }
    lf_fc_executor_free(&x);
    lf_fc_plan_free(&p);
    return found;
}

static void buggy_entry_is_refound(char *path, size_t path_len) {
    const lf_adapter *a = lf_adapter_find("k1_counter_lost_update");
    CHECK(a != NULL);
    if (!a) return;
    lf_fuzz_case c = k1_case();
    uint8_t bytes[LF_FC_MAX_ENCODED];
    size_t len = lf_fuzz_case_encode(&c, bytes);
    lf_history h;
    lf_history_init(&h, a->type);
    CHECK(find_violation(a, &c, &h, 200));
    lf_capture_input in = {.adapter = a->name, .expected_linearizable = false, .origin = "test_repro",
                           .workload_format = LF_FUZZ_CASE_FORMAT, .workload = bytes, .workload_len = len, .full = &h};
    lf_violation_entry e;
    char err[512];
    CHECKF(lf_capture_violation(&in, &e, err, sizeof err) == LF_OK, "%s", err);
    CHECKF(lf_entry_save(&e, tmpdir, path, path_len, err, sizeof err) == LF_OK, "%s", err);
    lf_entry_free(&e);
    lf_history_free(&h);

    char *out;
    int rc = run(&out, "%s repro %s --runs 200", LINFUZZ_BIN, path);
    CHECKF(rc == 1, "repro exit %d: %s", rc, out);
    CHECKF(strstr(out, "saved histories are violations") != NULL, "%s", out);
    /* a free finding: its controlled twin is searched (the same test under controlled schedules: the family is
     * fixed, so found or not is the same in every run of one build; k1's lost update needs two threads' incs to
     * interleave, which a few schedules give) and saved with --save-twin; the twin replays exactly */
    CHECKF(strstr(out, "found in free mode; its controlled twin: schedule ") != NULL, "%s", out);
    free(out);
    char twins[4200];
    snprintf(twins, sizeof twins, "%s/twins", tmpdir);
    rc = run(&out, "%s repro %s --runs 1 --save-twin %s", LINFUZZ_BIN, path, twins);
    char *saved = strstr(out, "; saved: ");
    char twin[4200] = "";
    if (saved) sscanf(saved, "; saved: %4199[^; \n]", twin);
    CHECKF(rc == 1 && twin[0], "no twin saved: %s", out);
    free(out);
    if (twin[0]) {
        rc = run(&out, "%s repro %s --runs 0", LINFUZZ_BIN, twin);
        CHECKF(rc == 1 && strstr(out, "replayed exactly: violation again, same history"), "the twin: %s", out);
        free(out);
    }
    rc = run(&out, "%s repro %s --runs 200", LINFUZZ_BIN, path);
    long k = -1, n = -1;
    char *at = strstr(out, "violation reappeared in ");
    if (at) sscanf(at, "violation reappeared in %ld of %ld", &k, &n);
    CHECKF(k > 0 && n == 200, "the violation did not reappear: %s", out);
    free(out);

    rc = run(&out, "%s show %s", LINFUZZ_BIN, path);
    CHECKF(rc == 0 && strstr(out, "=== LINEARIZABILITY VIOLATION  adapter=k1_counter_lost_update") &&
               strstr(out, "timeline") && strstr(out, "why ("),
           "show exit %d: %s", rc, out);
    free(out);
    rc = run(&out, "%s show --history minimized %s | %s check -", LINFUZZ_BIN, path, LINFUZZ_BIN);
    CHECKF(rc == 1 && strstr(out, "violation"), "the minimized history does not check as a violation: %s", out);
    free(out);
    rc = run(&out, "%s show --meta %s", LINFUZZ_BIN, path);
    CHECK(rc == 0 && strstr(out, "adapter: k1_counter_lost_update\n") &&
          strstr(out, "workload_format: " LF_FUZZ_CASE_FORMAT "\n"));
    free(out);
    rc = run(&out, "%s show --input %s/input %s", LINFUZZ_BIN, tmpdir, path);
    CHECK(rc == 0);
    free(out);
    FILE *f = fopen((snprintf(err, sizeof err, "%s/input", tmpdir), err), "rb");
    uint8_t back[LF_FC_MAX_ENCODED + 1];
    size_t got = f ? fread(back, 1, sizeof back, f) : 0;
    if (f) fclose(f);
    CHECK(got == len && !memcmp(back, bytes, len));
}

/* Saves an entry of the k1 violation in h found by case c (encoded as `bytes`, in `format`) and run info
 * (NULL: none recorded) into path. */
static void save_entry(const lf_adapter *a, const uint8_t *bytes, size_t len, const char *format, const lf_history *h,
                       const lf_fc_run_info *info, unsigned run, char *path, size_t path_len) {
    lf_capture_input in = {.adapter = a->name, .expected_linearizable = false, .origin = "test_repro",
                           .workload_format = format, .workload = bytes, .workload_len = len, .full = h};
    lf_violation_entry e;
    char err[512];
    CHECKF(lf_capture_violation(&in, &e, err, sizeof err) == LF_OK, "%s", err);
    if (info) CHECK(lf_entry_record_schedule(&e, info, run, 2));
    CHECKF(lf_entry_save(&e, tmpdir, path, path_len, err, sizeof err) == LF_OK, "%s", err);
    lf_entry_free(&e);
}

/* A controlled-mode finding: the entry replays exactly (the same history, byte for byte), every time, and the
 * metadata says how it was scheduled. The free runs that follow are reported separately. */
static void controlled_entry_replays_exactly(void) {
    const lf_adapter *a = lf_adapter_find("k1_counter_lost_update");
    lf_fuzz_case c = k1_case();
    c.mode = LF_FC_CONTROLLED;
    c.schedule.strategy = LF_SCHED_PCT;
    c.schedule.seed = 777;
    uint8_t bytes[LF_FC_MAX_ENCODED];
    size_t len = lf_fuzz_case_encode(&c, bytes);
    lf_fc_plan p;
    lf_fc_executor x;
    CHECK(lf_fc_plan_build(&p, &c, a) && lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    lf_history h;
    lf_history_init(&h, a->type);
    bool found = false;
    unsigned r = 0;
    for (; r < 500 && !found; r++) {
        CHECK(lf_fc_execute(&x, &p, r, &h));
        lf_check_options o;
        lf_check_options_default(&o);
        lf_result res;
        lf_result_init(&res);
        lf_check(&h, &o, &res);
        found = res.verdict == LF_VIOLATION;
        lf_result_free(&res);
    }
    CHECKF(found, "no controlled run of k1 violated in 500 runs");
    if (!found) return;
    r--;
    CHECK(x.last.mode == LF_FC_CONTROLLED && x.last.stats.deterministic && x.last.stats.switches > 0);
    char path[4096], *out;
    save_entry(a, bytes, len, LF_FUZZ_CASE_FORMAT, &h, &x.last, r, path, sizeof path);
    lf_fc_executor_free(&x);
    lf_fc_plan_free(&p);
    lf_history_free(&h);
    int rc = run(&out, "%s show --meta %s", LINFUZZ_BIN, path);
    CHECKF(rc == 0 && strstr(out, "schedule_mode: controlled") && strstr(out, "schedule_deterministic: yes") &&
               strstr(out, "schedule: pct"),
           "%s", out);
    free(out);
    unsigned exact = 0;
    for (int k = 0; k < 20; k++) {
        rc = run(&out, "%s repro %s --runs 0", LINFUZZ_BIN, path);
        exact += rc == 1 && strstr(out, "replayed exactly: violation again, same history") != NULL;
        if (k == 0) CHECKF(strstr(out, "no free runs (--runs 0)") != NULL, "%s", out);
        free(out);
    }
    CHECKF(exact == 20, "the controlled entry replayed exactly %u times out of 20", exact);
    rc = run(&out, "%s repro %s --runs 20", LINFUZZ_BIN, path);
    CHECKF(rc == 1 && strstr(out, "replayed exactly: violation again, same history; violation reappeared in ") &&
               strstr(out, " of 20 free runs"),
           "%s", out);
    free(out);
    rc = run(&out, "%s repro %s --runs 0 --no-exact", LINFUZZ_BIN, path);
    CHECKF(rc == 1 && strstr(out, "no exact replay (--no-exact)"), "%s", out); /* the saved histories violate */
    free(out);
}

/* An entry of the first workload format (before schedules existed): its bytes decode as that format and run
 * free. Made here from the current encoding of a free-mode case with no choices: the same bytes without the
 * schedule header (bytes 20..52). */
static void first_format_entry_runs_free(void) {
    const lf_adapter *a = lf_adapter_find("k1_counter_lost_update");
    lf_fuzz_case c = k1_case();
    uint8_t v2[LF_FC_MAX_ENCODED], v1[LF_FC_MAX_ENCODED];
    size_t len = lf_fuzz_case_encode(&c, v2);
    memcpy(v1, v2, LF_FC_HEADER_BYTES_V1);
    memcpy(v1 + LF_FC_HEADER_BYTES_V1, v2 + LF_FC_HEADER_BYTES, len - LF_FC_HEADER_BYTES);
    size_t v1_len = len - (LF_FC_HEADER_BYTES - LF_FC_HEADER_BYTES_V1);
    lf_fuzz_case back;
    CHECK(lf_fuzz_case_decode_as(LF_FUZZ_CASE_FORMAT_V1, v1, v1_len, 2, &back));
    CHECK(back.threads == 2 && back.rounds == c.rounds && back.body_len[1] == 4 && back.mode == LF_FC_FREE);
    lf_history h;
    lf_history_init(&h, a->type);
    CHECK(find_violation(a, &c, &h, 200));
    char path[4096], *out;
    save_entry(a, v1, v1_len, LF_FUZZ_CASE_FORMAT_V1, &h, NULL, 0, path, sizeof path);
    lf_history_free(&h);
    int rc = run(&out, "%s repro %s --runs 200", LINFUZZ_BIN, path);
    long k = -1, n = -1;
    char *at = strstr(out, "violation reappeared in ");
    if (at) sscanf(at, "violation reappeared in %ld of %ld", &k, &n);
    CHECKF(rc == 1 && strstr(out, "workload (fuzz-case 1)") && strstr(out, "found in free mode") &&
               k > 0 && n == 200,
           "exit %d: %s", rc, out);
    free(out);
}

/* An entry whose histories are linearizable and whose workload runs clean: exit 0. (Capture refuses such a
 * history, so the entry is put together by hand.) */
static void clean_entry_exits_0(void) {
    const lf_adapter *a = lf_adapter_find("mutex_counter");
    lf_fuzz_case c = k1_case();
    uint8_t bytes[LF_FC_MAX_ENCODED];
    size_t len = lf_fuzz_case_encode(&c, bytes);
    lf_violation_entry e;
    lf_entry_init(&e, a->type);
    lf_fc_plan p;
    lf_fc_executor x;
    CHECK(lf_fc_plan_build(&p, &c, a) && lf_fc_executor_init(&x, LF_CLOCK_TICKET));
    CHECK(lf_fc_execute(&x, &p, 0, &e.full));
    lf_fc_executor_free(&x);
    lf_fc_plan_free(&p);
    lf_history_copy(&e.minimized, &e.full);
    e.workload = malloc(len);
    memcpy(e.workload, bytes, len);
    e.workload_len = len;
    e.verdict = strdup("hand-made");
    e.report = strdup("hand-made");
    lf_entry_set_meta(&e, "entry", LF_ENTRY_FORMAT);
    lf_entry_set_meta(&e, "adapter", a->name);
    lf_entry_set_meta(&e, "type", "counter");
    lf_entry_set_meta(&e, "bucket", "00000000000000aa");
    lf_entry_set_meta(&e, "workload_format", LF_FUZZ_CASE_FORMAT);
    char path[4096], err[512], *out;
    CHECK(lf_entry_save(&e, tmpdir, path, sizeof path, err, sizeof err) == LF_OK);
    lf_entry_free(&e);
    int rc = run(&out, "%s repro %s --runs 30", LINFUZZ_BIN, path);
    CHECKF(rc == 0 && strstr(out, "are NOT violations") && strstr(out, "reappeared in 0 of 30"), "exit %d: %s", rc,
           out);
    free(out);
    unlink(path);
}

static void bad_entries_are_refused(const char *good) {
    char path[4200], *out;
    /* a flipped byte in the middle */
    snprintf(path, sizeof path, "%s/flipped.lfz", tmpdir);
    FILE *in = fopen(good, "rb"), *fo = fopen(path, "wb");
    int ch;
    long pos = 0;
    while (in && fo && (ch = fgetc(in)) != EOF) fputc(pos++ == 100 ? ch ^ 0x40 : ch, fo);
    if (in) fclose(in);
    if (fo) fclose(fo);
    for (int cmd = 0; cmd < 2; cmd++) {
        int rc = run(&out, "%s %s %s", LINFUZZ_BIN, cmd ? "show" : "repro", path);
        CHECKF(rc == 2 && strstr(out, "flipped.lfz: "), "%s of a corrupt entry: exit %d: %s", cmd ? "show" : "repro", rc,
               out);
        free(out);
    }
    /* a valid .lfz that is a plain history, not an entry */
    lf_history h;
    lf_history_init(&h, LF_TYPE_QUEUE);
    lf_history_push(&h, &(lf_op){.call = 1, .ret = 2, .method = LF_M_ENQ, .arg = {1}});
    char err[256];
    snprintf(path, sizeof path, "%s/plain.lfz", tmpdir);
    CHECK(lf_lfz_write_history(path, &h, 3, err, sizeof err) == LF_OK);
    lf_history_free(&h);
    int rc = run(&out, "%s repro %s", LINFUZZ_BIN, path);
    CHECKF(rc == 2 && strstr(out, "not a violation entry"), "exit %d: %s", rc, out);
    free(out);
    unlink(path);
    snprintf(path, sizeof path, "%s/flipped.lfz", tmpdir);
    unlink(path);
    /* missing file, usage */
    rc = run(&out, "%s repro %s/missing.lfz", LINFUZZ_BIN, tmpdir);
    CHECK(rc == 4);
    free(out);
    rc = run(&out, "%s show %s/missing.lfz", LINFUZZ_BIN, tmpdir);
    CHECK(rc == 4);
    free(out);
    CHECK(run(&out, "%s repro --help", LINFUZZ_BIN) == 0 && strstr(out, "usage: linfuzz repro ENTRY"));
    free(out);
    CHECK(run(&out, "%s show --help", LINFUZZ_BIN) == 0 && strstr(out, "usage: linfuzz show ENTRY"));
    free(out);
    CHECK(run(&out, "%s repro", LINFUZZ_BIN) == 2);
    free(out);
    CHECK(run(&out, "%s repro %s --runs x", LINFUZZ_BIN, good) == 2);
    free(out);
    CHECK(run(&out, "%s show %s --history both", LINFUZZ_BIN, good) == 2);
    free(out);
    CHECK(run(&out, "%s show %s --bogus", LINFUZZ_BIN, good) == 2);
    free(out);
}

int main(void) {
    if (!mkdtemp(tmpdir)) return 1;
    char entry[4096] = "";
    buggy_entry_is_refound(entry, sizeof entry);
    controlled_entry_replays_exactly();
    first_format_entry_runs_free();
    clean_entry_exits_0();
    if (entry[0]) bad_entries_are_refused(entry);
    char *out;
    run(&out, "rm -rf %s", tmpdir);
    free(out);
    TEST_DONE();
}
