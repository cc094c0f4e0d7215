/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * systemd.volatile=overlay as the default for a verified pulled root.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "generator.h"
#include "log.h"
#include "macro.h"
#include "proc-cmdline.h"
#include "volatile-root.h"

#define UNIT "systemd-volatile-root.service"

/* Where distributions put it: /usr/lib/systemd (merged /usr) or /lib/systemd. */
static const char *const binaries[] = {
        "/usr/lib/systemd/systemd-volatile-root",
        "/lib/systemd/systemd-volatile-root",
};

static const char *find_binary(void) {
        for (size_t i = 0; i < ELEMENTSOF(binaries); i++)
                if (access(binaries[i], X_OK) == 0)
                        return binaries[i];
        return NULL;
}

int volatile_root_add(const char *dir, const char *generator) {
        _cleanup_free_ char *mode = NULL, *dropin = NULL;
        const char *binary;
        int r;

        assert(dir);
        assert(generator);

        r = proc_cmdline_get_key("systemd.volatile", 0, &mode);
        if (r > 0) {
                log_debug("systemd.volatile=%s is on the kernel command line: systemd's own choice stands.", mode ?: "");
                return 0;
        }
        binary = find_binary();
        if (!binary) {
                log_warning("roothash= pins the root, but this initrd has no systemd-volatile-root: the root stays "
                            "read-only, and a system that writes at boot will not start cleanly.");
                return 0;
        }
        if (asprintf(&dropin, "# Written by %s: roothash= pins a read-only root; its writes go to a tmpfs\n"
                              "# (systemd.volatile=overlay)\n"
                              "[Service]\nExecStart=\nExecStart=%s overlay /sysroot\n",
                     generator, binary) < 0)
                return log_oom();
        r = generator_add_symlink(dir, "initrd-root-fs.target", "requires", UNIT);
        if (r >= 0)
                r = generator_write_dropin(dir, UNIT, "50-urlboot-overlay", dropin);
        if (r < 0)
                return log_error_errno(r, "Failed to pull in %s: %m", UNIT);
        log_info("roothash= pins the root read-only: its writes go to a tmpfs over it (systemd.volatile=overlay; "
                 "systemd.volatile=no on the kernel command line keeps it read-only).");
        return 1;
}
