/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The temporary beside the final name, free space, and the atomic rename into place, all relative
 * to the image root's file descriptor.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "fileio.h"
#include "log.h"
#include "macro.h"
#include "progress.h"
#include "pull-place.h"
#include "rm-rf.h"
#include "string-util.h"


int pull_check_free_space(Attempt *a, uint64_t needed) {
        struct statvfs sv;
        struct statfs sf;
        char need[32], have[32];
        uint64_t avail;

        assert(a);

        if (fstatvfs(a->root_fd, &sv) < 0)
                return 0; /* cannot tell: the writes will say */
        avail = (uint64_t) sv.f_bavail * sv.f_frsize;
        if (avail >= needed)
                return 0;
        if (fstatfs(a->root_fd, &sf) >= 0 && sf.f_type == TMPFS_MAGIC) {
                char more[32];
                /* In RAM: what is missing is memory (the initrd's /run is a share of it). */
                format_bytes(more, sizeof more, needed - avail);
                return attempt_fail(a, -ENOSPC,
                            "Not enough room in %s, which lives in RAM: the download alone is %s, only %s are free. "
                            "Give the machine at least %s more RAM, or raise rd.urlboot.run_size= (default 75%%).",
                            a->o->image_root, format_bytes(need, sizeof need, needed),
                            format_bytes(have, sizeof have, avail), more);
        }
        return attempt_fail(a, -ENOSPC,
                    "Not enough space in %s: the download alone is %s, only %s are free. Free some space, "
                    "give the machine more RAM (for /run), or choose another --image-root.",
                    a->o->image_root, format_bytes(need, sizeof need, needed), format_bytes(have, sizeof have, avail));
}

/* Whether name is one of our temporaries for final_name. */
static bool is_tmp_name_of(const char *name, const char *final_name) {
        const char *p = startswith(name, ".#"), *suffix;

        if (!p || !(suffix = startswith(p, final_name)) || *suffix != '.')
                return false;
        suffix++;
        return strlen(suffix) == TMP_NAME_RANDOM_DIGITS && strspn(suffix, "0123456789abcdef") == TMP_NAME_RANDOM_DIGITS;
}

static int create_temporary(Attempt *a, const char *name) {
        int fd;

        if (a->o->type == IMAGE_RAW) {
                fd = openat(a->root_fd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
                return fd < 0 ? -errno : fd;
        }
        /* 0700 while it is being filled: nobody else may reach into a tree that is not checked yet. */
        if (mkdirat(a->root_fd, name, 0700) < 0)
                return -errno;
        fd = openat(a->root_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
                int r = -errno;
                (void) unlinkat(a->root_fd, name, AT_REMOVEDIR);
                return r;
        }
        return fd;
}

int pull_make_temporary(Attempt *a) {
        int r;

        assert(a);

        for (unsigned tries = 0; tries < 16; tries++) {
                _cleanup_free_ char *name = NULL;

                r = tmp_name_random(a->final_name, &name);
                if (r < 0)
                        break;
                r = create_temporary(a, name);
                if (r == -EEXIST)
                        continue;
                if (r < 0)
                        break;
                a->fd = r;
                a->tmp_name = TAKE_PTR(name);
                /* Held until the process ends: tells pull_remove_stale_temporaries() this one is alive. */
                (void) flock(a->fd, LOCK_EX | LOCK_NB);
                return 0;
        }
        return attempt_fail(a, r, "Failed to create a %s in %s: %s.", a->o->type == IMAGE_RAW ? "file" : "directory",
                            a->o->image_root, strerror(-r));
}

void pull_remove_temporary(Attempt *a) {
        assert(a);

        if (!a->tmp_name)
                return;
        if (a->o->type == IMAGE_RAW)
                (void) unlinkat(a->root_fd, a->tmp_name, 0);
        else
                (void) rm_rf_at(a->root_fd, a->tmp_name);
        a->tmp_name = mfree(a->tmp_name);
}

/* The name must still lead to the inode we filled (nothing may have been put in its place). */
static int check_still_ours(Attempt *a) {
        struct stat st, ours;

        if (fstat(a->fd, &ours) < 0 || fstatat(a->root_fd, a->tmp_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return -errno;
        return st.st_dev == ours.st_dev && st.st_ino == ours.st_ino ? 0 : -ESTALE;
}

static int place_raw(Attempt *a) {
        unsigned flags = a->o->force ? 0 : RENAME_NOREPLACE;

        if (fsync(a->fd) < 0)
                return attempt_fail(a, -errno, "Failed to write the image in %s: %s.", a->o->image_root, strerror(errno));
        if (renameat2(a->root_fd, a->tmp_name, a->root_fd, a->final_name, flags) < 0)
                return attempt_fail(a, -errno, "Failed to move the image to %s: %s%s.", a->final_path, strerror(errno),
                                    errno == EEXIST ? " (use --force to replace it)" : "");
        /* Only the final name gets the final mode: the temporary stays 0600 as long as it exists. */
        if (fchmod(a->fd, a->o->read_only ? 0444 : 0644) < 0)
                log_warning("Failed to set the mode of %s: %s", a->final_path, strerror(errno));
        return 0;
}

/* The tree's own owner and mode, which the archive says (a tarball without an entry for its root
 * gets 0755, as systemd's do): given only under the final name, as with raw images. */
static int give_tree_its_mode(Attempt *a) {
        mode_t mode = a->o->read_only ? 0555 : a->root.present ? a->root.mode : 0755;

        /* The owner first: fchown() clears setuid and setgid bits, which fchmod() then sets. */
        if (a->root.present && geteuid() == 0 && fchown(a->fd, a->root.uid, a->root.gid) < 0)
                return -errno;
        return fchmod(a->fd, mode) < 0 ? -errno : 0;
}

static int place_tree(Attempt *a) {
        struct stat st;
        int r;

        if (!a->o->force || fstatat(a->root_fd, a->final_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                if (renameat2(a->root_fd, a->tmp_name, a->root_fd, a->final_name, RENAME_NOREPLACE) < 0)
                        return attempt_fail(a, -errno, "Failed to move the tree to %s: %s%s.", a->final_path,
                                            strerror(errno), errno == EEXIST ? " (use --force to replace it)" : "");
                r = give_tree_its_mode(a);
                if (r < 0)
                        log_warning("Failed to set the owner and mode of %s: %s", a->final_path, strerror(-r));
                return 0;
        }
        /* Swap atomically, then remove the old one, which now has the temporary name. */
        if (renameat2(a->root_fd, a->tmp_name, a->root_fd, a->final_name, RENAME_EXCHANGE) < 0)
                return attempt_fail(a, -errno, "Failed to replace %s: %s.", a->final_path, strerror(errno));
        r = give_tree_its_mode(a);
        if (r < 0)
                log_warning("Failed to set the owner and mode of %s: %s", a->final_path, strerror(-r));
        r = rm_rf_at(a->root_fd, a->tmp_name);
        if (r < 0)
                log_warning("Failed to remove the replaced %s (now %s/%s): %s", a->final_path, a->o->image_root,
                            a->tmp_name, strerror(-r));
        return 0;
}

int pull_place_result(Attempt *a) {
        int r;

        assert(a);

        r = check_still_ours(a);
        if (r < 0)
                return attempt_fail(a, r, "The temporary %s/%s is no longer what was written: %s.", a->o->image_root,
                                    a->tmp_name, strerror(-r));
        r = a->o->type == IMAGE_RAW ? place_raw(a) : place_tree(a);
        if (r < 0)
                return r;
        a->tmp_name = mfree(a->tmp_name);
        (void) fsync(a->root_fd);
        return 0;
}

/* Removes name if it is a temporary nobody holds. @ret 1 if removed */
static int remove_if_stale(int root_fd, const char *name) {
        _cleanup_close_ int fd = openat(root_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

        if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0)
                return 0;
        return rm_rf_at(root_fd, name) >= 0;
}

int pull_remove_stale_temporaries(int root_fd, const char *final_name) {
        _cleanup_close_ int fd = openat(root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        struct dirent *e;
        DIR *d;
        int n = 0;

        assert(final_name);

        if (fd < 0)
                return -errno;
        d = fdopendir(TAKE_FD(fd));
        if (!d)
                return -errno;
        while ((e = readdir(d)))
                if (is_tmp_name_of(e->d_name, final_name) && remove_if_stale(dirfd(d), e->d_name) > 0) {
                        log_info("Removed %s, left by an interrupted pull.", e->d_name);
                        n++;
                }
        closedir(d);
        return n;
}
