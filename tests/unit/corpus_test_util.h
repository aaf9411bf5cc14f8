/* Helper shared by the tests that replay committed corpus entries: the entry of a directory recorded in a
 * given workload format. A directory may hold entries of both formats (free-mode "fuzz-case 1" and
 * controlled "fuzz-case 2"), and a test that counts free-mode reappearances must not depend on which one the
 * file system lists first. */
#ifndef LINFUZZ_CORPUS_TEST_UTIL_H
#define LINFUZZ_CORPUS_TEST_UTIL_H

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "findings/entry.h"
#include "findings/triage.h"

/* Loads into e the entry of dir whose workload_format is format (the first by name when several are);
 * false when there is none. path receives its path. */
static bool lf_test_load_entry_of_format(const char *dir, const char *format, lf_violation_entry *e, char *path,
                                         size_t path_len) {
    DIR *d = opendir(dir);
    if (!d) return false;
    char best[1024] = "";
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (lf_triage_classify(de->d_name, NULL) != LF_TRIAGE_FILE_ENTRY) continue;
        if (best[0] && strcmp(de->d_name, best) >= 0) continue;
        char candidate[2048], err[512];
        snprintf(candidate, sizeof candidate, "%s/%s", dir, de->d_name);
        lf_violation_entry probe;
        if (lf_entry_load(candidate, &probe, err, sizeof err) != LF_OK) continue;
        const char *f = lf_entry_meta(&probe, "workload_format");
        if (!f || strcmp(f, format) != 0) {
            lf_entry_free(&probe);
            continue;
        }
        if (best[0]) lf_entry_free(e); /* an earlier name matches too: it replaces the one kept */
        *e = probe;
        snprintf(best, sizeof best, "%s", de->d_name);
        snprintf(path, path_len, "%s", candidate);
    }
    closedir(d);
    return best[0] != 0;
}

#endif
