/* JSON output shared by the subcommands' --json modes. */
#ifndef LINFUZZ_JSON_OUT_H
#define LINFUZZ_JSON_OUT_H

#include <stdio.h>

/* Writes s as a JSON string literal, valid UTF-8 whatever s holds: '"' and '\' escaped; control characters,
 * bidirectional formatting characters and line separators (util/escape.h) as \uXXXX; every byte that starts
 * no well-formed UTF-8 character as \ufffd (U+FFFD, the replacement character); the rest as it is. */
void lf_json_string(FILE *out, const char *s);

#endif
