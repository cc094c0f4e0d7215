/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * nbdkit's command line for a lazy disk.
 */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "nbdkit-command.h"
#include "string-util.h"

static int add(char ***l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int add(char ***l, const char *fmt, ...) {
        char *s;
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = vasprintf(&s, fmt, ap);
        va_end(ap);
        if (r < 0)
                return -ENOMEM;
        return strv_consume(l, s);
}

int nbdkit_command(const NbdkitSettings *s, char ***ret) {
        _cleanup_strv_free_ char **l = NULL;
        int r = 0;

        assert(s);
        assert(ret);

        /* Arguments are passed as they are (no shell), but a URL with spaces or controls is no URL. */
        for (const char *c = s->url; *c; c++)
                if ((unsigned char) *c <= ' ' || *c == 0x7f)
                        return -EINVAL;

        r = add(&l, "@nbdkit");
        /* In the foreground: we are its parent and watch it; it exits when we do. */
        r = r ?: add(&l, "--foreground");
        r = r ?: add(&l, "--exit-with-parent");
        r = r ?: add(&l, "--readonly");
        r = r ?: add(&l, "--log=stderr");
        r = r ?: add(&l, "--unix=%s", s->socket);
        /* No filters: the plugin retries HTTP requests and reads a multi-block .xz itself, so that a block
         * that does not decode fails one read at once (nbdkit's xz filter aborts nbdkit, and under the retry
         * filter it would be tried a thousand times first). */
        r = r ?: add(&l, "%s", s->plugin);
        r = r ?: add(&l, "url=%s", s->url);
        r = r ?: add(&l, "timeout=%u", s->timeout);
        r = r ?: add(&l, "retries=%u", s->retries);
        r = r ?: add(&l, "retry-delay=%u", s->retry_delay);
        /* The URL's own protocol, for redirects too: no ftp://, no file://, and no https → http (as
         * urlboot-pull; security review 2026-12-05, F7). */
        r = r ?: add(&l, "protocols=%s", startswith(s->url, "https://") ? "https" : "http,https");
        /* the pinned CA alone: the plugin then asks no other store */
        if (s->cainfo)
                r = r ?: add(&l, "cainfo=%s", s->cainfo);
        /* The blocks an earlier boot read, if the server has them beside the image (boot-reads.h); a URL
         * with a query or a fragment has no "beside". */
        if (!strpbrk(s->url, "?#"))
                r = r ?: add(&l, "readahead=%s.readahead", s->url);
        if (s->record)
                r = r ?: add(&l, "record=%s", s->record);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(l);
        return 0;
}
