/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for urlboot-lazy's pieces that need no kernel: the copy's pace, nbdkit's command line, the kept
 * unit, the state file, verity superblocks, tree geometry, the zero map of a tree veritysetup made and the
 * root's writes on a tmpfs, a multi-block .xz and a seekable .zst read in place. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "block-cache.h"
#include "boot-reads.h"
#include "copy-pace.h"
#include "dm-device.h"
#include "fileio.h"
#include "keep-unit.h"
#include "lazy-state.h"
#include "lazy-status.h"
#include "macro.h"
#include "nbdkit-command.h"
#include "root-writes.h"
#include "string-util.h"
#include "tests.h"
#include "verity-map.h"
#include "verity-tree.h"
#include "xz-image.h"
#include "zstd-image.h"

#include <zstd.h>

/* The copy waits for the root (or the deadline), and yields to the boot's reads without stopping. */
TEST(copy_pace) {
        const uint64_t s = 1000000, ready = 10 * s;
        LazyPace p = { .ready_usec = ready, .now_usec = ready + 5 * s };

        ASSERT_TRUE(lazy_copy_wait_usec(&p) > 0);               /* the initrd still reads, no root yet */
        p.root_ready = true;
        ASSERT_EQ(lazy_copy_wait_usec(&p), 0);
        p = (LazyPace) { .ready_usec = ready, .now_usec = ready + LAZY_COPY_START_USEC - 1 };
        ASSERT_TRUE(lazy_copy_wait_usec(&p) > 0);
        p.now_usec++;
        ASSERT_EQ(lazy_copy_wait_usec(&p), 0);                  /* the deadline, no root */
        p = (LazyPace) { .copy_now = true, .ready_usec = ready, .now_usec = ready };
        ASSERT_EQ(lazy_copy_wait_usec(&p), 0);

        /* the boot read 1 s ago and the copy sent a request 0.2 s ago: the next in 0.8 s */
        p = (LazyPace) { .root_ready = true, .now_usec = 100 * s, .boot_read_usec = 99 * s, .copy_usec = 100 * s - s / 5 };
        ASSERT_EQ(lazy_copy_wait_usec(&p), LAZY_COPY_THROTTLE_USEC - s / 5);
        p.copy_usec = 100 * s - 2 * s;                          /* a second has passed: one more request */
        ASSERT_EQ(lazy_copy_wait_usec(&p), 0);
        p.copy_usec = 100 * s - s / 5;
        p.boot_read_usec = 100 * s - LAZY_BOOT_BUSY_USEC;       /* the boot is quiet: full speed */
        ASSERT_EQ(lazy_copy_wait_usec(&p), 0);
}

TEST(linear_table) {
        _cleanup_free_ char *l = linear_table_params("7:0");

        ASSERT_STREQ(l, "7:0 0");
}

/* What the real root's systemd finds for the running unit after the switch. */
TEST(keep_unit) {
        _cleanup_close_ int dir = open(test_tmpdir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        _cleanup_free_ char *text = NULL;
        char path[600], cmd[1400];
        const char *unit = "urlboot-lazy@run-machines-rootdisk.raw.service";

        ASSERT_TRUE(dir >= 0);
        ASSERT_OK(lazy_keep_unit_at(dir, unit, "http://h/a b%.raw"));
        snprintf(path, sizeof path, "%s/%s", test_tmpdir(), unit);
        ASSERT_OK(read_full_file(path, 65536, &text, NULL));
        ASSERT_TRUE(strstr(text, "\nIgnoreOnIsolate=yes\n") && strstr(text, "\nRefuseManualStop=yes\n") &&
                    strstr(text, "\nDefaultDependencies=no\n") && strstr(text, "\nRemainAfterExit=yes\n"));
        ASSERT_FALSE(strstr(text, "OnFailure"));                /* a failed copy must not take the system down */
        ASSERT_FALSE(strstr(text, "Conflicts=shutdown.target"));
        /* systemd 252 takes it as it is */
        snprintf(cmd, sizeof cmd, "cd '%s' && sed 's#^ExecStart=[^ ]*#ExecStart=/bin/true#' '%s' > verify.service && "
                 "out=$(systemd-analyze verify --man=no ./verify.service 2>&1) && [ -z \"$out\" ] || { echo \"$out\"; exit 1; }",
                 test_tmpdir(), unit);
        ASSERT_EQ(system(cmd), 0);
        ASSERT_EQ(lazy_keep_unit_at(dir, "../x.service", "http://h/"), -EINVAL);
        ASSERT_FALSE(lazy_keep_unit_name_valid("x.socket"));
        ASSERT_FALSE(lazy_keep_unit_name_valid(".service"));
        ASSERT_FALSE(lazy_keep_unit_name_valid("a b.service"));
        ASSERT_TRUE(lazy_keep_unit_name_valid(unit));
}

static char *join(char **l) {
        char *s = strdup("");

        STRV_FOREACH(x, l)
                ASSERT_TRUE(strextend(&s, s[0] ? " " : "", *x, NULL));
        return s;
}

/* nbdkit_command()'s argv for s, as one line. */
static char *command_line(const NbdkitSettings *s) {
        _cleanup_strv_free_ char **argv = NULL;

        ASSERT_OK(nbdkit_command(s, &argv));
        return join(argv);
}

TEST(nbdkit_command) {
        NbdkitSettings s = { .url = "http://10.0.2.2:8080/dir/lazy.raw?x=1", .socket = "/run/urlboot/lazy/rootdisk.sock",
                             .plugin = "/usr/lib/urlboot/nbdkit-urlboot-http-plugin.so", .retries = 1000,
                             .retry_delay = 1, .timeout = 60 };
        _cleanup_strv_free_ char **argv = NULL;
        char *line;

        line = command_line(&s);
        ASSERT_STREQ(line, "@nbdkit --foreground --exit-with-parent --readonly --log=stderr "
                           "--unix=/run/urlboot/lazy/rootdisk.sock "
                           "/usr/lib/urlboot/nbdkit-urlboot-http-plugin.so "
                           "url=http://10.0.2.2:8080/dir/lazy.raw?x=1 timeout=60 retries=1000 retry-delay=1 "
                           "protocols=http,https");
        free(line);

        s.url = "https://h/img.raw.xz#frag";
        s.cainfo = "/run/urlboot/lazy/rootdisk.ca/ca.pem";
        line = command_line(&s);
        /* the plugin tells an .xz by its first bytes, not by its name: no option for it */
        ASSERT_TRUE(strstr(line, "--unix=/run/urlboot/lazy/rootdisk.sock /usr/lib/urlboot/nbdkit-urlboot-http-plugin.so "
                                 "url=https://h/img.raw.xz#frag timeout=60"));
        ASSERT_TRUE(endswith(line, " protocols=https cainfo=/run/urlboot/lazy/rootdisk.ca/ca.pem"));
        free(line);

        /* beside a plain URL the plugin asks for the read-ahead list; attach records the boot's reads */
        s.url = "https://h/img.raw.zst";
        s.record = "/run/urlboot/lazy/img.reads";
        line = command_line(&s);
        ASSERT_TRUE(endswith(line, " cainfo=/run/urlboot/lazy/rootdisk.ca/ca.pem "
                                   "readahead=https://h/img.raw.zst.readahead record=/run/urlboot/lazy/img.reads"));
        free(line);

        s.url = "http://h/a b.raw";
        ASSERT_EQ(nbdkit_command(&s, &argv), -EINVAL);
        s.url = "http://h/a\nb.raw";
        ASSERT_EQ(nbdkit_command(&s, &argv), -EINVAL);
}

TEST(state_round_trip) {
        LazyState s = {
                .name = (char *) "rootdisk", .url = (char *) "http://h/lazy.raw", .image = (char *) "/run/machines/rootdisk.raw",
                .device = (char *) "/dev/loop1", .mapper = (char *) "urlboot-lazy-rootdisk", .nbd = (char *) "/dev/nbd0",
                .local_loop = (char *) "/dev/loop0", .verity = (char *) "none", .phase = LAZY_COPYING, .size = 64ULL << 20,
                .zero = 5 << 20, .skipped = 2 << 20, .stored = 0,
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
        ASSERT_EQ(t.phase, LAZY_COPYING);
        ASSERT_EQ(t.size, s.size);
        ASSERT_EQ(t.zero, s.zero);
        ASSERT_EQ(t.skipped, s.skipped);
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
                lazy_status_print_json(g, &s, true, &(RootWrites) { .used = 3 << 20, .max = 1 << 30 });
                lazy_status_print_root_writes(f, &(RootWrites) { .used = 3 << 20, .max = 1 << 30 });
                fclose(f);
                fclose(g);
                ASSERT_TRUE(strstr(text, "    Verified: NO (verify=no)"));
                ASSERT_TRUE(strstr(json, "\"verity\":\"none\""));
                ASSERT_TRUE(strstr(json, "\"rootWrites\":{\"used\":3145728,\"max\":1073741824}}"));
                ASSERT_TRUE(strstr(text, "Root writes: 3.0 MiB in memory, at most 1.0 GiB"));
        }

        /* A value with a line end is left out rather than written as a second key. */
        s.url = (char *) "http://h/x\nPHASE=local";
        ASSERT_OK(lazy_state_write(path, &s));
        ASSERT_OK(lazy_state_read(path, &t));
        ASSERT_TRUE(t.url == NULL);
        ASSERT_EQ(t.phase, LAZY_COPYING);
        lazy_state_done(&t);

        ASSERT_EQ(lazy_phase_from_string("local"), LAZY_LOCAL);
        ASSERT_EQ(lazy_phase_from_string("remote"), LAZY_REMOTE);
        ASSERT_EQ(lazy_phase_from_string("copying"), LAZY_COPYING);
        ASSERT_EQ(lazy_phase_from_string("syncing"), _LAZY_PHASE_INVALID);
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

/* A tree veritysetup made over blocks of which some are zero: the map names exactly those, and a tree with one
 * leaf digest changed (a block of data passed off as zero) is refused. */
TEST(verity_zero_map) {
        const char *d = test_tmpdir();
        _cleanup_free_ char *hash = NULL, *root_hex = NULL;
        uint8_t root[VERITY_DIGEST_MAX];
        char cmd[2048], path[600];
        VeritySuperblock sb;
        VerityGeometry g;
        VerityZeroMap m;
        size_t hash_size, root_size = 0;
        char error[256];

        if (system("command -v veritysetup >/dev/null") != 0) {
                test_note("no veritysetup (package cryptsetup-bin): skipped");
                return;
        }
        /* 600 blocks of 4 KiB: block i has data when i % 3 == 0, or i >= 500 (all but the last's first byte) */
        snprintf(cmd, sizeof cmd,
                 "cd '%s' && python3 -c 'import sys\n"
                 "b = bytearray()\n"
                 "for i in range(600):\n"
                 "    blk = bytearray(4096)\n"
                 "    if i %% 3 == 0 or i >= 500: blk[7] = (i %% 255) + 1\n"
                 "    b += blk\n"
                 "open(\"data\", \"wb\").write(b)' && "
                 "veritysetup format --hash=sha256 data hash | sed -n 's/^Root hash:[[:space:]]*//p' > root",
                 d);
        ASSERT_EQ(system(cmd), 0);
        snprintf(path, sizeof path, "%s/root", d);
        ASSERT_OK(read_full_file(path, 1024, &root_hex, NULL));
        for (size_t i = 0; root_hex[2 * i] && root_hex[2 * i] != '\n'; i++) {
                unsigned v;

                ASSERT_TRUE(sscanf(root_hex + 2 * i, "%2x", &v) == 1);
                root[root_size++] = (uint8_t) v;
        }
        snprintf(path, sizeof path, "%s/hash", d);
        ASSERT_OK(read_full_file(path, 64 << 20, &hash, &hash_size));
        ASSERT_OK(verity_superblock_parse((uint8_t *) hash, hash_size, &sb, error, sizeof error));
        ASSERT_OK(verity_geometry(&sb, &g));
        ASSERT_EQ(sb.data_blocks, 600);
        ASSERT_OK(verity_zero_map_make(&sb, &g, (uint8_t *) hash, hash_size, root, root_size, &m, error, sizeof error));
        for (uint64_t i = 0; i < 600; i++)
                if (verity_zero_map_is_zero(&m, i) != (i % 3 != 0 && i < 500))
                        test_fail(__FILE__, __LINE__, "block %llu: zero %d", (unsigned long long) i,
                                  verity_zero_map_is_zero(&m, i));
        ASSERT_EQ(m.zero_blocks, 333);  /* of 0..499, those with i % 3 != 0 */
        verity_zero_map_done(&m);

        /* the wrong root; then a leaf digest of a data block replaced by a zero block's: refused */
        root[0] ^= 1;
        ASSERT_EQ(verity_zero_map_make(&sb, &g, (uint8_t *) hash, hash_size, root, root_size, &m, error, sizeof error),
                  -EBADMSG);
        root[0] ^= 1;
        hash[g.hash_size - 4096 + 0] ^= 1;      /* a byte of the last leaf block */
        ASSERT_EQ(verity_zero_map_make(&sb, &g, (uint8_t *) hash, hash_size, root, root_size, &m, error, sizeof error),
                  -EBADMSG);
        test_note("%s", error);
}

/* The root's writes: an overlay's statfs is its upper layer's (systemd-volatile-root unmounts the tmpfs
 * from its path once the overlay holds it, as done here). */
TEST(root_writes) {
        char lower[600], upper[600], merged[600], cmd[8192];
        RootWrites w;

        snprintf(lower, sizeof lower, "%s/lower", test_tmpdir());
        snprintf(upper, sizeof upper, "%s/upper-fs", test_tmpdir());
        snprintf(merged, sizeof merged, "%s/merged", test_tmpdir());
        ASSERT_EQ(mkdir(lower, 0755), 0);
        ASSERT_EQ(mkdir(upper, 0755), 0);
        ASSERT_EQ(mkdir(merged, 0755), 0);
        ASSERT_EQ(root_writes_get(lower, &w), -ENOENT);
        if (mount("tmpfs", upper, "tmpfs", 0, "size=4m") < 0) {
                test_note("cannot mount a tmpfs (%s): the mounted case skipped", strerror(errno));
                return;
        }
        snprintf(cmd, sizeof cmd, "mkdir '%s/u' '%s/w' && mount -t overlay overlay -o lowerdir='%s',upperdir='%s/u',workdir='%s/w' '%s' "
                 "&& umount -l '%s'", upper, upper, lower, upper, upper, merged, upper);
        if (system(cmd) != 0) {
                test_note("cannot mount an overlay here: the mounted case skipped");
                (void) umount2(upper, MNT_DETACH);
                return;
        }
        snprintf(cmd, sizeof cmd, "head -c 1048576 /dev/urandom > '%s/written'", merged);
        ASSERT_EQ(system(cmd), 0);
        ASSERT_OK(root_writes_get(merged, &w));
        ASSERT_EQ(w.max, 4ULL << 20);
        ASSERT_TRUE(w.used >= 1ULL << 20 && w.used < 2ULL << 20);
        ASSERT_EQ(umount(merged), 0);
}

/* A multi-block .xz read in place: blocks located and decoded one at a time, byte for byte as xz wrote them;
 * a changed byte refused with where it is; several streams and oversized blocks refused when opened. */
static int xz_open_file(const char *path, uint8_t **ret_data, size_t *ret_size, XzImage *x, char *error, size_t n) {
        uint64_t index_size;
        int r;

        r = read_full_file(path, 256 << 20, (char **) ret_data, ret_size);
        if (r < 0)
                return r;
        r = xz_image_index_size(*ret_data + *ret_size - XZ_IMAGE_FOOTER_SIZE, *ret_size, &index_size, error, n);
        if (r < 0)
                return r;
        return xz_image_open(x, *ret_data, *ret_data + *ret_size - XZ_IMAGE_FOOTER_SIZE,
                             *ret_data + *ret_size - XZ_IMAGE_FOOTER_SIZE - index_size, index_size, *ret_size, error, n);
}

TEST(xz_image) {
        const char *d = test_tmpdir();
        _cleanup_free_ char *plain = NULL;
        _cleanup_free_ uint8_t *data = NULL, *other = NULL;
        char cmd[2048], path[600], error[256];
        size_t plain_size, size, other_size;
        unsigned blocks = 0;
        XzImage x;
        ImageBlock b;

        snprintf(cmd, sizeof cmd,
                 "cd '%s' && python3 -c 'import random; r = random.Random(7); "
                 "open(\"plain\", \"wb\").write(bytes(r.randrange(16) for _ in range(3500000)))' && "
                 "xz -T1 --block-size=1MiB -c plain > multi.xz && xz -c plain > one.xz && cat one.xz one.xz > two.xz && "
                 "head -c 70M /dev/zero | xz -T1 --block-size=70MiB > big.xz", d);
        ASSERT_EQ(system(cmd), 0);
        snprintf(path, sizeof path, "%s/plain", d);
        ASSERT_OK(read_full_file(path, 16 << 20, &plain, &plain_size));

        snprintf(path, sizeof path, "%s/multi.xz", d);
        ASSERT_OK(xz_open_file(path, &data, &size, &x, error, sizeof error));
        ASSERT_EQ(x.size, plain_size);
        for (uint64_t offset = 0; offset < x.size; offset += b.size, blocks++) {
                _cleanup_free_ uint8_t *out = NULL;

                ASSERT_OK(xz_image_locate(&x, offset + 1000, &b));     /* any byte inside names its block */
                ASSERT_EQ(b.offset, offset);
                ASSERT_TRUE(b.file_offset + b.total <= size);
                out = malloc(b.size);
                ASSERT_TRUE(out != NULL);
                ASSERT_OK(xz_image_decode(&x, &b, data + b.file_offset, out, error, sizeof error));
                ASSERT_TRUE(memcmp(out, plain + offset, b.size) == 0);
        }
        ASSERT_EQ(blocks, 4);
        ASSERT_EQ(xz_image_locate(&x, x.size, &b), -ERANGE);

        ASSERT_OK(xz_image_locate(&x, 2 << 20, &b));
        data[b.file_offset + b.total / 2] ^= 0x55;
        {
                _cleanup_free_ uint8_t *out = malloc(b.size);

                ASSERT_EQ(xz_image_decode(&x, &b, data + b.file_offset, out, error, sizeof error), -EBADMSG);
                test_note("%s", error);
                ASSERT_TRUE(strstr(error, "the image's bytes 2097152-3145727"));
        }
        xz_image_done(&x);

        snprintf(path, sizeof path, "%s/two.xz", d);
        ASSERT_EQ(xz_open_file(path, &other, &other_size, &x, error, sizeof error), -EBADMSG);
        test_note("two streams: %s", error);
        other = mfree(other);
        snprintf(path, sizeof path, "%s/big.xz", d);
        ASSERT_EQ(xz_open_file(path, &other, &other_size, &x, error, sizeof error), -EFBIG);
        test_note("a 70 MiB block: %s", error);
}

/* A seekable .zst as urlboot-lazy compress writes it: frames of frame_size from plain, each with a content
 * checksum unless without_check, and the seek table after them. @ret its size (in out, of room enough) */
static size_t zstd_seekable(const uint8_t *plain, size_t size, size_t frame_size, bool without_check, uint8_t *out) {
        ZSTD_CCtx *c = ZSTD_createCCtx();
        uint8_t table[4096];
        size_t n = 0, t = 8;
        uint32_t frames = 0;

        ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 3);
        ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, !without_check);
        for (size_t o = 0; o < size; o += frame_size, frames++) {
                size_t in = MIN(frame_size, size - o), r = ZSTD_compress2(c, out + n, ZSTD_compressBound(in), plain + o, in);

                ASSERT_FALSE(ZSTD_isError(r));
                memcpy(table + t, &(uint32_t) { (uint32_t) r }, 4);    /* little-endian host */
                memcpy(table + t + 4, &(uint32_t) { (uint32_t) in }, 4);
                t += 8;
                n += r;
        }
        memcpy(table + t, &frames, 4);
        table[t + 4] = 0;
        memcpy(table + t + 5, &(uint32_t) { ZSTD_IMAGE_FOOTER_MAGIC }, 4);
        t += ZSTD_IMAGE_FOOTER_SIZE;
        memcpy(table, &(uint32_t) { ZSTD_IMAGE_TABLE_MAGIC }, 4);
        memcpy(table + 4, &(uint32_t) { (uint32_t) (t - 8) }, 4);
        memcpy(out + n, table, t);
        ZSTD_freeCCtx(c);
        return n + t;
}

static int zstd_open_buffer(const uint8_t *data, size_t size, ZstdImage *z, char *error, size_t n) {
        uint64_t table_size;
        int r;

        r = zstd_image_table_size(data + size - ZSTD_IMAGE_FOOTER_SIZE, size, &table_size, error, n);
        if (r < 0)
                return r;
        return zstd_image_open(z, data + size - table_size, table_size, size, error, n);
}

/* A seekable .zst read in place: frames located and decoded one at a time, byte for byte; a changed byte,
 * a frame without a checksum, a frame the table sizes wrongly refused when read; a plain .zst, a table
 * that does not fill the file and reserved bits refused when opened. */
TEST(zstd_image) {
        const size_t size = 5 * 65536 + 1234;
        _cleanup_free_ uint8_t *plain = malloc(size), *data = malloc(2 * size + 8192), *out = malloc(65536);
        char error[256];
        unsigned frames = 0;
        size_t n, table_size;
        ZstdImage z;
        ImageBlock b;

        ASSERT_TRUE(plain && data && out);
        for (size_t i = 0; i < size; i++)
                plain[i] = (uint8_t) ((i * 2654435761U) >> 28);
        n = zstd_seekable(plain, size, 65536, false, data);
        ASSERT_OK(zstd_open_buffer(data, n, &z, error, sizeof error));
        ASSERT_EQ(z.size, size);
        for (uint64_t offset = 0; offset < z.size; offset += b.size, frames++) {
                ASSERT_OK(zstd_image_locate(&z, MIN(offset + 1000, z.size - 1), &b));
                ASSERT_EQ(b.offset, offset);
                ASSERT_TRUE(b.file_offset + b.total <= n);
                ASSERT_OK(zstd_image_decode(&b, data + b.file_offset, out, error, sizeof error));
                ASSERT_TRUE(memcmp(out, plain + offset, b.size) == 0);
        }
        ASSERT_EQ(frames, 6);
        ASSERT_EQ(zstd_image_locate(&z, z.size, &b), -ERANGE);

        ASSERT_OK(zstd_image_locate(&z, 2 * 65536, &b));
        b.size--;                                               /* the table names another size */
        ASSERT_EQ(zstd_image_decode(&b, data + b.file_offset, out, error, sizeof error), -EBADMSG);
        test_note("%s", error);
        b.size++;
        data[b.file_offset + b.total - 6] ^= 0x55;              /* inside the last block or the checksum */
        ASSERT_EQ(zstd_image_decode(&b, data + b.file_offset, out, error, sizeof error), -EBADMSG);
        test_note("%s", error);
        zstd_image_done(&z);

        n = zstd_seekable(plain, size, 65536, true, data);
        ASSERT_OK(zstd_open_buffer(data, n, &z, error, sizeof error));
        ASSERT_OK(zstd_image_locate(&z, 0, &b));
        ASSERT_EQ(zstd_image_decode(&b, data, out, error, sizeof error), -EBADMSG);
        ASSERT_TRUE(strstr(error, "carries no checksum"));
        zstd_image_done(&z);

        n = ZSTD_compress(data, 2 * size, plain, size, 3);      /* zstd's own: one frame, no table */
        ASSERT_EQ(zstd_open_buffer(data, n, &z, error, sizeof error), -EBADMSG);
        ASSERT_TRUE(strstr(error, "no seek table"));

        n = zstd_seekable(plain, size, 65536, false, data + 1); /* one byte in front of the frames */
        data[0] = 0;
        ASSERT_EQ(zstd_open_buffer(data, n + 1, &z, error, sizeof error), -EBADMSG);
        test_note("%s", error);
        n = zstd_seekable(plain, size, 65536, false, data);
        table_size = ZSTD_IMAGE_TABLE_HEADER_SIZE + 6 * 8 + ZSTD_IMAGE_FOOTER_SIZE;
        data[n - 5] = 0x04;                                     /* a reserved bit */
        ASSERT_EQ(zstd_open_buffer(data, n, &z, error, sizeof error), -EBADMSG);
        data[n - 5] = 0;
        memset(data + n - table_size + ZSTD_IMAGE_TABLE_HEADER_SIZE + 4, 0, 4);    /* frame 0 holds nothing */
        ASSERT_EQ(zstd_open_buffer(data, n, &z, error, sizeof error), -EBADMSG);
        test_note("%s", error);

        /* a footer naming more frames than a table may hold is refused before anything is fetched for it */
        {
                uint8_t footer[ZSTD_IMAGE_FOOTER_SIZE] = {};
                uint64_t s;

                memcpy(footer, &(uint32_t) { ZSTD_IMAGE_FRAMES_MAX + 1 }, 4);
                memcpy(footer + 5, &(uint32_t) { ZSTD_IMAGE_FOOTER_MAGIC }, 4);
                ASSERT_EQ(zstd_image_table_size(footer, UINT64_MAX / 2, &s, error, sizeof error), -EBADMSG);
                test_note("%s", error);
                memcpy(footer, &(uint32_t) { ZSTD_IMAGE_FRAMES_MAX }, 4);
                ASSERT_OK(zstd_image_table_size(footer, UINT64_MAX / 2, &s, error, sizeof error));
                ASSERT_EQ(s, ZSTD_IMAGE_TABLE_HEADER_SIZE + 8ULL * ZSTD_IMAGE_FRAMES_MAX + ZSTD_IMAGE_FOOTER_SIZE);
        }
}

/* A read-ahead list: offsets in the order first read, repeats dropped, one bad line refusing it, bounded. */
TEST(boot_reads) {
        static const char good[] = "# read by a boot\n4194304\r\n\n0\n4194304\n18446744073709551615";
        char error[256];
        BootReads r = {};

        ASSERT_OK(boot_reads_parse(good, strlen(good), &r, error, sizeof error));
        /* in the order first read, a repeat dropped, CRLF and comments taken */
        ASSERT_EQ(r.n, 3u);
        ASSERT_EQ(r.offset[0], 4194304u);
        ASSERT_EQ(r.offset[1], 0u);
        ASSERT_EQ(r.offset[2], UINT64_MAX);
        ASSERT_EQ(boot_reads_add(&r, 0), 0);
        ASSERT_EQ(boot_reads_add(&r, 1), 1);
        ASSERT_EQ(r.n, 4u);
        boot_reads_done(&r);
        ASSERT_OK(boot_reads_parse("", 0, &r, error, sizeof error));
        ASSERT_EQ(r.n, 0u);

        /* one bad line refuses the whole list, saying which */
        ASSERT_EQ(boot_reads_parse("1\n-2\n", 5, &r, error, sizeof error), -EBADMSG);
        ASSERT_STREQ(error, "line 2 is not an offset (digits only)");
        ASSERT_EQ(boot_reads_parse("18446744073709551616", 20, &r, error, sizeof error), -EBADMSG);
        ASSERT_EQ(boot_reads_parse("1 2", 3, &r, error, sizeof error), -EBADMSG);
        ASSERT_EQ(boot_reads_parse("0x10", 4, &r, error, sizeof error), -EBADMSG);
        ASSERT_EQ(boot_reads_parse("12\0003", 4, &r, error, sizeof error), -EBADMSG);
        ASSERT_EQ(r.n, 0u);

        /* bounds: bytes, then offsets */
        _cleanup_free_ char *big = malloc(BOOT_READS_FILE_MAX + 1);
        ASSERT_TRUE(big);
        memset(big, '\n', BOOT_READS_FILE_MAX + 1);
        ASSERT_EQ(boot_reads_parse(big, BOOT_READS_FILE_MAX + 1, &r, error, sizeof error), -E2BIG);
        size_t n = 0;
        for (unsigned i = 0; i <= BOOT_READS_MAX; i++)
                n += (size_t) sprintf(big + n, "%u\n", i);
        ASSERT_TRUE(n <= BOOT_READS_FILE_MAX);
        ASSERT_EQ(boot_reads_parse(big, n, &r, error, sizeof error), -E2BIG);
        ASSERT_STREQ(error, "more than 65536 offsets");
        ASSERT_OK(boot_reads_parse(big, n - strlen("65536\n"), &r, error, sizeof error));
        ASSERT_EQ(r.n, (size_t) BOOT_READS_MAX);
        ASSERT_EQ(boot_reads_add(&r, 1u << 30), -E2BIG);
        ASSERT_EQ(boot_reads_add(&r, 7), 0);
        boot_reads_done(&r);
}

/* The cache keeps ranges within its budget, the least recently used evicted first, one oversized range alone. */
TEST(block_cache) {
        BlockCache c = { .budget = 300 };
        uint8_t buf[200];

        for (unsigned i = 0; i < 3; i++) {
                uint8_t *d = malloc(100);

                ASSERT_TRUE(d != NULL);
                memset(d, 'a' + i, 100);
                block_cache_put(&c, 1000 + i * 100, 100, d);
        }
        ASSERT_EQ(c.bytes, 300);
        ASSERT_EQ(block_cache_copy(&c, buf, 200, 1050), 50);     /* as far as the range goes */
        ASSERT_EQ(buf[0], 'a');
        ASSERT_EQ(block_cache_copy(&c, buf, 10, 1199), 1);
        ASSERT_EQ(buf[0], 'b');                                 /* 1100-1199: now used after 1000-1099 */
        block_cache_put(&c, 5000, 100, memset(malloc(100), 'z', 100));
        ASSERT_EQ(block_cache_copy(&c, buf, 10, 1250), 0);      /* 1200-1299 was the least recently used */
        ASSERT_EQ(block_cache_copy(&c, buf, 10, 1000), 10);
        ASSERT_EQ(block_cache_copy(&c, buf, 10, 5099), 1);
        ASSERT_EQ(buf[0], 'z');
        block_cache_put(&c, 9000, 1000, memset(malloc(1000), 'q', 1000));
        ASSERT_EQ(c.bytes, 1000);                               /* everything else gone, it alone */
        ASSERT_EQ(block_cache_copy(&c, buf, 200, 9900), 100);
        ASSERT_EQ(block_cache_copy(&c, buf, 10, 1000), 0);
        block_cache_done(&c);
        ASSERT_EQ(c.bytes, 0);
}
