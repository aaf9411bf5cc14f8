/* `linfuzz adapters`: lists the data structures under test with their type and expected verdict. */
#include <stdio.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "commands.h"
#include "json_out.h"

static void help(FILE *out) {
    fprintf(out,
            "usage: linfuzz adapters [--json | --names]\n"
            "\n"
            "Lists every adapter in this build: name, specification type, whether it is expected to be\n"
            "linearizable (no = a known-buggy or relaxed structure the fuzzer must catch), and a summary.\n"
            "Adapters over Concurrency Kit (ck_*) and liburcu (urcu_*) are listed only when the library was\n"
            "found at build time.\n"
            "\n"
            "options:\n"
            "  --json   one JSON array of {name, type, linearizable, methods, summary}\n"
            "  --names  only the names, one per line\n");
}

int cmd_adapters(int argc, char **argv) {
    bool json = false, names = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            help(stdout);
            return LF_EXIT_OK;
        } else if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (!strcmp(argv[i], "--names")) {
            names = true;
        } else {
            fprintf(stderr, "linfuzz adapters: unknown argument '%s'\n", argv[i]);
            help(stderr);
            return LF_EXIT_USAGE;
        }
    }
    if (json) fputs("[\n", stdout);
    for (size_t i = 0; i < lf_adapter_count(); i++) {
        const lf_adapter *a = lf_adapter_at(i);
        if (names && !json) {
            puts(a->name);
            continue;
        }
        if (!json) {
            printf("%-24s %-13s %-4s %s\n", a->name, lf_type_name(a->type), a->linearizable ? "yes" : "no",
                   a->summary);
            continue;
        }
        fputs("  {\"name\": ", stdout);
        lf_json_string(stdout, a->name);
        printf(", \"type\": \"%s\", \"linearizable\": %s, \"methods\": [", lf_type_name(a->type),
               a->linearizable ? "true" : "false");
        bool first = true;
        for (int m = 0; m < LF_M_COUNT; m++)
            if (a->methods & LF_METHOD_BIT(m)) {
                printf("%s\"%s\"", first ? "" : ", ", lf_method_name((lf_method)m));
                first = false;
            }
        fputs("], \"summary\": ", stdout);
        lf_json_string(stdout, a->summary);
        printf("}%s\n", i + 1 < lf_adapter_count() ? "," : "");
    }
    if (json) fputs("]\n", stdout);
    return LF_EXIT_OK;
}
