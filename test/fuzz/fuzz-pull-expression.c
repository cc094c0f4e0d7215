/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: pull expression parsing and resolution. Input: expression, optionally "\n" StubDeviceURL. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "image-name.h"
#include "macro.h"
#include "pull-expression.h"
#include "string-util.h"
#include "url.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        _cleanup_free_ char *input = NULL;
        char reason[256] = "";
        _cleanup_pull_expression_ PullExpression *e = NULL;
        const char *stub = "http://10.0.2.2:8080/dir/uki.efi";
        char *nl;

        input = strndup((const char *) data, size);
        if (!input)
                return 0;
        nl = strchr(input, '\n');
        if (nl) {
                *nl = 0;
                stub = nl + 1;
        }

        if (pull_expression_parse(input, &e, reason, sizeof reason) < 0) {
                /* Every refusal says why. */
                if (!reason[0])
                        abort();
                return 0;
        }
        if (pull_expression_resolve(e, stub, size % 2, reason, sizeof reason) < 0) {
                if (!reason[0])
                        abort();
                return 0;
        }
        /* What resolves is safe to put in a unit file. */
        if (!import_url_is_valid(e->url) || !image_name_is_valid(e->local) || e->image_path[0] != '/' ||
            !startswith(e->image_path, e->image_root) || e->image_path[strlen(e->image_root)] != '/')
                abort();
        /* A lazy image is read in place and verified by dm-verity: nothing checks the whole file, and the
         * file (the URL's last path component: "?x.gz" is a query) is no stream format (a .zst may be a
         * seekable one, read in place, so only the plugin can tell). */
        if (e->lazy) {
                _cleanup_free_ char *name = NULL;

                if (e->type != IMAGE_RAW || !e->blockdev || e->sha256 || e->mirrors ||
                    (e->verify_explicit && e->verify != IMPORT_VERIFY_NO) || url_last_component(e->url, &name) < 0 ||
                    endswith(name, ".gz") || endswith(name, ".bz2") || endswith(name, ".tgz"))
                        abort();
        }
        return 0;
}
