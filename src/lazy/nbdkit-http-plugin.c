/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * nbdkit-urlboot-http-plugin.so: a remote disk image over HTTP range requests, for nbdkit.
 *
 * nbdkit serves the NBD protocol; this plugin reads the bytes. nbdkit's own curl plugin (1.32, and its
 * source to this day) asks for one byte more than it reads ("Range: bytes=OFF-(OFF+COUNT)", an inclusive end
 * one past the block), so the last block of an image reaches one byte past its end, which a server that does
 * not clamp ranges answers with a length it never sends (a 60 s stall per block), and it takes whatever a
 * 206 answer says. This plugin asks for exactly the block and takes only the answer that covers exactly it:
 * status 206, Content-Range "bytes OFF-(OFF+COUNT-1)/SIZE" with the image's size, COUNT bytes. Requests run
 * in parallel, each on a libcurl handle of a pool (keep-alive), so the boot's reads on one NBD connection
 * never wait behind the background copy's on another.
 *
 *   nbdkit [--filter=retry] [--filter=xz] /usr/lib/urlboot/nbdkit-urlboot-http-plugin.so url=URL
 *          [cainfo=PEM] [protocols=http,https|https] [timeout=SECONDS]
 */
#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include <curl/curl.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http-headers.h"

#define THREAD_MODEL NBDKIT_THREAD_MODEL_PARALLEL
#define POOL_MAX 16
#define REDIRECTS_MAX 5

static char *url, *cainfo, *protocols;
static long timeout = 60;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static CURL *pool[POOL_MAX];
static size_t pool_n;
static int64_t size = -1;       /* the image's size, once known */

/* What one request answered. */
typedef struct Answer {
        char *buf;                      /* where the body goes; NULL: nowhere */
        size_t want, got;
        bool overflow;                  /* more body than asked for */
        uint64_t first, last;
        int64_t total;
        bool have_range;
} Answer;

static void http_plugin_unload(void) {
        for (size_t i = 0; i < pool_n; i++)
                curl_easy_cleanup(pool[i]);
        pool_n = 0;
        free(url);
        free(cainfo);
        free(protocols);
        curl_global_cleanup();
}

static int http_plugin_config(const char *key, const char *value) {
        char **slot = strcmp(key, "url") == 0       ? &url :
                      strcmp(key, "cainfo") == 0    ? &cainfo :
                      strcmp(key, "protocols") == 0 ? &protocols : NULL;

        if (strcmp(key, "timeout") == 0) {
                uint32_t t;

                if (nbdkit_parse_uint32_t("timeout", value, &t) < 0 || t == 0)
                        return -1;
                timeout = t;
                return 0;
        }
        if (!slot) {
                nbdkit_error("unknown parameter '%s'", key);
                return -1;
        }
        free(*slot);
        *slot = strdup(value);
        return *slot ? 0 : -1;
}

static int http_plugin_config_complete(void) {
        if (!url) {
                nbdkit_error("the url parameter is required");
                return -1;
        }
        if (!protocols)
                protocols = strdup(strncmp(url, "https://", 8) == 0 ? "https" : "http,https");
        if (!protocols || curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
                nbdkit_error("cannot set up libcurl");
                return -1;
        }
        return 0;
}

static size_t on_header(char *line, size_t one, size_t n, void *userdata) {
        Answer *a = userdata;
        char *value = http_header_value(line, one * n, "Content-Range");

        /* every answer's headers come through here, redirects' too: the last one counts */
        if (value) {
                a->have_range = http_content_range_parse(value, &a->first, &a->last, &a->total) == 0;
                free(value);
        }
        return one * n;
}

static size_t on_body(char *data, size_t one, size_t n, void *userdata) {
        Answer *a = userdata;
        size_t len = one * n;

        if (len > a->want - a->got) {
                a->overflow = true;
                return 0;       /* more than asked for: stop */
        }
        if (a->buf)
                memcpy(a->buf + a->got, data, len);
        a->got += len;
        return len;
}

/* A handle from the pool, or a new one with the settings every request shares. */
static CURL *handle_get(void) {
        CURL *c = NULL;

        pthread_mutex_lock(&lock);
        if (pool_n > 0)
                c = pool[--pool_n];
        pthread_mutex_unlock(&lock);
        if (c)
                return c;
        c = curl_easy_init();
        if (!c)
                return NULL;
        curl_easy_setopt(c, CURLOPT_URL, url);
        curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, protocols);
        /* redirects only within the URL's protocols: never https to http (security review F7) */
        curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, protocols);
        curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
        curl_easy_setopt(c, CURLOPT_MAXREDIRS, (long) REDIRECTS_MAX);
        curl_easy_setopt(c, CURLOPT_TIMEOUT, timeout);
        curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(c, CURLOPT_USERAGENT, "urlboot-lazy/" URLBOOT_VERSION);
        curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
        if (cainfo) {
                /* the pinned CA alone, not the system's store beside it */
                curl_easy_setopt(c, CURLOPT_CAINFO, cainfo);
                curl_easy_setopt(c, CURLOPT_CAPATH, NULL);
        }
        return c;
}

static void handle_put(CURL *c) {
        pthread_mutex_lock(&lock);
        if (pool_n < POOL_MAX) {
                pool[pool_n++] = c;
                c = NULL;
        }
        pthread_mutex_unlock(&lock);
        if (c)
                curl_easy_cleanup(c);
}

/* GET bytes [offset, offset + count) into buf (NULL: count bytes, thrown away), checked. */
static int get_range(void *buf, uint32_t count, uint64_t offset, Answer *ret) {
        char range[64];
        long code = 0;
        CURLcode r;
        CURL *c = handle_get();

        if (!c) {
                nbdkit_error("cannot make a libcurl handle");
                errno = ENOMEM;
                return -1;
        }
        *ret = (Answer) { .buf = buf, .want = count };
        /* inclusive end: exactly the block, never a byte past it */
        snprintf(range, sizeof range, "%" PRIu64 "-%" PRIu64, offset, offset + count - 1);
        curl_easy_setopt(c, CURLOPT_RANGE, range);
        curl_easy_setopt(c, CURLOPT_HEADERDATA, ret);
        curl_easy_setopt(c, CURLOPT_WRITEDATA, ret);
        r = curl_easy_perform(c);
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
        handle_put(c);
        if (r != CURLE_OK && !ret->overflow) {
                nbdkit_error("%s: bytes %s: %s", url, range, curl_easy_strerror(r));
                errno = EIO;
                return -1;
        }
        if (code != 206 || !ret->have_range) {
                nbdkit_error("%s: bytes %s: the server answered %ld%s, not the range asked for (206 with "
                             "Content-Range)", url, range, code, code == 200 ? " (the whole file: no range requests)" : "");
                errno = EIO;
                return -1;
        }
        return 0;
}

/* The image's size: the total of a 206 for its first byte (which also shows that ranges work). */
static int probe_size(void) {
        Answer a;

        if (get_range(NULL, 1, 0, &a) < 0)
                return -1;
        if (a.first != 0 || a.last != 0 || a.total < 1 || a.got != 1) {
                nbdkit_error("%s: the first byte's answer claims bytes %" PRIu64 "-%" PRIu64 " of %" PRIi64
                             " with %zu bytes: not a usable range answer", url, a.first, a.last, a.total, a.got);
                errno = EIO;
                return -1;
        }
        pthread_mutex_lock(&lock);
        size = a.total;
        pthread_mutex_unlock(&lock);
        return 0;
}

static void *http_plugin_open(int readonly) {
        int64_t s;

        pthread_mutex_lock(&lock);
        s = size;
        pthread_mutex_unlock(&lock);
        /* each connection until one succeeds (the retry filter opens again on failure) */
        if (s < 0 && probe_size() < 0)
                return NULL;
        return NBDKIT_HANDLE_NOT_NEEDED;
}

static int64_t http_plugin_get_size(void *handle) {
        int64_t s;

        pthread_mutex_lock(&lock);
        s = size;
        pthread_mutex_unlock(&lock);
        return s;
}

static int http_plugin_can_multi_conn(void *handle) {
        return 1;       /* read-only: every connection sees the same bytes */
}

static int http_plugin_pread(void *handle, void *buf, uint32_t count, uint64_t offset, uint32_t flags) {
        int64_t s = http_plugin_get_size(handle);
        Answer a;

        if (count == 0)
                return 0;
        if (get_range(buf, count, offset, &a) < 0)
                return -1;
        if (a.overflow || a.got != count || a.first != offset || a.last != offset + count - 1 || a.total != s) {
                nbdkit_error("%s: asked for bytes %" PRIu64 "-%" PRIu64 " of %" PRIi64 ", the server answered bytes %"
                             PRIu64 "-%" PRIu64 " of %" PRIi64 " with %s%zu bytes", url, offset, offset + count - 1, s,
                             a.first, a.last, a.total, a.overflow ? "more than " : "", a.got);
                errno = EIO;
                return -1;
        }
        return 0;
}

static struct nbdkit_plugin plugin = {
        .name = "urlboot-http",
        .longname = "urlboot's HTTP range plugin",
        .version = URLBOOT_VERSION,
        .description = "A remote disk image over HTTP range requests, each answer checked.",
        .unload = http_plugin_unload,
        .config = http_plugin_config,
        .config_complete = http_plugin_config_complete,
        .config_help = "url=<URL>            (required) the image\n"
                       "cainfo=<FILE>        the only CA trusted for https\n"
                       "protocols=<LIST>     http,https or https (redirects too)\n"
                       "timeout=<SECONDS>    for one request (default 60)",
        .open = http_plugin_open,
        .get_size = http_plugin_get_size,
        .can_multi_conn = http_plugin_can_multi_conn,
        .pread = http_plugin_pread,
        .errno_is_preserved = 1,
};

NBDKIT_REGISTER_PLUGIN(plugin)
