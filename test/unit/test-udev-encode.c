/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for udev-style encoding of link names. */
#include <stdlib.h>

#include "tests.h"
#include "udev-encode.h"

static void check(const char *in, const char *want) {
        char *e = udev_encode_string(in);

        ASSERT_STREQ(e, want);
        free(e);
}

TEST(encoding) {
        check("rootdisk.raw", "rootdisk.raw");
        check("image.raw-part1", "image.raw-part1");
        check("a#b+c-d.e:f=g@h_i", "a#b+c-d.e:f=g@h_i");
        check("my disk/1", "my\\x20disk\\x2f1");
        check("back\\slash", "back\\x5cslash");
        check("ünï", "ünï");
        check("bad\xff", "bad\\xff");
        check("", "");
}
