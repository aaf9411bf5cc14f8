/* `linfuzz adapters`: lists the data structures under test with their type and expected verdict. */
#include <stdio.h>
#include <string.h>

#include "linfuzz/adapter.h"
#include "cli/commands.h"
#include "json_out.h"
#include "linfuzz/spec.h"
#include "options.h"
#include "runtime/adapter_type.h"
#include "util/escape.h"

/* Writes the names of the methods in mask, separated by sep; JSON strings when json. */
static void print_methods(const lf_adapter *a, uint32_t mask, const char *sep, bool json) {
    bool first = true;
    for (int m = 0; m < LF_M_COUNT; m++)
        if (mask & LF_METHOD_BIT(m)) {
            printf(json ? "%s\"%s\"" : "%s%s", first ? "" : sep, lf_adapter_method_name(a, (unsigned)m));
            first = false;
        }
}

/* " [capacity 4; owner: push_back,pop_back; blocks: deq]", or nothing. */
static void print_declaration(const lf_adapter *a) {
    const char *sep = " [";
    if (a->capacity) {
        printf("%scapacity %llu", sep, (unsigned long long)a->capacity);
        sep = "; ";
    }
    if (!lf_contract_is_default(&a->contract)) {
        char text[96];
        lf_contract_format(text, sizeof text, &a->contract);
        printf("%scontract %s", sep, text);
        sep = "; ";
    }
    for (int g = 0; g < LF_MAX_GROUPS; g++)
        if (a->exclusive[g]) {
            printf("%sone worker: ", sep);
            print_methods(a, a->exclusive[g], ",", false);
            sep = "; ";
        }
    if (a->may_block) {
        printf("%sblocks: ", sep);
        print_methods(a, a->may_block, ",", false);
        sep = "; ";
    }
    if (strcmp(sep, " [") != 0) putchar(']');
}

typedef struct adapters_args {
    bool json, names;
} adapters_args;

int lf_cmd_adapters(int argc, char **argv) {
    adapters_args args = {0};
    lf_cli_operands none;
    int status = lf_cli_parse(&lf_command_adapters, argc, argv, &args, &none);
    if (status != LF_CLI_GO_ON) return status;
    bool json = args.json, names = args.names;
    status = LF_EXIT_OK;
    if (json) fputs("[\n", stdout);
    for (size_t i = 0; i < lf_adapter_count(); i++) {
        const lf_adapter *a = lf_adapter_at(i);
        char err[256];
        if (!lf_adapter_check(a, err, sizeof err)) {
            lf_esc_printf(stderr, "linfuzz adapters: %s\n", err);
            status = LF_EXIT_USAGE;
        }
        if (names && !json) {
            puts(a->name);
            continue;
        }
        bool has_spec = a->type == LF_TYPE_CUSTOM ? a->custom && a->custom->spec : true;
        if (!json) {
            printf("%-24s %-13s %-4s %s%s", a->name, lf_adapter_type_name(a), a->linearizable ? "yes" : "no",
                   a->summary, has_spec ? "" : " [no spec: checked against its own serial behaviour]");
            print_declaration(a);
            putchar('\n');
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
        printf("], \"capacity\": %llu", (unsigned long long)a->capacity);
        if (!lf_contract_is_default(&a->contract)) {
            char text[96];
            lf_contract_format(text, sizeof text, &a->contract);
            fputs(", \"contract\": ", stdout);
            lf_json_string(stdout, text);
        }
        fputs(", \"exclusive\": [", stdout);
        bool first = true;
        for (int g = 0; g < LF_MAX_GROUPS; g++)
            if (a->exclusive[g]) {
                fputs(first ? "[" : ", [", stdout);
                print_methods(a, a->exclusive[g], ", ", true);
                putchar(']');
                first = false;
            }
        fputs("], \"may_block\": [", stdout);
        print_methods(a, a->may_block, ", ", true);
        fputs("], \"summary\": ", stdout);
        lf_json_string(stdout, a->summary);
        printf("}%s\n", i + 1 < lf_adapter_count() ? "," : "");
    }
    if (json) fputs("]\n", stdout);
    return status;
}

static const lf_opt OPTIONS[] = {
    {.name = "--json", LF_OPT_FLAG_AT(adapters_args, json),
     .help = "one JSON array of {name, type, custom, spec, deterministic, linearizable, methods,\n"
             "capacity, contract (when not linearizable), exclusive, may_block, summary} (custom: the\n"
             "type is the adapter's own; spec: it has a specification; deterministic: it may serve as\n"
             "its own specification, --spec self)"},
    {.name = "--names", LF_OPT_FLAG_AT(adapters_args, names), .help = "only the names, one per line"},
};

const lf_cli_command lf_command_adapters = {
    .name = "adapters",
    .summary = "list the data structures under test",
    .run = lf_cmd_adapters,
    .usage = "linfuzz adapters [--json | --names]",
    .about = "Lists every adapter in this build: name, specification type, whether it is expected to be\n"
             "linearizable (no = a known-buggy or relaxed structure the fuzzer must catch), and a summary.\n"
             "Adapters over Concurrency Kit (ck_*) and liburcu (urcu_*) are listed only when the library was\n"
             "found at build time.\n"
             "\n"
             "What an adapter declares beyond that is appended in brackets: its capacity (a bounded container:\n"
             "inserts may answer full), its contract when it promises less than linearizability\n"
             "(docs/contracts.md), the methods only one worker calls (owner: ..., per exclusive group), and the\n"
             "methods that may block. An adapter whose declaration is inconsistent is reported on stderr (exit 2).",
    .options = OPTIONS,
    .n_options = LF_CLI_N_OPTIONS(OPTIONS),
    .help_column = 11,
};
