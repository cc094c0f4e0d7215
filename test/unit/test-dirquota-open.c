/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * F2 and F3 of the security review of 2026-12-05 against the real open and checks of urlboot-dirquota
 * (quota_ops_linux's open_dir, open-beneath.c) on a real directory tree; only the quota calls, which this
 * kernel lacks, are simulated: they record which directory their handle really is (/proc/self/fd/N).
 * A service owning the parent of one of its directories swaps it for a link to "/etc": refused, also while
 * a thread swaps it back and forth with renameat2(RENAME_EXCHANGE) during a thousand applies. The project
 * ID records file (quota-record.c) is parsed and written back.
 */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "open-beneath.h"
#include "project-id.h"
#include "quota-apply.h"
#include "quota-record.h"
#include "tests.h"

#define CGROUP "/system.slice/swap.service"

/* Where the simulated quota calls landed: the real path behind each handle. */
static char touched[64][PATH_MAX];
static atomic_int n_touched;

static void note_touch(int handle) {
        char link[64], target[PATH_MAX];
        ssize_t n;
        int i;

        (void) snprintf(link, sizeof(link), "/proc/self/fd/%d", handle);
        n = readlink(link, target, sizeof(target) - 1);
        if (n < 0)
                return;
        target[n] = 0;
        i = atomic_fetch_add(&n_touched, 1);
        if (i < (int) ELEMENTSOF(touched))
                memcpy(touched[i], target, (size_t) n + 1);
}

static int sim_get_project(void *u, int h, uint32_t *ret_xflags, uint32_t *ret_id) {
        note_touch(h);
        if (ret_xflags)
                *ret_xflags = 0;
        *ret_id = 0;
        return 0;
}

static int sim_set_project(void *u, int h, uint32_t id) {
        note_touch(h);
        return 0;
}

static int sim_quotactl(void *u, int h, int cmd, uint32_t id, struct dqblk *dq) {
        note_touch(h);
        if (cmd == Q_GETQUOTA)
                *dq = (struct dqblk) { .dqb_curinodes = 1, .dqb_valid = QIF_USAGE };
        return 0;
}

static int sim_random(void *u, uint32_t *ret) {
        *ret = 2500000000u;
        return 0;
}

/* The real open and close, simulated quota calls. */
static QuotaOps ops_real_open(void) {
        QuotaOps ops = quota_ops_linux;

        ops.get_project = sim_get_project;
        ops.set_project = sim_set_project;
        ops.set_project_recursive = sim_set_project;
        ops.quotactl = sim_quotactl;
        ops.random_id = sim_random;
        return ops;
}

static char prefix[1024], etc[1024];

/* PREFIX/foo (the unit's, "owned" by it), PREFIX/foo/bar its second directory, ETC beside PREFIX. */
static void make_tree(void) {
        char path[PATH_MAX];

        (void) snprintf(prefix, sizeof(prefix), "%s/var/lib", test_tmpdir());
        (void) snprintf(etc, sizeof(etc), "%s/etc", test_tmpdir());
        (void) snprintf(path, sizeof(path), "%s/var", test_tmpdir());
        ASSERT_OK(mkdir(path, 0755));
        ASSERT_OK(mkdir(prefix, 0755));
        ASSERT_OK(mkdir(etc, 0755));
        (void) snprintf(path, sizeof(path), "%s/foo", prefix);
        ASSERT_OK(mkdir(path, 0755));
        (void) snprintf(path, sizeof(path), "%s/foo/bar", prefix);
        ASSERT_OK(mkdir(path, 0755));
        atomic_store(&n_touched, 0);
}

static bool touched_only_below(const char *dir) {
        for (int i = 0; i < atomic_load(&n_touched) && i < (int) ELEMENTSOF(touched); i++)
                if (strncmp(touched[i], dir, strlen(dir)) != 0)
                        return false;
        return true;
}

static int apply_bar(void) {
        QuotaOps ops = ops_real_open();
        QuotaDirectory dir = { .prefix = prefix, .name = "foo/bar" };
        QuotaLimit limit = QUOTA_LIMIT_UNSET;
        QuotaTypeRun run = {};
        QuotaReport report = {};
        QuotaStep step;

        limit.absolute = 8192;
        limit.scale = UINT32_MAX;
        limit.enforce = true;
        return quota_apply_directory(&ops, &dir, CGROUP, QUOTA_DIR_STATE, &limit, &run, &report, &step);
}

TEST(the_real_directory_is_reached) {
        char bar[PATH_MAX];

        make_tree();
        ASSERT_OK(apply_bar());
        (void) snprintf(bar, sizeof(bar), "%s/foo/bar", prefix);
        ASSERT_TRUE(atomic_load(&n_touched) > 0);
        ASSERT_TRUE(touched_only_below(bar));
}

TEST(a_link_in_place_of_the_directory_is_refused) {
        char bar[PATH_MAX];

        make_tree();
        (void) snprintf(bar, sizeof(bar), "%s/foo/bar", prefix);
        ASSERT_OK(rmdir(bar));
        ASSERT_OK(symlink("../../../etc", bar));
        ASSERT_EQ(apply_bar(), -ELOOP);
        ASSERT_EQ(atomic_load(&n_touched), 0);
}

TEST(a_link_on_the_way_is_refused) {
        char foo[PATH_MAX], moved[PATH_MAX], bar[PATH_MAX];

        make_tree();
        (void) snprintf(foo, sizeof(foo), "%s/foo", prefix);
        (void) snprintf(moved, sizeof(moved), "%s/bar", etc);
        ASSERT_OK(mkdir(moved, 0755));
        (void) snprintf(moved, sizeof(moved), "%s/foo.real", prefix);
        ASSERT_OK(rename(foo, moved));
        ASSERT_OK(symlink("../../etc", foo));
        (void) snprintf(bar, sizeof(bar), "%s/bar", etc);
        ASSERT_EQ(apply_bar(), -ELOOP);
        ASSERT_EQ(atomic_load(&n_touched), 0);
}

TEST(open_beneath_refuses_links_dotdot_and_absolute_paths) {
        _cleanup_close_ int root = -1;
        char path[PATH_MAX];
        int (*const ways[])(int, const char *, int) = { open_beneath, open_beneath_walk };

        make_tree();
        root = open(prefix, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        ASSERT_TRUE(root >= 0);
        (void) snprintf(path, sizeof(path), "%s/link", prefix);
        ASSERT_OK(symlink("foo", path));
        for (size_t i = 0; i < ELEMENTSOF(ways); i++) {
                int fd = ways[i](root, "foo/bar", O_RDONLY | O_DIRECTORY);

                ASSERT_TRUE(fd >= 0);
                (void) close(fd);
                ASSERT_EQ(ways[i](root, "link", O_RDONLY | O_DIRECTORY), -ELOOP);
                ASSERT_EQ(ways[i](root, "link/bar", O_RDONLY | O_DIRECTORY), -ELOOP);
                ASSERT_EQ(ways[i](root, "foo/../../etc", O_RDONLY | O_DIRECTORY), -EXDEV);
                ASSERT_EQ(ways[i](root, "/etc", O_RDONLY | O_DIRECTORY), -EXDEV);
                ASSERT_EQ(ways[i](root, "nothing", O_RDONLY | O_DIRECTORY), -ENOENT);
        }
}

TEST(a_directory_of_a_third_user_is_refused) {
        char bar[PATH_MAX];

        if (geteuid() != 0) {
                test_note("skipped: chown needs root");
                return;
        }
        make_tree();
        (void) snprintf(bar, sizeof(bar), "%s/foo", prefix);
        ASSERT_OK(chown(bar, 2000, 2000));      /* the unit's user, as the manager set it */
        (void) snprintf(bar, sizeof(bar), "%s/foo/bar", prefix);
        ASSERT_OK(chown(bar, 3000, 3000));      /* someone else's directory moved in */
        ASSERT_EQ(apply_bar(), -EPERM);
        ASSERT_OK(chown(bar, 2000, 2000));
        ASSERT_OK(apply_bar());
        ASSERT_OK(chown(bar, 0, 0));            /* root's directories are fine too */
        ASSERT_OK(apply_bar());
}

TEST(the_last_of_nested_directories_is_the_units) {
        char path[PATH_MAX];

        if (geteuid() != 0) {
                test_note("skipped: chown needs root");
                return;
        }
        /* StateDirectory=foo/bar with User=: the manager makes foo root's and gives bar to the user */
        make_tree();
        (void) snprintf(path, sizeof(path), "%s/foo", prefix);
        ASSERT_OK(chown(path, 0, 0));
        (void) snprintf(path, sizeof(path), "%s/foo/bar", prefix);
        ASSERT_OK(chown(path, 2000, 2000));
        ASSERT_OK(apply_bar());
        /* ... but two users on the way is one too many, whichever is deeper */
        (void) snprintf(path, sizeof(path), "%s/foo", prefix);
        ASSERT_OK(chown(path, 3000, 3000));
        ASSERT_EQ(apply_bar(), -EPERM);
}

/* The service swaps its directory and a link to "etc" back and forth while the helper runs. */
static atomic_bool swapping;

static void *swapper(void *arg) {
        const char *dir = arg;
        char a[PATH_MAX], b[PATH_MAX];

        (void) snprintf(a, sizeof(a), "%s/foo/bar", dir);
        (void) snprintf(b, sizeof(b), "%s/foo/bar.link", dir);
        while (atomic_load(&swapping))
                (void) renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
        return NULL;
}

TEST(a_race_never_reaches_the_link_target) {
        char link[PATH_MAX], bar[PATH_MAX];
        pthread_t t;
        int refused = 0, applied = 0;

        make_tree();
        (void) snprintf(link, sizeof(link), "%s/foo/bar.link", prefix);
        ASSERT_OK(symlink("../../../etc", link));
        (void) snprintf(bar, sizeof(bar), "%s/foo/bar", prefix);
        atomic_store(&swapping, true);
        ASSERT_EQ(pthread_create(&t, NULL, swapper, prefix), 0);
        for (int i = 0; i < 1000; i++) {
                int r = apply_bar();

                ASSERT_TRUE(r == 0 || r == -ELOOP || r == -ENOENT || r == -ENOTDIR);
                refused += r < 0;
                applied += r == 0;
        }
        atomic_store(&swapping, false);
        ASSERT_EQ(pthread_join(t, NULL), 0);
        test_note("1000 applies during the swaps: %d applied (to the directory, wherever it was), %d refused",
                  applied, refused);
        /* the directory may have been renamed to bar.link meanwhile: below foo, never etc */
        (void) snprintf(bar, sizeof(bar), "%s/foo/", prefix);
        ASSERT_TRUE(touched_only_below(bar));
}

TEST(records_parse_and_format) {
        QuotaRecord r;
        char *text;

        quota_record_parse("StateDirectory=2653349580\nCacheDirectory=12\nLogsDirectory=x1\njunk\n"
                           "StateDirectoryX=3000000000\nLogsDirectory=99999999999\n", &r);
        ASSERT_TRUE(r.ids[QUOTA_DIR_STATE] == 2653349580u);
        ASSERT_EQ(r.ids[QUOTA_DIR_CACHE], 0);   /* below the range v258 uses */
        ASSERT_EQ(r.ids[QUOTA_DIR_LOGS], 0);
        text = quota_record_format(&r);
        ASSERT_STREQ(text, "StateDirectory=2653349580\n");
        free(text);
}

TEST(records_are_saved_and_removed) {
        QuotaRecord r = { .ids = { [QUOTA_DIR_CACHE] = 2700000000u } }, back;
        char dir[1024], file[PATH_MAX];
        struct stat st;

        (void) snprintf(dir, sizeof(dir), "%s/records", test_tmpdir());
        ASSERT_OK(quota_record_save(dir, "foo.service", &r));
        ASSERT_OK(quota_record_load(dir, "foo.service", &back));
        ASSERT_TRUE(back.ids[QUOTA_DIR_CACHE] == 2700000000u && back.ids[QUOTA_DIR_STATE] == 0);
        (void) snprintf(file, sizeof(file), "%s/foo.service", dir);
        ASSERT_OK(stat(file, &st));
        ASSERT_EQ(st.st_mode & 07777, 0600);
        ASSERT_OK(stat(dir, &st));
        ASSERT_EQ(st.st_mode & 07777, 0700);
        ASSERT_OK(quota_record_save(dir, "foo.service", &(QuotaRecord) {}));
        ASSERT_EQ(stat(file, &st), -1);
        ASSERT_OK(quota_record_load(dir, "foo.service", &back));
        ASSERT_EQ(back.ids[QUOTA_DIR_CACHE], 0);
        ASSERT_EQ(quota_record_save(dir, "../escape", &r), -EINVAL);
}
