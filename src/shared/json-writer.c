/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Writing JSON for --json output.
 */
#include <assert.h>

#include "json-writer.h"

void json_write_string(FILE *f, const char *s) {
        assert(f);

        if (!s) {
                fputs("null", f);
                return;
        }
        fputc('"', f);
        for (; *s; s++) {
                unsigned char c = (unsigned char) *s;

                if (c == '"' || c == '\\')
                        fprintf(f, "\\%c", c);
                else if (c == '\n')
                        fputs("\\n", f);
                else if (c == '\t')
                        fputs("\\t", f);
                else if (c < 0x20 || c == 0x7f)
                        fprintf(f, "\\u%04x", c);
                else
                        fputc(c, f);
        }
        fputc('"', f);
}

void json_write_key(FILE *f, const char *key, bool first) {
        assert(f);
        assert(key);

        if (!first)
                fputc(',', f);
        json_write_string(f, key);
        fputc(':', f);
}
