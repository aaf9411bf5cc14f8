/* `linfuzz show ENTRY`: prints a violation entry's report, or one of its parts (histories, metadata, the
 * input bytes), for triage. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "corpus/capture.h"
#include "corpus/entry.h"
#include "linfuzz/format.h"

static void help(FILE *out) {
    fprintf(out,
            "usage: linfuzz show ENTRY [--stored | --meta | --history full|minimized | --input FILE]\n"
            "\n"
            "Prints the report of a violation entry (a .lfz file written by a fuzz target): the minimized\n"
            "history by thread and as a timeline, and why it is not linearizable. The report is rendered\n"
            "again from the saved histories (so the explanation is this checker's); the header says where\n"
            "and when the entry was found.\n"
            "\n"
            "options:\n"
            "  --stored            print the report exactly as saved when the violation was found\n"
            "  --meta              print the metadata, one 'key: value' per line\n"
            "  --history WHICH     print the full or minimized history in the text format (pipe it into\n"
            "                      'linfuzz check -')\n"
            "  --input FILE        write the workload bytes (the fuzzer input) to FILE, to replay them with\n"
            "                      build/bin/fuzz_ADAPTER FILE\n"
            "\n"
            "exit: 0 printed, 2 bad usage or not a valid entry, 4 unreadable entry or FILE not writable.\n");
}

int cmd_show(int argc, char **argv) {
    const char *path = NULL, *history = NULL, *input = NULL;
    bool stored = false, meta = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            return LF_EXIT_OK;
        } else if (!strcmp(a, "--stored")) {
            stored = true;
        } else if (!strcmp(a, "--meta")) {
            meta = true;
        } else if (!strcmp(a, "--history") || !strcmp(a, "--input")) {
            if (!v) {
                fprintf(stderr, "linfuzz show: %s needs a value\n", a);
                return LF_EXIT_USAGE;
            }
            if (!strcmp(a, "--input")) {
                input = v;
            } else if (!strcmp(v, "full") || !strcmp(v, "minimized")) {
                history = v;
            } else {
                fprintf(stderr, "linfuzz show: --history takes 'full' or 'minimized', not '%s'\n", v);
                return LF_EXIT_USAGE;
            }
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "linfuzz show: unknown option '%s'\n", a);
            return LF_EXIT_USAGE;
        } else if (!path) {
            path = a;
        } else {
            fprintf(stderr, "linfuzz show: one entry at a time ('%s' is extra)\n", a);
            return LF_EXIT_USAGE;
        }
    }
    if (!path) {
        fprintf(stderr, "linfuzz show: which entry?\n");
        help(stderr);
        return LF_EXIT_USAGE;
    }
    if ((stored + meta + (history != NULL) + (input != NULL)) > 1) {
        fprintf(stderr, "linfuzz show: --stored, --meta, --history and --input exclude each other\n");
        return LF_EXIT_USAGE;
    }
    lf_violation_entry e;
    char err[1024];
    lf_status st = lf_entry_load(path, &e, err, sizeof err);
    if (st != LF_OK) {
        fprintf(stderr, "linfuzz show: %s\n", err);
        return st == LF_ERR_IO ? LF_EXIT_IO : LF_EXIT_USAGE;
    }
    int status = LF_EXIT_OK;
    if (stored) {
        fputs(e.report, stdout);
    } else if (meta) {
        for (size_t i = 0; i < e.n_meta; i++) printf("%s: %s\n", e.meta[i].key, e.meta[i].value);
    } else if (history) {
        if (lf_text_write_stream(stdout, !strcmp(history, "full") ? &e.full : &e.minimized) != LF_OK) status = LF_EXIT_IO;
    } else if (input) {
        FILE *f = fopen(input, "wb");
        if (!f || fwrite(e.workload, 1, e.workload_len, f) != e.workload_len || fclose(f) != 0) {
            fprintf(stderr, "linfuzz show: cannot write %s\n", input);
            status = LF_EXIT_IO;
        } else {
            fprintf(stderr, "%s: %zu input bytes (%s) written to %s\n", path, e.workload_len,
                    lf_entry_meta(&e, "workload_format") ? lf_entry_meta(&e, "workload_format") : "unknown format",
                    input);
        }
    } else {
        const char *created = lf_entry_meta(&e, "created"), *version = lf_entry_meta(&e, "linfuzz_version");
        const char *expected = lf_entry_meta(&e, "expected");
        printf("entry:      %s\n", path);
        printf("saved:      %s by linfuzz %s (adapter expected %s)\n", created ? created : "?", version ? version : "?",
               expected ? expected : "?");
        /* the saved verdicts, one per line, aligned under the header */
        const char *line = e.verdict;
        for (int k = 0; *line; k++) {
            size_t len = strcspn(line, "\n");
            printf("%s%.*s\n", k ? "            " : "verdicts:   ", (int)len, line);
            line += len + (line[len] == '\n');
        }
        putchar('\n');
        lf_entry_write_report(stdout, &e);
    }
    lf_entry_free(&e);
    return status;
}
