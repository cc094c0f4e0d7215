/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for urlboot-lazy's pieces that need no kernel: mirror status lines, nbdkit's command line,
 * the state file, verity superblocks and tree geometry. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "copy-start.h"
#include "dm-mirror.h"
#include "lazy-state.h"
#include "lazy-status.h"
#include "macro.h"
#include "nbdkit-command.h"
#include "string-util.h"
#include "tests.h"
#include "verity-tree.h"

static void mirror_case(char *line, int lineno, void *userdata) {
        char *f[2];
        MirrorStatus s;
        char got[128];
        int r;

        ASSERT_EQ(test_split_fields(line, f, 2), 2);
        r = mirror_status_parse(f[0], &s);
        if (streq(f[1], "EBADMSG")) {
                if (r != -EBADMSG)
                        test_fail(__FILE__, lineno, "line %d: '%s' parsed", lineno, f[0]);
                return;
        }
        ASSERT_OK(r);
        snprintf(got, sizeof got, "%u %llu/%llu %s %s", s.legs, (unsigned long long) s.in_sync,
                 (unsigned long long) s.regions, s.health, mirror_status_healthy(&s) ? "yes" : "no");
        ASSERT_STREQ(got, f[1]);
}

/* The copy waits for the root, and for nothing past the deadline. */
TEST(copy_start) {
        const uint64_t s = 1000000, ready = 10 * s;
        LazyCopyClock c = { .ready_usec = ready, .now_usec = ready + 5 * s };

        ASSERT_FALSE(lazy_copy_due(&c));                        /* the initrd still reads, no root yet */
        c.root_ready = true;
        ASSERT_TRUE(lazy_copy_due(&c));
        c = (LazyCopyClock) { .ready_usec = ready, .now_usec = ready + LAZY_COPY_WAIT_USEC };
        ASSERT_FALSE(lazy_copy_due(&c));
        c.now_usec++;
        ASSERT_TRUE(lazy_copy_due(&c));                         /* the deadline, no root */
        c = (LazyCopyClock) { .copy_now = true, .ready_usec = ready, .now_usec = ready };
        ASSERT_TRUE(lazy_copy_due(&c));
}

TEST(mirror_status_cases) {
        ASSERT_TRUE(test_foreach_line("mirror-status-cases.tsv", mirror_case, NULL) >= 10);
}

TEST(mirror_tables) {
        _cleanup_free_ char *m = mirror_table_params("43:0", "7:0", 8192), *l = linear_table_params("7:0");

        ASSERT_STREQ(m, "core 2 8192 sync 2 43:0 0 7:0 0");
        ASSERT_STREQ(l, "7:0 0");
}

static char *join(char **l) {
        char *s = strdup("");

        STRV_FOREACH(x, l)
                ASSERT_TRUE(strextend(&s, s[0] ? " " : "", *x, NULL));
        return s;
}

TEST(nbdkit_command) {
        NbdkitSettings s = { .url = "http://10.0.2.2:8080/dir/lazy.raw?x=1", .socket = "/run/urlboot/lazy/rootdisk.sock",
                             .retries = 1000, .retry_delay = 1, .timeout = 60 };
        _cleanup_strv_free_ char **argv = NULL;
        _cleanup_free_ char *line = NULL;

        ASSERT_OK(nbdkit_command(&s, &argv));
        line = join(argv);
        ASSERT_STREQ(line, "@nbdkit --foreground --exit-with-parent --readonly --log=stderr "
                           "--unix=/run/urlboot/lazy/rootdisk.sock --filter=retry curl "
                           "url=http://10.0.2.2:8080/dir/lazy.raw?x=1 timeout=60 retries=1000 retry-delay=1 "
                           "retry-exponential=no protocols=http,https");
        strv_free(argv);
        free(line);

        s.url = "https://h/img.raw.xz#frag";
        s.xz = nbdkit_url_is_xz(s.url);
        s.cainfo = "/run/urlboot/lazy/rootdisk.ca/ca.pem";
        ASSERT_TRUE(s.xz);
        ASSERT_OK(nbdkit_command(&s, &argv));
        line = join(argv);
        ASSERT_TRUE(strstr(line, "--filter=retry --filter=xz curl url=https://h/img.raw.xz#frag"));
        ASSERT_TRUE(endswith(line, " protocols=https cainfo=/run/urlboot/lazy/rootdisk.ca/ca.pem capath="));

        strv_free(argv);
        free(line);
        s.multi_conn = true;
        ASSERT_OK(nbdkit_command(&s, &argv));
        line = join(argv);
        ASSERT_TRUE(strstr(line, "--filter=multi-conn --filter=retry --filter=xz curl "));
        ASSERT_TRUE(endswith(line, " multi-conn-mode=unsafe"));

        ASSERT_FALSE(nbdkit_url_is_xz("http://h/img.xz.raw"));
        ASSERT_FALSE(nbdkit_url_is_xz("http://h/"));
        s.url = "http://h/a b.raw";
        ASSERT_EQ(nbdkit_command(&s, &argv), -EINVAL);
        s.url = "http://h/a\nb.raw";
        ASSERT_EQ(nbdkit_command(&s, &argv), -EINVAL);
}

TEST(state_round_trip) {
        LazyState s = {
                .name = (char *) "rootdisk", .url = (char *) "http://h/lazy.raw", .image = (char *) "/run/machines/rootdisk.raw",
                .device = (char *) "/dev/loop1", .mapper = (char *) "urlboot-lazy-rootdisk", .nbd = (char *) "/dev/nbd0",
                .local_loop = (char *) "/dev/loop0", .verity = (char *) "none", .phase = LAZY_SYNCING, .size = 64ULL << 20,
                .region_size = 4 << 20,
                .copied = 8 << 20, .fetched = 9 << 20, .fetched_at_root = 3 << 20, .started_usec = 12000000,
                .ready_usec = 13000000, .root_usec = 15000000, .local_usec = 0, .pid = 123, .nbdkit_pid = 124,
        };
        char path[512];
        LazyState t;

        snprintf(path, sizeof path, "%s/rootdisk.state", test_tmpdir());
        ASSERT_OK(lazy_state_write(path, &s));
        ASSERT_OK(lazy_state_read(path, &t));
        ASSERT_STREQ(t.name, s.name);
        ASSERT_STREQ(t.url, s.url);
        ASSERT_STREQ(t.local_loop, s.local_loop);
        ASSERT_EQ(t.phase, LAZY_SYNCING);
        ASSERT_EQ(t.size, s.size);
        ASSERT_EQ(t.fetched_at_root, s.fetched_at_root);
        ASSERT_EQ(t.root_usec, s.root_usec);
        ASSERT_EQ(t.nbdkit_pid, 124);
        ASSERT_STREQ(t.verity, "none");
        lazy_state_done(&t);

        /* F8 of the security review of 2026-12-05: an unverified disk says so in status and JSON. */
        {
                _cleanup_free_ char *text = NULL, *json = NULL;
                size_t n = 0, m = 0;
                FILE *f = open_memstream(&text, &n), *g = open_memstream(&json, &m);

                ASSERT_TRUE(f && g);
                lazy_status_print(f, &s, true);
                lazy_status_print_json(g, &s, true);
                fclose(f);
                fclose(g);
                ASSERT_TRUE(strstr(text, "    Verified: NO (verify=no)"));
                ASSERT_TRUE(strstr(json, "\"verity\":\"none\""));
        }

        /* A value with a line end is left out rather than written as a second key. */
        s.url = (char *) "http://h/x\nPHASE=local";
        ASSERT_OK(lazy_state_write(path, &s));
        ASSERT_OK(lazy_state_read(path, &t));
        ASSERT_TRUE(t.url == NULL);
        ASSERT_EQ(t.phase, LAZY_SYNCING);
        lazy_state_done(&t);

        ASSERT_EQ(lazy_phase_from_string("local"), LAZY_LOCAL);
        ASSERT_EQ(lazy_phase_from_string("remote"), LAZY_REMOTE);
        ASSERT_EQ(lazy_phase_from_string("copying"), _LAZY_PHASE_INVALID);
}

TEST(state_follows_moved_directory) {
        /* /run moves into the real root at the switch: the state must land where the directory went, not
         * under its old path (the 1 GiB lazy-bench boot lost its "local" state that way). */
        LazyState s = { .name = (char *) "rootdisk", .phase = LAZY_LOCAL, .size = 1 << 20 };
        char old[512], moved[512], path[600];
        LazyState t;
        int fd;

        snprintf(old, sizeof old, "%s/initrd-run", test_tmpdir());
        snprintf(moved, sizeof moved, "%s/sysroot-run", test_tmpdir());
        ASSERT_TRUE(mkdir(old, 0755) == 0);
        fd = open(old, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        ASSERT_TRUE(fd >= 0);
        ASSERT_TRUE(rename(old, moved) == 0);
        ASSERT_TRUE(mkdir(old, 0755) == 0);      /* the empty directory left behind */
        ASSERT_OK(lazy_state_write_at(fd, "rootdisk.state", &s));
        snprintf(path, sizeof path, "%s/rootdisk.state", moved);
        ASSERT_OK(lazy_state_read(path, &t));
        ASSERT_EQ(t.phase, LAZY_LOCAL);
        lazy_state_done(&t);
        snprintf(path, sizeof path, "%s/rootdisk.state", old);
        ASSERT_TRUE(access(path, F_OK) < 0 && errno == ENOENT);
        close(fd);
}

/* A superblock as veritysetup writes it. */
static void make_superblock(uint8_t sb[512], const char *alg, uint32_t dbs, uint32_t hbs, uint64_t blocks,
                            uint16_t salt_size) {
        memset(sb, 0, 512);
        memcpy(sb, "verity\0\0", 8);
        sb[8] = 1;              /* version */
        sb[12] = 1;             /* hash type */
        snprintf((char *) sb + 32, 32, "%s", alg);
        for (int i = 0; i < 4; i++) {
                sb[64 + i] = (uint8_t) (dbs >> (8 * i));
                sb[68 + i] = (uint8_t) (hbs >> (8 * i));
        }
        for (int i = 0; i < 8; i++)
                sb[72 + i] = (uint8_t) (blocks >> (8 * i));
        sb[80] = (uint8_t) salt_size;
        sb[81] = (uint8_t) (salt_size >> 8);
        for (int i = 0; i < salt_size && i < 256; i++)
                sb[88 + i] = (uint8_t) i;
}

TEST(verity_superblock) {
        uint8_t buf[512];
        VeritySuperblock sb;
        char error[256];

        make_superblock(buf, "sha256", 4096, 4096, 16384, 32);
        ASSERT_OK(verity_superblock_parse(buf, sizeof buf, &sb, error, sizeof error));
        ASSERT_STREQ(sb.algorithm, "sha256");
        ASSERT_EQ(sb.data_blocks, 16384);
        ASSERT_EQ(sb.salt_size, 32);
        ASSERT_EQ(sb.salt[31], 31);

        ASSERT_EQ(verity_superblock_parse(buf, 511, &sb, error, sizeof error), -EBADMSG);
        buf[0] = 'V';
        ASSERT_EQ(verity_superblock_parse(buf, sizeof buf, &sb, error, sizeof error), -EBADMSG);
        make_superblock(buf, "md5", 4096, 4096, 1, 0);
        ASSERT_EQ(verity_superblock_parse(buf, sizeof buf, &sb, error, sizeof error), -EOPNOTSUPP);
        ASSERT_TRUE(strstr(error, "md5"));
        make_superblock(buf, "sha256", 4096, 3000, 1, 0);
        ASSERT_EQ(verity_superblock_parse(buf, sizeof buf, &sb, error, sizeof error), -EBADMSG);
        make_superblock(buf, "sha256", 256, 4096, 1, 0);
        ASSERT_EQ(verity_superblock_parse(buf, sizeof buf, &sb, error, sizeof error), -EBADMSG);
        make_superblock(buf, "sha256", 4096, 4096, 0, 0);
        ASSERT_EQ(verity_superblock_parse(buf, sizeof buf, &sb, error, sizeof error), -EBADMSG);
        make_superblock(buf, "sha256", 4096, 4096, 1, 257);
        ASSERT_EQ(verity_superblock_parse(buf, sizeof buf, &sb, error, sizeof error), -EBADMSG);
        make_superblock(buf, "sha256", 4096, 4096, 1, 0);
        memset(buf + 32, 'a', 32);      /* no NUL in the name */
        ASSERT_EQ(verity_superblock_parse(buf, sizeof buf, &sb, error, sizeof error), -EBADMSG);
        make_superblock(buf, "sha256", 4096, 4096, 1, 0);
        buf[8] = 2;
        ASSERT_EQ(verity_superblock_parse(buf, sizeof buf, &sb, error, sizeof error), -EOPNOTSUPP);
}

static void geometry(const char *alg, uint32_t hbs, uint64_t blocks, unsigned levels, uint64_t hash_blocks) {
        uint8_t buf[512];
        VeritySuperblock sb;
        VerityGeometry g;

        make_superblock(buf, alg, 4096, hbs, blocks, 0);
        ASSERT_OK(verity_superblock_parse(buf, sizeof buf, &sb, NULL, 0));
        ASSERT_OK(verity_geometry(&sb, &g));
        ASSERT_EQ(g.levels, levels);
        /* superblock block(s), then the tree */
        ASSERT_EQ(g.hash_size, g.top_offset + hash_blocks * hbs);
        ASSERT_EQ(g.top_offset, hbs >= 512 ? ((512 + hbs - 1) / hbs) * hbs : 0);
        ASSERT_EQ(g.data_size, blocks * 4096);
}

TEST(verity_geometry) {
        /* sha256, 4 KiB: 128 digests a block */
        geometry("sha256", 4096, 1, 0, 0);
        geometry("sha256", 4096, 2, 1, 1);
        geometry("sha256", 4096, 128, 1, 1);
        geometry("sha256", 4096, 129, 2, 2 + 1);
        geometry("sha256", 4096, 16384, 2, 128 + 1);
        geometry("sha256", 4096, 16385, 3, 129 + 2 + 1);
        /* 512-byte hash blocks: 16 digests; sha1's 20 bytes take 32-byte slots too */
        geometry("sha256", 512, 17, 2, 2 + 1);
        geometry("sha1", 512, 16, 1, 1);
        geometry("sha512", 4096, 65, 2, 2 + 1);
        /* the largest count a 64-bit byte size allows still has a finite tree */
        geometry("sha256", 4096, UINT64_MAX / 4096, 8,
                 (1ULL << 45) + (1ULL << 38) + (1ULL << 31) + (1ULL << 24) + (1ULL << 17) + (1ULL << 10) + 8 + 1);
}
