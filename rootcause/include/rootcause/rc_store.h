/* Root causing, step 6: the result stored in a violation entry's `rootcause` section (findings/rootcause_section.h):
 * every candidate that is a source region or a method-level exclusion, in rank order, with what ranking and
 * validation gave (candidates that stayed raw sites are left out: the section names code by file and lines).
 * File paths are stored relative to the source tree (adapters/buggy/r1_afek_stack.c), so that entries and
 * triage signatures do not depend on where the code was built or checked out. */
#ifndef LINFUZZ_RC_STORE_H
#define LINFUZZ_RC_STORE_H

#include <stddef.h>

#include "findings/entry.h"
#include "linfuzz/format.h"
#include "rootcause/analyze.h"

/* The path stored for a source file named file by the debug information: relative to root (the source tree of
 * the code under test; NULL: the current directory) when the file is inside it; else, for linfuzz's own
 * adapters run from outside its tree, from the last "adapters/" on; else as given. Written to buf (len bytes),
 * which is returned. Nothing of the machine that built linfuzz enters the decision. */
const char *lf_rc_stored_file(const char *file, const char *root, char *buf, size_t len);

/* Sets e's rootcause section from r (files named by lf_rc_stored_file with root; replacing one it had).
 * LF_ERR_FORMAT when the candidates cannot be expressed in the section's format. */
lf_status lf_rc_attach(lf_violation_entry *e, const lf_rc_result *r, const char *root, char *err, size_t errlen);

/* Sets e's rootcause section from r (lf_rc_attach) and saves e: into out_dir
 * under the corpus's content name (lf_entry_save) when out_dir is not NULL, else over path, replaced
 * atomically (the content name does not cover the rootcause section, so a file named by the corpus keeps its
 * name). The path written goes to saved
 * (may be NULL). LF_ERR_IO when the file cannot be written, LF_ERR_FORMAT when the candidates cannot be
 * expressed in the section's format. */
lf_status lf_rc_store(const char *path, const char *out_dir, const char *root, lf_violation_entry *e,
                      const lf_rc_result *r, char *saved, size_t saved_len, char *err, size_t errlen);

#endif
