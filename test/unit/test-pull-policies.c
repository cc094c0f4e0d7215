/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for what urlboot-pull decides from what servers say: SHA256SUMS lines
 * (test/data/checksums-cases.tsv), sizes for --memory-limit= (test/data/parse-size-cases.tsv) and
 * the retry policy (docs/security.md L11, L12, M3). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checksums.h"
#include "macro.h"
#include "parse-size.h"
#include "retry-policy.h"
#include "tests.h"

static int errno_of_name(const char *s) {
        return strcmp(s, "-ENOENT") == 0 ? -ENOENT : strcmp(s, "-EBADMSG") == 0 ? -EBADMSG :
               strcmp(s, "-EINVAL") == 0 ? -EINVAL : strcmp(s, "-ERANGE") == 0 ? -ERANGE : 0;
}

static void checksums_case(char *line, int lineno, void *userdata) {
        char *f[3], hex[65] = "", *text;
        int want, r;

        if (test_split_fields(line, f, 3) != 3)
                test_fail(__FILE__, __LINE__, "line %d: need three fields", lineno);
        text = test_unescape(f[1]);
        want = errno_of_name(f[2]);
        r = checksums_find(text, strlen(text), f[0], hex);
        if (r != want || (want == 0 && strcmp(hex, f[2]) != 0))
                test_fail(__FILE__, __LINE__, "line %d: %d \"%s\", want %s", lineno, r, hex, f[2]);
        free(text);
        (*(int *) userdata)++;
}

TEST(checksums_lines) {
        int n = 0;

        test_foreach_line("checksums-cases.tsv", checksums_case, &n);
        ASSERT_TRUE(n >= 19);
}

static void size_case(char *line, int lineno, void *userdata) {
        char *f[2];
        uint64_t v = 0;
        int want, r;

        if (test_split_fields(line, f, 2) != 2)
                test_fail(__FILE__, __LINE__, "line %d: need two fields", lineno);
        want = errno_of_name(f[1]);
        r = parse_size(f[0], &v);
        if (r != want || (want == 0 && v != strtoull(f[1], NULL, 10)))
                test_fail(__FILE__, __LINE__, "line %d: parse_size(\"%s\") = %d %llu, want %s", lineno, f[0], r,
                          (unsigned long long) v, f[1]);
        (*(int *) userdata)++;
}

TEST(sizes) {
        int n = 0;

        test_foreach_line("parse-size-cases.tsv", size_case, &n);
        ASSERT_TRUE(n >= 20);
}

/* Each step: what the server said (Retry-After, 0: nothing), the delay granted (-1: stop). */
typedef struct RetryStep {
        unsigned retry_after;
        int delay;
} RetryStep;

static void retry_run(unsigned max_retries, unsigned max_wait, const RetryStep *steps, size_t n) {
        RetryPolicy p = { .max_retries = max_retries, .max_wait_total = max_wait };

        for (size_t i = 0; i < n; i++) {
                unsigned d = 12345;
                bool again = retry_policy_next(&p, steps[i].retry_after, &d);

                if (again != (steps[i].delay >= 0) || (again && d != (unsigned) steps[i].delay))
                        test_fail(__FILE__, __LINE__, "step %zu: %s %u, want %d", i, again ? "retry after" : "stop",
                                  d, steps[i].delay);
        }
}

TEST(retry_policy) {
        /* Backoff 1, 2, 4, 8, 16, 30, 30 without Retry-After; the attempts run out. */
        static const RetryStep backoff[] = { { 0, 1 }, { 0, 2 }, { 0, 4 }, { 0, 8 }, { 0, 16 }, { 0, 30 }, { 0, 30 },
                                             { 0, -1 } };
        /* Retry-After is honoured up to 60 s; the total of the waits is capped (the last one shortened). */
        static const RetryStep capped[] = { { 3600, 60 }, { 3600, 60 }, { 5, 5 }, { 3600, 60 }, { 3600, 60 },
                                            { 3600, 55 }, { 1, -1 } };
        /* A server that always says "in a second" cannot keep a boot waiting past the total either. */
        static const RetryStep chatty[] = { { 1, 1 }, { 1, 1 }, { 1, 1 }, { 1, -1 } };
        /* No waiting allowed: no retries. */
        static const RetryStep none[] = { { 0, -1 } };

        retry_run(7, 1000, backoff, ELEMENTSOF(backoff));
        retry_run(100, 300, capped, ELEMENTSOF(capped));
        retry_run(1000, 3, chatty, ELEMENTSOF(chatty));
        retry_run(5, 0, none, ELEMENTSOF(none));
}
