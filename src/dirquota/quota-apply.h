/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Applying a unit's directory quota settings to its directories, step by step as systemd v258 does before
 * each command it spawns (exec-invoke.c: apply_exec_quotas() and friends).
 *
 * For each directory type (State, Cache, Logs), in order:
 * - the first directory that already has an ID of this unit's lends it to the others of that type, so they
 *   share one limit; otherwise the first gets the hashed candidate (project-id.h), or a random ID when that
 *   project's record is in use or another inode took it meanwhile (10 attempts, then EBUSY). An ID is this
 *   unit's when it is its candidate or the one urlboot recorded for it (QuotaTypeRun.recorded_id): v258
 *   adopts any ID, but a directory's owner can set any ID on it and so have root write its limit into
 *   another unit's project (security review 2026-12-05, F3); a directory with another ID is relabeled, and
 *   the other project's record is never touched;
 * - the ID is set on the top directory first, checked to be the only inode using it, then set on the tree;
 * - the hard limits are set once per type: bytes (block limit only) or a share of the parent's file system
 *   (block and inode limits), 0 meaning "nothing may be written" (limits of 1);
 * - with the setting gone, limits above 0 are reset to 0, and with …Accounting= off the ID goes back to 0.
 *
 * The file system is reached through QuotaOps, so the steps can be checked against a simulated file
 * system on machines whose kernel has no quota support.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/quota.h>
#include <sys/statvfs.h>

#include "quota-errno.h"
#include "quota-value.h"

typedef enum QuotaDirType {
        QUOTA_DIR_STATE,
        QUOTA_DIR_CACHE,
        QUOTA_DIR_LOGS,
        _QUOTA_DIR_TYPE_MAX,
} QuotaDirType;

/** "StateDirectory", "CacheDirectory", "LogsDirectory" (also the hashed type names). */
const char *quota_dir_type_to_string(QuotaDirType t);
/** "/var/lib", "/var/cache", "/var/log" (the system manager's prefixes). */
const char *quota_dir_type_prefix(QuotaDirType t);
/** 238 STATE_DIRECTORY, 239 CACHE_DIRECTORY, 240 LOGS_DIRECTORY: the unit's exit status on failure. */
int quota_dir_type_exit_status(QuotaDirType t);

/** A unit's directory: a name the unit configured, below one of the manager's prefixes. */
typedef struct QuotaDirectory {
        const char *prefix;             /* "/var/lib", "/var/lib/private", …: root's, trusted */
        const char *name;               /* "foo/bar": its components may be the unit's to change */
} QuotaDirectory;

/** How to reach the file system; every function returns 0 or a negative errno. */
typedef struct QuotaOps {
        int (*open_dir)(void *userdata, const QuotaDirectory *dir);     /* a handle ≥ 0, used for every step */
        void (*close_dir)(void *userdata, int handle);
        int (*get_project)(void *userdata, int handle, uint32_t *ret_xflags, uint32_t *ret_id);
        int (*set_project)(void *userdata, int handle, uint32_t id);
        int (*set_project_recursive)(void *userdata, int handle, uint32_t id);
        int (*quotactl)(void *userdata, int handle, int cmd, uint32_t id, struct dqblk *dq);
        int (*parent_statvfs)(void *userdata, int handle, uint32_t *ret_parent_xflags, struct statvfs *ret);
        int (*random_id)(void *userdata, uint32_t *ret);
        void *userdata;
} QuotaOps;

/**
 * The real file system (quota-fs.h). Its directories are reached from the prefix without following any
 * symbolic link (open-beneath.h; v258 follows them, and a service that owns the parent of one of its
 * directories could point it at /etc: F2 of the security review of 2026-12-05), and must belong to root or
 * to the owner of the name's first component (the unit's user, whom the manager gave it): -ELOOP for a
 * link on the way, -EXDEV for "..", -EPERM for a directory of someone else.
 */
extern const QuotaOps quota_ops_linux;

/** What one type's run has decided so far (v258 keeps the same two values per command). */
typedef struct QuotaTypeRun {
        uint32_t recorded_id;           /* in: the ID urlboot recorded for this unit and type, 0 if none */
        uint32_t project_id;            /* the type's shared ID once known, else 0 */
        bool enforced;                  /* limits already set during this command */
} QuotaTypeRun;

/** What happened beyond success or failure, for the caller's log lines. */
typedef struct QuotaReport {
        bool unsupported;               /* left alone: no project quotas here (first such step below) */
        QuotaStep unsupported_step;
        int unsupported_error;          /* negative errno */
        int release_error;              /* resetting the ID to 0 failed (negative errno; v258 only warns) */
        uint32_t project_id;            /* the ID the directory has now, 0 if none in range */
        uint32_t foreign_id;            /* an ID in range that was not this unit's, found on the directory */
        bool limits_set;
        uint64_t block_limit, inode_limit;
        struct statvfs parent;          /* what a share was computed from (f_frsize 0 for bytes) */
} QuotaReport;

/**
 * Apply the settings to one directory (the real one: PREFIX/private/NAME under DynamicUser=).
 * @v cgroup    the unit's control group path, hashed into the first candidate ID
 * @v ret_step  where it failed
 * @ret 0 (also when left alone: see report), or the negative errno that fails the unit
 */
int quota_apply_directory(const QuotaOps *ops, const QuotaDirectory *dir, const char *cgroup, QuotaDirType type,
                          const QuotaLimit *limit, QuotaTypeRun *run, QuotaReport *report, QuotaStep *ret_step);

/**
 * Hard limits for the settings: blocks of QUOTA_BLOCK_SIZE and inodes (0 = none), from the parent's
 * statvfs for shares. Exactly v258's arithmetic (in double for shares, rounding blocks up).
 */
void quota_limits_compute(const QuotaLimit *limit, uint64_t frsize, uint64_t blocks, uint64_t files,
                          uint64_t *ret_block_limit, uint64_t *ret_inode_limit);

/**
 * Zero the hard limits of the directory's project and, unless keep_project_id, give the tree ID 0 again:
 * what v258 does at the next start once the settings are gone, here also on request ("release").
 * A directory without an ID in range is left alone; one with an ID that is not the unit's (candidate or
 * recorded_id) gets ID 0 back, and that project's limits are left as they are.
 * @ret 1 when it had an ID in range, 0 when not, negative errno on failure (*ret_step says where)
 */
int quota_release_directory(const QuotaOps *ops, const QuotaDirectory *dir, const char *cgroup, QuotaDirType type,
                            uint32_t recorded_id, bool keep_project_id, QuotaReport *report, QuotaStep *ret_step);

/**
 * The directory's project ID (0 when none in range) and its quota record, as status reads them.
 * @ret 1 with the record, 0 without (no ID in range, or no project quotas: see report), negative errno
 */
int quota_read_usage(const QuotaOps *ops, const QuotaDirectory *dir, uint32_t *ret_id, struct dqblk *ret,
                     QuotaReport *report);
