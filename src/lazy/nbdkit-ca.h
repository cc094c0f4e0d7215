/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The CA nbdkit trusts for https, kept where nbdkit can still read it after the switch to the real root.
 *
 * nbdkit's curl plugin (libcurl with GnuTLS in Debian 12) reads its cainfo= file at every new TLS
 * connection. After the switch nbdkit is left in the initrd's root, which systemd empties: every file and
 * every directory that is not a mount point goes (/run, /dev and /proc were moved away, so their
 * directories go too, and with them whatever another mount namespace had mounted there). A mount point
 * stays. So in the initrd the CA is copied into a small tmpfs mounted at a directory of the initrd's root
 * (mount units ignore the isolation to the switch, and systemd's clean-up does not cross into other file
 * systems); nbdkit keeps reading it there until the copy is complete, then it is unmounted.
 * Outside the initrd nothing moves: nbdkit reads the file where it is.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

typedef struct NbdkitCa {
        char *file;             /* nbdkit's cainfo= */
        char *dir;              /* the tmpfs' mount point in the initrd's root, NULL outside the initrd */
        int dir_fd;             /* O_PATH to it: the way to unmount it from the real root */
} NbdkitCa;

/** Where the copy goes in the initrd: /.urlboot-lazy-NAME.ca */
#define NBDKIT_CA_DIR_PREFIX "/.urlboot-lazy-"

/**
 * Make the CA file (PEM, at most 1 MiB) available to nbdkit for the whole copy.
 * @v initrd  whether a switch to the real root lies ahead (in_initrd())
 * @ret 0, negative errno (not logged)
 */
int nbdkit_ca_prepare(NbdkitCa *ca, const char *path, bool initrd, const char *name);

/** Unmount and forget the copy (nbdkit no longer runs). */
void nbdkit_ca_done(NbdkitCa *ca);
