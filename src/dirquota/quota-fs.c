/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Project IDs and project quota records on a real file system (ext4 with "project", XFS).
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "macro.h"
#include "quota-errno.h"
#include "quota-fs.h"
#include "string-util.h"

int quota_fs_get_project(int fd, uint32_t *ret_xflags, uint32_t *ret_project_id) {
        struct fsxattr a;

        if (ioctl(fd, FS_IOC_FSGETXATTR, &a) < 0)
                return -errno;
        if (ret_xflags)
                *ret_xflags = a.fsx_xflags;
        if (ret_project_id)
                *ret_project_id = a.fsx_projid;
        return 0;
}

int quota_fs_set_project(int fd, uint32_t project_id) {
        struct fsxattr a;
        struct stat st;

        if (ioctl(fd, FS_IOC_FSGETXATTR, &a) < 0 || fstat(fd, &st) < 0)
                return -errno;
        if (a.fsx_projid == project_id && (!S_ISDIR(st.st_mode) || (a.fsx_xflags & FS_XFLAG_PROJINHERIT)))
                return 0;

        a.fsx_projid = project_id;
        if (S_ISDIR(st.st_mode))
                a.fsx_xflags |= FS_XFLAG_PROJINHERIT;
        if (ioctl(fd, FS_IOC_FSSETXATTR, &a) < 0)
                return -errno;
        return 0;
}

/* The entry's type, asking the file system when readdir() does not say. */
static unsigned entry_type(int dir_fd, const struct dirent *de) {
        struct stat st;

        if (de->d_type != DT_UNKNOWN)
                return de->d_type;
        if (fstatat(dir_fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return DT_UNKNOWN;
        return S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
}

static int set_project_tree(int dir_fd, uint32_t project_id, unsigned depth) {
        _cleanup_close_ int fd = -1;
        DIR *d;
        struct dirent *de;
        int r;

        /* The walk owns an fd per level; refuse absurd depths rather than exhausting fds. */
        if (depth > 1024)
                return -ELOOP;
        r = quota_fs_set_project(dir_fd, project_id);
        if (r < 0)
                return r;

        fd = fcntl(dir_fd, F_DUPFD_CLOEXEC, 3);
        if (fd < 0)
                return -errno;
        d = fdopendir(fd);
        if (!d)
                return -errno;
        fd = -1;        /* closedir() closes it */
        rewinddir(d);

        r = 0;
        errno = 0;
        while (r >= 0 && (de = readdir(d))) {
                _cleanup_close_ int child = -1;
                unsigned type;

                if (streq(de->d_name, ".") || streq(de->d_name, ".."))
                        continue;
                type = entry_type(dirfd(d), de);
                if (type != DT_DIR && type != DT_REG)
                        continue;
                /* O_NOFOLLOW: a name swapped for a symlink meanwhile is not followed out of the tree. */
                child = openat(dirfd(d), de->d_name,
                               O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK |
                                       (type == DT_DIR ? O_DIRECTORY : 0));
                if (child < 0) {
                        if (errno == ENOENT)    /* removed meanwhile */
                                continue;
                        r = -errno;
                        break;
                }
                r = type == DT_DIR ? set_project_tree(child, project_id, depth + 1) :
                                     quota_fs_set_project(child, project_id);
                errno = 0;
        }
        if (r >= 0 && errno > 0)
                r = -errno;
        closedir(d);
        return r;
}

int quota_fs_set_project_recursive(int dir_fd, uint32_t project_id) {
        return set_project_tree(dir_fd, project_id, 0);
}

static int quotactl_device(int fd, int cmd, uint32_t project_id, struct dqblk *dq) {
        char path[64];
        struct stat st;

        if (fstat(fd, &st) < 0)
                return -errno;
        /* tmpfs, btrfs, overlayfs…: an anonymous device, nothing quotactl() could be pointed at */
        if (major(st.st_dev) == 0)
                return -ENODEV;
        snprintf(path, sizeof path, "/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
        if (quotactl(cmd, path, (int) project_id, (caddr_t) dq) < 0)
                return -errno;
        return 0;
}

int quota_fs_quotactl(int fd, int cmd, uint32_t project_id, struct dqblk *dq) {
        int qcmd = (int) QCMD((unsigned) cmd, PRJQUOTA);

        if (syscall(SYS_quotactl_fd, (unsigned) fd, (unsigned) qcmd, project_id, dq) >= 0)
                return 0;
        if (!quota_errno_is_not_supported(errno))
                return -errno;
        /* Kernels before 5.14 have no quotactl_fd(); some file systems answer only the device form. */
        return quotactl_device(fd, qcmd, project_id, dq);
}

int quota_fs_parent_statvfs(int fd, uint32_t *ret_parent_xflags, struct statvfs *ret) {
        _cleanup_close_ int parent = openat(fd, "..", O_RDONLY | O_CLOEXEC | O_DIRECTORY);
        int r;

        assert(ret);

        if (parent < 0)
                return -errno;
        r = quota_fs_get_project(parent, ret_parent_xflags, NULL);
        if (r < 0)
                return r;
        if (fstatvfs(parent, ret) < 0)
                return -errno;
        return 0;
}
