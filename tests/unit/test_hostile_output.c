/* Text from hostile inputs through every command that shows it (docs/security.md, "Text from inputs"): an
 * entry whose metadata, verdicts, stored report and root cause hold terminal escape sequences (a window
 * title, a screen clear, hidden text), C1 controls, bidirectional overrides, line breaks and '|', under a file
 * name with escapes, a line break, a '|' and bytes that are not UTF-8; histories whose errors quote such
 * bytes; options, environment values and paths made of them. For each command: nothing on stdout or stderr
 * that a terminal would act on (text_test_util.h: well-formed UTF-8, no C0 but line feed and tab, no
 * DEL, no C1, no bidirectional formatting), the hostile text shown escaped (\x1b...), a triage table whose
 * rows stay rows, and --json output that a strict parser accepts (valid UTF-8 included). */
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "findings/entry.h"
#include "test_util.h"
#include "text_test_util.h"

extern char **environ;

#define CORPUS_DIR LINFUZZ_TEST_DATA "/../../corpus"
#define HOSTILE "\x1b]0;PWNED\x07\x1b[2J\x1b[8mhidden\x1b[0m\xc2\x9b" "31m\xe2\x80\xae|pipe\nnew line\rCR\x7f"

static char tmpdir[] = "/tmp/linfuzz-hostile-XXXXXX";

typedef struct output {
    char *out, *err;
    size_t out_len, err_len;
    int status;
} output;

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    *len = 0;
    if (!f) return calloc(1, 1);
    size_t cap = 0, k;
    do {
        if (cap - *len < 4096) buf = realloc(buf, cap = cap * 2 + 8192);
        k = fread(buf + *len, 1, cap - *len - 1, f);
        *len += k;
    } while (k > 0);
    fclose(f);
    buf[*len] = 0;
    return buf;
}

/* Runs linfuzz with these arguments (NULL-terminated; any bytes) and an extra environment variable (or NULL). */
static output run(const char *env, ...) {
    const char *argv[32] = {LINFUZZ_BIN};
    va_list ap;
    va_start(ap, env);
    int argc = 1;
    while (argc < 31 && (argv[argc] = va_arg(ap, const char *)) != NULL) argc++;
    va_end(ap);
    argv[argc] = NULL;
    char out_path[256], err_path[256];
    snprintf(out_path, sizeof out_path, "%s/stdout", tmpdir);
    snprintf(err_path, sizeof err_path, "%s/stderr", tmpdir);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    size_t n_env = 0;
    while (environ[n_env]) n_env++;
    char **envp = calloc(n_env + 3, sizeof *envp);
    for (size_t i = 0; i < n_env; i++) envp[i] = environ[i];
    envp[n_env] = (char *)"LINFUZZ_PROGRESS=0";
    envp[n_env + 1] = (char *)env;
    pid_t pid;
    output o = {0};
    o.status = -1;
    if (posix_spawn(&pid, LINFUZZ_BIN, &fa, NULL, (char *const *)argv, envp) == 0) {
        int st;
        waitpid(pid, &st, 0);
        o.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    }
    posix_spawn_file_actions_destroy(&fa);
    free(envp);
    o.out = slurp(out_path, &o.out_len);
    o.err = slurp(err_path, &o.err_len);
    return o;
}

static void output_free(output *o) {
    free(o->out);
    free(o->err);
}

/* Both streams safe for a terminal; stdout JSON when json. */
static void check_output(const char *what, const output *o, bool json) {
    size_t at = 0;
    bool ok = lf_test_terminal_safe(o->out, o->out_len, true, true, &at);
    CHECKF(ok, "%s: stdout byte %zu is 0x%02x: '%.80s'", what, at, (unsigned char)o->out[at], o->out + (at > 40 ? at - 40 : 0));
    ok = lf_test_terminal_safe(o->err, o->err_len, true, true, &at);
    CHECKF(ok, "%s: stderr byte %zu is 0x%02x: '%.80s'", what, at, (unsigned char)o->err[at], o->err + (at > 40 ? at - 40 : 0));
    if (json) {
        const char *why = NULL;
        ok = lf_test_json_valid(o->out, o->out_len, &why, &at);
        CHECKF(ok, "%s: not JSON: %s at byte %zu of '%s'", what, why ? why : "?", at, o->out);
    }
}

/* A committed entry of this adapter's directory, made hostile: every free-text field of it. */
static bool hostile_entry(const char *adapter, const char *to) {
    char dir[512], path[1024] = "", err[1024];
    snprintf(dir, sizeof dir, "%s/%s/violations", CORPUS_DIR, adapter);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls %s/*.lfz 2>/dev/null | head -1", dir);
    FILE *p = popen(cmd, "r");
    if (!p || !fgets(path, sizeof path, p)) {
        if (p) pclose(p);
        return false;
    }
    pclose(p);
    path[strcspn(path, "\n")] = 0;
    lf_violation_entry e;
    if (lf_entry_load(path, &e, err, sizeof err) != LF_OK) {
        fprintf(stderr, "%s\n", err);
        return false;
    }
    static const char *const keys[] = {"created",  "origin", "workload",      "expected",       "schedule_build",
                                       "schedule", "reason", "engine",        "linfuzz_version", "minimize",
                                       "blocking", "shape",  "stuck_methods", "test_minimize",  "schedule_run"};
    bool ok = true;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) ok &= lf_entry_set_meta(&e, keys[k], HOSTILE);
    free(e.verdict);
    free(e.report);
    free(e.rootcause);
    e.verdict = strdup("history (2 ops): violation " HOSTILE "\nminimized: " HOSTILE "\n");
    e.report = strdup("REPORT " HOSTILE "\n");
    e.rootcause = strdup("linfuzz-rootcause 1\ncandidate\nregion 3 4 adapters/\x1b]0;T\x07" "evil|\xe2\x80\xae.c\n"
                         "function f\x1b[31mx\nsummary S\x1b]0;T\x07 must be atomic\nvalidated 10 0\n"
                         "source a\x1b[2Jb\x7f\nsource \tindented\n");
    uint8_t *bytes = NULL;
    size_t n = 0;
    ok = ok && lf_entry_encode(&e, &bytes, &n, err, sizeof err) == LF_OK;
    lf_entry_free(&e);
    FILE *f = ok ? fopen(to, "wb") : NULL;
    ok = f && fwrite(bytes, 1, n, f) == n;
    if (f && fclose(f) != 0) ok = false;
    free(bytes);
    return ok;
}

static int count_bare_pipes(const char *line, size_t len) {
    int n = 0;
    for (size_t i = 0; i < len; i++) n += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    return n;
}

int main(void) {
    if (!mkdtemp(tmpdir)) return 1;
    char dir[300], evil[400], stuck[400], hist[400], badname[400];
    snprintf(dir, sizeof dir, "%s/corpus", tmpdir);
    mkdir(dir, 0700);
    /* a name with a title sequence, a line break, a '|' and bytes that are not UTF-8 */
    snprintf(evil, sizeof evil, "%s/e\x1b]0;T\x07\n|\xff\xfe.lfz", dir);
    snprintf(stuck, sizeof stuck, "%s/s\x1b[31m.lfz", dir);
    CHECK(hostile_entry("k1_counter_lost_update", evil));
    CHECK(hostile_entry("blocking_queue_lost_wakeup", stuck));

    output o = run(NULL, "show", evil, NULL);
    check_output("show", &o, false);
    CHECK(o.status == 0 && strstr(o.out, "\\x1b]0;PWNED\\x07") && strstr(o.out, "(in f\\x1b[31mx)") &&
          strstr(o.out, "\\xe2\\x80\\xae|pipe\\x0anew line\\x0dCR\\x7f") && strstr(o.out, "\tindented"));
    output_free(&o);
    static const char *const modes[] = {"--stored", "--meta", "--html"};
    for (int m = 0; m < 3; m++) {
        o = run(NULL, "show", modes[m], evil, NULL);
        check_output(modes[m], &o, false);
        CHECKF(o.status == 0, "show %s: exit %d", modes[m], o.status);
        output_free(&o);
    }
    o = run(NULL, "show", stuck, NULL);
    check_output("show of a STUCK entry", &o, false);
    CHECK(o.status == 0 && strstr(o.out, "found by:   \\x1b]0;PWNED"));
    output_free(&o);

    /* triage: one row per group, whatever the names and the root cause hold */
    o = run(NULL, "triage", dir, NULL);
    check_output("triage", &o, false);
    CHECKF(o.status == 1, "triage: exit %d", o.status);
    size_t rows = 0;
    for (char *line = o.out; *line;) {
        size_t len = strcspn(line, "\n");
        if (line[0] == '|') {
            rows++;
            CHECKF(count_bare_pipes(line, len) == 10, "triage row with %d cells: '%.*s'", count_bare_pipes(line, len) - 1,
                   (int)len, line);
        }
        line += len + (line[len] == '\n');
    }
    CHECKF(rows == 4, "triage table of %zu lines (header, rule, 2 groups expected)", rows);
    CHECK(strstr(o.out, "e\\x1b]0;T\\x07\\x0a\\|\\xff\\xfe.lfz") != NULL);
    output_free(&o);
    o = run(NULL, "triage", "--json", dir, NULL);
    check_output("triage --json", &o, true);
    output_free(&o);

    /* repro: the saved histories re-checked, the workload re-run once */
    o = run(NULL, "repro", "--runs", "1", "--seconds", "1", evil, NULL);
    check_output("repro", &o, false);
    output_free(&o);
    o = run(NULL, "repro", "--runs", "1", "--seconds", "1", stuck, NULL);
    check_output("repro of a STUCK entry", &o, false);
    output_free(&o);

    /* errors that quote the input: a history's bytes, a file name, an option, a command, an environment value */
    snprintf(hist, sizeof hist, "%s/h\x1b]0;T\x07\xff.hist", tmpdir);
    FILE *f = fopen(hist, "w");
    fputs("type queue\n0 1 2 en\x1b[31mq\xc2\x9b 5\n", f);
    fclose(f);
    o = run(NULL, "check", hist, NULL);
    check_output("check of a history with escapes", &o, false);
    CHECK(o.status == 2 && strstr(o.err, "unknown method 'en\\x1b[31mq\\xc2\\x9b'"));
    output_free(&o);
    o = run(NULL, "check", "--json", hist, NULL);
    check_output("check --json of a history with escapes", &o, true);
    output_free(&o);
    snprintf(badname, sizeof badname, "%s/t\xff\xfe\x1b[2J.hist", tmpdir);
    f = fopen(badname, "w");
    fputs("type \xff\xfe\x1b\n", f);
    fclose(f);
    o = run(NULL, "check", "--json", badname, NULL);
    check_output("check --json of a non-UTF-8 name and type", &o, true);
    output_free(&o);
    o = run(NULL, "convert", hist, "out.lfz", NULL);
    check_output("convert", &o, false);
    output_free(&o);
    o = run(NULL, "show", "/nonexistent/\x1b]0;T\x07\n.lfz", NULL);
    check_output("show of a missing name", &o, false);
    CHECK(o.status == 4);
    output_free(&o);
    o = run(NULL, "rootcause", "/nonexistent/\x1b]0;T\x07.lfz", NULL);
    check_output("rootcause of a missing name", &o, false);
    output_free(&o);
    o = run(NULL, "check", "--engine", "\x1b[2J", hist, NULL);
    check_output("a bad option value", &o, false);
    CHECK(o.status == 2);
    output_free(&o);
    o = run(NULL, "show", "--\x1b]0;T\x07", evil, NULL);
    check_output("an unknown option", &o, false);
    output_free(&o);
    o = run(NULL, "\x1b]0;T\x07", NULL);
    check_output("an unknown command", &o, false);
    output_free(&o);
    o = run("LINFUZZ_PROGRESS_SECONDS=\x1b]0;T\x07", "check", hist, NULL);
    check_output("a bad environment value", &o, false);
    output_free(&o);
    o = run(NULL, "gen", "queue", "10", "-o", "/nonexistent/\x1b[2J/x.hist", NULL);
    check_output("gen into a missing directory", &o, false);
    CHECK(o.status == 4);
    output_free(&o);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    TEST_DONE();
}
