/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for finding the NIC the firmware booted from (BootCurrent → Boot#### → MAC node), the
 * networkd files that make network-online wait for it, and the boot manager's reading of its own
 * network path (the IPv4 node's address; the same path with another URL). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boot-nic.h"
#include "device-path.h"
#include "fileio.h"
#include "tests.h"

#define GLOBAL "8be4df61-93ca-11d2-aa0d-00e098032b8c"

/* An HTTP boot option as OVMF writes it: PciRoot(0x0)/Pci(0x3,0x0)/MAC(525400123456,0x1)/IPv4(...)/Uri(). */
static const uint8_t http_option[] = {
        0x01, 0, 0, 0,                                          /* LOAD_OPTION_ACTIVE */
        12 + 6 + 37 + 27 + 4 + 4, 0,                            /* FilePathListLength */
        'H', 0, 'T', 0, 'T', 0, 'P', 0, 0, 0,                   /* description */
        0x02, 0x01, 12, 0, 0xd0, 0x41, 0x03, 0x0a, 0, 0, 0, 0,  /* PciRoot(0x0) */
        0x01, 0x01, 6, 0, 0, 3,                                 /* Pci(0x3,0x0) */
        0x03, 0x0b, 37, 0, 0x52, 0x54, 0x00, 0x12, 0x34, 0x56,  /* MAC(525400123456,0x1) */
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        0x03, 0x0c, 27, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* IPv4() */
        0x03, 0x18, 4, 0,                                       /* Uri() */
        0x7f, 0xff, 4, 0,                                       /* End */
};

static void put_variable(const char *dir, const char *name, const void *data, size_t size) {
        char path[4096];
        uint8_t *buf = malloc(4 + size);

        ASSERT_TRUE(buf);
        memcpy(buf, "\x07\0\0\0", 4);
        memcpy(buf + 4, data, size);
        snprintf(path, sizeof path, "%s/%s-" GLOBAL, dir, name);
        ASSERT_OK(write_file_atomic(path, buf, 4 + size, 0644));
        free(buf);
}

TEST(mac_node) {
        uint8_t mac[6];
        char s[18];
        uint8_t path[64];
        size_t off = 6 + 10;       /* the path inside http_option */

        ASSERT_OK(device_path_find_mac(http_option + off, sizeof http_option - off, mac));
        ASSERT_STREQ(mac_to_string(mac, s), "52:54:00:12:34:56");

        /* The MAC node cut short: malformed, not "absent". */
        memcpy(path, http_option + off + 18, 4);
        path[2] = 10;
        memcpy(path + 4, http_option + off + 22, 6);
        memcpy(path + 10, "\x7f\xff\x04\x00", 4);
        ASSERT_EQ(device_path_find_mac(path, 14, mac), -EBADMSG);

        /* Another interface type (6: IEEE 802.5) is no Ethernet address. */
        memcpy(path, http_option + off + 18, 37);
        path[36] = 6;
        memcpy(path + 37, "\x7f\xff\x04\x00", 4);
        ASSERT_EQ(device_path_find_mac(path, 41, mac), -ENOENT);

        /* A disk path has none; a path without End that runs out is malformed. */
        ASSERT_EQ(device_path_find_mac("\x04\x01\x04\x00\x7f\xff\x04\x00", 8, mac), -ENOENT);
        ASSERT_EQ(device_path_find_mac(http_option + off, 20, mac), -EBADMSG);
}

TEST(boot_current_to_network_files) {
        const char *dir = test_tmpdir();
        char efivars[2048], net[2048], path[4096], template[4096], *text;
        uint8_t mac[6];
        unsigned option;

        snprintf(efivars, sizeof efivars, "%s/efivars", dir);
        snprintf(net, sizeof net, "%s/network", dir);
        ASSERT_OK(mkdir(efivars, 0755) < 0 ? -errno : 0);
        setenv("URLBOOT_EFIVARFS", efivars, 1);

        /* Not booted through a boot option at all. */
        ASSERT_EQ(boot_nic_find(mac, &option), -ENOENT);

        put_variable(efivars, "BootCurrent", "\x0a\x00", 2);
        put_variable(efivars, "Boot000A", http_option, sizeof http_option);
        ASSERT_OK(boot_nic_find(mac, &option));
        ASSERT_EQ(option, 10);
        ASSERT_EQ(mac[5], 0x56);

        /* The dracut module's own DHCP file is the template. */
        snprintf(template, sizeof template, "%s", test_data_path("../../dracut/90urlboot/90-urlboot-dhcp.network"));
        ASSERT_OK(boot_nic_write_network(net, template, mac, option));
        snprintf(path, sizeof path, "%s/80-urlboot-boot-nic.network", net);
        ASSERT_OK(read_full_file(path, 65536, &text, NULL));
        ASSERT_TRUE(strstr(text, "\nMACAddress=52:54:00:12:34:56\n"));
        ASSERT_TRUE(strstr(text, "\nRequiredForOnline=yes\n"));
        ASSERT_TRUE(strstr(text, "Boot000A"));
        ASSERT_TRUE(strstr(text, "\nDHCP=ipv4\n"));          /* the template's settings */
        ASSERT_TRUE(strstr(text, "\nType=ether\n"));
        free(text);
        /* The other links keep the template (DHCP too) and are not waited for. */
        snprintf(path, sizeof path, "%s/90-urlboot-dhcp.network.d/50-urlboot-boot-nic.conf", net);
        ASSERT_OK(read_full_file(path, 65536, &text, NULL));
        ASSERT_TRUE(strstr(text, "\nRequiredForOnline=no\n"));
        free(text);
        ASSERT_OK(read_full_file(template, 65536, &text, NULL));
        ASSERT_TRUE(strstr(text, "\nDHCP=ipv4\n"));
        free(text);
        /* No template, no files: every link counts, as without us. */
        ASSERT_EQ(boot_nic_write_network(net, "/nonexistent/90-x.network", mac, option), -ENOENT);

        /* A disk boot option: nothing to prefer. */
        put_variable(efivars, "Boot000A", "\x01\0\0\0\x08\0X\0\0\0\x04\x01\x04\0\x7f\xff\x04\0", 18);
        ASSERT_EQ(boot_nic_find(mac, &option), -ENOENT);
        /* BootCurrent of the wrong size. */
        put_variable(efivars, "BootCurrent", "\x0a", 1);
        ASSERT_EQ(boot_nic_find(mac, &option), -EBADMSG);
        unsetenv("URLBOOT_EFIVARFS");
}

/* A network-booted image's path after DHCP, as OVMF's HTTP boot rewrites it. */
static const uint8_t booted_path[] = {
        0x01, 0x01, 6, 0, 0, 3,                                 /* Pci(0x3,0x0) */
        0x03, 0x0c, 27, 0, 10, 0, 2, 15, 0, 0, 0, 0, 0, 0, 0x90, 0x1f, 6, 0, 0,  /* IPv4(10.0.2.15,...) */
        10, 0, 2, 2, 255, 255, 255, 0,                          /* gateway, mask */
        0x03, 0x18, 4 + 5, 0, 'h', 't', 't', 'p', ':',          /* Uri(http:) */
        0x7f, 0xff, 4, 0,
};

TEST(ipv4_node) {
        uint8_t local[4], mask[4], path[64];

        ASSERT_OK(device_path_find_ipv4(booted_path, sizeof booted_path, local, mask));
        ASSERT_TRUE(memcmp(local, "\x0a\x00\x02\x0f", 4) == 0);
        ASSERT_TRUE(memcmp(mask, "\xff\xff\xff\x00", 4) == 0);
        /* Before DHCP the node says 0.0.0.0: no address to use. */
        memcpy(path, booted_path, sizeof booted_path);
        memset(path + 6 + 4, 0, 4);
        ASSERT_EQ(device_path_find_ipv4(path, sizeof booted_path, local, mask), -ENOENT);
        /* A node too short for its fields. */
        path[6 + 2] = 20;
        ASSERT_EQ(device_path_find_ipv4(path, sizeof booted_path, local, mask), -EBADMSG);
        ASSERT_EQ(device_path_find_ipv4(http_option + 16, sizeof http_option - 16, local, mask), -ENOENT);
}

TEST(replace_url) {
        static const char url[] = "http://10.0.2.2:8080/os.efi";
        void *p;
        size_t n;
        char *found;

        ASSERT_OK(device_path_replace_url(booted_path, sizeof booted_path, url, &p, &n));
        ASSERT_EQ(n, 6 + 27 + 4 + strlen(url) + 1 + 4);
        ASSERT_EQ(((uint8_t *) p)[6 + 27 + 4 + strlen(url)], 0);        /* the NUL systemd-stub needs */
        ASSERT_TRUE(memcmp(p, booted_path, 6 + 27) == 0);
        ASSERT_OK(device_path_find_url(p, n, &found));
        ASSERT_STREQ(found, url);
        free(found);
        free(p);
        /* A path without Uri() has no URL to replace. */
        ASSERT_EQ(device_path_replace_url("\x04\x01\x04\x00\x7f\xff\x04\x00", 8, url, &p, &n), -ENOENT);
}
