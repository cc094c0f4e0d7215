/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Unpacking a tarball into a directory with libarchive, safely.
 *
 * The archive cannot reach outside the directory, by construction:
 * - extraction happens relative to the directory's file descriptor (the calling thread's working
 *   directory, unshared from the other threads, points at it), entry names stay relative, and
 *   libarchive refuses absolute names, ".." and paths through symlinks
 *   (ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS, _NODOTDOT, _SYMLINKS);
 * - every name and hard-link target is checked here too, also for entries that name the root
 *   itself (".", "./", ""): the root entry must be a plain directory, or the archive is refused,
 *   so the directory can never be replaced by a link or a file;
 * - libarchive's decompression filters are all off: the caller decodes (pull-unpack.c, with the
 *   same decoders and memory budget as raw images), so no external decoder program ever runs on
 *   unverified data.
 * Modes, times, ACLs, extended attributes and hard links are kept; numeric owners too when run as
 * root (as systemd's tar import does, whatever the user names in the archive map to here).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/** What the archive said about the tree's own directory ("." or "./"). */
typedef struct TarRoot {
        bool present;
        mode_t mode;                    /* permission bits */
        uid_t uid;
        gid_t gid;
} TarRoot;

/** Supplies archive bytes: @ret bytes, 0 at the end, or negative errno. */
typedef long (*tar_read_t)(void *userdata, void *buf, size_t size);

/**
 * Unpack into the directory dir_fd refers to. The calling thread's working directory is the same
 * afterwards, and no other thread's changes.
 * @v ret_root  the archive's entry for the directory itself, if any: it is NOT applied (the directory
 *            stays 0700 while it is a temporary), the caller applies it once the tree is in place
 * @v error           reason on failure (names from the archive included as they are: escape them)
 * @ret 0, -EBADMSG for a damaged or hostile archive, -ENOSPC, other negative errno
 */
int tar_unpack(int dir_fd, tar_read_t read, void *userdata, TarRoot *ret_root, char *error, size_t error_size);
