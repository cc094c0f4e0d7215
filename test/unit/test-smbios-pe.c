/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for the SMBIOS entry point and walker, device paths (test/data), and PE reading against the stub
 * this build made. */
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

#include "device-path.h"
#include "fileio.h"
#include "pe-image.h"
#include "smbios.h"
#include "tests.h"

static int collect(const char *s, size_t n, void *userdata) {
        char **out = userdata;
        size_t old = *out ? strlen(*out) : 0;

        *out = realloc(*out, old + n + 2);
        memcpy(*out + old, s, n);
        (*out)[old + n] = '|';
        (*out)[old + n + 1] = 0;
        return 0;
}

TEST(smbios_walk) {
        /* type 1 with one string, type 11 with two, type 11 without strings, end marker */
        static const uint8_t table[] = {
                1, 4, 0, 0, 'v', 'm', 0, 0,
                11, 5, 1, 0, 2, 'a', '=', '1', 0, 'i', 'o', '.', 'x', 0, 0,
                11, 5, 2, 0, 0, 0, 0,
                127, 4, 3, 0, 0, 0,
        };
        char *got = NULL;

        ASSERT_OK(smbios_oem_strings_foreach(table, sizeof table, collect, &got));
        ASSERT_STREQ(got, "a=1|io.x|");
        free(got);
        got = NULL;
        /* Cut inside a string set: refused, not read past the end. */
        ASSERT_EQ(smbios_oem_strings_foreach(table, 16, collect, &got), -EBADMSG);
        free(got);
        ASSERT_EQ(smbios_oem_strings_foreach((const uint8_t[]) { 11, 2, 0, 0 }, 4, collect, &got), -EBADMSG);
}

/* The hex of a data file as a buffer of exactly its size, so the sanitizers see any read beyond it. */
static uint8_t *unhex(const char *hex, size_t *ret_size) {
        size_t n = strcmp(hex, "-") == 0 ? 0 : strlen(hex) / 2;
        uint8_t *b = malloc(n ? n : 1);

        for (size_t i = 0; i < n; i++)
                ASSERT_TRUE(sscanf(hex + 2 * i, "%2hhx", &b[i]) == 1);
        *ret_size = n;
        return b;
}

static const char *result_text(int r, const char *text) {
        return r == -EBADMSG ? "-EBADMSG" : r == -ENOENT ? "-ENOENT" : r < 0 ? "-E?" : text;
}

static void entry_point_case(char *line, int lineno, void *userdata) {
        char *f[3], got[40];
        int *count = userdata, r;
        uint64_t address = 0;
        size_t n, size = 0;
        uint8_t *ep;

        ASSERT_EQ(test_split_fields(line, f, 3), 3);
        ep = unhex(f[0], &n);
        r = smbios_table_from_entry_point(ep, n, &address, &size);
        snprintf(got, sizeof got, "0x%" PRIx64, address);
        if (strcmp(result_text(r, got), f[1]) != 0 || (r >= 0 && size != strtoul(f[2], NULL, 10)))
                test_fail(__FILE__, __LINE__, "line %d: got %s (size %zu), want %s (%s)", lineno, result_text(r, got),
                          size, f[1], f[2]);
        free(ep);
        (*count)++;
}

TEST(smbios_entry_points) {
        int n = 0;

        test_foreach_line("smbios-entry-point-cases.tsv", entry_point_case, &n);
        test_note("%d entry points", n);
        ASSERT_TRUE(n >= 8);
}

static void device_path_case(char *line, int lineno, void *userdata) {
        char *f[3], *url = NULL, *uuid = NULL;
        int *count = userdata, r;
        size_t n;
        uint8_t *dp;

        ASSERT_EQ(test_split_fields(line, f, 3), 3);
        dp = unhex(f[0], &n);
        r = device_path_find_url(dp, n, &url);
        if (strcmp(result_text(r, url), f[1]) != 0)
                test_fail(__FILE__, __LINE__, "line %d: URL %s, want %s", lineno, result_text(r, url), f[1]);
        r = device_path_find_partition_uuid(dp, n, &uuid);
        if (strcmp(result_text(r, uuid), f[2]) != 0)
                test_fail(__FILE__, __LINE__, "line %d: partition %s, want %s", lineno, result_text(r, uuid), f[2]);
        free(url);
        free(uuid);
        free(dp);
        (*count)++;
}

TEST(device_path_cases) {
        int n = 0;

        test_foreach_line("device-path-cases.tsv", device_path_case, &n);
        test_note("%d device paths", n);
        ASSERT_TRUE(n >= 11);
}

TEST(smbios_entry_strings) {
        const char *s = "io.systemd.boot.entries-extra:demo.conf=title x\nuki-url :uki.efi";
        const char *name, *body;
        size_t nl, bl;

        ASSERT_TRUE(smbios_entry_split(s, strlen(s), &name, &nl, &body, &bl));
        ASSERT_EQ(nl, 9);
        ASSERT_TRUE(strncmp(name, "demo.conf", nl) == 0);
        ASSERT_TRUE(strncmp(body, "title x\n", 8) == 0);
        ASSERT_FALSE(smbios_entry_split("io.systemd.boot.entries-extra:=x", 32, &name, &nl, &body, &bl));
        ASSERT_FALSE(smbios_entry_split("io.systemd.stub.kernel-cmdline-extra=x", 38, &name, &nl, &body, &bl));
        ASSERT_FALSE(smbios_entry_split("io.systemd.boot.entries-extra:noequals", 38, &name, &nl, &body, &bl));
}

TEST(device_path_url) {
        void *dp;
        size_t size;
        char *url;
        /* PCI node, then Uri(), as OVMF leaves it */
        uint8_t path[128] = { 1, 1, 6, 0, 0, 2 };

        ASSERT_OK(device_path_make_url("http://10.0.2.2:8080/uki.efi", &dp, &size));
        ASSERT_EQ(size, 4 + 28 + 4);
        memcpy(path + 6, dp, size);
        ASSERT_OK(device_path_find_url(path, 6 + size, &url));
        ASSERT_STREQ(url, "http://10.0.2.2:8080/uki.efi");
        free(url);
        ASSERT_EQ(device_path_find_url(path, 6 + 10, &url), -EBADMSG); /* Uri() node cut */
        ASSERT_EQ(device_path_find_url((const uint8_t[]) { 0x7f, 0xff, 4, 0 }, 4, &url), -ENOENT);
        ASSERT_EQ(device_path_find_url((const uint8_t[]) { 1, 1, 2, 0 }, 4, &url), -EBADMSG); /* length < 4 */
        free(dp);
}

TEST(pe_reads_our_stub) {
        const char *stub = getenv("URLBOOT_TEST_STUB");
        const uint8_t *data;
        char *image;
        size_t size, n;
        PeHeaders h;

        if (!stub || access(stub, F_OK) < 0) {
                test_note("no stub built (gnu-efi missing): skipped");
                return;
        }
        ASSERT_OK(read_full_file(stub, 16 << 20, &image, &size));
        ASSERT_OK(pe_parse_headers(image, size, &h));
        ASSERT_TRUE(h.pe32plus);
#if defined(__aarch64__)
        ASSERT_EQ(h.machine, 0xaa64);   /* the stub of this build's architecture */
#else
        ASSERT_EQ(h.machine, 0x8664);
#endif
        ASSERT_OK(pe_find_section(image, size, ".text", false, &data, &n));
        ASSERT_TRUE(n > 1000);
        ASSERT_EQ(pe_find_section(image, size, ".linux", false, &data, &n), -ENOENT);
        /* Cut files are refused, never read beyond. */
        ASSERT_EQ(pe_parse_headers(image, 0x40, &h), -EBADMSG);
        ASSERT_EQ(pe_parse_headers("MZ", 2, &h), -EBADMSG);
        free(image);
}
