/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reading whole files and writing files atomically.
 *
 * Nothing half-written ever appears under a final name: writes go to a hidden temporary
 * (".#NAME.XXXXXX") in the same directory, are fsync()ed, renamed over the final name, and the
 * directory is fsync()ed so the rename itself is durable.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/**
 * Read a whole file, NUL-terminated.
 * @v max_size  fail with -EFBIG if the file is larger
 * @ret         0 or negative errno
 */
int read_full_file(const char *path, size_t max_size, char **ret, size_t *ret_size);

/** The same for what an open descriptor has left (it stays open). */
int read_full_fd(int fd, size_t max_size, char **ret, size_t *ret_size);

/** Write all of buf to fd, retrying short writes and EINTR. */
int write_all(int fd, const void *buf, size_t size);

/** The same at a file offset (pwrite). */
int pwrite_all(int fd, const void *buf, size_t size, uint64_t offset);

/**
 * Write a file atomically.
 * @v mode  permissions of the final file (umask not applied)
 */
int write_file_atomic(const char *path, const void *data, size_t size, mode_t mode);

/** Hex digits of the random part of a temporary's name. */
#define TMP_NAME_RANDOM_DIGITS 16

/** A temporary's name for final_name in the same directory: ".#NAME." and TMP_NAME_RANDOM_DIGITS hex digits. */
int tmp_name_random(const char *final_name, char **ret);

/**
 * The same for NAME in the directory dir_fd refers to: the file lands in that directory wherever it is
 * mounted by then (a /run moved into the real root keeps receiving it).
 */
int write_file_atomic_at(int dir_fd, const char *name, const void *data, size_t size, mode_t mode);

/**
 * Replace the contents of an existing file atomically, as an editor would: a symlink at path is
 * followed (the link stays), and the file keeps its mode and owner.
 */
int write_file_replace(const char *path, const void *data, size_t size);

/** Open a hidden temporary beside path; *ret_tmp receives its name. */
int open_tmpfile_beside(const char *path, char **ret_tmp);

/** fsync(), fchmod() and rename tmp over path, then fsync the directory. Unlinks tmp on failure. */
int link_tmpfile(int fd, const char *tmp, const char *path, mode_t mode);

/** fsync() the directory that contains path. */
int fsync_directory_of(const char *path);
