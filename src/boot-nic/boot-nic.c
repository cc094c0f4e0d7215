/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The NIC the firmware booted from, and networkd configuration that waits for it alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot-nic.h"
#include "device-path.h"
#include "efivars.h"
#include "fileio.h"
#include "load-option.h"
#include "macro.h"
#include "mkdir.h"
#include "pe-image.h"

/* The same DHCP settings as the dracut module's 90-urlboot-dhcp.network. */
#define NETWORK_SETTINGS \
        "[Network]\n" \
        "DHCP=ipv4\n" \
        "LinkLocalAddressing=no\n" \
        "IPv6AcceptRA=no\n"

int boot_nic_find(uint8_t ret_mac[6], unsigned *ret_option) {
        _cleanup_free_ void *current = NULL, *option = NULL;
        size_t size, path_size;
        const void *path;
        char name[9];
        unsigned n;
        int r;

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

int boot_nic_write_network(const char *dir, const uint8_t mac[6], unsigned option) {
        _cleanup_free_ char *boot = NULL;
        char address[18];
        int r;

        r = mkdir_p(dir, 0755);
        if (r < 0)
                return r;
        if (asprintf(&boot,
                     "# Written by urlboot-boot-nic: the NIC of Boot%04X, the boot option the firmware started.\n"
                     "[Match]\n"
                     "MACAddress=%s\n"
                     "Type=ether\n"
                     "Kind=!*\n"
                     "\n"
                     "[Link]\n"
                     "RequiredForOnline=yes\n"
                     "\n" NETWORK_SETTINGS,
                     option, mac_to_string(mac, address)) < 0)
                return -ENOMEM;
        r = write_network_file(dir, "80-urlboot-boot-nic.network", boot);
        if (r < 0)
                return r;
        return write_network_file(dir, "81-urlboot-other-nics.network",
                                  "# Written by urlboot-boot-nic: other Ethernet links are configured too, but\n"
                                  "# network-online waits for the NIC the firmware booted from.\n"
                                  "[Match]\n"
                                  "Type=ether\n"
                                  "Kind=!*\n"
                                  "\n"
                                  "[Link]\n"
                                  "RequiredForOnline=no\n"
                                  "\n" NETWORK_SETTINGS);
}
