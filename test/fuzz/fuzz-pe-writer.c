/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: urlbootctl build-uki's section writer on any --stub. Oracle: whenever it succeeds,
 * the result parses, has exactly two more sections, and they hold exactly our data, after the
 * headers and inside the file; AddressSanitizer watches every byte it reads and writes. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pe-image.h"
#include "pe-writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static const char osrel[] = "ID=fuzz\n", cmdline[] = "console=ttyS0";
        PeNewSection add[] = { { ".osrel", osrel, sizeof osrel - 1 }, { ".cmdline", cmdline, sizeof cmdline - 1 } };
        PeHeaders before, after;
        char error[256];
        size_t out_size;
        void *out;

        if (pe_append_sections(data, size, add, 2, &out, &out_size, error, sizeof error) < 0)
                return 0;
        if (pe_parse_headers(data, size, &before) < 0 || pe_parse_headers(out, out_size, &after) < 0 ||
            after.n_sections != before.n_sections + 2)
                abort();
        for (size_t i = 0; i < 2; i++) {
                PeSection s;

                if (pe_get_section(out, out_size, &after, before.n_sections + i, &s) < 0 || strcmp(s.name, add[i].name) != 0 ||
                    s.virtual_size != add[i].size || s.raw_offset < after.size_of_headers ||
                    (uint64_t) s.raw_offset + s.raw_size > out_size || s.raw_size < add[i].size ||
                    memcmp((uint8_t *) out + s.raw_offset, add[i].data, add[i].size) != 0)
                        abort();
        }
        free(out);
        return 0;
}
