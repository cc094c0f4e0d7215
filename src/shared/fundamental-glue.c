/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The userspace side of src/fundamental's allocation contract.
 */
#include <stdlib.h>

#include "memory-fundamental.h"

void *fmalloc(size_t size) {
        return malloc(size);
}

void ffree(void *p) {
        free(p);
}
