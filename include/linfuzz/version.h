/* linfuzz's version: the CMake project's (configuring checks that the two agree), written into corpus entries
 * and printed by `linfuzz --version`. */
#ifndef LINFUZZ_VERSION_H
#define LINFUZZ_VERSION_H

#define LF_VERSION_MAJOR 0
#define LF_VERSION_MINOR 3
#define LF_VERSION_PATCH 0
#define LF_VERSION "0.3.0"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the linfuzz library linked in (LF_VERSION is that of the headers compiled against). */
const char *lf_version(void);

#ifdef __cplusplus
}
#endif

#endif
