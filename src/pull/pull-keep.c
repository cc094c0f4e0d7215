/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The served file, kept.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "log.h"
#include "macro.h"
#include "mkdir.h"
#include "path-util.h"
#include "pull-keep.h"

int pull_keep_open(Attempt *a) {
        _cleanup_free_ char *dir = NULL;
        int r;

        assert(a);

        if (!a->o->keep_download)
                return 0;
        r = path_extract_directory(a->o->keep_download, &dir);
        if (r >= 0)
                r = mkdir_p(dir, 0755);
        if (r >= 0) {
                a->keep_fd = open_tmpfile_beside(a->o->keep_download, &a->keep_tmp);
                r = a->keep_fd < 0 ? a->keep_fd : 0;
        }
        if (r < 0)
                return attempt_fail(a, r, "Cannot keep the download at %s: %s.", a->o->keep_download, strerror(-r));
        return 0;
}

int pull_keep_write(Attempt *a, const void *data, size_t size, uint64_t offset) {
        assert(a);
        assert(data || size == 0);

        if (a->keep_fd < 0)
                return 0;
        return pwrite_all(a->keep_fd, data, size, offset);
}

int pull_keep_place(Attempt *a) {
        assert(a);

        if (!a->keep_tmp)
                return 0;
        int r = 0;

        /* exactly what was downloaded and verified: a longer file would be served as the image */
        if (ftruncate(a->keep_fd, (off_t) a->received) < 0)
                r = -errno;
        if (r >= 0)
                r = link_tmpfile(a->keep_fd, a->keep_tmp, a->o->keep_download, 0644);
        if (r < 0) {
                /* the image is in place: this boot goes on, only it cannot be handed on */
                log_warning("Cannot keep the download at %s (%s): urlboot-serve will not serve it.",
                            a->o->keep_download, strerror(-r));
                pull_keep_abandon(a);
                return 0;
        }
        a->keep_tmp = mfree(a->keep_tmp);
        a->keep_fd = safe_close(a->keep_fd);
        return 0;
}

void pull_keep_abandon(Attempt *a) {
        assert(a);

        if (a->keep_tmp) {
                (void) unlink(a->keep_tmp);
                a->keep_tmp = mfree(a->keep_tmp);
        }
        a->keep_fd = safe_close(a->keep_fd);
}
