/* Root causing, step 5: the result stored in a violation entry's `rootcause` section
 * (corpus/rootcause.h), replacing the entry file atomically. */
#ifndef LINFUZZ_RC_STORE_H
#define LINFUZZ_RC_STORE_H

#include <stddef.h>

#include "corpus/entry.h"
#include "linfuzz/format.h"
#include "rootcause/analyze.h"

/* Writes r's candidates into e's rootcause section and saves e over path. LF_ERR_IO when the file cannot be
 * written, LF_ERR_FORMAT when the candidates cannot be expressed in the section's format. */
lf_status lf_rc_store(const char *path, lf_violation_entry *e, const lf_rc_result *r, char *err, size_t errlen);

#endif
