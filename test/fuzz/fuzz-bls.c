/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: Type #1 entries (first line: file name), counters, glob matching, and the whole input
 * as a loader.conf. */
#include <stdlib.h>
#include <string.h>

#include "bls.h"
#include "loader-conf.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const char *nl = memchr(data, '\n', size);
        char *name = strndup((const char *) data, nl ? (size_t) (nl - (const char *) data) : size);
        const char *body = nl ? nl + 1 : "";
        size_t body_size = nl ? size - (size_t) (nl + 1 - (const char *) data) : 0;
        BlsEntry *e = NULL, *f = NULL;
        LoaderConf conf;
        char *next = NULL;

        if (!name)
                return 0;
        loader_conf_init(&conf);
        (void) loader_conf_parse(&conf, (const char *) data, size);
        loader_conf_done(&conf);
        if (bls_counter_next_filename(name, &next) >= 0) {
                BlsCounter a, b;
                /* the renamed file has one try less and one more done */
                if (bls_counter_parse(name, &a) <= 0 || bls_counter_parse(next, &b) <= 0 ||
                    b.tries_left != a.tries_left - 1 || b.prefix_len != a.prefix_len)
                        abort();
                free(next);
        }
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
