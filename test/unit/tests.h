/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A tiny unit-test harness printing TAP.
 *
 * TEST(name) { ... } registers a case; a failed ASSERT_* prints where and why and ends that case
 * (the next one still runs). Data-driven tests read files from $URLBOOT_TEST_DATA (test/data).
 */
#pragma once

#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void (*test_func_t)(void);

void test_register(const char *name, test_func_t func);
_Noreturn void test_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/** Print a TAP comment (diagnostics that do not fail the case). */
void test_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** Path of a file in test/data; static buffer. */
const char *test_data_path(const char *name);
/** A fresh temporary directory, removed after the case (also on failure). */
const char *test_tmpdir(void);
/** The file name in test_tmpdir(), created or emptied, open read-write; the case fails if it cannot. */
int test_new_file(const char *name);

#define TEST(name)                                                                  \
        static void test_##name(void);                                              \
        __attribute__((constructor)) static void test_register_##name(void) {       \
                test_register(#name, test_##name);                                  \
        }                                                                           \
        static void test_##name(void)

#define ASSERT_TRUE(expr)                                                           \
        do {                                                                        \
                if (!(expr))                                                        \
                        test_fail(__FILE__, __LINE__, "expected true: %s", #expr);  \
        } while (0)

#define ASSERT_FALSE(expr) ASSERT_TRUE(!(expr))

#define ASSERT_EQ(a, b)                                                                             \
        do {                                                                                        \
                intmax_t _a = (intmax_t) (a), _b = (intmax_t) (b);                                  \
                if (_a != _b)                                                                       \
                        test_fail(__FILE__, __LINE__, "%s == %s: %jd != %jd", #a, #b, _a, _b);      \
        } while (0)

#define ASSERT_OK(expr)                                                                             \
        do {                                                                                        \
                intmax_t _r = (intmax_t) (expr);                                                    \
                if (_r < 0)                                                                         \
                        test_fail(__FILE__, __LINE__, "%s failed: %s", #expr, strerror((int) -_r)); \
        } while (0)

#define ASSERT_STREQ(a, b)                                                                          \
        do {                                                                                        \
                const char *_a = (a), *_b = (b);                                                    \
                if (!_a || !_b || strcmp(_a, _b) != 0)                                              \
                        test_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,         \
                                  _a ?: "(null)", _b ?: "(null)");                                  \
        } while (0)

/* Split a line of a data file at tabs, in place; returns the number of fields. */
int test_split_fields(char *line, char **fields, int max);

/** A new copy of s with the escapes of the data files turned into bytes: \\n \\r \\t \\\\. */
char *test_unescape(const char *s);
/* Call f for each non-empty, non-comment line of a data file; returns the number of lines. */
int test_foreach_line(const char *name, void (*f)(char *line, int lineno, void *userdata), void *userdata);
