/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * PE images written, signed with sbsign when asked.
 */
#include <assert.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "log.h"
#include "macro.h"
#include "pe-sign.h"

extern char **environ;

static int sbsign(const char *key, const char *cert, const char *in, const char *out) {
        char *argv[] = { (char *) "sbsign", (char *) "--key", (char *) key, (char *) "--cert", (char *) cert,
                         (char *) "--output", (char *) out, (char *) in, NULL };
        pid_t pid;
        int status, r;

        if (access("/usr/bin/sbsign", X_OK) < 0)
                return log_error_errno(ENOENT, "sbsign is not installed (package sbsigntool); cannot sign.");
        r = posix_spawn(&pid, "/usr/bin/sbsign", NULL, NULL, argv, environ);
        if (r != 0)
                return log_error_errno(r, "Failed to run sbsign: %m");
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                return log_error_errno(EIO, "sbsign failed to sign %s with %s.", in, cert);
        return 0;
}

/* A hidden temporary's path beside path (".#NAME.RANDOM" in the same directory). */
static int tmp_beside(const char *path, char **ret) {
        _cleanup_free_ char *tmp = NULL;
        const char *slash = strrchr(path, '/');

        if (tmp_name_random(slash ? slash + 1 : path, &tmp) < 0)
                return -ENOMEM;
        if (asprintf(ret, "%.*s%s", slash ? (int) (slash - path + 1) : 0, path, tmp) < 0)
                return -ENOMEM;
        return 0;
}

int pe_write_signed(const char *output, const void *data, size_t size, const char *key, const char *cert) {
        _cleanup_free_ char *in = NULL, *out = NULL;
        int r;

        assert(output);
        assert(data || size == 0);

        if (!key) {
                r = write_file_atomic(output, data, size, 0644);
                return r < 0 ? log_error_errno(r, "Failed to write %s: %m", output) : 0;
        }
        /* sbsign reads one temporary and writes another beside the output, which is renamed over it */
        if (tmp_beside(output, &in) < 0 || tmp_beside(output, &out) < 0)
                return log_oom();
        r = write_file_atomic(in, data, size, 0644);
        if (r < 0)
                return log_error_errno(r, "Failed to write %s: %m", in);
        r = sbsign(key, cert, in, out);
        (void) unlink(in);
        if (r >= 0 && rename(out, output) < 0)
                r = log_error_errno(errno, "Failed to rename %s to %s: %m", out, output);
        if (r < 0)
                (void) unlink(out);
        return r;
}
