/* JSON output shared by the subcommands' --json modes. */
#ifndef LINFUZZ_JSON_OUT_H
#define LINFUZZ_JSON_OUT_H

#include <stdio.h>

/* Writes s as a JSON string literal (quotes, backslashes and control characters escaped). */
void lf_json_string(FILE *out, const char *s);

#endif
