/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The stub's initrd from its pieces (initrd-concat.c), in systemd-stub 262's order and alignment. */
#include <stdlib.h>

#include "initrd-concat.h"
#include "tests.h"

TEST(order_and_alignment) {
        /* .ucode first (5 bytes: padded to 8), then .initrd (4), then an ESP archive (3) */
        InitrdPiece p[] = { { "UCODE", 5 }, { "INIT", 4 }, { NULL, 0 }, { "ESP", 3 } };
        static const char want[] = "UCODE\0\0\0INITESP\0";
        void *all;
        size_t size;
        bool allocated;

        ASSERT_OK(initrd_concat(p, 4, &all, &size, &allocated));
        ASSERT_TRUE(allocated);
        ASSERT_EQ(size, 16);
        ASSERT_TRUE(memcmp(all, want, 16) == 0);
        free(all);
}

TEST(one_piece_is_not_copied) {
        InitrdPiece p[] = { { NULL, 0 }, { "INITRD", 6 }, { NULL, 0 } };
        void *all;
        size_t size;
        bool allocated;

        ASSERT_OK(initrd_concat(p, 3, &all, &size, &allocated));
        ASSERT_FALSE(allocated);
        ASSERT_TRUE(all == p[1].data && size == 6);
        ASSERT_OK(initrd_concat(p, 1, &all, &size, &allocated));
        ASSERT_TRUE(all == NULL && size == 0);
}

TEST(sizes_that_overflow_are_refused) {
        InitrdPiece p[] = { { "A", SIZE_MAX - 1 }, { "B", 8 } };
        void *all;
        size_t size;
        bool allocated;

        ASSERT_EQ(initrd_concat(p, 2, &all, &size, &allocated), -EOVERFLOW);
}
