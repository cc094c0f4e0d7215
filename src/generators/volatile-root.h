/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A writable layer over a verified root: systemd.volatile=overlay as the default when a pulled image is the
 * root and roothash= pins it.
 *
 * dm-verity gives a read-only root, and a stock system writes at boot (/etc/machine-id, /var/lib for logind,
 * resolved's namespaces, systemd-remount-fs remounting / read-write): without a writable layer it comes up
 * degraded. systemd's own answer is systemd.volatile=overlay: systemd-volatile-root (in the initrd, after
 * sysroot.mount) mounts an overlayfs over /sysroot whose upper layer is a tmpfs of at most 25% of RAM, the
 * bound systemd gives it; `df /` in the booted system shows it. The writes stay in RAM and are gone at the
 * next boot; every block read from the image is still verified. systemd.volatile= on the kernel command line
 * wins (systemd.volatile=no keeps the root read-only, systemd.volatile=state a tmpfs /var only).
 */
#pragma once

/**
 * Pull in systemd-volatile-root.service in overlay mode (a requirement of initrd-root-fs.target and a
 * drop-in for its mode), unless the kernel command line names systemd.volatile= or the initrd has no
 * systemd-volatile-root (logged). @ret 1 added, 0 not, <0 (logged)
 */
int volatile_root_add(const char *dir, const char *generator);
