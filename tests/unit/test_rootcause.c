/* Tests of the `rootcause` entry section (findings/rootcause_section.c): candidates written by lf_rootcause_format
 * parse back to the same; every rule of the format refuses what breaks it, naming the line; an entry with a
 * malformed section does not load, one with a good section loads, keeps it through saving, and its text
 * report shows the best candidate with its source lines and the others one line each; the grouping key is
 * the best confirmed candidate's. The source paths a root cause stores (rootcause/rc_store.c) are relative to
 * the tree of the code under test, whatever machine built linfuzz. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "findings/capture.h"
#include "findings/entry.h"
#include "findings/rootcause_section.h"
#include "linfuzz/format.h"
#include "rootcause/rc_store.h"
#include "test_util.h"

static const char *const SRC[] = {"        long v = atomic_load(&s->slot[i]);", "        atomic_store(&s->slot[i], 0);"};

static lf_report_cause region(void) {
    return (lf_report_cause){.rank = 1, .summary = "pop() r1_afek_stack.c:41-42 must be atomic",
                             .file = "adapters/buggy/r1 afek_stack.c", .line_lo = 41, .line_hi = 42,
                             .function = "pop", .source = SRC, .n_source = 2, .forbids = 37, .passing = 200,
                             .validated = true, .schedules = 5000, .violations = 0};
}

static void round_trip(void) {
    lf_report_cause c[2] = {region(),
                            {.rank = 2, .exclusion = true, .summary = "pop must not overlap pop",
                             .methods = {"pop", "pop"}}};
    char *text = lf_rootcause_format(c, 2);
    CHECK(text != NULL);
    if (!text) return;
    lf_rootcause rc;
    char err[256];
    CHECKF(lf_rootcause_parse(text, strlen(text), &rc, err, sizeof err) == LF_OK, "%s", err);
    CHECK(rc.n == 2);
    if (rc.n == 2) {
        const lf_report_cause *a = &rc.causes[0], *b = &rc.causes[1];
        CHECK(a->rank == 1 && !a->exclusion && !strcmp(a->file, "adapters/buggy/r1 afek_stack.c"));
        CHECK(a->line_lo == 41 && a->line_hi == 42 && !strcmp(a->function, "pop") && a->n_source == 2);
        CHECK(!strcmp(a->source[0], SRC[0]) && !strcmp(a->source[1], SRC[1]));
        CHECK(a->forbids == 37 && a->passing == 200 && a->validated && a->schedules == 5000 && !a->violations);
        CHECK(lf_report_cause_confirmed(a));
        CHECK(b->rank == 2 && b->exclusion && !strcmp(b->methods[0], "pop") && !strcmp(b->methods[1], "pop"));
        CHECK(!b->validated && !lf_report_cause_confirmed(b) && !strcmp(b->summary, "pop must not overlap pop"));
    }
    char key[128];
    CHECK(lf_rootcause_signature(&rc, key, sizeof key) && !strcmp(key, "pop in adapters/buggy/r1 afek_stack.c"));
    lf_rootcause_free(&rc);
    free(text);

    /* what cannot be written is refused: a newline in a text, a region the wrong way round */
    lf_report_cause bad = region();
    bad.summary = "two\nlines";
    CHECK(lf_rootcause_format(&bad, 1) == NULL);
    bad = region();
    bad.line_lo = 50;
    CHECK(lf_rootcause_format(&bad, 1) == NULL);
}

static void refused(void) {
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"", "expected 'linfuzz-rootcause 1'"},
        {"linfuzz-rootcause 2\n", "expected 'linfuzz-rootcause 1'"},
        {"linfuzz-rootcause 1\nsummary x\n", "line 2: 'summary x' before the first 'candidate'"},
        {"linfuzz-rootcause 1\ncandidate\nregion 4 3 f.c\nsummary x\n", "line 3: expected one 'region LO HI FILE'"},
        {"linfuzz-rootcause 1\ncandidate\nregion 0 3 f.c\nsummary x\n", "line 3: expected one 'region"},
        {"linfuzz-rootcause 1\ncandidate\nregion 1 3\nsummary x\n", "line 3: expected one 'region"},
        {"linfuzz-rootcause 1\ncandidate\nregion 1 3 f.c\n", "candidate 1: no summary line"},
        {"linfuzz-rootcause 1\ncandidate\nsummary x\n", "candidate 1: neither a region nor an exclusion"},
        {"linfuzz-rootcause 1\ncandidate\nregion 1 1 f.c\nexclusion a b\nsummary x\n", "line 4: expected one 'exclusion"},
        {"linfuzz-rootcause 1\ncandidate\nexclusion a b c\nsummary x\n", "line 3: expected one 'exclusion"},
        {"linfuzz-rootcause 1\ncandidate\nregion 1 1 f.c\nsummary x\nsource a\nsource b\n",
         "candidate 1: more source lines than the region has"},
        {"linfuzz-rootcause 1\ncandidate\nexclusion a b\nsummary x\nsource a\n", "source lines for an exclusion"},
        {"linfuzz-rootcause 1\ncandidate\nregion 1 1 f.c\nsummary x\nvalidated 3 4\n", "more violations than schedules"},
        {"linfuzz-rootcause 1\ncandidate\nregion 1 1 f.c\nsummary x\nforbids 3 0\n", "line 5: expected one 'forbids K N'"},
        {"linfuzz-rootcause 1\ncandidate\nregion 1 1 f.c\nsummary x\nforbids 5 4\n", "forbids more passing runs"},
        {"linfuzz-rootcause 1\ncandidate\nregion 1 1 f.c\nsummary x\nsummary y\n", "line 5: unknown or repeated line"},
        {"linfuzz-rootcause 1\ncandidate\nregion 1 1 f.c\nsummary x\nvalidated -1 0\n", "line 5: expected one 'validated"},
        {"linfuzz-rootcause 1\ncandidate\nregion 1 1 f.c\nsummary x\nrank 7\n", "line 5: unknown or repeated line 'rank 7'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lf_rootcause rc;
        char err[256] = "";
        lf_status st = lf_rootcause_parse(cases[i].text, strlen(cases[i].text), &rc, err, sizeof err);
        CHECKF(st == LF_ERR_FORMAT && strstr(err, cases[i].message), "case %zu: status %d, '%s'", i, (int)st, err);
        CHECK(rc.n == 0 && rc.causes == NULL);
    }
    /* a NUL byte, an overlong line */
    lf_rootcause rc;
    char err[256];
    static const char nul[] = "linfuzz-rootcause 1\ncandidate\0\n";
    CHECK(lf_rootcause_parse(nul, sizeof nul - 1, &rc, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "NUL"));
    size_t len = 30 + LF_ROOTCAUSE_MAX_LINE + 10;
    char *long_line = malloc(len + 1);
    int w = snprintf(long_line, len + 1, "linfuzz-rootcause 1\ncandidate\nsummary ");
    memset(long_line + w, 'x', len - (size_t)w);
    long_line[len] = 0;
    CHECK(lf_rootcause_parse(long_line, len, &rc, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "longer than"));
    free(long_line);
    /* nothing confirmed: no grouping key */
    static const char unconfirmed[] = "linfuzz-rootcause 1\ncandidate\nregion 1 2 f.c\nsummary x\nvalidated 10 1\n";
    char key[64];
    CHECK(lf_rootcause_parse(unconfirmed, strlen(unconfirmed), &rc, err, sizeof err) == LF_OK);
    CHECK(!lf_rootcause_signature(&rc, key, sizeof key));
    lf_rootcause_free(&rc);
}

/* An entry: captured with a section, saved and loaded with it, its report shows it; a malformed section makes
 * the entry malformed. */
static void in_entries(void) {
    static const char text[] = "type stack\n0 1 2 push 1\n0 3 4 pop -> 1\n1 5 6 pop -> 1\n";
    lf_history h;
    char err[512];
    CHECK(lf_text_read_buffer(text, strlen(text), "t", &h, err, sizeof err) == LF_OK);
    lf_report_cause c[2] = {region(), region()};
    c[1].rank = 2;
    c[1].summary = "push() r1_afek_stack.c:20-21 must be atomic";
    c[1].validated = false;
    char *section = lf_rootcause_format(c, 2);
    lf_capture_input in = {.adapter = "r1", .full = &h, .rootcause = section};
    lf_violation_entry e, back;
    CHECKF(lf_capture_violation(&in, &e, err, sizeof err) == LF_OK, "%s", err);
    /* the report rendered at capture shows the candidates */
    CHECKF(e.report && strstr(e.report, "root cause (candidate 1 of 2): pop() r1_afek_stack.c:41-42 must be atomic\n"
                                        "  confirmed: 0 violations in 5000 schedules when atomic; would forbid 37 of "
                                        "200 passing runs\n"
                                        "  adapters/buggy/r1 afek_stack.c:41-42 (in pop)\n"
                                        "      41 |         long v = atomic_load(&s->slot[i]);\n"
                                        "      42 |         atomic_store(&s->slot[i], 0);\n"
                                        "other candidates:\n"
                                        "  2. push() r1_afek_stack.c:20-21 must be atomic (not validated)\n"),
           "report:\n%s", e.report ? e.report : "");
    uint8_t *bytes;
    size_t n;
    CHECK(lf_entry_encode(&e, &bytes, &n, err, sizeof err) == LF_OK);
    CHECKF(lf_entry_decode(bytes, n, "e.lfz", &back, err, sizeof err) == LF_OK, "%s", err);
    CHECK(back.rootcause && !strcmp(back.rootcause, section));
    lf_entry_free(&back);
    free(bytes);

    /* a malformed section: refused on load, naming the entry and the line */
    free(e.rootcause);
    e.rootcause = strdup("linfuzz-rootcause 1\ncandidate\nregion 9 1 x.c\nsummary s\n");
    CHECK(lf_entry_encode(&e, &bytes, &n, err, sizeof err) == LF_OK);
    CHECK(lf_entry_decode(bytes, n, "bad.lfz", &back, err, sizeof err) == LF_ERR_FORMAT);
    CHECKF(strstr(err, "bad.lfz: violation entry: rootcause line 3: expected one 'region LO HI FILE'"), "'%s'", err);
    free(bytes);
    /* and refused at capture */
    lf_violation_entry again;
    in.rootcause = e.rootcause;
    CHECK(lf_capture_violation(&in, &again, err, sizeof err) == LF_ERR_FORMAT && strstr(err, "rootcause line 3"));
    lf_entry_free(&e);
    free(section);
    lf_history_free(&h);
}

/* The folder name the stored paths keep (of the temporary trees below, not of this repository). */
#define ADAPTERS "adapters/"

/* Whether lf_rc_stored_file(file, root) is want. */
static bool stored_as(const char *file, const char *root, const char *want) {
    char buf[PATH_MAX];
    const char *got = lf_rc_stored_file(file, root, buf, sizeof buf);
    if (!strcmp(got, want)) return true;
    fprintf(stderr, "stored %s (root %s) as '%s', not '%s'\n", file, root ? root : "(cwd)", got, want);
    return false;
}

/* Relative to the root given (symbolic links resolved on both sides) or the current directory; outside it,
 * from the last "adapters/" on; else as the debug information names the file. */
static void stored_paths(void) {
    /* (every path is dir and a short tail: the sizes leave room) */
    char dir[] = "/tmp/lf_rc_paths_XXXXXX", path[64], q[64], other[64], link[64], via_link[96], cwd[PATH_MAX];
    if (!mkdtemp(dir) || !getcwd(cwd, sizeof cwd)) {
        CHECK(!"a temporary directory");
        return;
    }
    snprintf(path, sizeof path, "%s/src", dir);
    CHECK(mkdir(path, 0700) == 0);
    snprintf(path, sizeof path, "%s/src/adapters", dir);
    CHECK(mkdir(path, 0700) == 0);
    snprintf(q, sizeof q, "%s/src/adapters/q.c", dir);
    snprintf(other, sizeof other, "%s/src/other.c", dir);
    for (const char *f = q; f; f = f == q ? other : NULL) {
        FILE *w = fopen(f, "w");
        CHECK(w && fclose(w) == 0);
    }
    snprintf(link, sizeof link, "%s/link", dir);
    snprintf(path, sizeof path, "%s/src", dir);
    CHECK(symlink(path, link) == 0);
    snprintf(via_link, sizeof via_link, "%s/adapters/q.c", link);

    CHECK(stored_as(q, dir, "src/" ADAPTERS "q.c"));
    CHECK(stored_as(q, path, ADAPTERS "q.c"));
    CHECK(stored_as(q, link, ADAPTERS "q.c"));      /* the root through a link */
    CHECK(stored_as(via_link, path, ADAPTERS "q.c")); /* the file through a link */
    CHECK(stored_as(other, path, "other.c"));
    CHECK(stored_as(q, "/proc", ADAPTERS "q.c"));   /* outside the root: from the last adapters/ on */
    CHECK(stored_as(other, "/proc", other));        /* else as given */
    CHECK(stored_as("/no/such/adapters/buggy/adapters/x.c", NULL, ADAPTERS "x.c"));
    CHECK(stored_as("/no/such/dir/x.c", dir, "/no/such/dir/x.c"));
    CHECK(stored_as(q, "/no/such/root", ADAPTERS "q.c"));
    CHECK(stored_as(path, dir, "src"));
    CHECK(stored_as(dir, dir, dir)); /* the root itself is no file in it */
    CHECK(chdir(dir) == 0); /* no root: the current directory */
    CHECK(stored_as(other, NULL, "src/other.c"));
    CHECK(stored_as("src/other.c", NULL, "src/other.c"));
    CHECK(chdir(cwd) == 0);

    unlink(link);
    unlink(q);
    unlink(other);
    snprintf(path, sizeof path, "%s/src/adapters", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/src", dir);
    rmdir(path);
    rmdir(dir);
}

int main(void) {
    stored_paths();
    round_trip();
    refused();
    in_entries();
    TEST_DONE();
}
