/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The steps of v258's directory quotas (quota-apply.c) against a simulated file system: this machine's
 * kernel has no quota support, so the real ext4/XFS runs are in the guest tests (test/guests/cases/). Here:
 * the ID choice (candidate, collisions, the 10 attempts, adoption), the limits (bytes, shares, 0), the
 * removal of settings, the skip paths, XFS's ENOENT, and the errno → action table
 * (test/data/dirquota-errno-cases.tsv). Limit arithmetic: test/data/dirquota-limits-cases.tsv.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>

#include "project-id.h"
#include "quota-apply.h"
#include "quota-errno.h"
#include "string-util.h"
#include "tests.h"

#define CGROUP "/system.slice/foo.service"
#define ALL_VALID (QIF_BLIMITS | QIF_SPACE | QIF_ILIMITS | QIF_INODES | QIF_BTIME | QIF_ITIME)

/* A directory: its top inode, and the rest of its tree (files and subdirectories) as one group. */
typedef struct FakeDir {
        const char *path;
        uint32_t top_id, rest_id;
        unsigned rest_inodes;
        int get_project_error;
} FakeDir;

/* Other users of project IDs (inodes and usage outside our directories), and limits per ID. */
typedef struct FakeRecord {
        uint32_t id;
        unsigned other_inodes;
        uint64_t other_space;
        uint64_t bhard, ihard, bsoft;
} FakeRecord;

typedef struct FakeFs {
        FakeDir dirs[4];
        FakeRecord records[16];
        size_t n_records;
        bool xfs;                       /* Q_GETQUOTA of an unknown ID: ENOENT */
        bool not_counting;              /* the file system ignores project IDs (ENOTRECOVERABLE) */
        unsigned race_inodes;           /* inodes that appear in the candidate's project once we set it */
        int query_error, set_limits_error;
        uint32_t randoms[16];
        size_t n_randoms, next_random;
        struct statvfs parent;
        uint32_t parent_xflags;
        unsigned setquota_calls, set_project_calls;
} FakeFs;

static FakeRecord *record(FakeFs *fs, uint32_t id, bool create) {
        for (size_t i = 0; i < fs->n_records; i++)
                if (fs->records[i].id == id)
                        return &fs->records[i];
        if (!create || fs->n_records >= ELEMENTSOF(fs->records))
                return NULL;
        fs->records[fs->n_records] = (FakeRecord) { .id = id };
        return &fs->records[fs->n_records++];
}

static unsigned inodes_of(FakeFs *fs, uint32_t id) {
        unsigned n = 0;

        if (fs->not_counting)
                return 0;
        for (size_t i = 0; i < ELEMENTSOF(fs->dirs); i++) {
                if (!fs->dirs[i].path)
                        continue;
                n += (fs->dirs[i].top_id == id) + (fs->dirs[i].rest_id == id) * fs->dirs[i].rest_inodes;
        }
        return n;
}

static int fake_open(void *u, const QuotaDirectory *dir) {
        FakeFs *fs = u;
        char path[256];

        (void) snprintf(path, sizeof(path), "%s/%s", dir->prefix, dir->name);
        for (size_t i = 0; i < ELEMENTSOF(fs->dirs); i++)
                if (fs->dirs[i].path && streq(fs->dirs[i].path, path))
                        return (int) i;
        return -ENOENT;
}

/* "/var/lib/foo" as the manager's prefix and the unit's name. */
static QuotaDirectory dir_of(const char *path) {
        const char *slash = strrchr(path, '/');
        static char prefix[64];

        (void) snprintf(prefix, sizeof(prefix), "%.*s", (int) (slash - path), path);
        return (QuotaDirectory) { .prefix = prefix, .name = slash + 1 };
}

static void fake_close(void *u, int h) {
}

static int fake_get_project(void *u, int h, uint32_t *ret_xflags, uint32_t *ret_id) {
        FakeFs *fs = u;

        if (fs->dirs[h].get_project_error)
                return fs->dirs[h].get_project_error;
        if (ret_xflags)
                *ret_xflags = fs->dirs[h].top_id ? FS_XFLAG_PROJINHERIT : 0;
        *ret_id = fs->dirs[h].top_id;
        return 0;
}

static int fake_set_project(void *u, int h, uint32_t id) {
        FakeFs *fs = u;
        FakeRecord *r = record(fs, id, true);

        fs->set_project_calls++;
        fs->dirs[h].top_id = id;
        if (fs->race_inodes > 0 && r) {
                r->other_inodes += fs->race_inodes;
                fs->race_inodes = 0;
        }
        return 0;
}

static int fake_set_project_recursive(void *u, int h, uint32_t id) {
        FakeFs *fs = u;

        fs->set_project_calls++;
        fs->dirs[h].top_id = fs->dirs[h].rest_id = id;
        return 0;
}

static int fake_quotactl(void *u, int h, int cmd, uint32_t id, struct dqblk *dq) {
        FakeFs *fs = u;
        FakeRecord *r = record(fs, id, false);
        unsigned inodes = inodes_of(fs, id) + (r ? r->other_inodes : 0);

        if (cmd == Q_GETQUOTA) {
                if (fs->query_error)
                        return fs->query_error;
                if (fs->xfs && inodes == 0 && (!r || (r->bhard == 0 && r->ihard == 0 && r->other_space == 0)))
                        return -ENOENT;
                *dq = (struct dqblk) {
                        .dqb_bhardlimit = r ? r->bhard : 0,
                        .dqb_bsoftlimit = r ? r->bsoft : 0,
                        .dqb_ihardlimit = r ? r->ihard : 0,
                        .dqb_curspace = (r ? r->other_space : 0) + 4096ULL * inodes,
                        .dqb_curinodes = inodes,
                        .dqb_valid = ALL_VALID,
                };
                return 0;
        }
        if (cmd == Q_SETQUOTA) {
                fs->setquota_calls++;
                if (fs->set_limits_error)
                        return fs->set_limits_error;
                if (!(dq->dqb_valid & QIF_LIMITS))
                        return -EINVAL;
                r = record(fs, id, true);
                r->bhard = dq->dqb_bhardlimit;
                r->ihard = dq->dqb_ihardlimit;
                r->bsoft = dq->dqb_bsoftlimit;
                return 0;
        }
        return -EINVAL;
}

static int fake_parent_statvfs(void *u, int h, uint32_t *ret_parent_xflags, struct statvfs *ret) {
        FakeFs *fs = u;

        *ret_parent_xflags = fs->parent_xflags;
        *ret = fs->parent;
        return 0;
}

static int fake_random(void *u, uint32_t *ret) {
        FakeFs *fs = u;

        if (fs->next_random >= fs->n_randoms)
                return -EIO;
        *ret = fs->randoms[fs->next_random++];
        return 0;
}

static QuotaOps fake_ops(FakeFs *fs) {
        return (QuotaOps) {
                .open_dir = fake_open,
                .close_dir = fake_close,
                .get_project = fake_get_project,
                .set_project = fake_set_project,
                .set_project_recursive = fake_set_project_recursive,
                .quotactl = fake_quotactl,
                .parent_statvfs = fake_parent_statvfs,
                .random_id = fake_random,
                .userdata = fs,
        };
}

static FakeFs *fake_new(void) {
        static FakeFs fs;

        fs = (FakeFs) {
                .dirs = { { .path = "/var/lib/foo", .rest_inodes = 3 }, { .path = "/var/lib/bar", .rest_inodes = 2 } },
                .parent = { .f_frsize = 4096, .f_blocks = 262144, .f_files = 65536 },
        };
        return &fs;
}

static QuotaLimit bytes_limit(uint64_t b) {
        QuotaLimit q = QUOTA_LIMIT_UNSET;

        q.absolute = b;
        q.scale = UINT32_MAX;
        q.enforce = true;
        return q;
}

static uint32_t candidate(QuotaDirType t) {
        uint32_t id = 0;

        ASSERT_OK(project_id_candidate(CGROUP, quota_dir_type_to_string(t), &id));
        return id;
}

static int apply(FakeFs *fs, const char *path, const QuotaLimit *q, QuotaTypeRun *run, QuotaReport *report) {
        QuotaOps ops = fake_ops(fs);
        QuotaStep step;

        *report = (QuotaReport) {};
        QuotaDirectory dir = dir_of(path);

        return quota_apply_directory(&ops, &dir, CGROUP, QUOTA_DIR_STATE, q, run, report, &step);
}

TEST(fresh_directory_gets_the_hashed_id_and_a_block_limit) {
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(1048576);
        QuotaTypeRun run = {};
        QuotaReport rep;
        FakeRecord *r;

        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        ASSERT_TRUE(run.project_id == candidate(QUOTA_DIR_STATE));
        ASSERT_TRUE(fs->dirs[0].top_id == run.project_id && fs->dirs[0].rest_id == run.project_id);
        r = record(fs, run.project_id, false);
        ASSERT_TRUE(r && r->bhard == 1024 && r->ihard == 0);
        ASSERT_TRUE(rep.limits_set && rep.block_limit == 1024 && rep.inode_limit == 0);
        ASSERT_FALSE(rep.unsupported);
        ASSERT_TRUE(run.enforced);
}

TEST(second_directory_shares_the_id_and_limits_are_set_once) {
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(2000);       /* rounded up to whole KiB: 2 */
        QuotaTypeRun run = {};
        QuotaReport rep;

        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        ASSERT_OK(apply(fs, "/var/lib/bar", &q, &run, &rep));
        ASSERT_TRUE(fs->dirs[1].top_id == run.project_id && fs->dirs[1].rest_id == run.project_id);
        ASSERT_EQ(fs->setquota_calls, 1);
        ASSERT_EQ(record(fs, run.project_id, false)->bhard, 2);
}

TEST(recorded_id_is_adopted) {
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(4096);
        QuotaTypeRun run = { .recorded_id = 3000000000u };
        QuotaReport rep;

        fs->dirs[0].top_id = fs->dirs[0].rest_id = 3000000000u;
        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        ASSERT_TRUE(run.project_id == 3000000000u);
        ASSERT_EQ(record(fs, 3000000000u, false)->bhard, 4);
        ASSERT_EQ(rep.foreign_id, 0);
        /* an ID below the range is not ours: replaced by the candidate */
        fs = fake_new();
        run = (QuotaTypeRun) {};
        fs->dirs[0].top_id = fs->dirs[0].rest_id = 42;
        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        ASSERT_TRUE(run.project_id == candidate(QUOTA_DIR_STATE));
}

/* F3 of the security review of 2026-12-05: the owner of a directory may put any project ID on it; v258
 * adopts it and writes the unit's limit into that project. Ours relabels and leaves that project alone. */
TEST(foreign_id_is_not_adopted_and_its_limits_stay) {
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(4096), none = QUOTA_LIMIT_UNSET;
        QuotaTypeRun run = { .recorded_id = 2900000000u };
        QuotaReport rep;
        FakeRecord *other;

        other = record(fs, 3000000001u, true);  /* another unit's project, with its own limit */
        other->bhard = 999;
        other->other_inodes = 5;
        fs->dirs[0].top_id = fs->dirs[0].rest_id = 3000000001u;
        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        ASSERT_TRUE(rep.foreign_id == 3000000001u);
        ASSERT_TRUE(run.project_id == 2900000000u);     /* the ID urlboot recorded comes back */
        ASSERT_TRUE(fs->dirs[0].top_id == run.project_id && fs->dirs[0].rest_id == run.project_id);
        ASSERT_EQ(record(fs, 3000000001u, false)->bhard, 999);
        ASSERT_EQ(record(fs, run.project_id, false)->bhard, 4);

        /* the unit's recorded ID still holds its limits (the review's F3 in a real guest): it comes back,
         * not a random one beside it */
        fs = fake_new();
        other = record(fs, 3000000001u, true);
        other->bhard = 999;
        record(fs, candidate(QUOTA_DIR_STATE), true)->bhard = 4;
        fs->dirs[0].top_id = fs->dirs[0].rest_id = 3000000001u;
        run = (QuotaTypeRun) { .recorded_id = candidate(QUOTA_DIR_STATE) };
        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        ASSERT_TRUE(rep.foreign_id == 3000000001u);
        ASSERT_TRUE(run.project_id == candidate(QUOTA_DIR_STATE));
        ASSERT_TRUE(fs->dirs[0].top_id == run.project_id && fs->dirs[0].rest_id == run.project_id);
        ASSERT_EQ(record(fs, 3000000001u, false)->bhard, 999);

        /* settings gone: the directory leaves the foreign project, whose limits are not reset */
        fs = fake_new();
        other = record(fs, 3000000001u, true);
        other->bhard = 999;
        fs->dirs[0].top_id = fs->dirs[0].rest_id = 3000000001u;
        run = (QuotaTypeRun) {};
        ASSERT_OK(apply(fs, "/var/lib/foo", &none, &run, &rep));
        ASSERT_EQ(record(fs, 3000000001u, false)->bhard, 999);
        ASSERT_EQ(fs->dirs[0].rest_id, 0);
        ASSERT_EQ(fs->setquota_calls, 0);
}

TEST(populated_candidate_moves_on_to_random_ids) {
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(1048576);
        QuotaTypeRun run = {};
        QuotaReport rep;

        record(fs, candidate(QUOTA_DIR_STATE), true)->other_space = 1;
        record(fs, 2500000000u, true)->bsoft = 5;       /* a soft limit alone also counts as "in use" */
        fs->randoms[fs->n_randoms++] = 2500000000u;
        fs->randoms[fs->n_randoms++] = 2600000000u;
        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        ASSERT_TRUE(run.project_id == 2600000000u);
        ASSERT_EQ(fs->next_random, 2);
}

TEST(raced_candidate_moves_on) {
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(1048576);
        QuotaTypeRun run = {};
        QuotaReport rep;

        fs->race_inodes = 1;    /* someone else's inode shows up in the project after we set the top */
        fs->randoms[fs->n_randoms++] = 2700000000u;
        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        ASSERT_TRUE(run.project_id == 2700000000u);
}

TEST(ten_collisions_are_ebusy) {
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(1048576);
        QuotaTypeRun run = {};
        QuotaReport rep;

        record(fs, candidate(QUOTA_DIR_STATE), true)->ihard = 1;
        for (int i = 0; i < 12; i++) {
                fs->randoms[fs->n_randoms++] = 2800000000u + i;
                record(fs, 2800000000u + i, true)->other_inodes = 1;
        }
        ASSERT_TRUE(apply(fs, "/var/lib/foo", &q, &run, &rep) == -EBUSY);
        ASSERT_EQ(fs->next_random, 10);  /* the candidate and 9 random IDs were tried, the 10th drawn */
        ASSERT_EQ(fs->dirs[0].top_id, 0);
}

TEST(not_counting_is_enotrecoverable) {
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(1048576);
        QuotaTypeRun run = {};
        QuotaReport rep;

        fs->not_counting = true;
        ASSERT_TRUE(apply(fs, "/var/lib/foo", &q, &run, &rep) == -ENOTRECOVERABLE);
}

TEST(accounting_only_sets_the_id_not_limits) {
        FakeFs *fs = fake_new();
        QuotaLimit q = QUOTA_LIMIT_UNSET;
        QuotaTypeRun run = {};
        QuotaReport rep;

        q.accounting = true;
        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        ASSERT_TRUE(fs->dirs[0].rest_id == candidate(QUOTA_DIR_STATE));
        ASSERT_EQ(fs->setquota_calls, 0);
        ASSERT_FALSE(rep.limits_set);
}

TEST(removed_setting_zeroes_limits_and_releases_the_id) {
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(1048576), none = QUOTA_LIMIT_UNSET;
        QuotaTypeRun run = {};
        QuotaReport rep;
        uint32_t id;

        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        id = run.project_id;
        record(fs, id, false)->bsoft = 7;
        run = (QuotaTypeRun) {};
        ASSERT_OK(apply(fs, "/var/lib/foo", &none, &run, &rep));
        ASSERT_EQ(record(fs, id, false)->bhard, 0);
        ASSERT_EQ(record(fs, id, false)->bsoft, 7);      /* soft limits are not ours to touch */
        ASSERT_EQ(fs->dirs[0].top_id, 0);
        ASSERT_EQ(fs->dirs[0].rest_id, 0);
        /* nothing left: a further start does nothing at all */
        fs->setquota_calls = fs->set_project_calls = 0;
        run = (QuotaTypeRun) {};
        ASSERT_OK(apply(fs, "/var/lib/foo", &none, &run, &rep));
        ASSERT_EQ(fs->setquota_calls + fs->set_project_calls, 0);
}

TEST(removed_quota_with_accounting_keeps_the_id) {
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(1048576), acct = QUOTA_LIMIT_UNSET;
        QuotaTypeRun run = {};
        QuotaReport rep;
        uint32_t id;

        q.accounting = acct.accounting = true;
        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        id = run.project_id;
        run = (QuotaTypeRun) {};
        ASSERT_OK(apply(fs, "/var/lib/foo", &acct, &run, &rep));
        ASSERT_EQ(record(fs, id, false)->bhard, 0);
        ASSERT_TRUE(fs->dirs[0].rest_id == id);
}

TEST(share_of_the_parent_file_system) {
        FakeFs *fs = fake_new();
        QuotaLimit q = QUOTA_LIMIT_UNSET;
        QuotaTypeRun run = {};
        QuotaReport rep;

        q.enforce = true;
        q.scale = quota_scale_from_permyriad(100);      /* 1 % of 1 GiB and of 65536 inodes */
        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        ASSERT_EQ(rep.block_limit, 10486);
        ASSERT_EQ(rep.inode_limit, 655);

        fs = fake_new();
        run = (QuotaTypeRun) {};
        fs->parent_xflags = FS_XFLAG_PROJINHERIT;
        ASSERT_TRUE(apply(fs, "/var/lib/foo", &q, &run, &rep) == -ENOMEDIUM);
}

TEST(zero_lets_nothing_in) {
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(0);
        QuotaTypeRun run = {};
        QuotaReport rep;

        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        ASSERT_TRUE(rep.block_limit == 1 && rep.inode_limit == 1);
}

TEST(unsupported_file_systems_are_left_alone) {
        static const struct {
                int get_project_error, query_error;
        } cases[] = {
                { -ENOTTY, 0 },         /* vfat, nfs: no FS_IOC_FSGETXATTR */
                { -EINVAL, 0 },
                { 0, -ESRCH },          /* ext4 without the project feature, XFS without pquota */
                { 0, -ENOSYS },
                { 0, -ENODEV },         /* tmpfs, btrfs: no device for quotactl() (v258 fails here) */
                { 0, -EPERM },
        };

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                FakeFs *fs = fake_new();
                QuotaLimit q = bytes_limit(1048576);
                QuotaTypeRun run = {};
                QuotaReport rep;

                fs->dirs[0].get_project_error = cases[i].get_project_error;
                fs->query_error = cases[i].query_error;
                ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
                ASSERT_TRUE(rep.unsupported);
                ASSERT_EQ(rep.unsupported_error, cases[i].get_project_error ?: cases[i].query_error);
                ASSERT_EQ(fs->set_project_calls + fs->setquota_calls, 0);
        }
}

TEST(other_errors_fail) {
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(1048576);
        QuotaTypeRun run = {};
        QuotaReport rep;

        fs->query_error = -EIO;
        ASSERT_TRUE(apply(fs, "/var/lib/foo", &q, &run, &rep) == -EIO);
        fs = fake_new();
        run = (QuotaTypeRun) {};
        fs->set_limits_error = -EDQUOT;
        ASSERT_TRUE(apply(fs, "/var/lib/foo", &q, &run, &rep) == -EDQUOT);
        fs = fake_new();
        ASSERT_TRUE(apply(fs, "/var/lib/missing", &q, &run, &rep) == -ENOENT);
}

TEST(xfs_unknown_id_counts_as_unused) {
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(1048576);
        QuotaTypeRun run = {};
        QuotaReport rep;

        fs->xfs = true;
        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        ASSERT_TRUE(run.project_id == candidate(QUOTA_DIR_STATE));
        ASSERT_EQ(record(fs, run.project_id, false)->bhard, 1024);
}

TEST(release_and_read_usage) {
        QuotaDirectory foo = dir_of("/var/lib/foo");
        FakeFs *fs = fake_new();
        QuotaLimit q = bytes_limit(1048576);
        QuotaOps ops = fake_ops(fs);
        QuotaTypeRun run = {};
        QuotaReport rep = {};
        QuotaStep step;
        struct dqblk dq;
        uint32_t id;

        ASSERT_OK(apply(fs, "/var/lib/foo", &q, &run, &rep));
        rep = (QuotaReport) {};
        ASSERT_EQ(quota_read_usage(&ops, &foo, &id, &dq, &rep), 1);
        ASSERT_TRUE(id == run.project_id && dq.dqb_curinodes == 4 && dq.dqb_bhardlimit == 1024);
        ASSERT_EQ(quota_release_directory(&ops, &foo, CGROUP, QUOTA_DIR_STATE, 0, false, &rep, &step), 1);
        ASSERT_TRUE(rep.project_id == 0 && fs->dirs[0].rest_id == 0);
        ASSERT_EQ(record(fs, run.project_id, false)->bhard, 0);
        ASSERT_EQ(quota_release_directory(&ops, &foo, CGROUP, QUOTA_DIR_STATE, 0, false, &rep, &step), 0);
        ASSERT_EQ(quota_read_usage(&ops, &foo, &id, &dq, &rep), 0);
        ASSERT_EQ(id, 0);

        /* release of a directory carrying someone else's ID: back to 0, that project's limit stays */
        record(fs, 3000000002u, true)->bhard = 77;
        fs->dirs[0].top_id = fs->dirs[0].rest_id = 3000000002u;
        rep = (QuotaReport) {};
        ASSERT_EQ(quota_release_directory(&ops, &foo, CGROUP, QUOTA_DIR_STATE, 0, false, &rep, &step), 1);
        ASSERT_TRUE(rep.foreign_id == 3000000002u && fs->dirs[0].rest_id == 0);
        ASSERT_EQ(record(fs, 3000000002u, false)->bhard, 77);
        /* … and the ID urlboot recorded for the unit is released like the candidate */
        record(fs, 3000000003u, true)->bhard = 55;
        fs->dirs[0].top_id = fs->dirs[0].rest_id = 3000000003u;
        ASSERT_EQ(quota_release_directory(&ops, &foo, "", QUOTA_DIR_STATE, 3000000003u, false, &rep, &step), 1);
        ASSERT_EQ(record(fs, 3000000003u, false)->bhard, 0);
}

static int errno_from_name(const char *s) {
        static const struct {
                const char *name;
                int value;
        } names[] = {
                { "ENOTTY", ENOTTY }, { "EOPNOTSUPP", EOPNOTSUPP }, { "ENOSYS", ENOSYS }, { "EINVAL", EINVAL },
                { "EAFNOSUPPORT", EAFNOSUPPORT }, { "ENOPROTOOPT", ENOPROTOOPT }, { "ESRCH", ESRCH },
                { "EPERM", EPERM }, { "EACCES", EACCES }, { "ENOENT", ENOENT }, { "ENODEV", ENODEV },
                { "EIO", EIO }, { "EDQUOT", EDQUOT }, { "ENOSPC", ENOSPC }, { "EXDEV", EXDEV },
                { "EROFS", EROFS }, { "ENOMEDIUM", ENOMEDIUM }, { "EBUSY", EBUSY },
        };

        for (size_t i = 0; i < ELEMENTSOF(names); i++)
                if (streq(names[i].name, s))
                        return names[i].value;
        return -1;
}

static void errno_line(char *line, int lineno, void *userdata) {
        char *f[4];
        int step, err, v258, ours;

        if (test_split_fields(line, f, 4) != 4)
                test_fail(__FILE__, __LINE__, "line %d: need four fields", lineno);
        step = quota_step_from_string(f[0]);
        err = errno_from_name(f[1]);
        v258 = quota_action_from_string(f[2]);
        ours = quota_action_from_string(f[3]);
        if (step < 0 || err < 0 || v258 < 0 || ours < 0)
                test_fail(__FILE__, __LINE__, "line %d: unknown name", lineno);
        if ((int) quota_errno_action_v258(step, -err) != v258 || (int) quota_errno_action(step, err) != ours)
                test_fail(__FILE__, __LINE__, "line %d: %s %s: got %s/%s", lineno, f[0], f[1],
                          quota_action_to_string(quota_errno_action_v258(step, -err)),
                          quota_action_to_string(quota_errno_action(step, err)));
        (*(int *) userdata)++;
}

TEST(errno_actions) {
        int n = 0;

        test_foreach_line("dirquota-errno-cases.tsv", errno_line, &n);
        ASSERT_TRUE(n >= 30);
}

static void limits_line(char *line, int lineno, void *userdata) {
        char *f[6];
        QuotaLimit q = QUOTA_LIMIT_UNSET;
        uint64_t blocks, inodes;

        if (test_split_fields(line, f, 6) != 6)
                test_fail(__FILE__, __LINE__, "line %d: need six fields", lineno);
        if (quota_limit_parse(f[0], &q) < 0)
                test_fail(__FILE__, __LINE__, "line %d: bad value %s", lineno, f[0]);
        quota_limits_compute(&q, strtoull(f[1], NULL, 10), strtoull(f[2], NULL, 10), strtoull(f[3], NULL, 10),
                             &blocks, &inodes);
        if (blocks != strtoull(f[4], NULL, 10) || inodes != strtoull(f[5], NULL, 10))
                test_fail(__FILE__, __LINE__, "line %d: %s: got %" PRIu64 " %" PRIu64 ", want %s %s", lineno, f[0],
                          blocks, inodes, f[4], f[5]);
        (*(int *) userdata)++;
}

TEST(limit_arithmetic) {
        int n = 0;

        test_foreach_line("dirquota-limits-cases.tsv", limits_line, &n);
        ASSERT_TRUE(n >= 15);
}
