/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A tiny unit-test harness printing TAP.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests.h"

#define TESTS_MAX 512

static struct {
        const char *name;
        test_func_t func;
} tests[TESTS_MAX];
static int n_tests;
static jmp_buf failure_jump;
static char tmpdir[256];

void test_register(const char *name, test_func_t func) {
        if (n_tests >= TESTS_MAX) {
                fprintf(stderr, "too many tests\n");
                abort();
        }
        tests[n_tests].name = name;
        tests[n_tests].func = func;
        n_tests++;
}

void test_fail(const char *file, int line, const char *fmt, ...) {
        va_list ap;

        printf("# %s:%d: ", file, line);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
        fflush(stdout);
        longjmp(failure_jump, 1);
}

void test_note(const char *fmt, ...) {
        va_list ap;

        printf("# ");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
}

const char *test_data_path(const char *name) {
        static char buf[4096];
        const char *dir = getenv("URLBOOT_TEST_DATA");

        snprintf(buf, sizeof buf, "%s/%s", dir ?: "test/data", name);
        return buf;
}

const char *test_tmpdir(void) {
        if (!tmpdir[0]) {
                snprintf(tmpdir, sizeof tmpdir, "/tmp/urlboot-test.XXXXXX");
                if (!mkdtemp(tmpdir))
                        test_fail(__FILE__, __LINE__, "mkdtemp: %s", strerror(errno));
        }
        return tmpdir;
}

int test_new_file(const char *name) {
        char path[4096];
        int fd;

        snprintf(path, sizeof path, "%s/%s", test_tmpdir(), name);
        fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0)
                test_fail(__FILE__, __LINE__, "cannot create %s: %s", path, strerror(errno));
        return fd;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
        (void) remove(path);
        return 0;
}

static void cleanup_tmpdir(void) {
        if (tmpdir[0]) {
                (void) nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
                tmpdir[0] = 0;
        }
}

char *test_unescape(const char *s) {
        char *u = malloc(strlen(s) + 1), *t = u;

        if (!u)
                abort();
        for (; *s; s++) {
                if (s[0] == '\\' && s[1] && strchr("nrt\\", s[1])) {
                        *t++ = s[1] == 'n' ? '\n' : s[1] == 'r' ? '\r' : s[1] == 't' ? '\t' : '\\';
                        s++;
                } else
                        *t++ = *s;
        }
        *t = 0;
        return u;
}

int test_split_fields(char *line, char **fields, int max) {
        int n = 0;

        for (;;) {
                char *t = strchr(line, '\t');

                if (n < max)
                        fields[n] = line;
                n++;
                if (!t)
                        break;
                *t = 0;
                line = t + 1;
        }
        return n;
}

int test_foreach_line(const char *name, void (*f)(char *line, int lineno, void *userdata), void *userdata) {
        const char *path = test_data_path(name);
        char *line = NULL;
        size_t cap = 0;
        int lineno = 0, count = 0;
        FILE *file;

        file = fopen(path, "re");
        if (!file)
                test_fail(__FILE__, __LINE__, "cannot open %s: %s", path, strerror(errno));

        while (getline(&line, &cap, file) > 0) {
                size_t n = strlen(line);

                lineno++;
                while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
                        line[--n] = 0;
                if (n == 0 || line[0] == '#')
                        continue;
                f(line, lineno, userdata);
                count++;
        }
        free(line);
        fclose(file);
        return count;
}

int main(int argc, char *argv[]) {
        const char *only = argc > 1 ? argv[1] : NULL;
        volatile int failed = 0, number = 0;

        printf("1..%d\n", only ? 1 : n_tests);
        for (int i = 0; i < n_tests; i++) {
                if (only && strcmp(only, tests[i].name) != 0)
                        continue;
                number++;
                if (setjmp(failure_jump) == 0) {
                        tests[i].func();
                        printf("ok %d - %s\n", number, tests[i].name);
                } else {
                        printf("not ok %d - %s\n", number, tests[i].name);
                        failed++;
                }
                cleanup_tmpdir();
                fflush(stdout);
        }
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
