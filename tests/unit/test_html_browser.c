/* The HTML pages of violation entries opened in a real browser: headless Chromium loads each page (as
 * PAGE#lf-selftest, which makes the page's script hover the first op of the longest linearizable prefix) and
 * dumps the DOM after the scripts ran. For each page: the script ran (#lf-status data-ready="yes"), no script
 * error was caught (#lf-errors empty and hidden), every op of both histories is in the DOM as a bar, the hover
 * showed that op's state and highlighted it in every view. A hostile entry (script and markup in every text
 * it carries) runs no script of its own and adds no element. A page with a broken script added shows the
 * error in #lf-errors, so that a clean page means something.
 *
 * Pages: five committed entries (a counter, a set with its serial prefix, a 289-op cas-register, and two of
 * custom types: the bank, checked against its own spec, and the map, against the adapter's serial behaviour,
 * each page explained as its entry was checked) and the hostile one. Without Chromium (LINFUZZ_CHROMIUM, else
 * chromium or Chrome on the PATH) the test is skipped (exit 77, ctest's SKIP_RETURN_CODE); ci/test.sh installs
 * Debian's chromium so CI runs it. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "findings/capture.h"
#include "findings/entry.h"
#include "findings/entry_html.h"
#include "findings/rootcause_section.h"
#include "linfuzz/format.h"
#include "runtime/adapter_check.h"
#include "test_util.h"

#define CORPUS_DIR LINFUZZ_TEST_DATA "/../../corpus"
#define HOSTILE "</script><script>alert(1)</script><img src=x onerror=alert(2)><b onmouseover=alert(3)>x</b>\"'&"

static char tmpdir[256];
static char browser[1024];

/* The browser: LINFUZZ_CHROMIUM, else the first of chromium, chromium-browser, google-chrome(-stable) on the
 * PATH (the flags are Chromium's). */
static bool find_browser(void) {
    const char *env = getenv("LINFUZZ_CHROMIUM");
    if (env && *env) {
        snprintf(browser, sizeof browser, "%s", env);
        return access(browser, X_OK) == 0;
    }
    static const char *const names[] = {"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"};
    const char *path = getenv("PATH");
    for (size_t k = 0; path && k < sizeof names / sizeof names[0]; k++) {
        for (const char *p = path; *p;) {
            size_t len = strcspn(p, ":");
            snprintf(browser, sizeof browser, "%.*s/%s", (int)len, p, names[k]);
            if (len && access(browser, X_OK) == 0) return true;
            p += len + (p[len] == ':');
        }
    }
    return false;
}

static size_t count(const char *s, const char *what) {
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what)) n++;
    return n;
}

/* The DOM of page after its scripts ran (malloc'ed), or NULL. */
static char *dump_dom(const char *page) {
    char cmd[4096];
    /* a fresh profile for every run; no network, no first-run work; killed if it hangs */
    snprintf(cmd, sizeof cmd,
             "timeout 120 '%s' --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run "
             "--disable-background-networking --disable-component-update --disable-sync --disable-extensions "
             "--user-data-dir='%s/profile' --dump-dom 'file://%s#lf-selftest' 2>/dev/null",
             browser, tmpdir, page);
    FILE *p = popen(cmd, "r");
    if (!p) return NULL;
    char *dom = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[65536];
    while ((n = fread(chunk, 1, sizeof chunk, p)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            char *grown = realloc(dom, cap);
            if (!grown) break;
            dom = grown;
        }
        memcpy(dom + len, chunk, n);
        len += n;
        dom[len] = 0;
    }
    int rc = pclose(p);
    CHECKF(rc == 0 && dom, "%s: the browser exited with status %d", page, rc);
    return dom;
}

static bool write_page(const char *path, const lf_violation_entry *e, const char *entry_path) {
    FILE *f = fopen(path, "w");
    char err[256];
    /* explained as the entry was checked: its type's spec, or the adapter's self-spec (meta "spec") */
    lf_adapter_checker checker;
    bool ok = lf_adapter_checker_for_saved(&checker, lf_entry_meta(e, "adapter"), lf_entry_meta(e, "spec"), NULL, err,
                                           sizeof err);
    ok = ok && f && lf_entry_write_html(f, e, entry_path, "", &checker.check, err, sizeof err) == LF_OK;
    if (f && fclose(f) != 0) ok = false;
    lf_adapter_checker_free(&checker);
    CHECKF(ok, "cannot write %s: %s", path, err);
    return ok;
}

/* Opens the page of e and checks what the browser made of it. */
static void check_page(const char *name, const lf_violation_entry *e, const char *entry_path, bool hostile) {
    char page[512];
    snprintf(page, sizeof page, "%s/%s.html", tmpdir, name);
    if (!write_page(page, e, entry_path)) return;
    char *dom = dump_dom(page);
    if (!dom) return;
    CHECKF(strstr(dom, "data-ready=\"yes\""), "%s: the page's script did not run:\n%.2000s", name, dom);
    CHECKF(strstr(dom, "<pre id=\"lf-errors\" hidden=\"\"></pre>"), "%s: script errors: %.600s", name,
           strstr(dom, "lf-errors") ? strstr(dom, "lf-errors") : "(no error box)");
    size_t bars = count(dom, "<g class=\"op");
    CHECKF(bars == e->minimized.n + e->full.n, "%s: %zu op bars in the DOM, %zu ops", name, bars,
           e->minimized.n + e->full.n);
    /* the hover of the prefix's first op: its state in the panel, the op highlighted in the list and the bar */
    const char *st = strstr(dom, "data-selftest=\"");
    CHECKF(st && strstr(st, "state after it:") && strstr(st, "state after it:") < strchr(st + 15, '"'),
           "%s: hovering did not show a state: %.300s", name, st ? st : "(no data-selftest)");
    const char *hl = strstr(dom, "data-highlighted=\"");
    CHECKF(hl && atoi(hl + 18) >= 2, "%s: hovering highlighted %s elements", name, hl ? hl + 18 : "no");
    if (hostile) {
        CHECKF(count(dom, "<script") == 2, "%s: %zu scripts in the DOM", name, count(dom, "<script"));
        CHECK(!strstr(dom, "<img") && !strstr(dom, "<b onmouseover") && !strstr(dom, "alert(1)</script>"));
        CHECK(strstr(dom, "&lt;img src=x onerror=alert(2)&gt;") != NULL);
    }
    printf("%-28s %4zu bars, script ran, no error, hover shows the state\n", name, bars);

    /* the same page with a failing script before the page's own: the error is caught into the page */
    if (!hostile) {
        FILE *f = fopen(page, "r");
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        int c;
        while (f && m && (c = fgetc(f)) != EOF) fputc(c, m);
        if (f) fclose(f);
        if (m) fclose(m);
        char *main_script = text ? strstr(text, "<script>(function(){") : NULL;
        CHECK(main_script != NULL);
        if (main_script) {
            char broken[512];
            snprintf(broken, sizeof broken, "%s/%s-broken.html", tmpdir, name);
            FILE *b = fopen(broken, "w");
            CHECK(b != NULL);
            if (b) {
                fwrite(text, 1, (size_t)(main_script - text), b);
                fputs("<script>no_such_function();</script>", b);
                fputs(main_script, b);
                fclose(b);
                char *bdom = dump_dom(broken);
                CHECKF(bdom && strstr(bdom, "script error: ") && strstr(bdom, "no_such_function"),
                       "%s: the broken script's error was not caught", name);
                CHECK(bdom && strstr(bdom, "data-ready=\"yes\"")); /* the page's own script still ran */
                free(bdom);
            }
        }
        free(text);
    }
    free(dom);
}

static bool load_committed(const char *adapter, lf_violation_entry *e, char *path, size_t len) {
    char dir[1024], err[1024];
    snprintf(dir, sizeof dir, "%s/%s/violations", CORPUS_DIR, adapter);
    DIR *d = opendir(dir);
    struct dirent *de;
    path[0] = 0;
    while (d && (de = readdir(d)) != NULL)
        if (strlen(de->d_name) > 4 && !strcmp(de->d_name + strlen(de->d_name) - 4, ".lfz"))
            snprintf(path, len, "%s/%s", dir, de->d_name);
    if (d) closedir(d);
    bool ok = path[0] && lf_entry_load(path, e, err, sizeof err) == LF_OK;
    CHECKF(ok, "%s: no committed entry (%s)", adapter, path);
    return ok;
}

int main(void) {
    if (!find_browser()) {
        printf("SKIP: no chromium (set LINFUZZ_CHROMIUM or install Debian's chromium)\n");
        return 77;
    }
    snprintf(tmpdir, sizeof tmpdir, "%s/linfuzz-html-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    static const char *const committed[] = {"k1_counter_lost_update", "r2_rwlock_list_remove", "k4_reread_cas_register",
                                            "bank_read_before_lock", "pia_map_unlocked_check"};
    for (size_t i = 0; i < sizeof committed / sizeof committed[0]; i++) {
        lf_violation_entry e;
        char path[2048];
        if (!load_committed(committed[i], &e, path, sizeof path)) continue;
        uint32_t serial;
        if (!lf_entry_serial_thread(&e, &serial)) CHECKF(false, "%s: no serial thread recorded", committed[i]);
        check_page(committed[i], &e, path, false);
        lf_entry_free(&e);
    }

    /* hostile: markup and script in every text the entry carries */
    static const char *const src[] = {"x = 1; /* " HOSTILE " */"};
    lf_report_cause cause = {.rank = 1, .summary = "pop() must be atomic " HOSTILE, .file = "a" HOSTILE ".c",
                             .line_lo = 7, .line_hi = 7, .function = HOSTILE, .source = src, .n_source = 1};
    char *rc = lf_rootcause_format(&cause, 1);
    static const char text[] = "type stack\n2 1 2 push 5\n0 5 8 pop -> 5\n1 6 9 pop -> 5\n";
    lf_history h;
    char err[512];
    CHECKF(lf_text_read_buffer(text, strlen(text), "hostile", &h, err, sizeof err) == LF_OK, "%s", err);
    static const uint8_t workload[] = {1};
    lf_capture_input in = {.adapter = "stack_x", .origin = HOSTILE, .workload_format = "fuzz-case 1",
                           .workload_desc = HOSTILE, .workload = workload, .workload_len = 1, .full = &h,
                           .has_serial = true, .serial_thread = 2, .rootcause = rc};
    lf_violation_entry e;
    CHECKF(lf_capture_violation(&in, &e, err, sizeof err) == LF_OK, "%s", err);
    lf_entry_set_meta(&e, "created", HOSTILE);
    check_page("hostile", &e, "dir/" HOSTILE ".lfz", true);
    lf_entry_free(&e);
    lf_history_free(&h);
    free(rc);

    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    TEST_DONE();
}
