/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The initrd's pieces, one after the other.
 */
#include "assert-fundamental.h"
#include "errno-fundamental.h"
#include "initrd-concat.h"
#include "macro-fundamental.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"

int initrd_concat(const InitrdPiece *pieces, size_t n, void **ret, size_t *ret_size, bool *ret_allocated) {
        size_t total = 0, off = 0, last = 0, used = 0;
        uint8_t *all;

        fassert(pieces || n == 0);
        fassert(ret);
        fassert(ret_size);
        fassert(ret_allocated);

        for (size_t i = 0; i < n; i++) {
                if (pieces[i].size == 0)
                        continue;
                if (total > SIZE_MAX - ALIGN_TO(pieces[i].size, (size_t) 4) || pieces[i].size > SIZE_MAX - 3)
                        return -EOVERFLOW;
                total += ALIGN_TO(pieces[i].size, (size_t) 4);
                last = i;
                used++;
        }
        *ret_allocated = false;
        if (used <= 1) {
                /* One piece goes as it is: no copy of a large .initrd */
                *ret = used ? (void *) pieces[last].data : NULL;
                *ret_size = used ? pieces[last].size : 0;
                return 0;
        }
        all = fmalloc(total);
        if (!all)
                return -ENOMEM;
        fmemset(all, 0, total);
        for (size_t i = 0; i < n; i++) {
                if (pieces[i].size == 0)
                        continue;
                fmemcpy(all + off, pieces[i].data, pieces[i].size);
                off += ALIGN_TO(pieces[i].size, (size_t) 4);
        }
        *ret = all;
        *ret_size = total;
        *ret_allocated = true;
        return 0;
}
