/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * URL helpers with systemd's import-util semantics.
 */
#include "assert-fundamental.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"
#include "url.h"

static bool ascii_is_valid(const char *s) {
        for (; *s; s++)
                if ((unsigned char) *s >= 128)
                        return false;
        return true;
}

bool url_is_http(const char *url) {
        const char *p;

        fassert(url);

        p = fstartswith(url, "http://");
        if (!p)
                p = fstartswith(url, "https://");
        return p && *p && ascii_is_valid(p);
}

bool url_is_file(const char *url) {
        const char *p = fstartswith(url, "file:/");

        fassert(url);

        return p && *p && ascii_is_valid(p);
}

/* Returns the position right after the host (the authority), or NULL when there is no scheme or no
 * host; ret_host, when not NULL, gets where the host starts. */
static const char *find_host(const char *url, const char **ret_host) {
        const char *p = url, *host;

        while (*p && *p != ':')
                p++;
        if (*p != ':' || p == url)
                return NULL;

        p++;
        while (*p == '/')
                p++;

        host = p;
        while (*p && *p != '/' && *p != '?' && *p != '#')
                p++;
        if (p == host)
                return NULL;
        if (ret_host)
                *ret_host = host;
        return p;
}

/* The bytes [s, e) as a new string in *ret. */
static int copy_range(const char *s, const char *e, char **ret) {
        char *c = fstrndup(s, (size_t) (e - s));

        if (!c)
                return -ENOMEM;
        *ret = c;
        return 0;
}

static const char *skip_scheme_and_host(const char *url) {
        return find_host(url, NULL);
}

bool url_is_printable(const char *s) {
        fassert(s);

        for (; *s; s++)
                if ((unsigned char) *s <= ' ' || (unsigned char) *s >= 0x7f)
                        return false;
        return true;
}

int url_host_header(const char *url, char **ret) {
        const char *host = NULL, *end = find_host(url, &host), *p;

        fassert(url);
        fassert(ret);

        /* A CR LF in the URL would end the request line or the Host header and start a header of the
         * URL's choosing. */
        if (!end || !url_is_printable(url))
                return -EINVAL;
        /* "user:password@host": the Host header has no user information. */
        for (p = host; p < end; p++)
                if (*p == '@')
                        host = p + 1;
        if (host == end)
                return -EINVAL;
        return copy_range(host, end, ret);
}

/* End of the path: before query and fragment, trailing slashes dropped (but never before path). */
static const char *path_end(const char *path) {
        const char *e = path;

        while (*e && *e != '?' && *e != '#')
                e++;
        while (e > path && e[-1] == '/')
                e--;
        return e;
}

int url_last_component(const char *url, char **ret) {
        const char *path, *e, *s;

        fassert(url);
        fassert(ret);

        path = skip_scheme_and_host(url);
        if (!path)
                return -EINVAL;

        e = path_end(path);
        s = e;
        while (s > path && s[-1] != '/')
                s--;
        if (s == e)
                return -EADDRNOTAVAIL;
        return copy_range(s, e, ret);
}

int url_change_suffix(const char *url, unsigned n_drop, const char *suffix, char **ret) {
        const char *path, *e;
        size_t head, ls;
        char *c;

        fassert(url || n_drop == 0);
        fassert(suffix);
        fassert(ret);

        path = skip_scheme_and_host(url);
        if (!path)
                return -EINVAL;

        e = path_end(path);
        for (; n_drop > 0; n_drop--) {
                while (e > path && e[-1] != '/')
                        e--;
                while (e > path && e[-1] == '/')
                        e--;
        }

        head = (size_t) (e - url);
        ls = fstrlen(suffix);
        c = fmalloc(head + 1 + ls + 1);
        if (!c)
                return -ENOMEM;
        fmemcpy(c, url, head);
        c[head] = '/';
        fmemcpy(c + head + 1, suffix, ls);
        c[head + 1 + ls] = 0;

        *ret = c;
        return 0;
}

int url_change_last_component(const char *url, const char *name, char **ret) {
        fassert(url);
        fassert(name);
        fassert(ret);

        return url_change_suffix(url, 1, name, ret);
}

