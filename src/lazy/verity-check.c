/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The pinned verity hashes against a disk's GPT, superblocks and top hash blocks.
 */
#include <assert.h>
#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "error-buf.h"
#include "gpt-types.h"
#include "macro.h"
#include "string-util.h"
#include "verity-check.h"
#include "verity-devices.h"
#include "verity-tree.h"

#define PARTITIONS_MAX 128

#if defined(__x86_64__)
#define ROOT_VERITY_TYPE "2c7357ed-ebd2-46d9-aec1-23d437ec2bf5"
#define USR_VERITY_TYPE "77ff5f63-e7b6-4633-acf4-1565b864c0e6"
#elif defined(__aarch64__)
#define ROOT_VERITY_TYPE "df3300ce-d69f-4c92-978c-9bfb0f38d820"
#define USR_VERITY_TYPE "6e11a4e7-fbca-4ded-b9e9-e1a512bb664e"
#else
#define ROOT_VERITY_TYPE ""
#define USR_VERITY_TYPE ""
#endif

typedef struct Part {
        char type[40], uuid[40];
        uint64_t offset, size;  /* bytes */
} Part;

static int read_gpt(int fd, Part *ret, int max) {
        blkid_probe pr = blkid_new_probe();
        blkid_partlist list;
        int n = 0;

        if (!pr)
                return -ENOMEM;
        if (blkid_probe_set_device(pr, fd, 0, 0) < 0) {
                blkid_free_probe(pr);
                return -EIO;
        }
        blkid_probe_enable_superblocks(pr, 0);
        blkid_probe_enable_partitions(pr, 1);
        blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
        if (blkid_do_safeprobe(pr) == 0 && (list = blkid_probe_get_partitions(pr)) &&
            blkid_partlist_get_table(list) &&
            streq_ptr(blkid_parttable_get_type(blkid_partlist_get_table(list)), "gpt"))
                for (int i = 0; i < blkid_partlist_numof_partitions(list) && n < max; i++) {
                        blkid_partition p = blkid_partlist_get_partition(list, i);
                        Part *q = ret + n++;

                        *q = (Part) { .offset = (uint64_t) blkid_partition_get_start(p) * 512,
                                      .size = (uint64_t) blkid_partition_get_size(p) * 512 };
                        snprintf(q->type, sizeof q->type, "%s", blkid_partition_get_type_string(p) ?: "");
                        snprintf(q->uuid, sizeof q->uuid, "%s", blkid_partition_get_uuid(p) ?: "");
                }
        blkid_free_probe(pr);
        return n;
}

static const Part *find_uuid(const Part *parts, int n, const char *uuid) {
        for (int i = 0; i < n; i++)
                if (gpt_uuid_equal(parts[i].uuid, uuid))
                        return parts + i;
        return NULL;
}

static const Part *find_type(const Part *parts, int n, const char *type) {
        for (int i = 0; i < n; i++)
                if (type[0] && gpt_uuid_equal(parts[i].type, type))
                        return parts + i;
        return NULL;
}

static int pread_exact(int fd, void *buf, size_t size, uint64_t offset) {
        size_t done = 0;

        while (done < size) {
                ssize_t k = pread(fd, (uint8_t *) buf + done, size - done, (off_t) (offset + done));
                if (k < 0 && errno == EINTR)
                        continue;
                if (k < 0)
                        return -errno;
                if (k == 0)
                        return -EIO;
                done += (size_t) k;
        }
        return 0;
}

/* The root hash of the tree in verity partition v (data partition d, when known, for a one-block tree). */
static int tree_root_hash(int fd, const Part *v, const Part *d, char ret[2 * VERITY_DIGEST_MAX + 1], char *error,
                          size_t error_size) {
        uint8_t sbuf[VERITY_SUPERBLOCK_SIZE], digest[VERITY_DIGEST_MAX];
        _cleanup_free_ uint8_t *block = NULL;
        VeritySuperblock sb;
        VerityGeometry g;
        unsigned n;
        size_t size;
        int r;

        r = pread_exact(fd, sbuf, sizeof sbuf, v->offset);
        if (r < 0)
                return error_setf(error, error_size, r, "cannot read the verity superblock: %s", strerror(-r));
        r = verity_superblock_parse(sbuf, sizeof sbuf, &sb, error, error_size);
        if (r < 0)
                return r;
        r = verity_geometry(&sb, &g);
        if (r < 0)
                return error_setf(error, error_size, r, "the verity superblock describes an impossible tree");
        if (g.hash_size > v->size)
                return error_setf(error, error_size, -EBADMSG,
                                  "the verity tree needs %llu bytes, but its partition has %llu",
                                  (unsigned long long) g.hash_size, (unsigned long long) v->size);
        if (d && g.data_size > d->size)
                return error_setf(error, error_size, -EBADMSG,
                                  "the verity tree covers %llu bytes, but the data partition has %llu",
                                  (unsigned long long) g.data_size, (unsigned long long) d->size);
        if (g.levels == 0 && !d)
                return error_setf(error, error_size, -EBADMSG, "a one-block verity tree without its data partition");

        size = g.levels > 0 ? sb.hash_block_size : sb.data_block_size;
        block = malloc(size);
        if (!block)
                return -ENOMEM;
        r = pread_exact(fd, block, size, g.levels > 0 ? v->offset + g.top_offset : d->offset);
        if (r < 0)
                return error_setf(error, error_size, r, "cannot read the verity tree's top block: %s", strerror(-r));
        r = verity_root_hash(&sb, block, size, digest, &n);
        if (r < 0)
                return error_setf(error, error_size, r, "cannot compute a %s digest", sb.algorithm);
        verity_hex(digest, n, ret);
        return 0;
}

static int check_pin(int fd, const Part *parts, int n, const VerityPin *pin, VerityPartition *ret, char *error,
                     size_t error_size) {
        const char *type = streq(pin->name, "usrhash") ? USR_VERITY_TYPE : ROOT_VERITY_TYPE;
        const char *kind = streq(pin->name, "usrhash") ? "usr-verity" : "root-verity";
        char data_uuid[37], verity_uuid[37], actual[2 * VERITY_DIGEST_MAX + 1], why[ERROR_BUF_MIN] = "";
        size_t len = strlen(pin->hash);
        const Part *v, *d;
        int r;

        if (len < 32)
                return error_setf(error, error_size, -EINVAL, "%s=%s is shorter than 128 bits", pin->name, pin->hash);
        verity_partition_uuid(pin->hash, false, data_uuid);
        verity_partition_uuid(pin->hash, true, verity_uuid);

        v = find_uuid(parts, n, verity_uuid);
        if (!v) {
                /* Not named by this pin. A verity partition of the same kind means the pin is wrong. */
                v = find_type(parts, n, type);
                if (!v)
                        return 0;
                r = tree_root_hash(fd, v, NULL, actual, why, sizeof why);
                if (r < 0)
                        return error_setf(error, error_size, -EBADMSG,
                                          "%s=%s is not this image's: its %s partition (UUID %s) is not the one "
                                          "the hash names, and %s", pin->name, pin->hash, kind, v->uuid, why);
                return error_setf(error, error_size, -EBADMSG,
                                  "%s=%s is not this image's: its %s partition has root hash %s", pin->name,
                                  pin->hash, kind, actual);
        }
        if (type[0] && !gpt_uuid_equal(v->type, type))
                return error_setf(error, error_size, -EBADMSG,
                                  "%s=%s names partition %s, which is not a %s partition (type %s)", pin->name,
                                  pin->hash, verity_uuid, kind, v->type);
        d = find_uuid(parts, n, data_uuid);
        if (!d)
                return error_setf(error, error_size, -EBADMSG,
                                  "%s=%s names verity partition %s, but the image has no data partition with UUID %s",
                                  pin->name, pin->hash, verity_uuid, data_uuid);
        r = tree_root_hash(fd, v, d, actual, why, sizeof why);
        if (r < 0)
                return error_setf(error, error_size, -EBADMSG, "%s=%s: the image's %s partition is unusable: %s",
                                  pin->name, pin->hash, kind, why);
        if (strcasecmp(actual, pin->hash) != 0)
                return error_setf(error, error_size, -EBADMSG,
                                  "%s=%s does not match this image: the tree in its %s partition has root hash %s "
                                  "(tampered, or another build with the same partition UUIDs)",
                                  pin->name, pin->hash, kind, actual);
        if (ret)
                *ret = (VerityPartition) { .pin = pin->hash, .data_offset = d->offset, .data_size = d->size,
                                           .hash_offset = v->offset, .hash_size = v->size };
        return 1;
}

int verity_check_disk(const char *disk, const VerityPin *pins, size_t n_pins, VerityPartition *ret, char *error,
                      size_t error_size) {
        _cleanup_close_ int fd = -1;
        Part parts[PARTITIONS_MAX];
        int n, r, found = 0;

        assert(disk);
        assert(pins || n_pins == 0);

        fd = open(disk, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return error_setf(error, error_size, -errno, "cannot open %s: %s", disk, strerror(errno));
        n = read_gpt(fd, parts, PARTITIONS_MAX);
        if (n < 0)
                return error_setf(error, error_size, n, "cannot read the partition table of %s", disk);

        for (size_t i = 0; i < n_pins; i++) {
                if (ret)
                        ret[i] = (VerityPartition) {};
                if (!pins[i].hash)
                        continue;
                r = check_pin(fd, parts, n, pins + i, ret ? ret + i : NULL, error, error_size);
                if (r < 0)
                        return r;
                found += r;
        }
        if (found == 0) {
                for (size_t i = 0; i < n_pins; i++)
                        if (pins[i].hash)
                                return error_setf(error, error_size, -ENOENT,
                                                  "%s=%s cannot verify this image: it has %s, and no verity partition "
                                                  "named by the hash", pins[i].name, pins[i].hash,
                                                  n > 0 ? "a GPT" : "no GPT");
                return error_setf(error, error_size, -ENOENT, "no hash is pinned");
        }
        return found;
}
