/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The NIC the firmware booted from, and networkd configuration that waits for it alone.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot-nic.h"
#include "device-path.h"
#include "efivars.h"
#include "fileio.h"
#include "generator.h"
#include "load-option.h"
#include "macro.h"
#include "mkdir.h"
#include "path-util.h"
#include "pe-image.h"

#define TEMPLATE_MAX (64U * 1024)
int boot_nic_find(uint8_t ret_mac[6], unsigned *ret_option) {
        _cleanup_free_ void *current = NULL, *option = NULL;
        size_t size, path_size;
        const void *path;
        char name[9];
        unsigned n;
        int r;

        assert(ret_mac);

        r = efi_get_variable("BootCurrent", EFI_VENDOR_GLOBAL_STR, NULL, &current, &size);
        if (r < 0)
                return r;
        if (size != 2)
                return -EBADMSG;
        n = pe_le16(current);
        snprintf(name, sizeof name, "Boot%04X", n);
        r = efi_get_variable(name, EFI_VENDOR_GLOBAL_STR, NULL, &option, &size);
        if (r < 0)
                return r;
        r = load_option_file_path(option, size, &path, &path_size);
        if (r < 0)
                return r;
        r = device_path_find_mac(path, path_size, ret_mac);
        if (r < 0)
                return r;
        if (ret_option)
                *ret_option = n;
        return 0;
}

static int write_network_file(const char *dir, const char *name, const char *text) {
        _cleanup_free_ char *path = NULL;

        if (asprintf(&path, "%s/%s", dir, name) < 0)
                return -ENOMEM;
        return write_file_atomic(path, text, strlen(text), 0644);
}

/* The links the template matches that are not the boot NIC (which 80-… takes first) are not waited for:
 * a drop-in on the template, written as the generators write theirs. */
static int write_others_dropin(const char *dir, const char *template_name) {
        return generator_write_dropin(dir, template_name, "50-urlboot-boot-nic",
                                      "# Written by urlboot-boot-nic: network-online waits for the NIC the firmware\n"
                                      "# booted from (80-urlboot-boot-nic.network), not for these links.\n"
                                      "[Link]\n"
                                      "RequiredForOnline=no\n");
}

int boot_nic_write_network(const char *dir, const char *template_path, const uint8_t mac[6], unsigned option) {
        _cleanup_free_ char *template = NULL, *boot = NULL, *name = NULL;
        char address[18];
        int r;

        assert(dir);
        assert(template_path);
        assert(mac);

        r = read_full_file(template_path, TEMPLATE_MAX, &template, NULL);
        if (r < 0)
                return r;
        r = path_extract_filename(template_path, &name);
        if (r < 0)
                return r;
        r = mkdir_p(dir, 0755);
        if (r < 0)
                return r;
        /* The template's own settings and [Match] (networkd ANDs the sections), narrowed to this address. */
        if (asprintf(&boot,
                     "# Written by urlboot-boot-nic: %s for the NIC of Boot%04X, the boot option the\n"
                     "# firmware started.\n"
                     "[Match]\n"
                     "MACAddress=%s\n"
                     "\n"
                     "[Link]\n"
                     "RequiredForOnline=yes\n"
                     "\n"
                     "%s",
                     name, option, mac_to_string(mac, address), template) < 0)
                return -ENOMEM;
        r = write_network_file(dir, "80-urlboot-boot-nic.network", boot);
        if (r < 0)
                return r;
        return write_others_dropin(dir, name);
}
