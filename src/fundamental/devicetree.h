/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Flattened devicetree blobs (the Devicetree Specification, chapter 5): only what choosing a UKI's
 * .dtbauto needs, the first string of the root node's "compatible" property ("vendor,board"). The
 * blob is untrusted (a UKI section) or the firmware's: every offset is checked against its size.
 */
#pragma once

#include "macro-fundamental.h"

#define FDT_HEADER_SIZE 40

/**
 * The size the blob's header gives itself (totalsize), for a blob whose end is not known otherwise
 * (the firmware's). @ret 0, -EBADMSG (no devicetree magic, or max below the header)
 */
int fdt_total_size(const void *blob, size_t max, size_t *ret);

/**
 * The first string of the root node's "compatible" property, which must come before the root's first
 * child node (as dtc writes it).
 * @v size     the bytes that may be read; the blob's own totalsize must fit in them
 * @ret 0 with ret pointing into blob (NUL-terminated there), -EBADMSG for a blob that is not a
 *      well-formed devicetree, -ENOENT when the root has no such property before its first child
 */
int fdt_root_compatible(const void *blob, size_t size, const char **ret);
