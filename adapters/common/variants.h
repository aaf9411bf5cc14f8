/* For the adapter files that register several adapters over one implementation (an algorithm and its
 * known-buggy variants, or one design for several types): the create function that picks a variant and the
 * adapter's definition with its registration, written once here rather than once per adapter. */
#ifndef LINFUZZ_ADAPTER_VARIANTS_H
#define LINFUZZ_ADAPTER_VARIANTS_H

#include "linfuzz/adapter.h"

/* static void *NAME(size_t max_ops), returning CREATE_WITH(max_ops, VARIANT). */
#define LF_VARIANT_CREATE(name, create_with, variant)                                                                  \
    static void *name(size_t max_ops) { return create_with(max_ops, variant); }

/* const lf_adapter lf_adapter_IDENT, called "IDENT" on the command line, registered (LF_REGISTER_ADAPTER). */
#define LF_DEFINE_ADAPTER(ident, type_, linearizable_, methods_, create_, destroy_, op_, summary_)                     \
    const lf_adapter lf_adapter_##ident = {.name = #ident,                                                             \
                                           .summary = summary_,                                                        \
                                           .type = type_,                                                              \
                                           .linearizable = linearizable_,                                              \
                                           .methods = methods_,                                                        \
                                           .create = create_,                                                          \
                                           .destroy = destroy_,                                                        \
                                           .op = op_};                                                                 \
    LF_REGISTER_ADAPTER(lf_adapter_##ident)

/* One adapter of a family whose members differ only in name, expected verdict, create function and summary:
 * the family's other fields (type, methods, capacity, exclusive groups, destroy, op...) follow as designated
 * initialisers, usually a macro of the file written once for the family. */
#define LF_DEFINE_VARIANT(ident, linearizable_, create_, summary_, ...)                                                \
    const lf_adapter lf_adapter_##ident = {                                                                            \
        .name = #ident, .summary = summary_, .linearizable = linearizable_, .create = create_, __VA_ARGS__};           \
    LF_REGISTER_ADAPTER(lf_adapter_##ident)

/* The same for an adapter whose serial runs are deterministic (lf_adapter.deterministic: it may serve as its
 * own specification, docs/custom-types.md), with its state fingerprint (NULL: none). */
#define LF_DEFINE_DETERMINISTIC_ADAPTER(ident, type_, linearizable_, methods_, create_, destroy_, op_, fingerprint_,  \
                                        summary_)                                                                      \
    const lf_adapter lf_adapter_##ident = {.name = #ident,                                                             \
                                           .summary = summary_,                                                        \
                                           .type = type_,                                                              \
                                           .linearizable = linearizable_,                                              \
                                           .deterministic = true,                                                      \
                                           .fingerprint = fingerprint_,                                                \
                                           .methods = methods_,                                                        \
                                           .create = create_,                                                          \
                                           .destroy = destroy_,                                                        \
                                           .op = op_};                                                                 \
    LF_REGISTER_ADAPTER(lf_adapter_##ident)

#endif
