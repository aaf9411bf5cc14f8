/* Custom type declarations in files (internal to engines/format/): both formats collect a declared type's
 * methods into a builder, then attach it to the history being read: the registered type of that name when
 * its declaration is equal (so the history gets the type's spec), else a copy the history owns.
 * docs/formats.md has the grammar of the text format's `method` lines and the .lfz declaration block. */
#ifndef LINFUZZ_TYPE_DECL_H
#define LINFUZZ_TYPE_DECL_H

#include <stdbool.h>
#include <stddef.h>

#include "linfuzz/history.h"

typedef struct lf_decl_builder {
    char name[LF_CUSTOM_NAME_MAX + 1];
    lf_method_decl methods[LF_CUSTOM_MAX_METHODS];
    char method_names[LF_CUSTOM_MAX_METHODS][LF_CUSTOM_NAME_MAX + 1];
    size_t n;
} lf_decl_builder;

/* Starts a declaration of type name (not a built-in name; false with a message when the name is invalid). */
bool lf_decl_begin(lf_decl_builder *b, const char *name, size_t len, char *err, size_t errlen);
/* Adds method b->n. False with a message (naming the method) when the name, arity, results or flags are
 * invalid, the name repeats, or the type has LF_CUSTOM_MAX_METHODS already. */
bool lf_decl_add(lf_decl_builder *b, const char *name, size_t len, unsigned nargs, unsigned results, unsigned flags,
                 char *err, size_t errlen);
/* Parses the words of a text `method` line after the keyword: NAME NARGS [-> KIND|KIND...] [observer]
 * [nondet] [blocks] [keyed] (words[i] is len[i] bytes), and adds the method. */
bool lf_decl_parse_words(lf_decl_builder *b, const char *const *words, const size_t *len, int n, char *err,
                         size_t errlen);
/* Attaches the declaration to h (which becomes LF_TYPE_CUSTOM): the registered type when equal, else an
 * owned copy. False with a message when it declares no method, or out of memory. */
bool lf_decl_attach(const lf_decl_builder *b, lf_history *h, char *err, size_t errlen);

#endif
