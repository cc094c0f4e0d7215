/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: EFI load options (Boot####) as urlbootctl reads them from firmware and VARS files, and
 * OVMF variable stores. Oracles: a URL read from a load option is one that load_option_make_uri()
 * writes back to the same bytes' meaning (same URL and title when read again); a variable set in a
 * store that accepts it reads back exactly, and nothing else in the store changes its value. Any load
 * option's device path lies inside it, a MAC address found there is bytes of that path, and the same path
 * with its URL replaced reads back with the new URL and the same IPv4 address. */
#include <stdlib.h>
#include <string.h>

#include "device-path.h"
#include "fuzz.h"
#include "load-option.h"
#include "ovmf-vars.h"

static const uint8_t guid[16] = { 0x61, 0xdf, 0xe4, 0x8b, 0xca, 0x93, 0xd2, 0x11, 0xaa, 0x0d, 0x00, 0xe0, 0x98, 0x03, 0x2b, 0x8c };

static void check_load_option(const uint8_t *data, size_t size) {
        char *url = NULL, *title = NULL, *url2 = NULL, *title2 = NULL;
        void *again = NULL;
        size_t again_size;

        if (load_option_get_uri(data, size, &url, &title) < 0)
                return;
        if (!url || !title)
                abort();
        /* What we read we can write, and it reads back the same. */
        if (load_option_make_uri(title, url, &again, &again_size) >= 0) {
                if (load_option_get_uri(again, again_size, &url2, &title2) < 0 || strcmp(url, url2) != 0 ||
                    strcmp(title, title2) != 0)
                        abort();
        }
        free(url);
        free(title);
        free(url2);
        free(title2);
        free(again);
}

static void check_replaced_url(const uint8_t *path, size_t path_size) {
        static const char url[] = "http://10.0.2.2:8080/os.efi";
        uint8_t local[4], mask[4], local2[4], mask2[4];
        void *p;
        size_t n;
        char *found;

        if (device_path_replace_url(path, path_size, url, &p, &n) < 0)
                return;
        if (device_path_find_url(p, n, &found) < 0 || strcmp(found, url) != 0)
                abort();
        /* The nodes before Uri() are the original's: an address among them is the original's first. */
        if (device_path_find_ipv4(p, n, local2, mask2) >= 0 &&
            (device_path_find_ipv4(path, path_size, local, mask) < 0 || memcmp(local, local2, 4) != 0 ||
             memcmp(mask, mask2, 4) != 0))
                abort();
        free(found);
        free(p);
}

static void check_file_path(const uint8_t *data, size_t size) {
        const uint8_t *path;
        size_t path_size;
        uint8_t mac[6];
        char text[18];

        if (load_option_file_path(data, size, (const void **) &path, &path_size) < 0)
                return;
        if (path < data || path_size > size || (size_t) (path - data) > size - path_size)
                abort();
        check_replaced_url(path, path_size);
        if (device_path_find_mac(path, path_size, mac) < 0)
                return;
        if (!memmem(path, path_size, mac, sizeof mac) || strlen(mac_to_string(mac, text)) != 17)
                abort();
}

static void check_store(const uint8_t *data, size_t size) {
        uint8_t *store = malloc(size ? size : 1);
        const uint8_t *v;
        size_t n;

        if (!store)
                return;
        memcpy(store, data, size);
        if (ovmf_vars_set(store, size, "UrlbootFuzz", guid, 7, "value", 5) >= 0) {
                if (ovmf_vars_get(store, size, "UrlbootFuzz", guid, &v, &n) < 0 || n != 5 || memcmp(v, "value", 5) != 0)
                        abort();
                /* Removing it leaves it absent. */
                if (ovmf_vars_set(store, size, "UrlbootFuzz", guid, 7, NULL, 0) >= 0 &&
                    ovmf_vars_get(store, size, "UrlbootFuzz", guid, &v, &n) >= 0)
                        abort();
        }
        free(store);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        check_load_option(data, size);
        check_file_path(data, size);
        check_store(data, size);
        return 0;
}
