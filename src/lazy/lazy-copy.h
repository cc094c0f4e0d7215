/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-lazy's background copy: the disk read through an NBD connection of its own (a second nbd device
 * on nbdkit's socket, beside the one that serves the boot's reads) and written into the local file, a chunk
 * at a time so that it can be paced (copy-pace.h). Data blocks that the verified hash tree says are zero are neither read nor
 * written (verity-map.h), and pages that turn out zero are not written: the local file holds what the image
 * holds, sparse, and nothing more.
 */
#pragma once

#include <stdint.h>

#include "verity-check.h"
#include "verity-map.h"

#define LAZY_COPY_VERITY_MAX 2

typedef struct LazyCopy {
        int source;                     /* the disk: the copy's nbd device (not owned) */
        int fd;                         /* the local file */
        uint64_t size;                  /* of the disk */
        uint64_t chunk;                 /* bytes per step (one request) */
        uint64_t next;                  /* where the next step starts */
        struct {
                uint64_t offset;        /* of the data partition */
                VerityZeroMap map;
                uint64_t tree_offset, tree_size;        /* the superblock and tree: read and written for the map */
        } verity[LAZY_COPY_VERITY_MAX];
        unsigned n_verity;
        uint64_t fetched;               /* bytes read through the connection */
        uint64_t skipped;               /* bytes of zero blocks, neither read nor written */
        uint8_t *buf;
} LazyCopy;

/**
 * Copy from source (the disk, size bytes: a block device or a file) into fd (the local file, sparse),
 * chunk bytes per request. @ret 0, or <0 with error saying why
 */
int lazy_copy_open(LazyCopy *c, int source, int fd, uint64_t size, uint64_t chunk, char *error, size_t error_size);

/**
 * Read the tree of a pinned verity partition, check it against the pin and leave its zero data blocks out of the
 * copy; the tree goes into the local file at once (it is not read twice). @ret 0, or <0 with error
 */
int lazy_copy_map_verity(LazyCopy *c, const VerityPartition *p, char *error, size_t error_size);

/** Copy the next chunk. @ret 1 more to come, 0 the copy is complete, <0 with error (the chunk stays next) */
int lazy_copy_step(LazyCopy *c, char *error, size_t error_size);

/** Bytes of the disk done (copied, or known zero). */
static inline uint64_t lazy_copy_done_bytes(const LazyCopy *c) {
        return c->next;
}

void lazy_copy_close(LazyCopy *c);
