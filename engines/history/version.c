/* The version of the linked library (include/linfuzz/version.h), so that a program can compare it with the
 * headers it was compiled against. */
#include "linfuzz/version.h"

const char *lf_version(void) { return LF_VERSION; }
