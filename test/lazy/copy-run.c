/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* urlboot-lazy's background copy (src/lazy/lazy-copy.c) on its own, for test/lazy/copy.sh: from the disk
 * nbdkit serves (SOURCE: in a boot the copy's nbd device; here the file nbdfuse makes of nbdkit's socket,
 * since this host's kernel has no nbd) into a new sparse file, skipping the zero blocks of the verity trees
 * a local copy of the image names, unpaced. Prints "fetched BYTES skipped BYTES" on success.
 *   copy-run SOURCE OUT SIZE [IMAGE ROOTHASH [USRHASH]] */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lazy-copy.h"
#include "macro.h"
#include "verity-check.h"

int main(int argc, char *argv[]) {
        VerityPartition parts[2] = {};
        char error[512] = "";
        LazyCopy c;
        uint64_t size;
        int fd, source, r;

        if (argc < 4) {
                fprintf(stderr, "usage: copy-run SOURCE OUT SIZE [IMAGE ROOTHASH [USRHASH]]\n");
                return 2;
        }
        size = strtoull(argv[3], NULL, 10);
        fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0 || ftruncate(fd, (off_t) size) < 0) {
                perror(argv[2]);
                return 1;
        }
        if (argc >= 6) {
                const VerityPin pins[2] = { { "roothash", argv[5] }, { "usrhash", argc >= 7 ? argv[6] : NULL } };

                r = verity_check_disk(argv[4], pins, 2, parts, error, sizeof error);
                if (r < 0) {
                        fprintf(stderr, "copy-run: %s\n", error);
                        return 1;
                }
        }
        source = open(argv[1], O_RDONLY | O_CLOEXEC);
        if (source < 0) {
                perror(argv[1]);
                return 1;
        }
        r = lazy_copy_open(&c, source, fd, size, 1 << 20, error, sizeof error);
        for (unsigned i = 0; r >= 0 && i < 2; i++)
                if (parts[i].pin)
                        r = lazy_copy_map_verity(&c, &parts[i], error, sizeof error);
        while (r > 0 || (r == 0 && lazy_copy_done_bytes(&c) < size))
                r = lazy_copy_step(&c, error, sizeof error);
        if (r < 0) {
                fprintf(stderr, "copy-run: %s\n", error[0] ? error : strerror(-r));
                return 1;
        }
        printf("fetched %llu skipped %llu\n", (unsigned long long) c.fetched, (unsigned long long) c.skipped);
        lazy_copy_close(&c);
        close(source);
        close(fd);
        return 0;
}
