/* Loading entries for the subcommands, and the programs' directory for printed commands (cli_entry.h). */
#include "cli_entry.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "findings/capture.h"
#include "linfuzz/adapter.h"
#include "testcase/fuzz_case.h"

bool lf_cli_entry_input(const lf_violation_entry *e, uint8_t *out, const uint8_t **bytes, size_t *len) {
    const char *format = lf_entry_meta(e, "workload_format"), *name = lf_entry_meta(e, "adapter");
    const lf_adapter *a = name ? lf_adapter_find(name) : NULL;
    *bytes = e->workload;
    *len = e->workload_len;
    if (!a || !lf_fuzz_case_format_known(format) || !strcmp(format, LF_FUZZ_CASE_FORMAT)) return false;
    lf_method ms[LF_M_COUNT];
    lf_fuzz_case c;
    lf_fuzz_case_decode_as(format, e->workload, e->workload_len, lf_fuzz_case_methods(a, ms), &c);
    *len = lf_fuzz_case_encode(&c, out);
    *bytes = out;
    return true;
}

lf_status lf_cli_load_entry(const char *path, lf_violation_entry *e, char *err, size_t errlen) {
    lf_status st = lf_entry_load(path, e, err, errlen);
    if (st != LF_OK) return st;
    uint32_t serial;
    const char *format = lf_entry_meta(e, "workload_format");
    if (!lf_entry_serial_thread(e, &serial) && lf_fuzz_case_format_scheduled(format) && e->workload_len) {
        /* The thread count does not depend on the adapter's methods: decode with any method count. */
        lf_fuzz_case c;
        lf_fuzz_case_decode(e->workload, e->workload_len, 1, &c);
        char buf[16];
        snprintf(buf, sizeof buf, "%u", (unsigned)c.threads);
        if (!lf_entry_set_meta(e, "serial_thread", buf)) {
            lf_entry_free(e);
            snprintf(err, errlen, "%s: out of memory", path);
            return LF_ERR_NOMEM;
        }
    }
    return LF_OK;
}

void lf_cli_bin_prefix(char *out, size_t len) {
    char exe[PATH_MAX], cwd[PATH_MAX];
    out[0] = 0;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return;
    slash[1] = 0;
    size_t cl;
    if (getcwd(cwd, sizeof cwd) && (cl = strlen(cwd)) > 1 && !strncmp(exe, cwd, cl) && exe[cl] == '/')
        snprintf(out, len, "%s", exe + cl + 1);
    else
        snprintf(out, len, "%s", exe);
}
