/* `linfuzz adapters`: lists the data structures under test with their type and expected verdict. */
#include <stdio.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "commands.h"
#include "json_out.h"
#include "linfuzz/spec.h"
#include "runner/adapter_type.h"

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
            "  --json   one JSON array of {name, type, custom, spec, deterministic, linearizable, methods, summary}\n"
            "           (custom: the type is the adapter's own; spec: it has a specification; deterministic: it\n"
            "           may serve as its own specification, --spec self)\n"
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
        bool has_spec = a->type == LF_TYPE_CUSTOM ? a->custom && a->custom->spec : true;
        if (!json) {
            printf("%-24s %-13s %-4s %s%s\n", a->name, lf_adapter_type_name(a), a->linearizable ? "yes" : "no",
                   a->summary, has_spec ? "" : " [no spec: checked against its own serial behaviour]");
            continue;
        }
        fputs("  {\"name\": ", stdout);
        lf_json_string(stdout, a->name);
        fputs(", \"type\": ", stdout);
        lf_json_string(stdout, lf_adapter_type_name(a));
        printf(", \"custom\": %s, \"spec\": %s, \"deterministic\": %s, \"linearizable\": %s, \"methods\": [",
               a->type == LF_TYPE_CUSTOM ? "true" : "false", has_spec ? "true" : "false",
               a->deterministic ? "true" : "false", a->linearizable ? "true" : "false");
        lf_method ms[LF_M_COUNT];
        unsigned nm = lf_adapter_methods(a, ms);
        for (unsigned k = 0; k < nm; k++) printf("%s\"%s\"", k ? ", " : "", lf_adapter_method_name(a, ms[k]));
        fputs("], \"summary\": ", stdout);
        lf_json_string(stdout, a->summary);
        printf("}%s\n", i + 1 < lf_adapter_count() ? "," : "");
    }
    if (json) fputs("]\n", stdout);
    return LF_EXIT_OK;
}
