/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-udev-probe: udev properties for loop devices (IMPORT{program} in 60-urlboot.rules).
 *
 *   URLBOOT_LOOP_REF, URLBOOT_LOOP_REF_ENC    the loop device's reference (its lo_file_name), also
 *                                             as v258 names it: ID_LOOP_BACKING_FILENAME[_ENC]
 *   ID_PART_GPT_AUTO_ROOT_DISK=1, ID_PART_GPT_AUTO_ROOT_UUID   on a loop disk that provides the root
 *   ID_PART_GPT_AUTO_ROOT=1                   on that disk's root partition (systemd's 99-systemd.rules
 *                                             then links /dev/gpt-auto-root)
 *
 * A loop disk provides the root when the boot loader named no partition (no LoaderDevicePartUUID)
 * and its reference is "rootdisk" or "rootdisk.raw", or when it holds the ESP/XBOOTLDR partition the
 * boot loader named. Its root is the newest native root partition (gpt_pick_root()).
 */
#include <blkid.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "command-table.h"
#include "efivars.h"
#include "exit-status.h"
#include "fileio.h"
#include "gpt-types.h"
#include "log.h"
#include "loop-device.h"
#include "macro.h"
#include "path-util.h"
#include "string-util.h"
#include "udev-encode.h"

#define PARTITIONS_MAX 128

typedef struct Device {
        char disk[PATH_MAX];            /* /dev/loopN */
        int partno;                     /* 0 for the disk itself */
} Device;

/* Works out the disk and partition number of a block device node through sysfs. */
static int identify(const char *node, Device *ret) {
        char sys[PATH_MAX + 32], resolved[PATH_MAX];
        _cleanup_free_ char *disk_dir = NULL, *disk_name = NULL;
        struct stat st;

        if (stat(node, &st) < 0)
                return -errno;
        if (!S_ISBLK(st.st_mode))
                return -ENOTBLK;
        snprintf(sys, sizeof sys, "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
        if (!realpath(sys, resolved))
                return -errno;

        *ret = (Device) {};
        snprintf(sys, sizeof sys, "%s/partition", resolved);
        if (access(sys, F_OK) == 0) {
                _cleanup_free_ char *s = NULL;
                if (read_full_file(sys, 64, &s, NULL) < 0)
                        return -EIO;
                ret->partno = atoi(s);
                if (path_extract_directory(resolved, &disk_dir) < 0)
                        return -ENOMEM;
        } else {
                disk_dir = strdup(resolved);
                if (!disk_dir)
                        return -ENOMEM;
        }
        if (path_extract_filename(disk_dir, &disk_name) < 0)
                return -ENOMEM;
        snprintf(ret->disk, sizeof ret->disk, "/dev/%s", disk_name);
        return startswith(disk_name, "loop") ? 0 : -ENODEV;
}

typedef struct Partition {
        int partno;
        char type[40], uuid[40], label[128];
        uint64_t flags;
} Partition;

static int read_partitions(const char *disk, Partition *ret, int max) {
        _cleanup_close_ int fd = -1;
        blkid_probe pr;
        blkid_partlist list;
        int n = 0;

        fd = open(disk, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        pr = blkid_new_probe();
        if (!pr)
                return -ENOMEM;
        if (blkid_probe_set_device(pr, fd, 0, 0) < 0) {
                blkid_free_probe(pr);
                return -EIO;
        }
        blkid_probe_enable_partitions(pr, 1);
        blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
        if (blkid_do_safeprobe(pr) != 0 || !(list = blkid_probe_get_partitions(pr))) {
                blkid_free_probe(pr);
                return 0;
        }
        if (!blkid_partlist_get_table(list) ||
            !streq_ptr(blkid_parttable_get_type(blkid_partlist_get_table(list)), "gpt")) {
                blkid_free_probe(pr);
                return 0; /* the Discoverable Partitions Specification is about GPT only */
        }
        for (int i = 0; i < blkid_partlist_numof_partitions(list) && n < max; i++) {
                blkid_partition p = blkid_partlist_get_partition(list, i);
                Partition *q = ret + n++;

                *q = (Partition) { .partno = blkid_partition_get_partno(p),
                                   .flags = blkid_partition_get_flags(p) };
                snprintf(q->type, sizeof q->type, "%s", blkid_partition_get_type_string(p) ?: "");
                snprintf(q->uuid, sizeof q->uuid, "%s", blkid_partition_get_uuid(p) ?: "");
                snprintf(q->label, sizeof q->label, "%s", blkid_partition_get_name(p) ?: "");
        }
        blkid_free_probe(pr);
        return n;
}

/* Does this disk provide the root? */
static bool disk_provides_root(const char *ref, const Partition *parts, int n) {
        _cleanup_free_ char *loader = NULL;
        int r;

        r = efi_get_variable_string("LoaderDevicePartUUID", EFI_VENDOR_LOADER_STR, &loader);
        if (r == -ENOENT)
                return streq(ref, "rootdisk") || streq(ref, "rootdisk.raw");
        if (r < 0)
                return false;
        for (int i = 0; i < n; i++)
                if (gpt_uuid_equal(parts[i].uuid, loader) &&
                    (gpt_uuid_equal(parts[i].type, GPT_ESP) || gpt_uuid_equal(parts[i].type, GPT_XBOOTLDR)))
                        return true;
        return false;
}

/* Its root partition: an index into parts, or -1. */
static int pick_root(const Partition *parts, int n) {
        GptPartition gp[PARTITIONS_MAX];

        for (int i = 0; i < n; i++)
                gp[i] = (GptPartition) { .type = parts[i].type, .uuid = parts[i].uuid,
                                         .label = parts[i].label[0] ? parts[i].label : NULL,
                                         .flags = parts[i].flags };
        return gpt_pick_root(gp, (size_t) n, gpt_root_type_native());
}

static const OptionRow options[] = {
        OPTION_ROW_HELP,
};

static const CommandTable table = {
        .name = "urlboot-udev-probe",
        .arguments = "/dev/DEVICE",
        .summary = "Print udev properties (KEY=VALUE) for a loop disk or partition: its reference\n"
                   "(URLBOOT_LOOP_REF) and, for the disk that provides the root, the gpt-auto root\n"
                   "properties systemd's rules turn into /dev/gpt-auto-root.",
        .options = options,
        .n_options = ELEMENTSOF(options),
        .min_arguments = 1,
        .max_arguments = 1,
        .complete_arguments = "file",
};

/* 1 with *ret_device set: go on; 0: done (--help); -EUSAGE */
static int parse_arguments(int argc, char *argv[], const char **ret_device) {
        OptionParser p;
        char **args;
        int n, c, r;

        if (option_parser_init(&p, &table, argc, argv) < 0)
                return log_oom();
        while ((c = option_next(&p)) > 0)
                if (c == 'h') {
                        option_parser_done(&p);
                        return command_table_help(&table, stdout);
                }
        r = c < 0 ? c : option_parser_arguments(&p, &n, &args);
        if (r >= 0)
                *ret_device = args[0];
        option_parser_done(&p);
        return r < 0 ? r : 1;
}

int main(int argc, char *argv[]) {
        _cleanup_free_ char *enc = NULL;
        const char *device = NULL;
        Partition parts[PARTITIONS_MAX];
        LoopInfo info;
        Device d;
        int n, root, r;

        log_set_program("urlboot-udev-probe");
        r = parse_arguments(argc, argv, &device);
        if (r <= 0)
                return r == -EUSAGE ? EXIT_USAGE : r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;

        r = identify(device, &d);
        if (r == -ENODEV)
                return EXIT_SUCCESS; /* not a loop device: nothing to say */
        if (r < 0) {
                log_error_errno(r, "Cannot identify %s: %m", device);
                return EXIT_FAILURE;
        }
        r = loop_get_info(d.disk, &info);
        if (r == -ENXIO)
                return EXIT_SUCCESS; /* detached */
        if (r < 0) {
                log_error_errno(r, "Cannot read the loop status of %s: %m", d.disk);
                return EXIT_FAILURE;
        }
        /* v258's ID_LOOP_BACKING_DEVICE/_INODE (/dev/disk/by-loop-inode/), for every loop device. */
        if (info.backing_inode != 0)
                printf("ID_LOOP_BACKING_DEVICE=%u:%u\nID_LOOP_BACKING_INODE=%" PRIu64 "\n",
                       major((dev_t) info.backing_dev), minor((dev_t) info.backing_dev), info.backing_inode);
        if (!info.ref[0])
                return EXIT_SUCCESS;

        enc = udev_encode_string(info.ref);
        if (!enc)
                return EXIT_FAILURE;
        /* udev reads one KEY=VALUE per line: a reference with a newline (anyone with the disk group
         * can set one) must not add lines of its own. The encoded form is always safe. */
        if (loop_ref_is_valid(info.ref))
                printf("URLBOOT_LOOP_REF=%s\nID_LOOP_BACKING_FILENAME=%s\n", info.ref, info.ref);
        /* ID_LOOP_BACKING_FILENAME*: v258's names, so rules written for v258 find the reference on 252. */
        printf("URLBOOT_LOOP_REF_ENC=%s\nID_LOOP_BACKING_FILENAME_ENC=%s\n", enc, enc);

        n = read_partitions(d.disk, parts, PARTITIONS_MAX);
        if (n <= 0 || !disk_provides_root(info.ref, parts, n))
                return EXIT_SUCCESS;
        root = pick_root(parts, n);

        /* As v258: the disk is marked even when it has no root partition for us (e.g. /usr only). */
        if (d.partno == 0) {
                printf("ID_PART_GPT_AUTO_ROOT_DISK=1\n");
                if (root >= 0)
                        printf("ID_PART_GPT_AUTO_ROOT_UUID=%s\n", parts[root].uuid);
        } else if (root >= 0 && parts[root].partno == d.partno)
                printf("ID_PART_GPT_AUTO_ROOT=1\n");
        return EXIT_SUCCESS;
}
