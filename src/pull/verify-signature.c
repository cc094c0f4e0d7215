/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Checking a detached OpenPGP signature with gpgv.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "error-buf.h"
#include "macro.h"
#include "rm-rf.h"
#include "pull-advice.h"
#include "verify-signature.h"

extern char **environ;

static const char *find_keyring(const char *keyring) {
        static const char *const defaults[] = DEFAULT_KEYRINGS;

        if (keyring)
                return access(keyring, R_OK) >= 0 ? keyring : NULL;
        for (size_t i = 0; i < ELEMENTSOF(defaults); i++)
                if (access(defaults[i], R_OK) >= 0)
                        return defaults[i];
        return NULL;
}

static int write_temp(const char *dir, const char *name, const void *data, size_t size, char **ret) {
        char *p;
        int r;

        if (asprintf(&p, "%s/%s", dir, name) < 0)
                return -ENOMEM;
        r = write_file_atomic(p, data, size, 0600);
        if (r < 0) {
                free(p);
                return r;
        }
        *ret = p;
        return 0;
}

int verify_signature(const void *data, size_t data_size, const void *sig, size_t sig_size, const char *keyring,
                     char *error, size_t error_size) {
        char dir[] = "/tmp/urlboot-gpgv.XXXXXX";
        _cleanup_free_ char *data_path = NULL, *sig_path = NULL, *kr = NULL;
        const char *ring = find_keyring(keyring);
        posix_spawn_file_actions_t actions;
        pid_t pid;
        int status, r;

        assert(data || data_size == 0);
        assert(sig || sig_size == 0);

        if (!ring)
                return error_setf(error, error_size, -ENOENT,
                                  "No keyring to check signatures with (%s). Provide %s, or use %s.",
                                  keyring ?: "/etc/systemd/import-pubring.gpg is missing",
                                  pull_advice(PULL_ADVICE_KEYRING), pull_advice(PULL_ADVICE_VERIFY_CHECKSUM));
        if (access("/usr/bin/gpgv", X_OK) < 0)
                return error_setf(error, error_size, -ENOENT,
                                  "gpgv is not installed: install it (package gpgv) or use %s.",
                                  pull_advice(PULL_ADVICE_VERIFY_CHECKSUM));
        if (!mkdtemp(dir))
                return -errno;

        /* gpgv wants an absolute keyring path or takes the name relative to its home directory. */
        kr = ring[0] == '/' ? strdup(ring) : realpath(ring, NULL);
        r = kr ? write_temp(dir, "data", data, data_size, &data_path) : -ENOMEM;
        if (r >= 0)
                r = write_temp(dir, "data.sig", sig, sig_size, &sig_path);
        if (r < 0)
                goto finish;

        char *argv[] = { (char *) "gpgv", (char *) "--quiet", (char *) "--homedir", dir, (char *) "--keyring", kr,
                         sig_path, data_path, NULL };
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
        r = posix_spawn(&pid, "/usr/bin/gpgv", &actions, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        if (r != 0) {
                r = -r;
                goto finish;
        }
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
                r = 0;
        else {
                snprintf(error, error_size, "The signature of SHA256SUMS does not verify with the keys in %s. The "
                         "image was not installed.", ring);
                r = -EBADMSG;
        }

finish:
        (void) rm_rf(dir);
        return r;
}
