/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for urlboot-serve's pieces that need no network: the Range header (cases in
 * test/data/http-range-cases.tsv), the clients' allow-list, URL paths, and reads of a sparse file that leave
 * its holes alone. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot-origin.h"
#include "client-allow.h"
#include "http-range.h"
#include "macro.h"
#include "resource.h"
#include "string-util.h"
#include "tests.h"

static RangeAnswer answer_from_string(const char *s) {
        return streq(s, "part") ? RANGE_PART : streq(s, "unsatisfiable") ? RANGE_UNSATISFIABLE : RANGE_WHOLE;
}

static void range_line(char *line, int lineno, void *userdata) {
        char *field[5] = {}, *p = line;
        _cleanup_free_ char *value = NULL;
        unsigned long long size, first = 0, last = 0;
        uint64_t got_first = 0, got_last = 0;
        RangeAnswer want, got;
        size_t k = 0;

        for (; k < 5 && p; k++)
                field[k] = strsep(&p, "\t");
        ASSERT_TRUE(k >= 3);
        value = test_unescape(field[0]);
        size = strtoull(field[1], NULL, 10);
        want = answer_from_string(field[2]);
        if (want == RANGE_PART) {
                ASSERT_TRUE(k == 5);
                first = strtoull(field[3], NULL, 10);
                last = strtoull(field[4], NULL, 10);
        }
        got = http_range_parse(streq(value, "-") ? NULL : value, size, &got_first, &got_last);
        if (got != want || (want == RANGE_PART && (got_first != first || got_last != last)))
                test_fail(__FILE__, __LINE__, "line %d, '%s' of %llu: %d %llu-%llu, expected %d %llu-%llu", lineno, value,
                          size, got, (unsigned long long) got_first, (unsigned long long) got_last, want, first, last);
        (*(unsigned *) userdata)++;
}

TEST(range_cases) {
        unsigned n = 0;

        test_foreach_line("http-range-cases.tsv", range_line, &n);
        ASSERT_TRUE(n >= 30);
}

static struct sockaddr_in6 v6(const char *s) {
        struct sockaddr_in6 a = { .sin6_family = AF_INET6 };

        ASSERT_EQ(inet_pton(AF_INET6, s, &a.sin6_addr), 1);
        return a;
}

static struct sockaddr_in v4(const char *s) {
        struct sockaddr_in a = { .sin_family = AF_INET };

        ASSERT_EQ(inet_pton(AF_INET, s, &a.sin_addr), 1);
        return a;
}

TEST(allow_list) {
        ClientNetwork n[2], list[4];
        struct sockaddr_in a;
        struct sockaddr_in6 b;
        size_t k = 0;

        ASSERT_EQ(client_network_parse("10.0.3.0/24", n), 1);
        list[k++] = n[0];
        ASSERT_EQ(client_network_parse("fd00::/8", n), 1);
        list[k++] = n[0];
        ASSERT_EQ(client_network_parse("192.168.1.7", n), 1);
        list[k++] = n[0];
        a = v4("10.0.3.200");
        ASSERT_TRUE(client_allowed(list, k, (struct sockaddr *) &a));
        a = v4("10.0.4.1");
        ASSERT_FALSE(client_allowed(list, k, (struct sockaddr *) &a));
        a = v4("192.168.1.7");
        ASSERT_TRUE(client_allowed(list, k, (struct sockaddr *) &a));
        a = v4("192.168.1.8");
        ASSERT_FALSE(client_allowed(list, k, (struct sockaddr *) &a));
        b = v6("fd12::1");
        ASSERT_TRUE(client_allowed(list, k, (struct sockaddr *) &b));
        b = v6("fe80::1");
        ASSERT_FALSE(client_allowed(list, k, (struct sockaddr *) &b));
        b = v6("::ffff:10.0.3.9");      /* an IPv4 client on an IPv6 socket */
        ASSERT_TRUE(client_allowed(list, k, (struct sockaddr *) &b));
        b = v6("::ffff:10.0.9.9");
        ASSERT_FALSE(client_allowed(list, k, (struct sockaddr *) &b));

        ASSERT_EQ(client_network_parse("10.0.3.0/25", n), 1);
        a = v4("10.0.3.127");
        ASSERT_TRUE(client_network_contains(&n[0], (struct sockaddr *) &a));
        a = v4("10.0.3.128");
        ASSERT_FALSE(client_network_contains(&n[0], (struct sockaddr *) &a));
        ASSERT_EQ(client_network_parse("any", n), 2);
        b = v6("2001:db8::1");
        ASSERT_TRUE(client_allowed(n, 2, (struct sockaddr *) &b));
        {
                const char *bad[] = { "", "10.0.3.0/33", "fd00::/129", "10.0.3.0/", "10.0.3.0/x", "host.example",
                                      "10.0.3.0/-1", "/24", "10.0.3.0/24/1" };

                for (size_t i = 0; i < ELEMENTSOF(bad); i++)
                        if (client_network_parse(bad[i], n) != -EINVAL)
                                test_fail(__FILE__, __LINE__, "'%s' was accepted", bad[i]);
        }
}

TEST(url_paths) {
        const char *cases[][2] = {
                { "http://10.0.3.1:8080/dir/uki.efi", "/dir/uki.efi" },
                { "https://h/a%20b/c.raw?x=1#y", "/a b/c.raw" },
                { "http://h", "/" },
                { "http://h?x", "/" },
                { "http://h/%41%2f", "/A/" },
                { "http://h/%4", "/%4" },
        };
        char *p;

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                ASSERT_OK(url_path(cases[i][0], &p));
                if (!streq(p, cases[i][1]))
                        test_fail(__FILE__, __LINE__, "%s: '%s', expected '%s'", cases[i][0], p, cases[i][1]);
                free(p);
        }
        ASSERT_EQ(url_path("ftp://h/x", &p), -EINVAL);
        ASSERT_EQ(url_path("http://h/a%00b", &p), -EINVAL);
}

/* A 64 MiB file with data in two places: what is read is the file, and the holes are not read from disk. */
TEST(sparse_reads) {
        char path[600];
        uint8_t *buf = malloc(1 << 20);
        Resource r;
        int fd;

        ASSERT_TRUE(buf != NULL);
        snprintf(path, sizeof path, "%s/sparse", test_tmpdir());
        fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        ASSERT_TRUE(fd >= 0);
        ASSERT_EQ(ftruncate(fd, 64 << 20), 0);
        ASSERT_EQ(pwrite(fd, "begin", 5, 4096), 5);
        ASSERT_EQ(pwrite(fd, "end", 3, (64 << 20) - 3), 3);
        close(fd);
        ASSERT_OK(resource_open(&r, "/disk/sparse", path, NULL, NULL));
        ASSERT_EQ(r.size, 64ULL << 20);
        ASSERT_TRUE(r.regular);
        ASSERT_TRUE(r.etag[0] == '"');
        memset(buf, 0xaa, 1 << 20);
        ASSERT_EQ(resource_read(&r, buf, 1 << 20, 0), 1 << 20);
        ASSERT_TRUE(memcmp(buf + 4096, "begin", 5) == 0);
        ASSERT_EQ(buf[0], 0);
        ASSERT_EQ(buf[4096 + 5], 0);
        ASSERT_EQ(buf[(1 << 20) - 1], 0);
        ASSERT_EQ(resource_read(&r, buf, 1 << 20, (64 << 20) - 10), 10);
        ASSERT_TRUE(memcmp(buf + 7, "end", 3) == 0);
        ASSERT_EQ(resource_read(&r, buf, 1 << 20, 64 << 20), 0);
        resource_done(&r);
        free(buf);
}
