/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The CA nbdkit trusts for https, kept where it can still be read after the switch to the real root.
 *
 * nbdkit's curl plugin (libcurl with GnuTLS in Debian 12) reads its cainfo= file at every new TLS
 * connection. After the switch, nbdkit is left in the initrd's emptied root: neither the file nor /dev/fd
 * or /proc are there any more. So nbdkit gets a mount namespace of its own, in which a small tmpfs holds
 * a copy of the CA: systemd neither sees nor unmounts it, and it goes away with nbdkit.
 */
#pragma once

#include <stddef.h>

typedef struct NbdkitCa {
        char *pem;              /* the certificates, read before nbdkit starts */
        size_t size;
        char *dir;              /* where the tmpfs goes in nbdkit's namespace */
        char *file;             /* dir/ca.pem: nbdkit's cainfo= */
} NbdkitCa;

/**
 * Read the CA file (PEM, at most 1 MiB) and make the empty directory for it under state_dir.
 * @ret 0, negative errno (not logged)
 */
int nbdkit_ca_prepare(NbdkitCa *ca, const char *path, const char *state_dir, const char *name);

/**
 * In nbdkit's child process, before exec: a mount namespace of its own, the tmpfs on ca->dir, the file.
 * @ret 0, negative errno (not logged: the caller exits)
 */
int nbdkit_ca_place(const NbdkitCa *ca);

void nbdkit_ca_done(NbdkitCa *ca);
