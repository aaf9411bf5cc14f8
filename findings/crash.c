/* CRASH entries (crash.h): reading a sanitizer's report, capturing the entry, its report. */
#include "findings/crash.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

#include "findings/stuck.h"
#include "linfuzz/format.h"
#include "linfuzz/report.h"
#include "linfuzz/version.h"

/* ---- the sanitizer's report ---- */

static bool starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* Frames of the sanitizers, libc and linfuzz's own access hooks (runtime/sched/tsan_access.c): not the code
 * under test. */
static bool foreign_function(const char *f) {
    static const char *const prefixes[] = {"__interceptor_", "___interceptor_", "__asan", "__tsan_", "__sanitizer",
                                           "__ubsan", "__lsan", "__libc_", "__GI_", "__pthread_"};
    static const char *const names[] = {"free", "malloc", "calloc", "realloc", "abort", "raise", "memcpy", "memmove",
                                        "memset", "strlen"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (starts(f, prefixes[i])) return true;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(f, names[i])) return true;
    return false;
}

/* A symbolized frame line ("    #3 0x55f1 in pop /src/my_stack.c:42:7") with a source location; false for
 * other lines and frames without one (a module and offset). */
static bool parse_frame(const char *line, lf_crash_site *s) {
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (*p++ != '#') return false;
    while (*p >= '0' && *p <= '9') p++;
    while (*p == ' ') p++;
    if (!starts(p, "0x")) return false;
    p += 2;
    while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')) p++;
    while (*p == ' ') p++;
    if (!starts(p, "in ")) return false;
    p += 3;
    const char *fn = p;
    while (*p && *p != ' ' && *p != '\n') p++;
    size_t fn_len = (size_t)(p - fn);
    if (*p != ' ') return false;
    const char *loc = p + 1, *loc_end = loc;
    while (*loc_end && *loc_end != ' ' && *loc_end != '\n') loc_end++;
    /* FILE:LINE[:COLUMN] */
    const char *colon = NULL;
    for (const char *q = loc; q < loc_end; q++)
        if (*q == ':' && q[1] >= '0' && q[1] <= '9') {
            colon = q;
            break;
        }
    if (!colon || *loc == '(') return false;
    const char *base = loc;
    for (const char *q = loc; q < colon; q++)
        if (*q == '/') base = q + 1;
    snprintf(s->function, sizeof s->function, "%.*s", (int)(fn_len < 127 ? fn_len : 127), fn);
    snprintf(s->file, sizeof s->file, "%.*s", (int)(colon - base < 127 ? colon - base : 127), base);
    s->line = (unsigned)strtoul(colon + 1, NULL, 10);
    return true;
}

bool lf_crash_parse_report(const char *report, char kind[64], lf_crash_site *access, lf_crash_site *freed) {
    memset(access, 0, sizeof *access);
    memset(freed, 0, sizeof *freed);
    kind[0] = 0;
    if (!report) return false;
    enum { NONE, ACCESS, FREED, OTHER } section = NONE;
    bool found = false;
    for (const char *line = report; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf - 1 ? len : sizeof buf - 1), line);
        const char *err = strstr(buf, "Sanitizer: ");
        lf_crash_site s;
        if (!found && err && strstr(buf, "ERROR: ")) {
            const char *k = err + strlen("Sanitizer: ");
            if (starts(k, "attempting ")) k += strlen("attempting ");
            size_t n = 0;
            while (k[n] && k[n] != ' ' && k[n] != ':' && k[n] != '(' && n < 63) n++;
            snprintf(kind, 64, "%.*s", (int)n, k);
            found = true;
            section = ACCESS;
        } else if (strstr(buf, "freed by thread")) {
            section = FREED;
        } else if (strstr(buf, "allocated by thread") || strstr(buf, "created by ") || strstr(buf, "Thread T")) {
            section = OTHER;
        } else if (parse_frame(buf, &s) && !foreign_function(s.function)) {
            if (section == ACCESS && !access->function[0]) *access = s;
            if (section == FREED && !freed->function[0]) *freed = s;
        }
        line = end ? end + 1 : NULL;
    }
    if (!found && starts(report, "SIG")) { /* no sanitizer: the signal, as the watcher describes it */
        size_t n = 0;
        while (report[n] && report[n] != ' ' && report[n] != ':' && n < 63) n++;
        snprintf(kind, 64, "%.*s", (int)n, report);
        found = true;
    }
    return found;
}

void lf_crash_site_format(const lf_crash_site *s, char *out, size_t len) {
    if (!s->function[0])
        snprintf(out, len, "?");
    else
        snprintf(out, len, "%s (%s:%u)", s->function, s->file, s->line);
}

/* ---- entries ---- */

bool lf_entry_is_crash(const lf_violation_entry *e) {
    const char *f = lf_entry_meta(e, "finding");
    return f && !strcmp(f, "crash");
}

/* The site that is the root of the crash: the free of a use after free or double free, else the access. */
static const char *root_site(const lf_violation_entry *e) {
    const char *freed = lf_entry_meta(e, "crash_freed");
    return freed && strcmp(freed, "?") != 0 ? freed : lf_entry_meta(e, "crash_site");
}

void lf_crash_label(const lf_violation_entry *e, char *out, size_t len) {
    const char *kind = lf_entry_meta(e, "crash_kind"), *freed = lf_entry_meta(e, "crash_freed");
    bool by_free = freed && strcmp(freed, "?") != 0;
    snprintf(out, len, "%s, crash: %s %s %s", lf_history_type_name(&e->full), kind ? kind : "?",
             by_free ? "of memory freed in" : "in", root_site(e) ? root_site(e) : "?");
}

static void write_crash_report(FILE *f, const lf_violation_entry *e, const void *unused) {
    (void)unused;
    lf_crash_write_report(f, e);
}

void lf_crash_write_report(FILE *f, const lf_violation_entry *e) {
    const lf_history *h = &e->full;
    const char *kind = lf_entry_meta(e, "crash_kind"), *site = lf_entry_meta(e, "crash_site"),
               *freed = lf_entry_meta(e, "crash_freed");
    size_t pending = 0;
    for (size_t i = 0; i < h->n; i++) pending += lf_op_pending(&h->ops[i]);
    fprintf(f, "=== CRASH  adapter=%s  type=%s  kind=%s ===\n", lf_entry_meta(e, "adapter"), lf_history_type_name(h),
            kind ? kind : "?");
    const char *lines[][2] = {{"found by:   ", "origin"},   {"workload:   ", "workload"},
                              {"schedule:   ", "schedule"}, {"bucket:     ", "bucket"}};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        if (lf_entry_meta(e, lines[i][1])) fprintf(f, "%s%s\n", lines[i][0], lf_entry_meta(e, lines[i][1]));
    fprintf(f, "history:    %zu ops recorded up to the crash, %zu in flight (shown pending, '>')\n", h->n, pending);
    fprintf(f, "\nwhy: %s\n", lf_entry_meta(e, "reason") ? lf_entry_meta(e, "reason") : "-");
    if (freed && strcmp(freed, "?") != 0)
        fprintf(f, "root cause: memory freed in %s while another thread could still reach it: free a node only when "
                   "no thread can hold it any more (hazard pointers, epochs, or no reuse during a run); the access "
                   "that found it freed: %s\n",
                freed, site ? site : "?");
    else if (site && strcmp(site, "?") != 0)
        fprintf(f, "crashed in: %s\n", site);
    fputc('\n', f);
    lf_write_pending_timeline(f, h, "timeline up to the crash", "the ops in flight");
    fprintf(f, "\nthe crash as reported:\n%s", e->verdict ? e->verdict : "-\n");
}

lf_status lf_capture_crash(const lf_crash_input *in, lf_violation_entry *e, char *err, size_t errlen) {
    const lf_history *h = in->history;
    char kind[64], site[300], freed_at[300], reason[800], bucket[17], when[32], sizes[32];
    lf_crash_site access, freed;
    if (!lf_crash_parse_report(in->report, kind, &access, &freed)) snprintf(kind, sizeof kind, "crash");
    lf_crash_site_format(&access, site, sizeof site);
    lf_crash_site_format(&freed, freed_at, sizeof freed_at);
    if (freed.function[0])
        snprintf(reason, sizeof reason, "%s: %s touched memory that %s had freed", kind, site, freed_at);
    else
        snprintf(reason, sizeof reason, "%s in %s", kind, site);
    char key[800];
    int w = snprintf(key, sizeof key, "%s|%s|%s", in->adapter, kind, freed.function[0] ? freed_at : site);
    snprintf(bucket, sizeof bucket, "%016llx",
             (unsigned long long)XXH64(key, w > 0 && (size_t)w < sizeof key ? (size_t)w : sizeof key - 1, 0));
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(sizes, sizeof sizes, "%zu", h->n);
    bool ok = lf_entry_init_run(e, h, in->workload, in->workload_len);
    e->verdict = strdup(in->report && *in->report ? in->report : "(no report)\n");
    ok = ok && e->verdict && lf_entry_set_meta(e, "entry", LF_ENTRY_FORMAT) && lf_entry_set_meta(e, "finding", "crash") &&
         lf_entry_set_meta(e, "adapter", in->adapter) && lf_entry_set_meta(e, "type", lf_history_type_name(h)) &&
         lf_entry_set_meta(e, "expected", in->expected_linearizable ? "linearizable" : "not linearizable") &&
         lf_entry_set_meta(e, "created", when) && lf_entry_set_meta(e, "linfuzz_version", LF_LINFUZZ_VERSION) &&
         lf_entry_set_meta(e, "bucket", bucket) && lf_entry_set_meta(e, "shape", "CRASH") &&
         lf_entry_set_meta(e, "crash_kind", kind) && lf_entry_set_meta(e, "crash_site", site) &&
         lf_entry_set_meta(e, "crash_freed", freed_at) && lf_entry_set_meta(e, "reason", reason) &&
         lf_entry_set_meta(e, "engine", "-") &&
         lf_entry_set_meta(e, "minimize", "not minimized (a crash: the whole history up to it)") &&
         lf_entry_set_meta(e, "minimize_complete", "no") && lf_entry_set_meta(e, "full_ops", sizes) &&
         lf_entry_set_meta(e, "minimized_ops", sizes);
    if (ok) ok = lf_entry_set_source(e, in->origin, in->workload_format, in->workload_desc);
    if (ok) ok = lf_entry_render_report(e, write_crash_report, NULL);
    if (!ok) {
        lf_entry_free(e);
        snprintf(err, errlen, "out of memory");
        return LF_ERR_NOMEM;
    }
    return LF_OK;
}
