/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A seekable .zst through urlboot's own reader (src/lazy/zstd-image.c), as the lazy boot's plugin reads it,
 * for test/lazy/compress.sh: the table opened and checked against the file, then each frame located at its
 * first byte, decoded on its own (its content checksum checked) and written to stdout in the image's order.
 * Prints "FRAMES SIZE" to stderr on success.
 *   zstd-image-read FILE */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error-buf.h"
#include "fileio.h"
#include "macro.h"
#include "zstd-image.h"

static int read_at(int fd, uint8_t *buf, size_t size, uint64_t offset) {
        ssize_t n = pread(fd, buf, size, (off_t) offset);

        return n < 0 ? -errno : (size_t) n == size ? 0 : -EIO;
}

static int decode_all(int fd, const ZstdImage *z, char *error, size_t error_size) {
        for (uint64_t offset = 0; offset < z->size;) {
                _cleanup_free_ uint8_t *in = NULL, *out = NULL;
                ImageBlock b;
                int r = zstd_image_locate(z, offset, &b);

                if (r < 0 || b.offset != offset)
                        return error_setf(error, error_size, -EBADMSG, "no frame starts at byte %llu",
                                          (unsigned long long) offset);
                in = malloc(b.total);
                out = malloc(b.size);
                if (!in || !out)
                        return -ENOMEM;
                r = read_at(fd, in, b.total, b.file_offset);
                if (r >= 0)
                        r = zstd_image_decode(&b, in, out, error, error_size);
                if (r >= 0)
                        r = write_all(STDOUT_FILENO, out, b.size);
                if (r < 0)
                        return r;
                offset += b.size;
        }
        return 0;
}

int main(int argc, char *argv[]) {
        uint8_t footer[ZSTD_IMAGE_FOOTER_SIZE];
        _cleanup_free_ uint8_t *table = NULL;
        char error[512] = "";
        ZstdImage z = {};
        uint64_t table_size;
        struct stat st;
        int fd, r;

        if (argc != 2) {
                fprintf(stderr, "usage: zstd-image-read FILE\n");
                return 2;
        }
        fd = open(argv[1], O_RDONLY | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < ZSTD_IMAGE_FOOTER_SIZE) {
                fprintf(stderr, "%s: cannot open it or too short\n", argv[1]);
                return 1;
        }
        r = read_at(fd, footer, sizeof footer, (uint64_t) st.st_size - sizeof footer);
        if (r >= 0)
                r = zstd_image_table_size(footer, (uint64_t) st.st_size, &table_size, error, sizeof error);
        if (r >= 0 && !(table = malloc(table_size)))
                r = -ENOMEM;
        if (r >= 0)
                r = read_at(fd, table, table_size, (uint64_t) st.st_size - table_size);
        if (r >= 0)
                r = zstd_image_open(&z, table, table_size, (uint64_t) st.st_size, error, sizeof error);
        if (r >= 0)
                r = decode_all(fd, &z, error, sizeof error);
        if (r < 0) {
                fprintf(stderr, "%s: %s\n", argv[1], error[0] ? error : strerror(-r));
                zstd_image_done(&z);
                return 1;
        }
        fprintf(stderr, "%u %llu\n", z.frames, (unsigned long long) z.size);
        zstd_image_done(&z);
        close(fd);
        return 0;
}
