/* Access sites to source lines through llvm-symbolizer or addr2line (symbolize.h). */
#include "symbolize.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/child.h"

extern char **environ;

static int by_pc(const void *pa, const void *pb) {
    uintptr_t a = *(const uintptr_t *)pa, b = *(const uintptr_t *)pb;
    return a < b ? -1 : a > b;
}

void lf_rc_symbols_free(lf_rc_symbols *s) {
    for (size_t i = 0; i < s->n; i++) {
        for (size_t k = 0; k < s->sites[i].n; k++) {
            free(s->sites[i].frames[k].function);
            free(s->sites[i].frames[k].file);
        }
        free(s->sites[i].frames);
    }
    free(s->sites);
    memset(s, 0, sizeof *s);
}

const lf_rc_site *lf_rc_symbols_find(const lf_rc_symbols *s, uintptr_t pc) {
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->sites[mid].pc < pc) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->n && s->sites[lo].pc == pc ? &s->sites[lo] : NULL;
}

/* The object holding pc: its file and load bias. */
typedef struct object_find {
    uintptr_t pc, bias;
    char path[PATH_MAX];
    bool found;
} object_find;

static int find_object(struct dl_phdr_info *info, size_t size, void *ctx) {
    (void)size;
    object_find *f = ctx;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD) continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (f->pc >= lo && f->pc < lo + ph->p_memsz) {
            f->bias = info->dlpi_addr;
            if (info->dlpi_name && info->dlpi_name[0]) {
                snprintf(f->path, sizeof f->path, "%s", info->dlpi_name);
            } else {
                ssize_t n = readlink("/proc/self/exe", f->path, sizeof f->path - 1);
                f->path[n > 0 ? n : 0] = 0;
            }
            f->found = true;
            return 1;
        }
    }
    return 0;
}

/* The file that runs program: itself when it names a path, else the first executable of that name in $PATH. */
static bool find_program(const char *program, char *out, size_t len) {
    if (strchr(program, '/')) {
        snprintf(out, len, "%s", program);
        return access(out, X_OK) == 0;
    }
    const char *dirs = getenv("PATH");
    for (const char *d = dirs && *dirs ? dirs : "/usr/bin:/bin"; *d;) {
        size_t n = strcspn(d, ":");
        struct stat st;
        if ((size_t)snprintf(out, len, "%.*s/%s", (int)n, n ? d : ".", program) < len && access(out, X_OK) == 0 &&
            stat(out, &st) == 0 && S_ISREG(st.st_mode))
            return true;
        d += n + (d[n] == ':');
    }
    return false;
}

/* Runs argv with stdin from in_path and stdout to out_path, in a child that dies with this process
 * (util/child.h); true when it exited 0. */
static bool run_tool(char *const argv[], const char *in_path, const char *out_path) {
    char exe[PATH_MAX];
    if (!find_program(argv[0], exe, sizeof exe)) return false;
    int in = open(in_path, O_RDONLY | O_CLOEXEC), out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    pid_t parent = getpid(), pid = in >= 0 && out >= 0 && null >= 0 ? fork() : -1;
    if (pid == 0) { /* only async-signal-safe calls until execve */
        lf_child_die_with_parent(parent);
        if (dup2(in, 0) >= 0 && dup2(out, 1) >= 0 && dup2(null, 2) >= 0) execve(exe, argv, environ);
        _exit(127);
    }
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    if (null >= 0) close(null);
    if (pid < 0) return false;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Copies src into dst[0..n-1], cut to fit, NUL-terminated. */
static void copy_cut(char *dst, size_t n, const char *src) {
    size_t l = strlen(src);
    if (l >= n) l = n - 1;
    memcpy(dst, src, l);
    dst[l] = 0;
}

static bool add_frame(lf_rc_site *site, const char *function, const char *loc) {
    /* loc: FILE:LINE[:COLUMN][ (discriminator N)] */
    char buf[PATH_MAX + 64];
    copy_cut(buf, sizeof buf, loc);
    char *sp = strstr(buf, " (discriminator");
    if (sp) *sp = 0;
    char *c1 = strrchr(buf, ':');
    if (!c1) return true;
    char *c2 = NULL;
    *c1 = 0;
    unsigned line = (unsigned)strtoul(c1 + 1, NULL, 10);
    char *prev = strrchr(buf, ':');
    if (prev && prev[1] >= '0' && prev[1] <= '9') { /* FILE:LINE:COLUMN */
        c2 = prev;
        *c2 = 0;
        line = (unsigned)strtoul(c2 + 1, NULL, 10);
    }
    if (!line || !strcmp(buf, "??")) return true;
    lf_rc_frame *f = realloc(site->frames, (site->n + 1) * sizeof *f);
    if (!f) return false;
    site->frames = f;
    f[site->n] = (lf_rc_frame){strdup(function), strdup(buf), line};
    if (!f[site->n].function || !f[site->n].file) return false;
    site->n++;
    return true;
}

/* Reads the tool's answer for sites[0..n-1] (in order) from out_path. llvm-symbolizer: per address, pairs of
 * lines (function, location) and an empty line. addr2line -a: the address line, then pairs. */
static bool parse_output(lf_rc_symbols *s, size_t *which, size_t count, const char *out_path, bool llvm) {
    FILE *f = fopen(out_path, "r");
    if (!f) return true;
    char line[PATH_MAX + 256], fn[1024] = "";
    size_t k = 0; /* the site being read */
    bool started = false, have_fn = false, ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (llvm) {
            if (!line[0]) {
                if (started) k++;
                started = false;
                have_fn = false;
                continue;
            }
        } else if (!strncmp(line, "0x", 2)) {
            if (started) k++;
            started = true;
            have_fn = false;
            continue;
        }
        if (k >= count) break;
        started = true;
        if (!have_fn) {
            copy_cut(fn, sizeof fn, line);
            have_fn = true;
        } else {
            ok = add_frame(&s->sites[which[k]], fn, line);
            have_fn = false;
        }
    }
    fclose(f);
    return ok;
}

bool lf_rc_symbolize(lf_rc_symbols *s, const uintptr_t *pcs, size_t n) {
    memset(s, 0, sizeof *s);
    uintptr_t *sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted) return false;
    memcpy(sorted, pcs, n * sizeof *sorted);
    if (n > 1) qsort(sorted, n, sizeof *sorted, by_pc);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (!u || sorted[i] != sorted[u - 1]) sorted[u++] = sorted[i];
    s->sites = calloc(u ? u : 1, sizeof *s->sites);
    if (!s->sites) {
        free(sorted);
        return false;
    }
    for (size_t i = 0; i < u; i++) s->sites[i].pc = sorted[i];
    s->n = u;
    free(sorted);

    const char *env = getenv("LINFUZZ_SYMBOLIZER");
    if (env && !strcmp(env, "none")) {
        snprintf(s->note, sizeof s->note, "symbolizing turned off (LINFUZZ_SYMBOLIZER=none): raw addresses");
        return true;
    }
    const char *tools[2] = {"llvm-symbolizer", "addr2line"};
    size_t n_tools = 2;
    if (env && env[0]) {
        tools[0] = env;
        n_tools = 1;
    }
    char dir[] = "/tmp/linfuzz-symbolize-XXXXXX";
    if (!mkdtemp(dir)) {
        snprintf(s->note, sizeof s->note, "cannot make a temporary directory: raw addresses");
        return true;
    }
    char in_path[PATH_MAX], out_path[PATH_MAX];
    snprintf(in_path, sizeof in_path, "%s/in", dir);
    snprintf(out_path, sizeof out_path, "%s/out", dir);
    size_t *which = malloc((u ? u : 1) * sizeof *which);
    bool *done = calloc(u ? u : 1, sizeof *done);
    bool ok = which && done, any_tool = false;
    /* one batch per object file */
    for (size_t first = 0; ok && first < u; first++) {
        if (done[first]) continue;
        object_find of = {.pc = s->sites[first].pc};
        dl_iterate_phdr(find_object, &of);
        done[first] = true;
        if (!of.found) continue;
        size_t count = 0;
        FILE *in = fopen(in_path, "w");
        if (!in) break;
        for (size_t i = first; i < u; i++) {
            object_find o2 = {.pc = s->sites[i].pc};
            if (i != first) {
                if (done[i]) continue;
                dl_iterate_phdr(find_object, &o2);
                if (!o2.found || strcmp(o2.path, of.path) != 0) continue;
                done[i] = true;
            }
            which[count++] = i;
            fprintf(in, "0x%lx\n", (unsigned long)(s->sites[i].pc - 1 - of.bias)); /* pc: a return address */
        }
        fclose(in);
        for (size_t t = 0; t < n_tools; t++) {
            bool llvm = strstr(tools[t], "llvm-symbolizer") != NULL;
            char obj[PATH_MAX + 8];
            snprintf(obj, sizeof obj, "--obj=%s", of.path);
            char *argv_llvm[] = {(char *)tools[t], "--inlining", "--demangle", obj, NULL};
            char *argv_a2l[] = {(char *)tools[t], "-a", "-f", "-i", "-C", "-e", of.path, NULL};
            if (!run_tool(llvm ? argv_llvm : argv_a2l, in_path, out_path)) continue;
            any_tool = true;
            snprintf(s->tool, sizeof s->tool, "%s", llvm ? "llvm-symbolizer" : "addr2line");
            ok = parse_output(s, which, count, out_path, llvm);
            break;
        }
    }
    unlink(in_path);
    unlink(out_path);
    rmdir(dir);
    free(which);
    free(done);
    if (ok && !any_tool)
        snprintf(s->note, sizeof s->note, "no symbolizer (%s%s%s not found or failed): raw addresses", tools[0],
                 n_tools > 1 ? ", " : "", n_tools > 1 ? tools[1] : "");
    return ok;
}

bool lf_rc_region(const lf_rc_site *a, const lf_rc_site *b, const char **file, const char **function,
                  unsigned *lo, unsigned *hi) {
    if (!a || !b || !a->n || !b->n) return false;
    /* from the outermost frames inward, while both chains are in the same function */
    size_t i = a->n, k = b->n;
    const lf_rc_frame *fa = NULL, *fb = NULL;
    while (i > 0 && k > 0 && !strcmp(a->frames[i - 1].function, b->frames[k - 1].function) &&
           !strcmp(a->frames[i - 1].file, b->frames[k - 1].file)) {
        fa = &a->frames[i - 1];
        fb = &b->frames[k - 1];
        i--;
        k--;
        if (fa->line != fb->line) break; /* the chains part here: deeper frames are different call sites */
    }
    if (!fa) {
        fa = &a->frames[0];
        fb = &b->frames[0];
        if (strcmp(fa->file, fb->file) != 0) return false;
    }
    *file = fa->file;
    *function = fa->function;
    *lo = fa->line < fb->line ? fa->line : fb->line;
    *hi = fa->line < fb->line ? fb->line : fa->line;
    return true;
}
