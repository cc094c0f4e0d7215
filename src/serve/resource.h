/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One thing urlboot-serve serves: a read-only file or block device under a URL path, with the validators
 * (ETag, Last-Modified) a client's If-Range and an HTTP cache need, and reads that do not touch a regular
 * file's holes (the file system says where they are: SEEK_DATA/SEEK_HOLE).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

typedef struct Resource {
        char *path;             /* the URL path, "/dir/name" */
        char *file;             /* what is served: a regular file or a block device */
        char *what;             /* for log lines: "the booted UKI", "the root image rootdisk" */
        int fd;
        uint64_t size;
        bool regular;           /* a regular file: holes are known */
        char etag[96];          /* with its quotes */
        time_t modified;
        const char *not_ready;  /* why it cannot be served yet (503), or NULL */
} Resource;

/**
 * Open file read-only for path. The ETag is the content's digest when given (a verified file: "sha256:HEX"),
 * else the file's identity (device, inode, size, modification time).
 * @ret 0, negative errno (-ENOTBLK: neither a regular file nor a block device)
 */
int resource_open(Resource *r, const char *path, const char *file, const char *what, const char *sha256);

/**
 * size bytes at offset (within the resource), holes as zeros without reading them.
 * @ret bytes read (fewer only at the end), negative errno
 */
ssize_t resource_read(const Resource *r, void *buf, size_t size, uint64_t offset);

/** Take the file's size and validators again (a lazy copy that completed); not_ready is left to the caller. */
int resource_reload(Resource *r);

void resource_done(Resource *r);
