/* Root causing, step 6: the result stored in a violation entry's `rootcause` section (findings/rootcause_section.h):
 * every candidate that is a source region or a method-level exclusion, in rank order, with what ranking and
 * validation gave (candidates that stayed raw sites are left out: the section names code by file and lines).
 * File paths are stored relative to the source tree (adapters/buggy/r1_afek_stack.c), so that triage
 * signatures do not depend on where linfuzz was built. */
#ifndef LINFUZZ_RC_STORE_H
#define LINFUZZ_RC_STORE_H

#include <stddef.h>

#include "findings/entry.h"
#include "linfuzz/format.h"
#include "rootcause/analyze.h"

/* The path stored for a source file: relative to the source tree when inside it, else from its last
 * "adapters/" on, else as given. */
const char *lf_rc_stored_file(const char *file);

/* r as a `rootcause` section (malloc'ed), or NULL when out of memory or not expressible. */
char *lf_rc_format(const lf_rc_result *r);

/* Sets e's rootcause section from r and saves e: into out_dir under the corpus's content name
 * (lf_entry_save) when out_dir is not NULL, else over path, replaced atomically (the content name does not
 * cover the rootcause section, so a file named by the corpus keeps its name). The path written goes to saved
 * (may be NULL). LF_ERR_IO when the file cannot be written, LF_ERR_FORMAT when the candidates cannot be
 * expressed in the section's format. */
lf_status lf_rc_store(const char *path, const char *out_dir, lf_violation_entry *e, const lf_rc_result *r,
                      char *saved, size_t saved_len, char *err, size_t errlen);

#endif
