/* Rewriting the op indices of explanations (see reason.h). */
#include "reason/reason.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lf_reason_map_ops(const char *in, const uint32_t *map, size_t n_map, char *out, size_t len) {
    size_t k = 0;
    for (const char *p = in; *p && k + 1 < len;) {
        if (strncmp(p, "op ", 3) == 0 && p[3] >= '0' && p[3] <= '9') {
            char *end;
            unsigned long idx = strtoul(p + 3, &end, 10);
            int w = idx < n_map ? snprintf(out + k, len - k, "op %" PRIu32, map[idx])
                                : snprintf(out + k, len - k, "op ?");
            if (w < 0 || (size_t)w >= len - k) break;
            k += (size_t)w;
            p = end;
        } else {
            out[k++] = *p++;
        }
    }
    out[k] = '\0';
}
