/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * SHA256SUMS files, as sha256sum writes them: "HEX  NAME", "HEX *NAME" (binary mode), "HEX NAME",
 * and the BSD form "SHA256 (NAME) = HEX" (sha256sum --tag, openssl dgst).
 *
 * Lines may end in LF or CRLF, the last one may lack its line end, and "./NAME" names NAME. systemd
 * v258 reads only "HEX *NAME\n" and "HEX  NAME\n"; the other forms failed closed ("not listed") for
 * files that plainly list the image, which is why they are read here.
 */
#pragma once

#include <stddef.h>

/**
 * Find the digest of name in a SHA256SUMS text.
 * @v ret_hex  lowercase digest (65 bytes)
 * @ret 0, -ENOENT when name is not listed, -EBADMSG when the line naming it has no valid digest
 */
int checksums_find(const char *text, size_t size, const char *name, char ret_hex[65]);
