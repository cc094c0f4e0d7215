/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Authenticode (src/fundamental/pe-authenticode.c): our hash of a UKI equals the digest sbsign put in its
 * signature (sbsign hashes with its own code: the oracle), a changed byte inside a section or after the
 * sections is "changed after it was signed", the fields Authenticode leaves out are not, and an unsigned
 * image says so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "pe-authenticode.h"
#include "pe-image.h"
#include "pe-writer.h"
#include "tests.h"

/* A UKI made of the stub this build made, written to dir/uki.efi; and signed with a new key to signed.efi. */
static bool make_signed(const char *dir) {
        const char *stub = getenv("URLBOOT_TEST_STUB");
        static char big[70000];
        PeNewSection add[] = { { ".osrel", "ID=test\n", 8 }, { ".cmdline", "quiet", 5 }, { ".linux", big, sizeof big } };
        char *image, error[256], path[512], cmd[2048];
        void *uki;
        size_t size, uki_size;
        FILE *f;

        if (!stub || access(stub, F_OK) < 0)
                return false;
        for (size_t i = 0; i < sizeof big; i++)
                big[i] = (char) (i * 13);
        ASSERT_OK(read_full_file(stub, 16 << 20, &image, &size));
        ASSERT_OK(pe_append_sections(image, size, add, 3, &uki, &uki_size, error, sizeof error));
        snprintf(path, sizeof path, "%s/uki.efi", dir);
        f = fopen(path, "we");
        ASSERT_TRUE(f && fwrite(uki, 1, uki_size, f) == uki_size && fclose(f) == 0);
        free(uki);
        free(image);
        snprintf(cmd, sizeof cmd,
                 "cd '%s' && openssl req -x509 -newkey rsa:2048 -nodes -keyout k.key -out k.pem -days 2 "
                 "-subj /CN=authenticode-test >/dev/null 2>&1 && sbsign --key k.key --cert k.pem --output signed.efi "
                 "uki.efi >/dev/null 2>&1",
                 dir);
        ASSERT_EQ(system(cmd), 0);
        return true;
}

static char *load(const char *dir, const char *name, size_t *size) {
        char path[512], *data;

        snprintf(path, sizeof path, "%s/%s", dir, name);
        ASSERT_OK(read_full_file(path, 64 << 20, &data, size));
        return data;
}

TEST(signed_unsigned_changed) {
        const char *d = test_tmpdir();
        uint8_t ours[SHA256_DIGEST_SIZE], theirs[SHA256_DIGEST_SIZE];
        char *signed_image, *unsigned_image;
        size_t n, un;
        PeHeaders h;

        if (system("command -v sbsign >/dev/null") != 0 || !make_signed(d)) {
                test_note("no stub built or no sbsign: skipped");
                return;
        }
        signed_image = load(d, "signed.efi", &n);
        unsigned_image = load(d, "uki.efi", &un);

        ASSERT_OK(pe_signature_sha256(signed_image, n, theirs));
        ASSERT_OK(pe_authenticode_sha256(signed_image, n, ours));
        ASSERT_TRUE(memcmp(ours, theirs, sizeof ours) == 0);
        ASSERT_EQ(pe_signature_verdict(signed_image, n), PE_INTACT);
        /* the unsigned image hashes the same: the signature adds only what Authenticode leaves out */
        ASSERT_OK(pe_authenticode_sha256(unsigned_image, un, ours));
        ASSERT_TRUE(memcmp(ours, theirs, sizeof ours) == 0);
        ASSERT_EQ(pe_signature_sha256(unsigned_image, un, theirs), -ENOENT);
        ASSERT_EQ(pe_signature_verdict(unsigned_image, un), PE_UNSIGNED);

        /* CheckSum is left out of the hash: changing it changes nothing */
        ASSERT_OK(pe_parse_headers(signed_image, n, &h));
        signed_image[h.optional_header_offset + PE_OPT_CHECKSUM] ^= 0x55;
        ASSERT_EQ(pe_signature_verdict(signed_image, n), PE_INTACT);
        /* a byte of .linux (near the end of the sections) is not */
        signed_image[un - 100] ^= 1;
        ASSERT_EQ(pe_signature_verdict(signed_image, n), PE_CHANGED);
        signed_image[un - 100] ^= 1;
        ASSERT_EQ(pe_signature_verdict(signed_image, n), PE_INTACT);
        /* a byte of the headers neither */
        signed_image[h.optional_header_offset + PE_OPT_SIZE_OF_IMAGE - 4] ^= 1;
        ASSERT_EQ(pe_signature_verdict(signed_image, n), PE_CHANGED);

        /* no PE at all, a cut image: cannot tell, never a crash */
        ASSERT_EQ(pe_signature_verdict("MZ", 2), PE_UNKNOWN);
        ASSERT_EQ(pe_signature_verdict(signed_image, 1024), PE_UNKNOWN);
        free(signed_image);
        free(unsigned_image);
}
