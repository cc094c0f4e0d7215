/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for loading optional libraries at first use. */
#include <zlib.h>

#include "dlopen-util.h"
#include "tests.h"

static DLSYM_DEFINE(zlibVersion);
static DLSYM_DEFINE(crc32);

TEST(loads_symbols_once) {
        static DlOnce once;
        const DlSymbol symbols[] = { DLSYM_ENTRY(zlibVersion), DLSYM_ENTRY(crc32) };
        const char *error = "unset";

        ASSERT_OK(dlopen_symbols(&once, "libz.so.1", symbols, 2, &error));
        ASSERT_TRUE(error == NULL);
        ASSERT_TRUE(sym_zlibVersion && sym_crc32);
        ASSERT_STREQ(sym_zlibVersion(), ZLIB_VERSION);   /* zlib1g-dev matches zlib1g */
        ASSERT_EQ(sym_crc32(0, (const Bytef *) "abc", 3), 0x352441c2);
        /* The second call returns the first result without loading again. */
        ASSERT_OK(dlopen_symbols(&once, "libz.so.1", symbols, 2, NULL));
}

static DLSYM_DEFINE(adler32);
static int (*sym_no_such_function)(void);

TEST(missing_symbol_sets_nothing) {
        static DlOnce once;
        const DlSymbol symbols[] = {
                DLSYM_ENTRY(adler32),
                { "no_such_function", (void **) &sym_no_such_function },
        };
        const char *error = NULL;

        ASSERT_EQ(dlopen_symbols(&once, "libz.so.1", symbols, 2, &error), -EOPNOTSUPP);
        ASSERT_STREQ(error, "libz.so.1 lacks no_such_function");
        /* All or nothing: the symbol that exists was not set either. */
        ASSERT_TRUE(sym_adler32 == NULL);
        ASSERT_TRUE(sym_no_such_function == NULL);
        /* The failure is remembered. */
        error = NULL;
        ASSERT_EQ(dlopen_symbols(&once, "libz.so.1", symbols, 2, &error), -EOPNOTSUPP);
        ASSERT_STREQ(error, "libz.so.1 lacks no_such_function");
}

TEST(missing_library) {
        static DlOnce once;
        const DlSymbol symbols[] = { DLSYM_ENTRY(adler32) };
        const char *error = NULL;

        ASSERT_EQ(dlopen_symbols(&once, "libnot-installed-anywhere.so.7", symbols, 1, &error), -EOPNOTSUPP);
        ASSERT_TRUE(error && strstr(error, "libnot-installed-anywhere.so.7"));
        ASSERT_TRUE(sym_adler32 == NULL);
}
