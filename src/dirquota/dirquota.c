/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-dirquota: systemd v258's StateDirectoryQuota=, CacheDirectoryQuota=, LogsDirectoryQuota= and
 * …Accounting= for services on systemd 252.
 *
 *   apply UNIT      what v258 does before each command of the unit (run from the drop-in that
 *                   urlboot-dirquota-generator writes; exit status 238/239/240 where v258 fails the unit)
 *   status UNIT     usage and limit per directory type, as systemctl status prints them on v258
 *   release UNIT    remove the limits and project IDs (before "systemctl clean")
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command-table.h"
#include "json-format.h"
#include "exit-status.h"
#include "json-writer.h"
#include "log.h"
#include "macro.h"
#include "manager-bus.h"
#include "unit-info.h"
#include "project-id.h"
#include "quota-apply.h"
#include "quota-format.h"
#include "quota-fs.h"
#include "quota-record.h"
#include "string-util.h"
#include "systemd-version.h"
#include "unit-settings.h"

static JsonFormat arg_json = JSON_FORMAT_OFF;

enum { ARG_JSON = 0x100, ARG_VERSION };

/* --json may come before or after the command (getopt moves options to the front), so this table takes
 * it too; a command's table lists the options that matter to it (its --help, the completion) and counts
 * its arguments (one unit). */
static const OptionRow dirquota_options[] = {
        OPTION_ROW_HELP,
        OPTION_ROW_VERSION(ARG_VERSION),
        OPTION_ROW_JSON(ARG_JSON, "machine-readable output (status)"),
};

static const OptionRow verb_options[] = {
        OPTION_ROW_HELP,
};

static const CommandTable apply_table = {
        .name = "urlboot-dirquota apply",
        .arguments = "UNIT",
        .summary = "Set up the project IDs and limits of the unit's directories, as systemd 258 does before\n"
                   "each of the unit's commands (run from the drop-in urlboot-dirquota-generator writes;\n"
                   "exit status 238, 239 or 240 where systemd 258 fails the unit).",
        .options = verb_options,
        .n_options = ELEMENTSOF(verb_options),
        .min_arguments = 1,
        .max_arguments = 1,
};

static const OptionRow status_options[] = {
        OPTION_ROW_HELP,
        OPTION_ROW_JSON(ARG_JSON, "machine-readable output"),
};

static const CommandTable status_table = {
        .name = "urlboot-dirquota status",
        .arguments = "UNIT",
        .summary = "Print the usage and limit of each directory type, as systemctl status prints them on\n"
                   "systemd 258.",
        .options = status_options,
        .n_options = ELEMENTSOF(status_options),
        .min_arguments = 1,
        .max_arguments = 1,
};

static const CommandTable release_table = {
        .name = "urlboot-dirquota release",
        .arguments = "UNIT",
        .summary = "Remove the limits and project IDs of the unit's directories (before \"systemctl clean\").",
        .options = verb_options,
        .n_options = ELEMENTSOF(verb_options),
        .min_arguments = 1,
        .max_arguments = 1,
};

static const CommandTable dirquota_table = {
        .name = "urlboot-dirquota",
        .arguments = "COMMAND UNIT",
        .summary = "Directory quotas of systemd 258 (StateDirectoryQuota=, CacheDirectoryQuota=,\n"
                   "LogsDirectoryQuota=, …Accounting=) for services on older systemd.\n"
                   "\n"
                   "Commands:\n"
                   "  apply UNIT     set up the project IDs and limits of the unit's directories\n"
                   "                 (run before each of the unit's commands by the generated drop-in)\n"
                   "  status UNIT    print the usage and limit of each directory type\n"
                   "  release UNIT   remove the limits and project IDs of the unit's directories\n"
                   "\n"
                   "Run 'urlboot-dirquota COMMAND --help' for a command's options.",
        .options = dirquota_options,
        .n_options = ELEMENTSOF(dirquota_options),
        .max_arguments = ARGUMENTS_ANY,
        .complete_arguments = "verbs",
        .verbs = (const CommandTable *const []) { &apply_table, &status_table, &release_table, NULL },
};

/* Component-wise comparison, as systemd orders a type's directories (parents before children). */
static int path_order(const void *a, const void *b) {
        const char *x = *(char *const *) a, *y = *(char *const *) b;

        for (;;) {
                size_t nx, ny;
                int c;

                x += strspn(x, "/");
                y += strspn(y, "/");
                if (!*x || !*y)
                        return !!*x - !!*y;
                nx = strcspn(x, "/");
                ny = strcspn(y, "/");
                c = strncmp(x, y, nx < ny ? nx : ny);
                if (c != 0)
                        return c;
                if (nx != ny)
                        return nx < ny ? -1 : 1;
                x += nx;
                y += ny;
        }
}

/* The directory as it exists on disk: PREFIX/private/NAME under DynamicUser=. */
static char *directory_path(QuotaDirType t, const char *name, bool private) {
        char *p;

        return asprintf(&p, "%s/%s%s", quota_dir_type_prefix(t), private ? "private/" : "", name) < 0 ? NULL : p;
}

/* The same as the prefix the manager owns and the name the unit configured (reached without links). */
static char *directory_ref(QuotaDirType t, const char *name, bool private, QuotaDirectory *ret) {
        char *prefix;

        if (asprintf(&prefix, "%s%s", quota_dir_type_prefix(t), private ? "/private" : "") < 0)
                return NULL;
        *ret = (QuotaDirectory) { .prefix = prefix, .name = name };
        return prefix;
}

/* One line for what the safe open refused (quota-apply.h, quota_ops_linux), else the generic one. */
static void log_directory_error(int r, const char *path, const char *what, QuotaStep step) {
        switch (r) {
        case -ELOOP:
                log_error("Refusing %s: a symbolic link is on the way to it (a directory of the unit was "
                          "replaced by a link?); no quota is applied through links.", path);
                break;
        case -EXDEV:
                log_error("Refusing %s: the name leads out of its prefix.", path);
                break;
        case -EPERM:
                log_error("Refusing %s: the directories on the way to it belong to more than one user besides "
                          "root (someone else's directory moved in?).", path);
                break;
        default:
                log_error_errno(r, "Failed to %s %s (%s): %m", what, path, quota_step_to_string(step));
        }
}

typedef struct Context {
        UnitInfo info;
        UnitSettings settings;
} Context;

static void context_done(Context *c) {
        unit_info_done(&c->info);
        unit_settings_done(&c->settings);
}

/* Asks the manager about the unit and reads the files it loaded it from. */
static int context_load(const char *name, Context *c) {
        _cleanup_(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_free_ char *unit = unit_name_mangle_service(name);
        int r;

        *c = (Context) { .settings = UNIT_SETTINGS_INIT };
        if (!unit)
                return log_oom();
        r = manager_bus_connect(MANAGER_SYSTEM, &bus);
        if (r < 0)
                return log_error_errno(r, "Failed to connect to the system manager: %m");
        r = unit_info_load(bus, unit, &c->info, &error);
        if (r < 0)
                return log_error_errno(r, "Failed to read the properties of %s: %s", unit,
                                       bus_error_text(&error, r));
        if (streq(c->info.load_state, "not-found"))
                return log_error_errno(-ENOENT, "Unit %s not found.", unit);

        if (!isempty(c->info.fragment_path)) {
                r = unit_settings_add_file(&c->settings, c->info.fragment_path);
                if (r < 0)
                        return log_error_errno(r, "Failed to read %s: %m", c->info.fragment_path);
        }
        STRV_FOREACH(d, c->info.dropin_paths) {
                r = unit_settings_add_file(&c->settings, *d);
                if (r < 0)
                        return log_error_errno(r, "Failed to read %s: %m", *d);
        }
        /* the generator reported these at boot; once is enough */
        STRV_FOREACH(w, c->settings.warnings)
                log_debug("%s", *w);

        for (QuotaDirType t = 0; t < _QUOTA_DIR_TYPE_MAX; t++)
                if (c->info.directories[t])
                        qsort(c->info.directories[t], strv_length(c->info.directories[t]), sizeof(char *),
                              path_order);
        return 0;
}

static void warn_unsupported(const char *path, const QuotaReport *report, bool *warned) {
        if (*warned)
                return;
        *warned = true;
        log_warning_errno(report->unsupported_error,
                          "No project quotas on the file system of %s (%s: %m); directory quotas are not applied. "
                          "They need ext4 with the \"quota,project\" features mounted with \"prjquota\", or XFS "
                          "mounted with \"pquota\".",
                          path, quota_step_to_string(report->unsupported_step));
}

static int verb_apply(const char *name) {
        QuotaRecord record, recorded;
        Context c;
        bool warned = false;
        int r, v;

        v = systemd_version();
        if (v >= SYSTEMD_VERSION_OWNS_DIRQUOTA) {
                log_debug("systemd %d applies directory quotas itself, nothing to do.", v);
                return EXIT_SUCCESS;
        }

        r = context_load(name, &c);
        if (r < 0) {
                context_done(&c);
                return EXIT_FAILURE;
        }
        if (isempty(c.info.control_group)) {
                log_error("%s has no control group (not starting?); cannot choose project IDs.", c.info.id);
                context_done(&c);
                return EXIT_FAILURE;
        }

        r = quota_record_load(QUOTA_RECORD_DIR, c.info.id, &record);
        if (r < 0)
                log_warning_errno(r, "Cannot read the project IDs recorded for %s, ignoring: %m", c.info.id);
        recorded = record;

        for (QuotaDirType t = 0; t < _QUOTA_DIR_TYPE_MAX; t++) {
                const QuotaLimit *limit = &c.settings.limits[t];
                QuotaTypeRun run = { .recorded_id = recorded.ids[t] };

                STRV_FOREACH(d, c.info.directories[t]) {
                        _cleanup_free_ char *path = directory_path(t, *d, c.info.dynamic_user), *prefix = NULL;
                        QuotaReport report = {};
                        QuotaDirectory dir;
                        QuotaStep step;

                        prefix = directory_ref(t, *d, c.info.dynamic_user, &dir);
                        if (!path || !prefix) {
                                log_oom();
                                context_done(&c);
                                return quota_dir_type_exit_status(t);
                        }
                        r = quota_apply_directory(&quota_ops_linux, &dir, c.info.control_group, t, limit, &run,
                                                  &report, &step);
                        if (r < 0) {
                                if (r == -EBUSY)
                                        log_error("Failed to generate unique project ID for '%s'.", path);
                                else if (r == -ENOMEDIUM)
                                        log_error_errno(r, "Failed to set the limits of %s: its parent directory "
                                                        "belongs to a project, so its size is not the disk's "
                                                        "(a share in %sQuota= cannot be computed).",
                                                        path, quota_dir_type_to_string(t));
                                else
                                        log_directory_error(r, path, "apply the quota settings to", step);
                                context_done(&c);
                                return quota_dir_type_exit_status(t);
                        }
                        if (report.foreign_id != 0)
                                log_notice("%s carried project %" PRIu32 ", which urlboot did not give %s: not "
                                           "adopted, its limits untouched.", path, report.foreign_id, c.info.id);
                        if (report.unsupported && (limit->enforce || limit->accounting))
                                warn_unsupported(path, &report, &warned);
                        if (report.release_error < 0)
                                log_warning_errno(report.release_error,
                                                  "Failed to release project ID of %s, ignoring: %m", path);
                        if (report.limits_set && report.parent.f_frsize > 0)
                                log_debug("%s: project %" PRIu32 ", block limit %" PRIu64 " KiB, inode limit %" PRIu64
                                          " (from the parent's file system: %" PRIu64 " blocks of %" PRIu64
                                          " bytes, %" PRIu64 " inodes).",
                                          path, report.project_id, report.block_limit, report.inode_limit,
                                          (uint64_t) report.parent.f_blocks, (uint64_t) report.parent.f_frsize,
                                          (uint64_t) report.parent.f_files);
                        else if (report.limits_set)
                                log_debug("%s: project %" PRIu32 ", block limit %" PRIu64 " KiB, inode limit %" PRIu64 ".",
                                          path, report.project_id, report.block_limit, report.inode_limit);
                        else if (report.project_id > 0)
                                log_debug("%s: project %" PRIu32 ".", path, report.project_id);
                }
                record.ids[t] = run.project_id;
        }
        if (memcmp(&record, &recorded, sizeof(record)) != 0) {
                r = quota_record_save(QUOTA_RECORD_DIR, c.info.id, &record);
                if (r < 0)
                        log_warning_errno(r, "Failed to record the project IDs of %s in %s, ignoring: %m",
                                          c.info.id, QUOTA_RECORD_DIR);
        }
        context_done(&c);
        return EXIT_SUCCESS;
}

typedef struct TypeStatus {
        uint32_t project_id;
        uint64_t usage, limit;                  /* v258's (tt): UINT64_MAX when not accounted / not limited */
        uint64_t inodes, inode_limit;           /* the same conventions */
} TypeStatus;

/* Reads the first directory of the type, as v258 does for StateDirectoryQuotaUsage. */
static void type_status(const Context *c, QuotaDirType t, TypeStatus *ret) {
        const QuotaLimit *limit = &c->settings.limits[t];
        _cleanup_free_ char *prefix = NULL;
        QuotaReport report = {};
        QuotaDirectory dir;
        struct dqblk dq;
        int r;

        *ret = (TypeStatus) { .usage = UINT64_MAX, .limit = UINT64_MAX, .inodes = UINT64_MAX,
                              .inode_limit = UINT64_MAX };
        if (!(limit->enforce || limit->accounting) || strv_length(c->info.directories[t]) == 0)
                return;
        prefix = directory_ref(t, c->info.directories[t][0], c->info.dynamic_user, &dir);
        if (!prefix)
                return;
        r = quota_read_usage(&quota_ops_linux, &dir, &ret->project_id, &dq, &report);
        if (r < 0)
                log_debug_errno(r, "Cannot read the quota of %s/%s: %m", dir.prefix, dir.name);
        if (r <= 0)
                return;
        if (limit->accounting) {
                ret->usage = dq.dqb_curspace;
                ret->inodes = dq.dqb_curinodes;
        }
        if (limit->enforce) {
                ret->limit = dq.dqb_bhardlimit * QUOTA_BLOCK_SIZE;
                ret->inode_limit = dq.dqb_ihardlimit;
        }
}

static void json_write_u64(FILE *f, const char *key, uint64_t v, bool first) {
        json_write_key(f, key, first);
        fprintf(f, "%" PRIu64, v);
}

static void json_write_type(FILE *f, const Context *c, QuotaDirType t, const TypeStatus *s) {
        const QuotaLimit *limit = &c->settings.limits[t];
        bool first = true;

        json_write_key(f, quota_dir_type_to_string(t), t == 0);
        fputs("{", f);
        json_write_key(f, "directories", true);
        fputc('[', f);
        STRV_FOREACH(d, c->info.directories[t]) {
                _cleanup_free_ char *path = directory_path(t, *d, c->info.dynamic_user);

                if (!first)
                        fputc(',', f);
                json_write_string(f, path);
                first = false;
        }
        fputc(']', f);
        json_write_u64(f, "projectId", s->project_id, false);
        /* the settings as v258's D-Bus property (tus) carries them, and its (tt) usage pair */
        json_write_u64(f, "quotaBytes", limit->enforce ? limit->absolute : UINT64_MAX, false);
        json_write_u64(f, "quotaScale", limit->enforce ? limit->scale : UINT32_MAX, false);
        json_write_key(f, "quotaEnforce", false);
        fputs(limit->enforce ? "true" : "false", f);
        json_write_key(f, "accounting", false);
        fputs(limit->accounting ? "true" : "false", f);
        json_write_u64(f, "usageBytes", s->usage, false);
        json_write_u64(f, "limitBytes", s->limit, false);
        json_write_u64(f, "inodes", s->inodes, false);
        json_write_u64(f, "inodeLimit", s->inode_limit, false);
        fputs("}", f);
}

static int verb_status(const char *name) {
        TypeStatus status[_QUOTA_DIR_TYPE_MAX];
        bool any = false;
        Context c;

        if (context_load(name, &c) < 0) {
                context_done(&c);
                return EXIT_FAILURE;
        }
        for (QuotaDirType t = 0; t < _QUOTA_DIR_TYPE_MAX; t++) {
                type_status(&c, t, &status[t]);
                any = any || status[t].usage != UINT64_MAX;
        }

        if (arg_json) {
                fputs("{", stdout);
                json_write_key(stdout, "unit", true);
                json_write_string(stdout, c.info.id);
                fputc(',', stdout);
                for (QuotaDirType t = 0; t < _QUOTA_DIR_TYPE_MAX; t++)
                        json_write_type(stdout, &c, t, &status[t]);
                fputs("}\n", stdout);
        } else {
                for (QuotaDirType t = 0; t < _QUOTA_DIR_TYPE_MAX; t++)
                        quota_print_status_line(stdout, quota_dir_type_to_string(t), status[t].usage,
                                                status[t].limit);
                if (!any)
                        log_info("%s: no directory with …Accounting=yes and a project ID (systemctl status on "
                                 "systemd 258 shows usage only with accounting on).",
                                 c.info.id);
        }
        context_done(&c);
        return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

static int verb_release(const char *name) {
        _cleanup_free_ char *cgroup = NULL;
        QuotaRecord record;
        Context c;
        bool failed = false, warned = false;
        int r;

        if (context_load(name, &c) < 0) {
                context_done(&c);
                return EXIT_FAILURE;
        }
        r = quota_record_load(QUOTA_RECORD_DIR, c.info.id, &record);
        if (r < 0)
                log_warning_errno(r, "Cannot read the project IDs recorded for %s, ignoring: %m", c.info.id);
        /* stopped units have no control group: the candidates are hashed from the one they would get */
        if (unit_info_cgroup_path(&c.info, &cgroup) < 0)
                log_debug("%s has no control group and no slice: only recorded project IDs count as its own.",
                          c.info.id);
        for (QuotaDirType t = 0; t < _QUOTA_DIR_TYPE_MAX; t++)
                STRV_FOREACH(d, c.info.directories[t])
                        /* both places: DynamicUser= may have been switched since the IDs were set */
                        for (int private = 0; private < 2; private++) {
                                _cleanup_free_ char *path = directory_path(t, *d, private), *prefix = NULL;
                                QuotaReport report = {};
                                QuotaDirectory dir;
                                QuotaStep step;

                                prefix = directory_ref(t, *d, private, &dir);
                                if (!path || !prefix)
                                        return log_oom(), EXIT_FAILURE;
                                r = quota_release_directory(&quota_ops_linux, &dir, cgroup, t,
                                                            record.ids[t], false, &report, &step);
                                if (r == -ENOENT)
                                        continue;
                                if (r < 0) {
                                        log_directory_error(r, path, "release", step);
                                        failed = true;
                                } else if (report.release_error < 0) {
                                        log_error_errno(report.release_error,
                                                        "Failed to give %s project ID 0 again: %m", path);
                                        failed = true;
                                } else if (r > 0)
                                        log_info("Released %s (project %" PRIu32 "): no limits, project ID 0.", path,
                                                 report.project_id);
                                if (report.unsupported)
                                        warn_unsupported(path, &report, &warned);
                        }
        if (!failed) {
                r = quota_record_save(QUOTA_RECORD_DIR, c.info.id, &(QuotaRecord) {});
                if (r < 0)
                        log_warning_errno(r, "Failed to remove the record of %s in %s, ignoring: %m", c.info.id,
                                          QUOTA_RECORD_DIR);
        }
        if (unit_settings_want_quota(&c.settings))
                log_notice("%s still configures directory quotas; its next start sets them up again.", c.info.id);
        context_done(&c);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

typedef struct Verb {
        const char *name;
        const CommandTable *table;
        int (*run)(const char *unit);   /* returns the exit status */
} Verb;

static const Verb verbs[] = {
        { "apply", &apply_table, verb_apply },
        { "status", &status_table, verb_status },
        { "release", &release_table, verb_release },
};

static const Verb *verb_find(const char *name) {
        for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
                if (streq(name, verbs[i].name))
                        return verbs + i;
        return NULL;
}

int main(int argc, char *argv[]) {
        JsonCapture capture;
        const Verb *verb;
        OptionParser p;
        char **args;
        int nargs, c = 0, r = 0;

        log_set_program("urlboot-dirquota");

        if (option_parser_init(&p, &dirquota_table, argc, argv) < 0)
                return log_oom(), EXIT_FAILURE;
        while (r == 0 && (c = option_next(&p)) > 0)
                switch (c) {
                case ARG_JSON:
                        r = json_format_option(p.argument, &arg_json);
                        break;
                case 'h':
                        command_table_help_verb(&dirquota_table, argc, argv, stdout);
                        r = 1;
                        break;
                case ARG_VERSION:
                        printf("urlboot-dirquota " URLBOOT_VERSION "\n");
                        r = 1;
                        break;
                }
        if (r == 0)
                r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r != 0)
                return r > 0 ? EXIT_SUCCESS : EXIT_USAGE;

        if (nargs == 0) {
                log_error("Expected a command and one unit (try --help).");
                return EXIT_USAGE;
        }
        verb = verb_find(args[0]);
        if (!verb) {
                log_error("Unknown command '%s' (apply, status, release).", args[0]);
                return EXIT_USAGE;
        }
        r = command_table_check_arguments(verb->table, nargs, args);
        if (r < 0)
                return r == -ENOMEM ? EXIT_FAILURE : EXIT_USAGE;
        if (json_capture_begin(&capture, arg_json) < 0)
                return EXIT_FAILURE;
        r = verb->run(args[1]);
        (void) json_capture_end(&capture);
        return r;
}
