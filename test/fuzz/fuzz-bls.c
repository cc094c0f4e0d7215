/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: Type #1 entries (first line: file name) and glob matching. */
#include <stdlib.h>
#include <string.h>

#include "bls.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const char *nl = memchr(data, '\n', size);
        char *name = strndup((const char *) data, nl ? (size_t) (nl - (const char *) data) : size);
        const char *body = nl ? nl + 1 : "";
        size_t body_size = nl ? size - (size_t) (nl + 1 - (const char *) data) : 0;
        BlsEntry *e = NULL, *f = NULL;

        if (!name)
                return 0;
        if (bls_entry_parse(name, body, body_size, &e) >= 0) {
                /* A valid entry always names something to boot. */
                if (!e->path || !*e->path || e->kind == BLS_KIND_NONE)
                        abort();
                if (bls_entry_parse("other.conf", "linux /v", 8, &f) >= 0) {
                        int a = bls_entry_compare(e, f), b = bls_entry_compare(f, e);
                        if ((a > 0 && b > 0) || (a < 0 && b < 0))
                                abort();
                        bls_entry_free(f);
                }
                (void) bls_glob_match(name, e->id);
                bls_entry_free(e);
        }
        free(name);
        return 0;
}
