/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Local names of downloaded images.
 *
 * "rd.systemd.pull=raw,...::https://host/image.raw.xz" stores the image as "image": the name is
 * the URL's last component with image and compression suffixes stripped (systemd's rules).
 */
#pragma once

#include <stdbool.h>

/**
 * A valid image name: a valid file name, valid UTF-8, no control characters, not starting with ".#"
 * (the prefix of our temporaries) or "-" (it would read as an option on a command line).
 */
bool image_name_is_valid(const char *s);

/**
 * Strip raw-image suffixes repeatedly (.xz .gz .bz2 .zst .sysext.raw .confext.raw .raw .qcow2 .img .bin)
 * until none is left. Never fails; the result may be empty.
 */
int raw_strip_suffixes(const char *name, char **ret);

/**
 * Strip exactly one tarball suffix (.tar .tar.xz .tar.gz .tar.bz2 .tar.zst .tgz), the first that matches.
 * @ret 0, -EINVAL when nothing would be left, -ENOMEM
 */
int tar_strip_suffixes(const char *name, char **ret);

/** Last component of url with raw (tar = false) or tar suffixes stripped, validated as an image name. */
int image_name_from_url(const char *url, bool tar, char **ret);
