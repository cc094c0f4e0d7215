/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * "urlboot-lazy attach": a remote disk image as a local block device at once, copied into memory in
 * the background, verified by dm-verity.
 *
 *   /dev/loopB  reference NAME.raw, partitions: what udev, gpt-auto and veritysetup see
 *     └ /dev/dm-N  "urlboot-lazy-NAME": linear over nbd ("remote", "copying"), then over the local copy ("local")
 *         ├ /dev/nbdN  ← nbd-client ← Unix socket ← nbdkit (urlboot's HTTP plugin, retry, xz) ← HTTP ranges
 *         └ /dev/loopA ← /run/machines/NAME.raw, a sparse file the copy wrote (attached once complete)
 *   the copy: a second NBD connection to the same nbdkit (libnbd), paced (copy-pace.h), skipping the zero
 *   blocks the verified hash tree names (verity-map.h), writing only pages that are not zero (lazy-copy.h)
 *
 * The boot's reads go through the kernel's connection, the copy's through its own, and nbdkit serves them
 * side by side: the boot never waits behind the copy. In the initrd the copy starts when the root is mounted
 * (or PID 1 has switched, or after a deadline); while the boot reads, it takes a request a second.
 *
 * The process stays until the copy is complete, across the switch to the real root: argv[0] starts
 * with "@" (systemd spares such initrd processes), its unit is kept for the real root's systemd
 * (keep-unit.h), and once PID 1 has switched it follows PID 1 into the new root, where /dev, /proc, /sys and
 * /run now are. Then it maps the local copy instead of the network, disconnects nbd, stops nbdkit and exits.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

typedef struct LazyOptions {
        const char *url;
        const char *image;              /* the local copy's path, e.g. /run/machines/rootdisk.raw */
        const char *roothash;           /* pins checked against the image's verity partitions */
        const char *usrhash;
        bool no_verity;                 /* no pins: an explicit verify=no */
        unsigned connections;           /* the kernel's NBD connections (the boot's reads) */
        uint64_t request_size;          /* largest NBD request, bytes (and the copy's step) */
        bool copy_now;                  /* start copying at once, not when the root is mounted */
        unsigned retries, retry_delay, timeout;
        const char *unit;               /* the systemd unit to keep for the real root (keep-unit.h), or NULL */
        const char *nbdkit;             /* paths of the engines */
        const char *plugin;
        const char *nbd_client;
        const char *state_dir;
        const char *ca_file;            /* PEM: the only CA trusted for an https URL; NULL: curl's default store */
} LazyOptions;

/** The engines' default paths (Debian's), overridable with $URLBOOT_NBDKIT / $URLBOOT_NBD_CLIENT. */
#define NBDKIT_PATH "/usr/bin/nbdkit"
#define NBD_CLIENT_PATH "/usr/sbin/nbd-client"
#define LAZY_CONNECTIONS_DEFAULT 1
#define LAZY_REQUEST_SIZE_DEFAULT (1ULL << 20)

/**
 * Set up the disk, tell systemd it is ready, copy, switch to the local copy.
 * Logs what fails itself (it runs as a daemon, its failures are its own messages).
 * @ret 0 once the copy is complete, negative errno
 */
int lazy_attach(const LazyOptions *o);
