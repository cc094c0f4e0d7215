/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The temporary beside the final path, free space, and the atomic rename into place.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "memory-fundamental.h"
#include "path-util.h"
#include "progress.h"
#include "pull-place.h"
#include "rm-rf.h"
#include "string-util.h"

int pull_check_free_space(Attempt *a, uint64_t needed) {
        _cleanup_free_ char *dir = NULL;
        struct statvfs sv;
        struct statfs sf;
        char need[32], have[32];
        uint64_t avail;

        if (path_extract_directory(a->final_path, &dir) < 0 || statvfs(dir, &sv) < 0)
                return 0; /* cannot tell: the writes will say */
        avail = (uint64_t) sv.f_bavail * sv.f_frsize;
        if (avail >= needed)
                return 0;
        if (statfs(dir, &sf) >= 0 && sf.f_type == TMPFS_MAGIC) {
                char more[32];
                /* In RAM: what is missing is memory (the initrd's /run is a share of it). */
                format_bytes(more, sizeof more, needed - avail);
                return attempt_fail(a, -ENOSPC,
                            "Not enough room in %s, which lives in RAM: the download alone is %s, only %s are free. "
                            "Give the machine at least %s more RAM, or raise rd.urlboot.run_size= (default 75%%).",
                            dir, format_bytes(need, sizeof need, needed), format_bytes(have, sizeof have, avail), more);
        }
        return attempt_fail(a, -ENOSPC,
                    "Not enough space in %s: the download alone is %s, only %s are free. Free some space, "
                    "give the machine more RAM (for /run), or choose another --image-root.",
                    dir, format_bytes(need, sizeof need, needed), format_bytes(have, sizeof have, avail));
}

int pull_place_result(Attempt *a) {
        unsigned flags = a->o->force ? 0 : RENAME_NOREPLACE;
        struct stat st;

        if (a->o->type == IMAGE_RAW) {
                if (fchmod(a->fd, a->o->read_only ? 0444 : 0644) < 0 || fsync(a->fd) < 0)
                        return attempt_fail(a, -errno, "Failed to write %s: %s.", a->tmp_path, strerror(errno));
                if (renameat2(AT_FDCWD, a->tmp_path, AT_FDCWD, a->final_path, flags) < 0)
                        return attempt_fail(a, -errno, "Failed to move the image to %s: %s%s.", a->final_path, strerror(errno),
                                    errno == EEXIST ? " (use --force to replace it)" : "");
        } else {
                if (a->o->read_only && chmod(a->tmp_path, 0555) < 0)
                        return attempt_fail(a, -errno, "Failed to make %s read-only: %s.", a->tmp_path, strerror(errno));
                if (a->o->force && lstat(a->final_path, &st) >= 0) {
                        /* Swap atomically, then remove the old tree, which now has the temporary name. */
                        if (renameat2(AT_FDCWD, a->tmp_path, AT_FDCWD, a->final_path, RENAME_EXCHANGE) < 0)
                                return attempt_fail(a, -errno, "Failed to replace %s: %s.", a->final_path, strerror(errno));
                        (void) rm_rf(a->tmp_path);
                } else if (renameat2(AT_FDCWD, a->tmp_path, AT_FDCWD, a->final_path, RENAME_NOREPLACE) < 0)
                        return attempt_fail(a, -errno, "Failed to move the tree to %s: %s%s.", a->final_path, strerror(errno),
                                    errno == EEXIST ? " (use --force to replace it)" : "");
        }
        a->tmp_path = mfree(a->tmp_path);
        (void) fsync_directory_of(a->final_path);
        return 0;
}

int pull_make_temporary(Attempt *a) {
        if (a->o->type == IMAGE_RAW) {
                a->fd = open_tmpfile_beside(a->final_path, &a->tmp_path);
                if (a->fd < 0)
                        return attempt_fail(a, a->fd, "Failed to create a file in %s: %s.", a->o->image_root, strerror(-a->fd));
                return 0;
        }
        if (asprintf(&a->tmp_path, "%s/.#%s.XXXXXX", a->o->image_root, a->o->name) < 0)
                return -ENOMEM;
        if (!mkdtemp(a->tmp_path)) {
                int r = -errno;
                a->tmp_path = mfree(a->tmp_path);
                return attempt_fail(a, r, "Failed to create a directory in %s: %s.", a->o->image_root, strerror(-r));
        }
        return 0;
}
