/* Tests of the HTML page of a violation (engines/report/html.c through findings/entry_html.c), without a
 * browser (test_html_browser.c opens pages in one): the page is self-contained (no URL, no external
 * resource, a Content-Security-Policy), shows every op of both histories as a bar with its result, the
 * longest linearizable prefix with the state after each op, the ops that cannot go next and why, the first
 * impossible return, the serial part, the root-cause candidates with their source lines, the replay
 * commands; and every text that comes from the entry is escaped, however hostile. */
#include <stdlib.h>
#include <string.h>

#include "findings/capture.h"
#include "findings/entry.h"
#include "findings/entry_html.h"
#include "findings/rootcause_section.h"
#include "linfuzz/format.h"
#include "test_util.h"

#define HOSTILE "</script><script>alert(1)</script><img src=x onerror=alert(2)>\"'&"

static char *render(const lf_violation_entry *e, const char *path) {
    char *page = NULL, err[256];
    size_t len = 0;
    FILE *f = open_memstream(&page, &len);
    CHECK(f != NULL);
    if (!f) return NULL;
    CHECKF(lf_entry_write_html(f, e, path, "build/bin/", NULL, err, sizeof err) == LF_OK, "%s", err);
    fclose(f);
    return page;
}

/* Whether some tag of the page (from '<' to '>') has the attribute text attr. */
static bool tag_has(const char *page, const char *attr) {
    for (const char *p = strchr(page, '<'); p; p = strchr(p + 1, '<')) {
        const char *end = strchr(p, '>');
        if (!end) return false;
        const char *hit = strstr(p, attr);
        if (hit && hit < end) return true;
    }
    return false;
}

static size_t count(const char *s, const char *what) {
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what)) n++;
    return n;
}

static void capture(lf_violation_entry *e, const char *text, bool serial, const char *rootcause) {
    lf_history h;
    char err[512];
    CHECKF(lf_text_read_buffer(text, strlen(text), "test", &h, err, sizeof err) == LF_OK, "%s", err);
    static const uint8_t workload[] = {1, 2, 3};
    lf_capture_input in = {.adapter = "stack_x", .origin = "origin " HOSTILE, .workload_format = "fuzz-case 1",
                           .workload_desc = "workload " HOSTILE, .workload = workload, .workload_len = sizeof workload,
                           .full = &h, .has_serial = serial, .serial_thread = 2, .rootcause = rootcause};
    CHECKF(lf_capture_violation(&in, e, err, sizeof err) == LF_OK, "%s", err);
    lf_history_free(&h);
}

/* A stack: push 5 and push 6 on the serial prefix, two pops race and both return 6, more after the cut. */
static const char STACK[] = "type stack\n"
                            "2 1 2 push 5\n"
                            "2 3 4 push 6\n"
                            "0 5 8 pop -> 6\n"
                            "1 6 9 pop -> 6\n"
                            "0 10 11 pop -> 5\n"
                            "2 12 13 pop -> empty\n";

static void page_content(void) {
    static const char *const src[] = {"    top = atomic_load(&s->top); /* " HOSTILE " */", "    s->top = top->next;"};
    lf_report_cause cause = {.rank = 1, .summary = "pop() stack.c:41-42 must be atomic " HOSTILE,
                             .file = "adapters/buggy/stack " HOSTILE ".c", .line_lo = 41, .line_hi = 42,
                             .function = "pop" HOSTILE, .source = src, .n_source = 2, .forbids = 37, .passing = 200,
                             .validated = true, .schedules = 5000, .violations = 0};
    char *rc = lf_rootcause_format(&cause, 1);
    CHECK(rc != NULL);
    lf_violation_entry e;
    capture(&e, STACK, true, rc);
    free(rc);
    char *page = render(&e, "dir/it's " HOSTILE ".lfz");
    CHECK(page != NULL);
    if (!page) return;

    /* self-contained: nothing to fetch, and the policy forbids it anyway */
    CHECK(strstr(page, "<!DOCTYPE html>") == page);
    CHECK(strstr(page, "Content-Security-Policy\" content=\"default-src 'none'") != NULL);
    CHECK(!tag_has(page, " src=") && !tag_has(page, " href=") && !tag_has(page, "action="));
    CHECK(!strstr(page, "url(") && !strstr(page, "@import"));
    /* no URL but the SVG namespace's name (never fetched) */
    CHECK(count(page, "http:") + count(page, "https:") == count(page, "http://www.w3.org/2000/svg"));

    /* escaped: our two scripts and nothing else; the hostile text shows as text */
    CHECKF(count(page, "<script") == 2, "%zu <script", count(page, "<script"));
    CHECK(!strstr(page, "<img") && !strstr(page, "alert(1)</script>"));
    CHECK(strstr(page, "&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;") != NULL);
    CHECK(!strstr(page, "\"'&"));

    /* both histories, every op a bar with its result */
    CHECK(count(page, "<g class=\"op") == e.minimized.n + e.full.n);
    CHECKF(e.minimized.n == 3, "minimized: %zu ops", e.minimized.n); /* push 6, both pops of 6 */
    CHECK(count(page, "data-sec=\"rec\" data-op=") >= e.full.n);
    CHECK(strstr(page, "pop -&gt; 6</text>") && strstr(page, "push 6</text>"));
    CHECK(strstr(page, "T2 serial") != NULL); /* the serial lane */
    CHECK(strstr(page, "[prefix]") && strstr(page, "[drain]"));

    /* the first impossible return: the second pop of 6 */
    CHECK(strstr(page, "<b>First impossible result</b>: <b>C</b> <code>t1 [6,9] pop -&gt; 6</code>") != NULL);
    CHECK(strstr(page, "class=\"cut\"") != NULL);
    CHECK(strstr(page, "class=\"op stuck bad") != NULL);

    /* the longest linearizable prefix with the states after each op, then who cannot go next and why */
    CHECK(strstr(page, "Longest linearizable prefix: 2 of 3 ops") != NULL);
    CHECK(strstr(page, "Initial state: <code class=\"state\">[]</code>") != NULL);
    CHECK(strstr(page, "push 6</code><span class=\"muted\"></span> &#8594; <code class=\"state\">[6]</code>") != NULL);
    CHECK(strstr(page, "cannot go next: the specification does not allow it in state []") != NULL);
    CHECK(strstr(page, "linearized 1st in the longest linearizable prefix; state after it: [6]") != NULL);
    /* the recorded history's explanation: its prefix has the serial pushes and one pop of 6 */
    CHECK(strstr(page, "Longest linearizable prefix: 3 of 6 ops") != NULL);
    CHECK(strstr(page, "state after it: [5 6]") != NULL);

    /* the root cause with its lines, the validation */
    CHECK(strstr(page, "<h3>1. pop() stack.c:41-42 must be atomic &lt;/script&gt;") != NULL);
    CHECK(strstr(page, "Confirmed: 0 violations in 5000 schedules when atomic. Would forbid 37 of 200") != NULL);
    CHECK(strstr(page, "<span class=\"ln\">    41 </span>    top = atomic_load(&amp;s-&gt;top);") != NULL);
    CHECK(strstr(page, "<span class=\"ln\">    42 </span>    s-&gt;top = top-&gt;next;") != NULL);

    /* the commands, quoted for the shell, and the history as text */
    CHECK(strstr(page, "build/bin/linfuzz repro &#39;dir/it&#39;\\&#39;&#39;s &lt;/script&gt;") != NULL);
    CHECK(strstr(page, "build/bin/fuzz_stack_x -runs=100 case.bin") != NULL);
    CHECK(strstr(page, "type stack\n2 3 4 push 6\n") != NULL);
    /* the marker and the error box the browser test reads */
    CHECK(strstr(page, "id=\"lf-status\" data-ready=\"no\"") && strstr(page, "<pre id=\"lf-errors\" hidden></pre>"));
    free(page);
    lf_entry_free(&e);
}

/* A set history that splits by key: the page says which part failed; an entry without a root cause says so;
 * a recorded history above the size limit is drawn but not searched. */
static void split_and_limits(void) {
    lf_violation_entry e;
    capture(&e,
            "type set\n0 1 2 add 1 -> true\n1 3 4 add 2 -> true\n0 5 6 add 1 -> true\n1 7 8 contains 2 -> true\n", false,
            NULL);
    char *page = render(&e, "set.lfz");
    CHECK(page && strstr(page, "This entry has no root-cause analysis") != NULL);
    CHECK(page && strstr(page, "the history splits by key (P-compositionality); the part that fails has 2 of its 4 ops"));
    CHECK(page && strstr(page, "in another part of the history (another key)"));
    free(page);

    lf_report_input in;
    lf_rootcause rc;
    lf_entry_report_input(&e, &in, &rc);
    lf_report_html_options o = {.title = "limits", .recorded_max_ops = 2};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f && lf_report_html_write(f, &in, &o));
    if (f) fclose(f);
    CHECK(buf && strstr(buf, "4 ops: more than the 2 this page searches for a longest linearizable prefix") != NULL);
    CHECK(buf && count(buf, "<g class=\"op") == e.minimized.n + e.full.n);
    free(buf);
    lf_rootcause_free(&rc);
    lf_entry_free(&e);
}

int main(void) {
    page_content();
    split_and_limits();
    TEST_DONE();
}
