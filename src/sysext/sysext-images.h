/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The extension images systemd-sysext would merge, found by systemd-sysext itself ("list
 * --json=short": its search path and its precedence of names), each with its extension-release
 * fields (read from the tree of a directory, or by "systemd-dissect --json=short" for a raw image).
 */
#pragma once

#include <stddef.h>

#include "extension-release.h"

typedef struct SysextImage {
        char *name;
        char *type;             /* "directory", "subvolume", "raw", "block" */
        char *path;
        char **release;         /* "KEY=VALUE" fields; NULL when it has none */
} SysextImage;

typedef struct SysextImages {
        SysextImage *items;
        size_t n;
} SysextImages;

/**
 * The images "systemd-sysext list --json=short" names, in version order of their names (the order
 * they are merged in).
 * @v sysext  the systemd-sysext program (PATH lookup without a slash)
 * @v root    its --root= (an OS tree), or NULL for the running system
 * @ret 0, -EBADMSG (output not understood), the errors of command_output()
 */
int sysext_images_list(const char *sysext, const char *root, SysextImages *ret);

/**
 * Reads the image's extension-release fields into img->release.
 * @v dissect  the systemd-dissect program, for raw images and block devices
 * @ret 0 (also when it has none), or errno
 */
int sysext_image_read_release(SysextImage *img, const char *dissect);

/** Sorts images in version order of their names (strverscmp), as systemd-sysext merges them. */
void sysext_images_sort(SysextImage *items, size_t n);

/** The same for images that have only a path: by the name sysext_name_from_path() gives. */
void sysext_images_sort_paths(SysextImage *items, size_t n);

void sysext_images_done(SysextImages *images);

/** The host's os-release fields (/etc/os-release, else /usr/lib/os-release under @root). @ret 0, errno */
int host_release_read(const char *root, char ***ret);
