/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for appending UKI sections to the stub this build made; the result is read back by our reader
 * and by binutils' objdump. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "pe-image.h"
#include "pe-writer.h"
#include "tests.h"
#include "uki-entry.h"

TEST(append_and_read_back) {
        const char *stub = getenv("URLBOOT_TEST_STUB");
        static char big[300000];
        PeNewSection add[] = {
                { ".osrel", "ID=test\n", 8 },
                { ".cmdline", "console=ttyS0", 13 },
                { ".initrd", big, sizeof big },
                { ".linux", "MZ-not-really-a-kernel", 22 },
        };
        char *image, error[256], path[512], cmd[700], line[256];
        void *uki;
        size_t size, uki_size;
        PeHeaders h;
        uint64_t last_va_end = 0, last_file_end = 0;
        int seen = 0;
        FILE *p;

        if (!stub || access(stub, F_OK) < 0) {
                test_note("no stub built (gnu-efi missing): skipped");
                return;
        }
        for (size_t i = 0; i < sizeof big; i++)
                big[i] = (char) (i * 7);
        ASSERT_OK(read_full_file(stub, 16 << 20, &image, &size));
        ASSERT_OK(pe_append_sections(image, size, add, 4, &uki, &uki_size, error, sizeof error));
        ASSERT_OK(pe_parse_headers(uki, uki_size, &h));

        for (size_t i = 0; i < h.n_sections; i++) {
                PeSection s;
                ASSERT_OK(pe_get_section(uki, uki_size, &h, i, &s));
                /* aligned, ascending, not overlapping, inside the file */
                ASSERT_EQ(s.virtual_address % h.section_alignment, 0);
                ASSERT_EQ(s.raw_offset % h.file_alignment, 0);
                ASSERT_TRUE(s.virtual_address >= last_va_end);
                if (s.raw_size) {
                        ASSERT_TRUE(s.raw_offset >= last_file_end);
                        ASSERT_TRUE((uint64_t) s.raw_offset + s.raw_size <= uki_size);
                        last_file_end = (uint64_t) s.raw_offset + s.raw_size;
                }
                last_va_end = (uint64_t) s.virtual_address + (s.virtual_size > s.raw_size ? s.virtual_size : s.raw_size);
        }
        ASSERT_TRUE(h.size_of_image >= last_va_end);
        ASSERT_EQ(h.size_of_image % h.section_alignment, 0);

        for (size_t i = 0; i < 4; i++) {
                const uint8_t *d;
                size_t n;
                ASSERT_OK(pe_find_section(uki, uki_size, add[i].name, false, &d, &n));
                ASSERT_EQ(n, add[i].size);
                ASSERT_TRUE(memcmp(d, add[i].data, n) == 0);
        }
        /* The checksum field holds the checksum of the file. */
        ASSERT_EQ(pe_le32((uint8_t *) uki + h.optional_header_offset + PE_OPT_CHECKSUM),
                  pe_checksum(uki, uki_size, h.optional_header_offset + PE_OPT_CHECKSUM));

        /* binutils agrees. */
        snprintf(path, sizeof path, "%s/uki.efi", test_tmpdir());
        ASSERT_OK(write_file_atomic(path, uki, uki_size, 0644));
        /* the binutils of the stub's machine (the build machine's objdump reads only its own PE flavour) */
        snprintf(cmd, sizeof cmd, "%s-linux-gnu-objdump -h %s 2>&1", h.machine == 0xaa64 ? "aarch64" : "x86_64", path);
        p = popen(cmd, "r");
        ASSERT_TRUE(p);
        while (fgets(line, sizeof line, p))
                for (size_t i = 0; i < 4; i++)
                        if (strstr(line, add[i].name))
                                seen++;
        pclose(p);
        ASSERT_EQ(seen, 4);
        free(uki);
        free(image);
}

TEST(refusals) {
        char error[256];
        void *out;
        size_t n;
        PeNewSection one = { ".x", "y", 1 };

        ASSERT_EQ(pe_append_sections("not a PE", 8, &one, 1, &out, &n, error, sizeof error), -EBADMSG);
}

TEST(profiles) {
        const char *stub = getenv("URLBOOT_TEST_STUB");
        PeNewSection add[] = {
                { ".cmdline", "base", 4 },
                { ".linux", "KERNEL", 6 },
                { ".profile", "ID=a", 4 },
                { ".profile", "ID=b", 4 },
                { ".cmdline", "one", 3 },
        };
        char *image, error[256];
        const uint8_t *d;
        size_t size, uki_size, n;
        void *uki;

        if (!stub || access(stub, F_OK) < 0)
                return;
        ASSERT_OK(read_full_file(stub, 16 << 20, &image, &size));
        ASSERT_OK(pe_append_sections(image, size, add, 5, &uki, &uki_size, error, sizeof error));
        ASSERT_EQ(pe_count_profiles(uki, uki_size), 2);
        ASSERT_OK(pe_find_profile_section(uki, uki_size, 0, ".cmdline", false, &d, &n));
        ASSERT_TRUE(n == 4 && memcmp(d, "base", 4) == 0);
        ASSERT_OK(pe_find_profile_section(uki, uki_size, 1, ".cmdline", false, &d, &n));
        ASSERT_TRUE(n == 3 && memcmp(d, "one", 3) == 0);
        ASSERT_OK(pe_find_profile_section(uki, uki_size, 1, ".linux", false, &d, &n));
        ASSERT_TRUE(n == 6 && memcmp(d, "KERNEL", 6) == 0);
        ASSERT_EQ(pe_find_profile_section(uki, uki_size, 2, ".cmdline", false, &d, &n), -ERANGE);
        ASSERT_EQ(pe_find_profile_section(uki, uki_size, 0, ".initrd", false, &d, &n), -ENOENT);
        /* An image without profiles has exactly profile 0. */
        ASSERT_EQ(pe_count_profiles(image, size), 1);
        ASSERT_EQ(pe_find_profile_section(image, size, 1, ".text", false, &d, &n), -ERANGE);
        free(uki);
        free(image);
}

/* A PE32+ image made here: headers of header_size bytes, then n sections named names[i % n_names],
 * each with raw_size bytes of data (0: none). Section alignment 1, as a hostile --stub may have it; file
 * alignment 512, the smallest the writer takes. */
static uint8_t *make_pe(size_t header_size, unsigned n, const char *const *names, size_t n_names, size_t raw_size,
                        size_t *ret_size) {
        size_t table = 0x40 + 24 + 240, data = table + (size_t) n * PE_SECTION_HEADER_SIZE, size;
        uint8_t *p;

        if (header_size < data)
                header_size = data;
        size = header_size + (size_t) n * raw_size;
        p = calloc(1, size);
        ASSERT_TRUE(p);
        p[0] = 'M', p[1] = 'Z', p[0x3c] = 0x40;
        memcpy(p + 0x40, "PE\0\0", 4);
        p[0x44] = 0x64, p[0x45] = 0x86;                         /* x86-64 */
        p[0x46] = (uint8_t) n, p[0x47] = (uint8_t) (n >> 8);
        p[0x54] = 240;                                          /* SizeOfOptionalHeader */
        p[0x58] = 0x0b, p[0x59] = 0x02;                         /* PE32+ */
        p[0x58 + PE_OPT_SECTION_ALIGNMENT] = 1;
        p[0x58 + PE_OPT_FILE_ALIGNMENT + 1] = 2;                /* 512 */
        memcpy(p + 0x58 + PE_OPT_SIZE_OF_HEADERS, &(uint32_t) { (uint32_t) header_size }, 4);
        p[0x58 + PE_OPT_NUMBER_OF_RVA_AND_SIZES] = 16;
        for (unsigned i = 0; i < n; i++) {
                uint8_t *s = p + table + (size_t) i * PE_SECTION_HEADER_SIZE;
                uint32_t off = (uint32_t) (header_size + i * raw_size), sz = (uint32_t) raw_size;

                memcpy(s, names[i % n_names], strlen(names[i % n_names]));
                memcpy(s + 8, &sz, 4);
                memcpy(s + 12, &off, 4);
                memcpy(s + 16, &sz, 4);
                memcpy(s + 20, &off, 4);
                memset(p + off, 'A' + (int) (i % 26), raw_size);
        }
        *ret_size = size;
        return p;
}

/* A file alignment of 2 GiB would make the writer allocate gigabytes (found by fuzz-pe-writer):
 * the PE format's 512..64K, a power of two, is what it takes. */
TEST(file_alignment_is_bounded) {
        static const uint32_t bad[] = { 1, 256, 0x20000, 0x80000000, 1000 };
        PeNewSection add[] = { { ".osrel", "ID", 2 } };
        char error[256];
        size_t size, uki_size;
        uint8_t *stub = make_pe(4096, 0, NULL, 0, 0, &size);
        void *uki;

        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                memcpy(stub + 0x58 + PE_OPT_FILE_ALIGNMENT, &bad[i], 4);
                ASSERT_EQ(pe_append_sections(stub, size, add, 1, &uki, &uki_size, error, sizeof error), -EBADMSG);
                ASSERT_TRUE(strstr(error, "file alignment"));
        }
        memcpy(stub + 0x58 + PE_OPT_FILE_ALIGNMENT, &(uint32_t) { 65536 }, 4);
        ASSERT_OK(pe_append_sections(stub, size, add, 1, &uki, &uki_size, error, sizeof error));
        free(uki);
        free(stub);
}

/* docs/security.md L7: a stub without section data used to make the writer overflow its buffer. */
TEST(append_to_stub_without_section_data) {
        PeNewSection add[] = { { ".osrel", "ID", 2 } };
        char error[256];
        size_t size, uki_size, n;
        uint8_t *stub = make_pe(4096, 0, NULL, 0, 0, &size);
        const uint8_t *d;
        PeHeaders h;
        void *uki;

        ASSERT_OK(pe_append_sections(stub, size, add, 1, &uki, &uki_size, error, sizeof error));
        ASSERT_OK(pe_parse_headers(uki, uki_size, &h));
        ASSERT_EQ(h.n_sections, 1);
        ASSERT_OK(pe_find_section(uki, uki_size, ".osrel", false, &d, &n));
        ASSERT_TRUE(n == 2 && memcmp(d, "ID", 2) == 0 && d >= (const uint8_t *) uki + 4096);
        free(uki);
        free(stub);
}

/* docs/security.md L8: 65535 profiles must not stall the boot manager: at most 256 count, in one walk. */
TEST(many_profiles_are_capped) {
        static const char *const names[] = { ".profile", ".osrel" };
        BlsEntry *entries[300];
        size_t size;
        uint8_t *uki = make_pe(0, 65534, names, 2, 8, &size);
        int n;

        ASSERT_EQ(pe_count_profiles(uki, size), PE_PROFILES_MAX);
        n = uki_entries_make("many.efi", "/EFI/Linux/many.efi", uki, size, false, entries, 300);
        /* Each profile has its .osrel ("OOOOOOOO" is no os-release: no title), so none is shown. */
        ASSERT_TRUE(n >= 0 && n <= PE_PROFILES_MAX);
        for (int i = 0; i < n; i++)
                bls_entry_free(entries[i]);
        ASSERT_EQ(pe_find_profile_section(uki, size, PE_PROFILES_MAX, ".osrel", false,
                                          &(const uint8_t *) { NULL }, &(size_t) { 0 }), -ERANGE);
        free(uki);
}
