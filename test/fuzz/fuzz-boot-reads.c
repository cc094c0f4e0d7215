/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: the read-ahead list a server hands the lazy disk's plugin (src/lazy/boot-reads.c). Oracle: an
 * independent reading, line by line with strtoull(), repeats found by a plain search, which must accept the
 * same lists and give the same offsets in the same order. Input: the list (at most 64 KiB). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "boot-reads.h"
#include "fuzz.h"

/* The reference's offsets, or -1 for a list it refuses. */
static long reference(const char *text, size_t size, uint64_t *out) {
        long n = 0;
        size_t start = 0;

        while (start < size) {
                size_t end = start, len;
                char digits[32];
                uint64_t v;
                bool seen = false;

                while (end < size && text[end] != '\n')
                        end++;
                len = end - start;
                if (len > 0 && text[start + len - 1] == '\r')
                        len--;
                if (len > 0 && text[start] != '#') {
                        if (len > 20)
                                return -1;
                        memcpy(digits, text + start, len);
                        digits[len] = 0;
                        if (strspn(digits, "0123456789") < len)
                                return -1;
                        errno = 0;
                        v = strtoull(digits, NULL, 10);
                        if (errno == ERANGE)
                                return -1;
                        for (long i = 0; i < n; i++)
                                seen = seen || out[i] == v;
                        if (!seen)
                                out[n++] = v;
                }
                start = end + 1;
        }
        return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static uint64_t expected[32768];
        char error[256];
        BootReads r = {};
        long n;
        int k;

        if (size > 65536)
                return 0;
        n = reference((const char *) data, size, expected);
        k = boot_reads_parse((const char *) data, size, &r, error, sizeof error);
        if ((n < 0) != (k < 0))
                abort();
        if (k == 0 && (r.n != (size_t) n || (n > 0 && memcmp(r.offset, expected, (size_t) n * sizeof *expected) != 0)))
                abort();
        boot_reads_done(&r);
        return 0;
}
