/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The boot's origin and the booted UKI.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "boot-origin.h"
#include "efivars-fundamental.h"
#include "efivars.h"
#include "error-buf.h"
#include "fileio.h"
#include "http-source.h"
#include "macro.h"
#include "sha256.h"
#include "string-util.h"
#include "tls-ca.h"

#define UKI_MAX (512ULL << 20)

static char *variable(const char *name, const char *vendor) {
        char *s = NULL;

        return efi_get_variable_string(name, vendor, &s) >= 0 ? s : NULL;
}

/* The boot manager writes the digest as 64 ASCII hex digits (not UTF-16, as the loader's strings are). */
static char *digest_variable(void) {
        _cleanup_free_ char *data = NULL;
        size_t n = 0;

        if (efi_get_variable(URLBOOT_VAR_IMAGE_SHA256, EFI_VENDOR_URLBOOT_STR, NULL, (void **) &data, &n) < 0 ||
            !sha256_hex_valid(data, n))
                return NULL;    /* none, or not a digest: as if none was recorded (as urlbootctl rollout bless) */
        return strndup(data, n);
}

int boot_origin_load(BootOrigin *o) {
        assert(o);

        *o = (BootOrigin) {
                .loader_url = variable("LoaderDeviceURL", EFI_VENDOR_LOADER_STR),
                .stub_url = variable("StubDeviceURL", EFI_VENDOR_LOADER_STR),
                .uki_sha256 = digest_variable(),
        };
        return 0;
}

void boot_origin_done(BootOrigin *o) {
        assert(o);

        free(o->loader_url);
        free(o->stub_url);
        free(o->uki_sha256);
        *o = (BootOrigin) {};
}

static int unhex(char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int url_path(const char *url, char **ret) {
        const char *p = startswith(url, "http://") ?: startswith(url, "https://");
        size_t n;
        char *s, *w;

        assert(url);
        assert(ret);

        if (!p)
                return -EINVAL;
        p += strcspn(p, "/?#");
        n = *p == '/' ? strcspn(p, "?#") : 0;
        s = malloc(n + 2);
        if (!s)
                return -ENOMEM;
        w = s;
        if (n == 0)
                *w++ = '/';
        for (size_t i = 0; i < n; i++) {
                if (p[i] == '%' && i + 2 < n + 1 && unhex(p[i + 1]) >= 0 && unhex(p[i + 2]) >= 0) {
                        char c = (char) (unhex(p[i + 1]) * 16 + unhex(p[i + 2]));

                        if (c == 0) {   /* no NUL in a path */
                                free(s);
                                return -EINVAL;
                        }
                        *w++ = c;
                        i += 2;
                } else
                        *w++ = p[i];
        }
        *w = 0;
        *ret = s;
        return 0;
}

typedef struct Body {
        char *data;
        size_t size;
} Body;

static int on_data(const void *data, size_t size, void *userdata) {
        Body *b = userdata;
        char *n;

        if (b->size + size > UKI_MAX)
                return -EFBIG;
        n = realloc(b->data, b->size + size);
        if (!n)
                return -ENOMEM;
        memcpy(n + b->size, data, size);
        b->data = n;
        b->size += size;
        return 0;
}

int fetch_verified(const char *url, const char *sha256, const char *path, char *error, size_t error_size) {
        Body b = {};
        HttpResponse response = {};
        uint8_t raw[SHA256_DIGEST_SIZE];
        char digest[2 * SHA256_DIGEST_SIZE + 1];
        HttpRequest request = {
                .url = url,
                .limits = HTTP_LIMITS_DEFAULT,
                .ca_file = startswith(url, "https://") ? tls_ca_pinned() : NULL,
                .on_data = on_data,
                .userdata = &b,
        };
        int r;

        assert(url);
        assert(sha256);
        assert(path);

        r = http_fetch(&request, &response, error, error_size);
        http_response_done(&response);
        if (r >= 0) {
                sha256_digest(b.data, b.size, raw);
                sha256_to_hex(raw, digest);
        }
        if (r >= 0 && !streq(digest, sha256))
                r = error_setf(error, error_size, -EBADMSG, "%s has SHA-256 %s now, not the %s that booted", url, digest,
                               sha256);
        if (r >= 0) {
                r = write_file_atomic(path, b.data, b.size, 0644);
                if (r < 0)
                        error_setf(error, error_size, r, "cannot write %s: %s", path, strerror(-r));
        }
        free(b.data);
        return r;
}
