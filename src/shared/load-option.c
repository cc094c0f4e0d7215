/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * UEFI load options (Boot####): the ones that boot a URL, and any one's device path.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "device-path.h"
#include "load-option.h"
#include "macro.h"
#include "pe-image.h"
#include "utf16.h"

int load_option_make_uri(const char *title, const char *url, void **ret, size_t *ret_size) {
        _cleanup_free_ void *desc = NULL, *dp = NULL;
        size_t desc_size, dp_size, size;
        uint8_t *p;
        int r;

        assert(title);
        assert(url);
        assert(ret);
        assert(ret_size);

        r = utf8_to_utf16le(title, strlen(title), &desc, &desc_size);
        if (r < 0)
                return r;
        r = device_path_make_url(url, &dp, &dp_size);
        if (r < 0)
                return r;
        if (dp_size > UINT16_MAX)
                return -E2BIG;

        size = 4 + 2 + desc_size + dp_size;
        p = malloc(size);
        if (!p)
                return -ENOMEM;
        p[0] = LOAD_OPTION_ACTIVE;
        p[1] = p[2] = p[3] = 0;
        p[4] = (uint8_t) dp_size;
        p[5] = (uint8_t) (dp_size >> 8);
        memcpy(p + 6, desc, desc_size);
        memcpy(p + 6 + desc_size, dp, dp_size);
        *ret = p;
        *ret_size = size;
        return 0;
}

/* Offset of the device path (after the description) and its length. */
static int locate_file_path(const uint8_t *p, size_t size, size_t *ret_off, size_t *ret_len) {
        size_t dp_len, d = 6;

        if (size < 6)
                return -EBADMSG;
        dp_len = pe_le16(p + 4);
        /* The description ends at the first UTF-16 NUL. */
        while (d + 1 < size && (p[d] || p[d + 1]))
                d += 2;
        d += 2;
        if (d > size || dp_len > size - d)
                return -EBADMSG;
        *ret_off = d;
        *ret_len = dp_len;
        return 0;
}

int load_option_file_path(const void *data, size_t size, const void **ret_path, size_t *ret_path_size) {
        size_t off, len;
        int r;

        assert(data || size == 0);
        assert(ret_path);
        assert(ret_path_size);

        r = locate_file_path(data, size, &off, &len);
        if (r < 0)
                return r;
        *ret_path = (const uint8_t *) data + off;
        *ret_path_size = len;
        return 0;
}

int load_option_get_uri(const void *data, size_t size, char **ret_url, char **ret_title) {
        const uint8_t *p = data;
        size_t dp_len, d;
        char *url;
        int r;

        assert(data || size == 0);
        assert(ret_url);

        r = locate_file_path(p, size, &d, &dp_len);
        if (r < 0)
                return r;

        /* Exactly one Uri() node, then End. */
        if (dp_len < 8 || p[d] != DEVICE_PATH_TYPE_MESSAGING || p[d + 1] != DEVICE_PATH_SUBTYPE_URI ||
            pe_le16(p + d + 2) + 4u != dp_len)
                return -ENOENT;
        r = device_path_find_url(p + d, dp_len, &url);
        if (r < 0)
                return r;
        if (ret_title) {
                r = utf16le_to_utf8(p + 6, d - 6, ret_title);
                if (r < 0) {
                        free(url);
                        return r;
                }
        }
        *ret_url = url;
        return 0;
}
