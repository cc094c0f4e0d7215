/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Checks of a loop request from the kernel command line (loop-image.h).
 */
#include <assert.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "error-buf.h"
#include "loop-image.h"
#include "loop-ref.h"
#include "path-util.h"

int loop_image_check(const char *path, bool initrd, char *reason, size_t reason_size) {
        const char *name;
        struct stat st;

        assert(path);

        if (!path_is_absolute(path) || !path_is_normalized(path) || path[1] == 0)
                return error_setf(reason, reason_size, -EINVAL, "not an absolute, normalized path to a file");
        name = strrchr(path, '/') + 1;
        if (!loop_ref_is_valid(name))
                return error_setf(reason, reason_size, -EINVAL,
                                  "the file's name is its loop reference: at most %d bytes, no control characters",
                                  LOOP_REF_MAX);
        if (!initrd)
                return 0;
        if (stat(path, &st) < 0)
                return error_setf(reason, reason_size, -errno,
                                  errno == ENOENT ? "no such file in the initrd (the UKI's .initrd or another "
                                                    "initrd would hold it)"
                                                  : "cannot look at it: %m");
        if (!S_ISREG(st.st_mode))
                return error_setf(reason, reason_size, S_ISDIR(st.st_mode) ? -EISDIR : -ENODEV,
                                  "not a regular file");
        return 0;
}
