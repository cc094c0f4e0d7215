/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reaching a path below a trusted directory without following any symbolic link: what a root helper
 * needs when the path's components belong to someone else, who could swap one for a link to /etc.
 */
#pragma once

/**
 * Open PATH relative to dir_fd, refusing every symbolic link on the way (the last component too), every
 * "..", and absolute paths: openat2() with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS, and
 * where the kernel has no openat2() (before 5.6) one openat(O_NOFOLLOW) per component. Mount points are
 * crossed (only root can make them).
 * @v flags  open flags for the last component (O_CLOEXEC and O_NOFOLLOW are added); the ones before it
 *           are opened as directories
 * @ret      the new fd, -ELOOP for a symbolic link on the way, -EXDEV for ".." or an absolute path,
 *           another negative errno
 */
int open_beneath(int dir_fd, const char *path, int flags);

/** The same without openat2(), one openat(O_NOFOLLOW) per component (what older kernels get). */
int open_beneath_walk(int dir_fd, const char *path, int flags);
