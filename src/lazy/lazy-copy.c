/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The background copy over an NBD connection of its own.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error-buf.h"
#include "lazy-copy.h"
#include "macro.h"
#include "verity-tree.h"

#define PAGE 4096U

int lazy_copy_open(LazyCopy *c, int source, int fd, uint64_t size, uint64_t chunk, char *error, size_t error_size) {
        off_t end;

        assert(c);

        *c = (LazyCopy) { .source = source, .fd = fd, .size = size, .chunk = chunk };
        c->buf = malloc(chunk);
        if (!c->buf)
                return -ENOMEM;
        end = lseek(source, 0, SEEK_END);
        if (end < 0)
                return error_setf(error, error_size, -errno, "cannot see the size of the copy's source: %s",
                                  strerror(errno));
        if ((uint64_t) end != size)
                return error_setf(error, error_size, -EIO, "the copy's source has %llu bytes, the disk %llu",
                                  (unsigned long long) end, (unsigned long long) size);
        return 0;
}

void lazy_copy_close(LazyCopy *c) {
        assert(c);

        for (unsigned i = 0; i < c->n_verity; i++)
                verity_zero_map_done(&c->verity[i].map);
        c->n_verity = 0;
        c->buf = mfree(c->buf);
}

/* count bytes at offset through the copy's connection, in requests of at most chunk bytes; what was read
 * leaves the page cache (the local file holds it now, and the boot reads another device). */
static int read_exact(LazyCopy *c, void *buf, uint64_t count, uint64_t offset, char *error, size_t error_size) {
        for (uint64_t done = 0; done < count;) {
                size_t n = (size_t) MIN(count - done, c->chunk);
                ssize_t k = pread(c->source, (uint8_t *) buf + done, n, (off_t) (offset + done));

                if (k < 0 && errno == EINTR)
                        continue;
                if (k <= 0)
                        return error_setf(error, error_size, k < 0 ? -errno : -EIO, "reading %zu bytes at %llu: %s", n,
                                          (unsigned long long) (offset + done),
                                          k < 0 ? strerror(errno) : "the disk ends early");
                (void) posix_fadvise(c->source, (off_t) (offset + done), k, POSIX_FADV_DONTNEED);
                done += (uint64_t) k;
                c->fetched += (uint64_t) k;
        }
        return 0;
}

static int unhex(const char *hex, uint8_t *ret, size_t max, size_t *ret_size) {
        size_t n = strlen(hex);

        if (n % 2 != 0 || n / 2 > max)
                return -EINVAL;
        for (size_t i = 0; i < n / 2; i++) {
                unsigned v;

                if (sscanf(hex + 2 * i, "%2x", &v) != 1)
                        return -EINVAL;
                ret[i] = (uint8_t) v;
        }
        *ret_size = n / 2;
        return 0;
}

static int write_sparse(LazyCopy *c, const uint8_t *buf, uint64_t n, uint64_t offset, char *error, size_t error_size);

int lazy_copy_map_verity(LazyCopy *c, const VerityPartition *p, char *error, size_t error_size) {
        uint8_t sbuf[VERITY_SUPERBLOCK_SIZE], root[VERITY_DIGEST_MAX];
        _cleanup_free_ uint8_t *tree = NULL;
        VeritySuperblock sb;
        VerityGeometry g;
        size_t root_size;
        int r;

        assert(c);
        assert(p);

        if (c->n_verity >= LAZY_COPY_VERITY_MAX || unhex(p->pin, root, sizeof root, &root_size) < 0)
                return error_setf(error, error_size, -EINVAL, "cannot use the pin %s", p->pin);
        r = read_exact(c, sbuf, sizeof sbuf, p->hash_offset, error, error_size);
        if (r < 0)
                return r;
        r = verity_superblock_parse(sbuf, sizeof sbuf, &sb, error, error_size);
        if (r < 0)
                return r;
        r = verity_geometry(&sb, &g);
        if (r < 0 || g.hash_size > p->hash_size || g.data_size > p->data_size)
                return error_setf(error, error_size, -EBADMSG, "the verity superblock describes a tree that does not fit");
        tree = malloc(g.hash_size);
        if (!tree)
                return -ENOMEM;
        r = read_exact(c, tree, g.hash_size, p->hash_offset, error, error_size);
        if (r < 0)
                return r;
        r = verity_zero_map_make(&sb, &g, tree, g.hash_size, root, root_size, &c->verity[c->n_verity].map, error,
                                 error_size);
        if (r < 0)
                return r;
        r = write_sparse(c, tree, g.hash_size, p->hash_offset, error, error_size);
        if (r < 0) {
                verity_zero_map_done(&c->verity[c->n_verity].map);
                return r;
        }
        c->verity[c->n_verity].offset = p->data_offset;
        c->verity[c->n_verity].tree_offset = p->hash_offset;
        c->verity[c->n_verity++].tree_size = g.hash_size;
        return 0;
}

/* Whether the 4 KiB page at offset lies within a zero data block of a mapped partition. */
static bool page_zero(const LazyCopy *c, uint64_t offset) {
        for (unsigned i = 0; i < c->n_verity; i++) {
                const VerityZeroMap *m = &c->verity[i].map;
                uint64_t start = c->verity[i].offset, end = start + m->data_blocks * m->block_size;

                if (offset >= start && offset + PAGE <= end && m->block_size >= PAGE &&
                    verity_zero_map_is_zero(m, (offset - start) / m->block_size))
                        return true;
        }
        return false;
}

/* Whether the page lies within a tree the map read (and wrote) already. */
static bool page_in_tree(const LazyCopy *c, uint64_t offset) {
        for (unsigned i = 0; i < c->n_verity; i++)
                if (offset >= c->verity[i].tree_offset && offset + PAGE <= c->verity[i].tree_offset + c->verity[i].tree_size)
                        return true;
        return false;
}

static bool all_zero(const uint8_t *p, size_t n) {
        return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

/* Write the pages of [buf, buf + n) at offset that are not zero, in runs: zero pages stay holes. */
static int write_sparse(LazyCopy *c, const uint8_t *buf, uint64_t n, uint64_t offset, char *error, size_t error_size) {
        uint64_t i = 0;

        while (i < n) {
                uint64_t run = i, len;

                while (run < n && all_zero(buf + run, (size_t) MIN(PAGE, n - run)))
                        run += PAGE;
                len = run;
                while (len < n && !all_zero(buf + len, (size_t) MIN(PAGE, n - len)))
                        len += PAGE;
                len = MIN(len, n);
                for (uint64_t w = run; w < len;) {
                        ssize_t k = pwrite(c->fd, buf + w, (size_t) (len - w), (off_t) (offset + w));

                        if (k < 0 && errno == EINTR)
                                continue;
                        if (k <= 0)
                                return error_setf(error, error_size, k < 0 ? -errno : -EIO,
                                                  "cannot write the local copy at %llu: %s",
                                                  (unsigned long long) (offset + w), strerror(k < 0 ? errno : EIO));
                        w += (uint64_t) k;
                }
                i = len;
        }
        return 0;
}

int lazy_copy_step(LazyCopy *c, char *error, size_t error_size) {
        uint64_t end = MIN(c->next + c->chunk, c->size), first = UINT64_MAX, last = 0, span;
        int r;

        assert(c);

        if (c->next >= c->size)
                return 0;
        /* the span from the first to the last page still to read: one request (zero pages inside it are read too) */
        for (uint64_t p = c->next; p < end; p += PAGE)
                if (!page_zero(c, p) && !page_in_tree(c, p)) {
                        if (first == UINT64_MAX)
                                first = p;
                        last = MIN(p + PAGE, end);
                }
        span = first == UINT64_MAX ? 0 : last - first;
        for (uint64_t p = c->next; p < end; p += PAGE)
                if ((span == 0 || p < first || p >= last) && page_zero(c, p))
                        c->skipped += MIN(PAGE, end - p);
        if (span > 0) {
                r = read_exact(c, c->buf, span, first, error, error_size);
                if (r < 0)
                        return r;
                r = write_sparse(c, c->buf, span, first, error, error_size);
                if (r < 0)
                        return r;
        }
        c->next = end;
        return c->next < c->size ? 1 : 0;
}
