/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The steps of v258's directory quotas (see quota-apply.h), over QuotaOps.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macro.h"
#include "open-beneath.h"
#include "project-id.h"
#include "quota-apply.h"
#include "quota-fs.h"
#include "string-util.h"

#define PROJECT_ID_ATTEMPTS 10

static const char *const type_names[_QUOTA_DIR_TYPE_MAX] = {
        [QUOTA_DIR_STATE] = "StateDirectory",
        [QUOTA_DIR_CACHE] = "CacheDirectory",
        [QUOTA_DIR_LOGS] = "LogsDirectory",
};

static const char *const type_prefixes[_QUOTA_DIR_TYPE_MAX] = {
        [QUOTA_DIR_STATE] = "/var/lib",
        [QUOTA_DIR_CACHE] = "/var/cache",
        [QUOTA_DIR_LOGS] = "/var/log",
};

const char *quota_dir_type_to_string(QuotaDirType t) {
        return t >= 0 && t < _QUOTA_DIR_TYPE_MAX ? type_names[t] : NULL;
}

const char *quota_dir_type_prefix(QuotaDirType t) {
        return t >= 0 && t < _QUOTA_DIR_TYPE_MAX ? type_prefixes[t] : NULL;
}

int quota_dir_type_exit_status(QuotaDirType t) {
        /* EXIT_STATE_DIRECTORY, EXIT_CACHE_DIRECTORY, EXIT_LOGS_DIRECTORY of systemd's exit-status.h */
        return 238 + (int) t;
}

/* Records "no project quotas here" (the first time only) and tells the caller to leave the directory. */
static int mark_unsupported(QuotaReport *report, QuotaStep step, int error) {
        if (!report->unsupported) {
                report->unsupported = true;
                report->unsupported_step = step;
                report->unsupported_error = error;
        }
        return 0;
}

/*
 * Q_GETQUOTA for id. *ret_supported is false when the file system has no project quotas; an ID without a
 * record reads as an empty record (urlboot's deviation for XFS, quota-errno.h).
 */
static int query(const QuotaOps *ops, int h, uint32_t id, struct dqblk *dq, bool *ret_supported,
                 QuotaReport *report) {
        int r;

        *dq = (struct dqblk) {};
        r = ops->quotactl(ops->userdata, h, Q_GETQUOTA, id, dq);
        if (r >= 0) {
                *ret_supported = true;
                return 0;
        }
        switch (quota_errno_action(QUOTA_STEP_QUERY, r)) {
        case QUOTA_ACTION_UNSUPPORTED:
                *dq = (struct dqblk) {};
                *ret_supported = false;
                return mark_unsupported(report, QUOTA_STEP_QUERY, r);
        case QUOTA_ACTION_UNUSED:
                *dq = (struct dqblk) {};
                *ret_supported = true;
                return 0;
        default:
                return r;
        }
}

/* "In use": v258 wants every field valid and anything at all in them (limits, usage, grace times). */
static bool record_is_populated(const struct dqblk *dq) {
        const uint32_t all = QIF_BLIMITS | QIF_SPACE | QIF_ILIMITS | QIF_INODES | QIF_BTIME | QIF_ITIME;

        return (dq->dqb_valid & all) == all &&
               (dq->dqb_bhardlimit > 0 || dq->dqb_bsoftlimit > 0 || dq->dqb_ihardlimit > 0 ||
                dq->dqb_isoftlimit > 0 || dq->dqb_curspace > 0 || dq->dqb_curinodes > 0 || dq->dqb_btime > 0 ||
                dq->dqb_itime > 0);
}

/*
 * Give the top directory the ID, check that it is the project's only inode (nobody raced us to it), then
 * give it to the tree. @ret 1 done, 0 taken by someone else, negative errno.
 */
static int set_project_exclusive(const QuotaOps *ops, int h, uint32_t id) {
        struct dqblk dq = {};
        int r;

        r = ops->set_project(ops->userdata, h, id);
        if (r < 0)
                return r;
        r = ops->quotactl(ops->userdata, h, Q_GETQUOTA, id, &dq);
        if (r < 0)
                return r;
        if (dq.dqb_curinodes == 0)
                return -ENOTRECOVERABLE;        /* the ID did not stick: the file system is not counting */
        if (dq.dqb_curinodes != 1)
                return 0;
        r = ops->set_project_recursive(ops->userdata, h, id);
        return r < 0 ? r : 1;
}

void quota_limits_compute(const QuotaLimit *limit, uint64_t frsize, uint64_t blocks, uint64_t files,
                          uint64_t *ret_block_limit, uint64_t *ret_inode_limit) {
        uint64_t bytes;

        assert(limit);
        assert(ret_block_limit);
        assert(ret_inode_limit);

        if (limit->absolute == 0 || limit->scale == 0) {
                /* 0 would mean "no limit" to quotactl(); 1 lets nothing in */
                *ret_block_limit = *ret_inode_limit = 1;
                return;
        }
        if (limit->absolute != UINT64_MAX) {
                bytes = limit->absolute;
                *ret_inode_limit = 0;
        } else {
                /* the same double arithmetic as v258, so both round alike */
                bytes = (uint64_t) ((double) (frsize * blocks) / UINT32_MAX * limit->scale);
                *ret_inode_limit = (uint64_t) ((double) files / UINT32_MAX * limit->scale);
        }
        *ret_block_limit = bytes / QUOTA_BLOCK_SIZE + !!(bytes % QUOTA_BLOCK_SIZE);
}

static int set_limits(const QuotaOps *ops, int h, uint32_t id, const QuotaLimit *limit, QuotaReport *report) {
        uint64_t block_limit, inode_limit;
        struct dqblk dq;
        int r;

        if (limit->absolute == UINT64_MAX && limit->scale != 0) {
                uint32_t parent_xflags = 0;
                struct statvfs st;

                r = ops->parent_statvfs(ops->userdata, h, &parent_xflags, &st);
                if (r < 0)
                        return r;
                /* inside another project, statvfs() reports that project's limit, not the disk */
                if (parent_xflags & FS_XFLAG_PROJINHERIT)
                        return -ENOMEDIUM;
                quota_limits_compute(limit, st.f_frsize, st.f_blocks, st.f_files, &block_limit, &inode_limit);
                report->parent = st;
        } else
                quota_limits_compute(limit, 0, 0, 0, &block_limit, &inode_limit);

        dq = (struct dqblk) {
                .dqb_bhardlimit = block_limit,
                .dqb_ihardlimit = inode_limit,
                .dqb_valid = QIF_LIMITS,
        };
        r = ops->quotactl(ops->userdata, h, Q_SETQUOTA, id, &dq);
        if (r < 0)
                return r;
        report->limits_set = true;
        report->block_limit = block_limit;
        report->inode_limit = inode_limit;
        return 0;
}

/* The tree gets ID 0 again; a failure is only reported (v258 warns). */
static int release_tree(const QuotaOps *ops, int h, QuotaReport *report) {
        int r = ops->set_project_recursive(ops->userdata, h, 0);

        if (r < 0)
                report->release_error = r;
        else
                report->project_id = 0;
        return 0;
}

/* The settings are gone: no hard limits any more, and no ID unless accounting wants it. */
static int unset_project(const QuotaOps *ops, int h, uint32_t id, bool keep_project_id, QuotaReport *report,
                         QuotaStep *ret_step) {
        struct dqblk dq;
        bool supported;
        int r;

        *ret_step = QUOTA_STEP_QUERY;
        r = query(ops, h, id, &dq, &supported, report);
        if (r < 0)
                return r;
        if (supported && (dq.dqb_valid & QIF_BLIMITS) && (dq.dqb_bhardlimit > 0 || dq.dqb_ihardlimit > 0)) {
                /* soft limits go back as they were read */
                dq.dqb_bhardlimit = dq.dqb_ihardlimit = 0;
                dq.dqb_valid = QIF_LIMITS;
                *ret_step = QUOTA_STEP_SET_LIMITS;
                r = ops->quotactl(ops->userdata, h, Q_SETQUOTA, id, &dq);
                if (r < 0)
                        return r;
        }
        return keep_project_id ? 0 : release_tree(ops, h, report);
}

/* The unit's own: its hashed candidate (when its control group is known) or the ID urlboot recorded. */
static bool project_id_is_units(uint32_t id, const char *cgroup, QuotaDirType type, uint32_t recorded_id) {
        uint32_t candidate;

        if (!project_id_in_range(id))
                return false;
        if (recorded_id != 0 && id == recorded_id)
                return true;
        return !isempty(cgroup) && project_id_candidate(cgroup, quota_dir_type_to_string(type), &candidate) >= 0 &&
               id == candidate;
}

/* Finds the type's ID for its first directory: the hashed candidate, or random ones after collisions. */
static int pick_project_id(const QuotaOps *ops, int h, const char *cgroup, QuotaDirType type, uint32_t *ret_id,
                           bool *ret_supported, QuotaReport *report, QuotaStep *ret_step) {
        uint32_t id;
        int r;

        *ret_step = QUOTA_STEP_SET_PROJECT;
        r = project_id_candidate(cgroup, quota_dir_type_to_string(type), &id);
        if (r < 0)
                return r;

        for (unsigned attempt = 0; attempt < PROJECT_ID_ATTEMPTS; attempt++) {
                struct dqblk dq;

                *ret_step = QUOTA_STEP_QUERY;
                r = query(ops, h, id, &dq, ret_supported, report);
                if (r < 0 || !*ret_supported)
                        return r;

                if (!record_is_populated(&dq)) {
                        *ret_step = QUOTA_STEP_SET_PROJECT;
                        r = set_project_exclusive(ops, h, id);
                        if (r < 0)
                                return r;
                        if (r > 0) {
                                *ret_id = id;
                                return 0;
                        }
                }
                *ret_step = QUOTA_STEP_SET_PROJECT;
                r = ops->random_id(ops->userdata, &id);
                if (r < 0)
                        return r;
        }
        *ret_step = QUOTA_STEP_SET_PROJECT;
        return -EBUSY;
}

static int apply_open(const QuotaOps *ops, int h, const char *cgroup, QuotaDirType type, const QuotaLimit *limit,
                      QuotaTypeRun *run, QuotaReport *report, QuotaStep *ret_step) {
        bool supported = false, ours;
        uint32_t id;
        int r;

        *ret_step = QUOTA_STEP_GET_PROJECT;
        r = ops->get_project(ops->userdata, h, NULL, &id);
        if (r < 0)
                return quota_errno_action(QUOTA_STEP_GET_PROJECT, r) == QUOTA_ACTION_UNSUPPORTED ?
                               mark_unsupported(report, QUOTA_STEP_GET_PROJECT, r) : r;
        report->project_id = project_id_in_range(id) ? id : 0;
        ours = project_id_in_range(id) &&
               (id == run->project_id || project_id_is_units(id, cgroup, type, run->recorded_id));
        if (project_id_in_range(id) && !ours)
                report->foreign_id = id;

        /* the type's first directory with an ID of the unit's lends it to the others */
        if (ours && run->project_id == 0)
                run->project_id = id;

        if (!limit->enforce) {
                if (ours) {
                        r = unset_project(ops, h, id, limit->accounting, report, ret_step);
                        if (r < 0)
                                return r;
                } else if (report->foreign_id != 0 && !limit->accounting) {
                        /* someone else's project: the tree leaves it, its record stays as it is */
                        r = release_tree(ops, h, report);
                        if (r < 0)
                                return r;
                }
                if (!limit->accounting)
                        return 0;
        }

        /* The ID urlboot gave the unit before comes back (a foreign one on the directory aside), lent
         * like a directory's: its record holds the unit's own limits, which a fresh pick would take for
         * someone else's and leave behind. */
        if (run->project_id == 0 && project_id_in_range(run->recorded_id))
                run->project_id = run->recorded_id;
        if (run->project_id > 0 && run->project_id != id) {
                id = run->project_id;
                *ret_step = QUOTA_STEP_SET_PROJECT;
                r = ops->set_project_recursive(ops->userdata, h, id);
                if (r < 0)
                        return r;
        } else if (run->project_id == 0) {
                r = pick_project_id(ops, h, cgroup, type, &id, &supported, report, ret_step);
                if (r < 0 || !supported)
                        return r;
                run->project_id = id;
        }
        report->project_id = id;

        if (limit->enforce && !run->enforced) {
                if (!supported) {
                        struct dqblk dq;

                        *ret_step = QUOTA_STEP_QUERY;
                        r = query(ops, h, id, &dq, &supported, report);
                        if (r < 0 || !supported)
                                return r;
                }
                *ret_step = QUOTA_STEP_SET_LIMITS;
                r = set_limits(ops, h, id, limit, report);
                if (r < 0)
                        return r;
                run->enforced = true;
        }
        return 0;
}

int quota_apply_directory(const QuotaOps *ops, const QuotaDirectory *dir, const char *cgroup, QuotaDirType type,
                          const QuotaLimit *limit, QuotaTypeRun *run, QuotaReport *report, QuotaStep *ret_step) {
        int h, r;

        assert(ops);
        assert(limit);
        assert(run);
        assert(report);
        assert(ret_step);

        *ret_step = QUOTA_STEP_GET_PROJECT;
        h = ops->open_dir(ops->userdata, dir);
        if (h < 0)
                return h;
        r = apply_open(ops, h, cgroup, type, limit, run, report, ret_step);
        ops->close_dir(ops->userdata, h);
        return r;
}

int quota_release_directory(const QuotaOps *ops, const QuotaDirectory *dir, const char *cgroup, QuotaDirType type,
                            uint32_t recorded_id, bool keep_project_id, QuotaReport *report, QuotaStep *ret_step) {
        uint32_t id;
        int h, r;

        assert(ops);
        assert(report);
        assert(ret_step);

        *ret_step = QUOTA_STEP_GET_PROJECT;
        h = ops->open_dir(ops->userdata, dir);
        if (h < 0)
                return h;
        r = ops->get_project(ops->userdata, h, NULL, &id);
        if (r < 0) {
                if (quota_errno_action(QUOTA_STEP_GET_PROJECT, r) == QUOTA_ACTION_UNSUPPORTED)
                        r = mark_unsupported(report, QUOTA_STEP_GET_PROJECT, r);
        } else if (project_id_is_units(id, cgroup, type, recorded_id)) {
                report->project_id = id;
                r = unset_project(ops, h, id, keep_project_id, report, ret_step);
                if (r >= 0)
                        r = 1;
        } else if (project_id_in_range(id)) {
                /* someone else's project: the tree leaves it, its record stays as it is */
                report->project_id = report->foreign_id = id;
                if (!keep_project_id)
                        (void) release_tree(ops, h, report);
                r = 1;
        } else
                r = 0;
        ops->close_dir(ops->userdata, h);
        return r;
}

int quota_read_usage(const QuotaOps *ops, const QuotaDirectory *dir, uint32_t *ret_id, struct dqblk *ret,
                     QuotaReport *report) {
        bool supported = false;
        uint32_t id = 0;
        int h, r;

        assert(ops);
        assert(dir);
        assert(ret_id);
        assert(ret);
        assert(report);

        *ret_id = 0;
        *ret = (struct dqblk) {};
        h = ops->open_dir(ops->userdata, dir);
        if (h < 0)
                return h;
        r = ops->get_project(ops->userdata, h, NULL, &id);
        if (r < 0) {
                if (quota_errno_action(QUOTA_STEP_GET_PROJECT, r) == QUOTA_ACTION_UNSUPPORTED)
                        r = mark_unsupported(report, QUOTA_STEP_GET_PROJECT, r);
        } else if (project_id_in_range(id)) {
                *ret_id = id;
                r = query(ops, h, id, ret, &supported, report);
                if (r >= 0)
                        r = supported;
        } else
                r = 0;
        ops->close_dir(ops->userdata, h);
        return r;
}

/* The real file system: handles are directory fds. */

/* Every directory from the top one below the prefix down to the unit's belongs to root or to one other
 * user: the manager creates the leading directories of "a/b" as root's and gives the last to the unit's
 * user (or the top one, whose contents the unit then owns). A second user on the way is a directory of
 * someone else's moved in: nothing of a third one is touched. One walk, one component at a time from
 * the descriptor before it, so what is checked is what is returned. */
static int linux_open_dir(void *userdata, const QuotaDirectory *dir) {
        _cleanup_close_ int fd = -1;
        uid_t owner = 0;

        /* The prefix is the manager's; below it, nothing is followed. */
        if (dir->name[strspn(dir->name, "/")] == 0)
                return -EINVAL;         /* the prefix itself is nobody's directory */
        fd = open(dir->prefix, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        for (const char *p = dir->name + strspn(dir->name, "/"); *p; p += strspn(p, "/")) {
                _cleanup_free_ char *part = strndup(p, strcspn(p, "/"));
                struct stat st;
                int next;

                if (!part)
                        return -ENOMEM;
                next = open_beneath(fd, part, O_RDONLY | O_DIRECTORY);
                if (next < 0)
                        return next;
                (void) close(fd);
                fd = next;
                if (fstat(fd, &st) < 0)
                        return -errno;
                if (!S_ISDIR(st.st_mode))
                        return -ENOTDIR;
                if (st.st_uid != 0) {
                        if (owner != 0 && st.st_uid != owner)
                                return -EPERM;
                        owner = st.st_uid;
                }
                p += strlen(part);
        }
        return TAKE_FD(fd);
}

static void linux_close_dir(void *userdata, int handle) {
        (void) close(handle);
}

static int linux_get_project(void *userdata, int handle, uint32_t *ret_xflags, uint32_t *ret_id) {
        return quota_fs_get_project(handle, ret_xflags, ret_id);
}

static int linux_set_project(void *userdata, int handle, uint32_t id) {
        return quota_fs_set_project(handle, id);
}

static int linux_set_project_recursive(void *userdata, int handle, uint32_t id) {
        return quota_fs_set_project_recursive(handle, id);
}

static int linux_quotactl(void *userdata, int handle, int cmd, uint32_t id, struct dqblk *dq) {
        return quota_fs_quotactl(handle, cmd, id, dq);
}

static int linux_parent_statvfs(void *userdata, int handle, uint32_t *ret_parent_xflags, struct statvfs *ret) {
        return quota_fs_parent_statvfs(handle, ret_parent_xflags, ret);
}

static int linux_random_id(void *userdata, uint32_t *ret) {
        return project_id_random(ret);
}

const QuotaOps quota_ops_linux = {
        .open_dir = linux_open_dir,
        .close_dir = linux_close_dir,
        .get_project = linux_get_project,
        .set_project = linux_set_project,
        .set_project_recursive = linux_set_project_recursive,
        .quotactl = linux_quotactl,
        .parent_statvfs = linux_parent_statvfs,
        .random_id = linux_random_id,
};
