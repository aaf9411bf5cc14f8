/* The ck_malloc of the Concurrency Kit hash tables (ck_hs, ck_ht) in their single-writer/many-reader modes.
 *
 * Memory that the table frees with defer = true (the old maps after a grow) may still be read by concurrent
 * readers: it is parked until the last table object of the program is destroyed, when no reader can exist
 * (ck_malloc callbacks carry no context, hence one list for all objects). Each table object calls
 * lf_ck_deferred_attach when it is created and lf_ck_deferred_detach when it is destroyed. */
#ifndef LINFUZZ_CK_DEFERRED_H
#define LINFUZZ_CK_DEFERRED_H

#include <ck_malloc.h>

extern struct ck_malloc lf_ck_deferred_allocator;
void lf_ck_deferred_attach(void);
/* The last object gone: the parked blocks are freed. */
void lf_ck_deferred_detach(void);

#endif
