/* JSON output shared by the subcommands (see json_out.h). */
#include "json_out.h"

#include <stdint.h>
#include <string.h>

#include "util/escape.h"

void lf_json_string(FILE *out, const char *s) {
    fputc('"', out);
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') { /* the common case */
            fputc(c, out);
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = lf_utf8_char(s + i, n - i, &cp);
        if (!len) { /* a byte that starts no UTF-8 character */
            fputs("\\ufffd", out);
            i++;
        } else if (cp == '"' || cp == '\\') {
            fprintf(out, "\\%c", (char)cp);
            i++;
        } else if (lf_char_is_unsafe(cp)) {
            fprintf(out, "\\u%04x", (unsigned)cp);
            i += len;
        } else {
            fwrite(s + i, 1, len, out);
            i += len;
        }
    }
    fputc('"', out);
}
