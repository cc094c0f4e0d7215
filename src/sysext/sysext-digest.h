/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What identifies an activated system extension image in a measurement: its name and a digest.
 *
 * A raw image with a dm-verity root hash (the user.verity.roothash or user.verity.usrhash attribute,
 * the NAME.roothash or NAME.usrhash sidecar of NAME.raw: where systemd-sysext 252 looks for them) is
 * named by that hash: it covers every block the kernel will read. Without one, a raw image is named by the SHA-256 of its bytes, and a
 * directory tree by the SHA-256 of its canonical listing (sysext_tree_digest). The measured text is
 * "sysext:NAME:KIND:HEX" (KIND verity, sha256 or tree), the same for the measuring service and
 * for urlbootctl measure's prediction.
 */
#pragma once

#include <stddef.h>

typedef enum SysextDigestKind {
        SYSEXT_DIGEST_VERITY,
        SYSEXT_DIGEST_SHA256,
        SYSEXT_DIGEST_TREE,
        _SYSEXT_DIGEST_KIND_MAX,
} SysextDigestKind;

const char *sysext_digest_kind_name(SysextDigestKind k);

/**
 * The extension's name as systemd-sysext 252 takes it from its path: the file name, without ".raw"
 * for a regular file.
 * @ret 0, -EINVAL (no file name), -ENOMEM
 */
int sysext_name_from_path(const char *path, char **ret);

/**
 * The digest of the image at @path: a directory, or a raw image file (or block device).
 * @ret 0, -EBADMSG (a root hash sidecar that is not hex), errno of reading it
 */
int sysext_image_digest(const char *path, SysextDigestKind *ret_kind, char **ret_hex);

/**
 * SHA-256 over the tree below @dir_fd, entries in byte order of their paths, each one
 * "PATH\0TYPE\0MODE\0UID\0GID\0PAYLOAD\0" (TYPE one of d f l c b p s; MODE the permission bits in
 * octal; PAYLOAD the lowercase hex SHA-256 of a regular file's contents, a symbolic link's target,
 * "MAJOR:MINOR" of a device, else empty). Symbolic links are never followed.
 * @ret 0, errno of reading
 */
int sysext_tree_digest(int dir_fd, char ret_hex[65]);

/** "sysext:NAME:KIND:HEX", the text that is measured; NULL on OOM. */
char *sysext_event_text(const char *name, SysextDigestKind kind, const char *hex);

/**
 * Everything sysext_event_text() needs, from the image at @path.
 * @ret 0, or the errors of sysext_name_from_path() and sysext_image_digest()
 */
int sysext_event_text_of_image(const char *path, char **ret);
