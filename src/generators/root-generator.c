/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-root-generator: mount the downloaded root in the initrd.
 *
 * - root=bind:PATH and mount.usr=bind:PATH become bind mounts of a downloaded tree (systemd >= 258
 *   does this itself). systemd 252's fstab-generator also sees "root=bind:..." and writes a useless
 *   sysroot.mount for a device called "bind:..." into the normal directory; ours goes into the early
 *   directory, which comes first in the unit search path (systemd.generator(7)), so ours is the one loaded.
 * - root=gpt-auto(-force): systemd 252's gpt-auto generator only mounts /dev/gpt-auto-root when the
 *   boot loader set LoaderDevicePartUUID; without it (a UKI booted straight from a URL) we do it, with
 *   the mount options systemd 262 picks.
 * - Whenever there are pull expressions, the root and /usr mounts are ordered after urlboot-imports.target,
 *   and the devices of a verity root or /usr (roothash=, usrhash=) wait as long as the download may take.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "efivars.h"
#include "generator.h"
#include "initrd.h"
#include "log.h"
#include "path-util.h"
#include "proc-cmdline.h"
#include "pull-config.h"
#include "string-util.h"
#include "systemd-version.h"
#include "unit-name.h"
#include "verity-devices.h"

#define GENERATOR_NAME "urlboot-root-generator"
#define GPT_AUTO_ROOT "/dev/gpt-auto-root"

typedef struct RootConfig {
        char *root, *rootfstype, *rootflags;
        char *usr, *usrfstype, *usrflags;
        int rw;                 /* -1 unset, else the last of "ro"/"rw" */
        bool roothash_last;     /* roothash= came after root=: a verity root, not a discovered one */
        bool usrhash;           /* usrhash=: systemd's fstab-generator mounts /usr from /dev/mapper/usr */
        /* roothash=, usrhash= and systemd.verity_{root,usr}_{data,hash}=: the verity devices. */
        char *verity_hash[2], *verity_data[2], *verity_hash_dev[2];
} RootConfig;

enum { VERITY_ROOT, VERITY_USR };
static const char *const verity_name[2] = { "root", "usr" };

static void root_config_done(RootConfig *c) {
        free(c->root);
        free(c->rootfstype);
        free(c->rootflags);
        free(c->usr);
        free(c->usrfstype);
        free(c->usrflags);
        for (size_t i = 0; i < 2; i++) {
                free(c->verity_hash[i]);
                free(c->verity_data[i]);
                free(c->verity_hash_dev[i]);
        }
}

static int set_string(char **s, const char *v) {
        char *n = NULL;

        /* An empty value counts as unset, as in systemd. */
        if (!isempty(v)) {
                n = strdup(v);
                if (!n)
                        return -ENOMEM;
        }
        free(*s);
        *s = n;
        return 0;
}

static int append_flags(char **s, const char *v) {
        if (isempty(v))
                return 0;
        if (!strextend(s, *s ? "," : "", v, NULL))
                return -ENOMEM;
        return 0;
}

/* The string a verity key sets, or NULL for other keys. */
static char **verity_key_field(RootConfig *c, const char *key) {
        for (size_t i = 0; i < 2; i++) {
                char k[32];

                snprintf(k, sizeof k, "%shash", verity_name[i]);
                if (proc_cmdline_key_streq(key, k))
                        return &c->verity_hash[i];
                snprintf(k, sizeof k, "systemd.verity_%s_data", verity_name[i]);
                if (proc_cmdline_key_streq(key, k))
                        return &c->verity_data[i];
                snprintf(k, sizeof k, "systemd.verity_%s_hash", verity_name[i]);
                if (proc_cmdline_key_streq(key, k))
                        return &c->verity_hash_dev[i];
        }
        return NULL;
}

static bool root_key_is_ours(const char *key) {
        static const char *const keys[] = { "root", "rootfstype", "rootflags", "mount.usr", "mount.usrfstype",
                                            "mount.usrflags" };

        for (size_t i = 0; i < ELEMENTSOF(keys); i++)
                if (proc_cmdline_key_streq(key, keys[i]))
                        return true;
        return false;
}

static int parse_root_key(const char *key, const char *value, void *userdata) {
        RootConfig *c = userdata;

        if (!value) {
                if (streq(key, "ro"))
                        c->rw = 0;
                else if (streq(key, "rw"))
                        c->rw = 1;
                return 0;
        }
        /* As systemd's gpt-auto generator: whichever of root= and roothash= comes last decides. */
        if (proc_cmdline_key_streq(key, "usrhash"))
                c->usrhash = true;
        if (proc_cmdline_key_streq(key, "roothash"))
                c->roothash_last = true;
        else if (proc_cmdline_key_streq(key, "root"))
                c->roothash_last = false;
        if (!root_key_is_ours(key) && !verity_key_field(c, key))
                return 0;
        /* Values end up in What=, Type= and Options=, or unit names: one with a line end would add a directive. */
        if (string_has_cc(value) || endswith(value, "\\")) {
                log_warning("Ignoring '%s=': its value has a control character or ends in a backslash.", key);
                return 0;
        }
        if (verity_key_field(c, key))
                return set_string(verity_key_field(c, key), value);
        if (proc_cmdline_key_streq(key, "root"))
                return set_string(&c->root, value);
        if (proc_cmdline_key_streq(key, "rootfstype"))
                return set_string(&c->rootfstype, value);
        if (proc_cmdline_key_streq(key, "rootflags"))
                return append_flags(&c->rootflags, value);
        if (proc_cmdline_key_streq(key, "mount.usr"))
                return set_string(&c->usr, value);
        if (proc_cmdline_key_streq(key, "mount.usrfstype"))
                return set_string(&c->usrfstype, value);
        if (proc_cmdline_key_streq(key, "mount.usrflags"))
                return append_flags(&c->usrflags, value);
        return 0;
}

/* Whether the comma list opts contains the option o. */
static bool options_have(const char *opts, const char *o) {
        size_t n = strlen(o);

        for (const char *p = opts; p && *p;) {
                size_t l = strcspn(p, ",");
                if (l == n && strncmp(p, o, n) == 0)
                        return true;
                p += l;
                p += *p == ',';
        }
        return false;
}

/* Removes "x-systemd.device-timeout=" from opts, returning its value. */
static int options_take_device_timeout(char **opts, char **ret_timeout) {
        _cleanup_free_ char *kept = NULL;
        const char *p = *opts;

        *ret_timeout = NULL;
        while (p && *p) {
                size_t l = strcspn(p, ",");
                _cleanup_free_ char *o = strndup(p, l);
                const char *v;

                if (!o)
                        return -ENOMEM;
                if ((v = startswith(o, "x-systemd.device-timeout="))) {
                        free(*ret_timeout);
                        *ret_timeout = strdup(v);
                        if (!*ret_timeout)
                                return -ENOMEM;
                } else if (append_flags(&kept, o) < 0)
                        return -ENOMEM;
                p += l;
                p += *p == ',';
        }
        free(*opts);
        *opts = TAKE_PTR(kept);
        return 0;
}

/* Options as systemd's fstab-generator builds them: flags, then ro/rw, then the extras. */
static int build_options(const char *flags, int rw_cmdline, bool rw_default, const char *extra, char **ret) {
        char *o = NULL;

        if (append_flags(&o, flags) < 0)
                return -ENOMEM;
        if (rw_cmdline >= 0 || (!options_have(o, "ro") && !options_have(o, "rw")))
                if (append_flags(&o, (rw_cmdline >= 0 ? rw_cmdline : rw_default) ? "rw" : "ro") < 0)
                        goto oom;
        if (append_flags(&o, extra) < 0)
                goto oom;
        *ret = o;
        return 0;
oom:
        free(o);
        return -ENOMEM;
}

/* A bind root from /run (nosuid,nodev in the initrd) would inherit those flags; undo them unless asked. */
static int bind_extras(const char *flags, char **ret) {
        static const char *const pairs[][2] = { { "suid", "nosuid" }, { "dev", "nodev" }, { "exec", "noexec" } };
        char *e = strdup("bind");

        if (!e)
                return -ENOMEM;
        for (size_t i = 0; i < ELEMENTSOF(pairs); i++)
                if (!options_have(flags, pairs[i][0]) && !options_have(flags, pairs[i][1]))
                        if (append_flags(&e, pairs[i][0]) < 0) {
                                free(e);
                                return -ENOMEM;
                        }
        *ret = e;
        return 0;
}

static const char *bind_path(const char *value) {
        const char *p = value ? startswith(value, "bind:") : NULL;

        return p;
}

static bool bind_path_is_acceptable(const char *p) {
        return path_is_absolute(p) && path_is_normalized(p) && !string_has_cc(p);
}

static int write_mount_unit(const char *dir, const char *unit, const char *description, const char *unit_extra,
                            const char *what, const char *where, const char *type, const char *options) {
        FILE *f;
        int r;

        r = generator_open_unit_file(dir, unit, GENERATOR_NAME, &f);
        if (r < 0)
                return log_error_errno(r, "Failed to create %s/%s: %m", dir, unit);

        fprintf(f,
                "[Unit]\n"
                "Description=%s\n"
                "Documentation=man:urlboot-root-generator(8)\n"
                "SourcePath=/proc/cmdline\n"
                "%s"
                "\n[Mount]\n"
                "What=%s\n"
                "Where=%s\n",
                description, unit_extra, what, where);
        if (type && !streq(type, "auto"))
                fprintf(f, "Type=%s\n", type);
        fprintf(f, "Options=%s\n", options);

        return generator_close_unit_file(f, unit);
}

static int add_bind_root(const GeneratorDirs *d, RootConfig *c, const char *path) {
        _cleanup_free_ char *extra = NULL, *options = NULL, *timeout = NULL, *what = unit_specifier_escape(path);
        int r;

        /* A directory has no device to wait for: systemd drops x-systemd.device-timeout= here. */
        if (!what || options_take_device_timeout(&c->rootflags, &timeout) < 0 ||
            bind_extras(c->rootflags, &extra) < 0 || build_options(c->rootflags, c->rw, true, extra, &options) < 0)
                return log_oom();

        r = write_mount_unit(d->early, "sysroot.mount", "Root Directory (bind mount)",
                             "Before=initrd-root-fs.target\n"
                             "After=urlboot-imports.target\n"
                             "Wants=urlboot-imports.target\n",
                             what, "/sysroot", NULL, options);
        if (r < 0)
                return r;
        return generator_add_symlink(d->early, "initrd-root-fs.target", "requires", "sysroot.mount");
}

static int add_bind_usr(const GeneratorDirs *d, const RootConfig *c, const char *path) {
        _cleanup_free_ char *options = NULL, *what = unit_specifier_escape(path);
        const char *flags = c->usrflags ?: c->rootflags;
        int r;

        /* /usr is read-only unless "rw" is on the command line, whatever the flags say. */
        if (!what || build_options(flags, c->rw > 0 ? 1 : -1, false, "bind", &options) < 0)
                return log_oom();

        r = write_mount_unit(d->early, "sysusr-usr.mount", "/usr Directory (bind mount)",
                             "Before=initrd-usr-fs.target\n"
                             "After=urlboot-imports.target\n"
                             "Wants=urlboot-imports.target\n",
                             what, "/sysusr/usr", NULL, options);
        if (r < 0)
                return r;
        r = write_mount_unit(d->early, "sysroot-usr.mount", "/usr Directory in the Root",
                             "Before=initrd-fs.target\n"
                             "RequiresMountsFor=/sysroot /sysusr/usr\n",
                             "/sysusr/usr", "/sysroot/usr", NULL, "bind");
        if (r < 0)
                return r;
        r = generator_add_symlink(d->early, "initrd-usr-fs.target", "requires", "sysusr-usr.mount");
        if (r < 0)
                return r;
        return generator_add_symlink(d->early, "initrd-fs.target", "requires", "sysroot-usr.mount");
}

static bool fstype_in(const char *fstype, const char *const *list) {
        for (; fstype && *list; list++)
                if (streq(fstype, *list))
                        return true;
        return false;
}

/* The options systemd's gpt-auto generator gives a discovered root: "norecovery" when read-only (so
 * ext4/xfs/btrfs really do not write), "discard", then ro|rw, nodev, suid, exec, then rootflags=. The
 * file system tables are systemd's own lists (it also asks the running kernel about others). */
static int gpt_auto_options(const char *fstype, bool rw, const char *flags, char **ret) {
        static const char *const norecovery[] = { "ext3", "ext4", "xfs", "btrfs", NULL };
        static const char *const discard[] = { "btrfs", "exfat", "ext4", "f2fs", "jfs", "vfat", "xfs", NULL };
        char *o = NULL;

        if ((!rw && fstype_in(fstype, norecovery) && append_flags(&o, "norecovery") < 0) ||
            (fstype_in(fstype, discard) && append_flags(&o, "discard") < 0) ||
            append_flags(&o, rw ? "rw,nodev,suid,exec" : "ro,nodev,suid,exec") < 0 ||
            append_flags(&o, flags) < 0) {
                free(o);
                return -ENOMEM;
        }
        *ret = o;
        return 0;
}

static int add_gpt_auto_root(const GeneratorDirs *d, RootConfig *c) {
        _cleanup_free_ char *device = NULL, *timeout = NULL, *options = NULL, *fsck = NULL, *text = NULL;
        int r;

        r = unit_name_path_escape(GPT_AUTO_ROOT, &device);
        if (r < 0)
                return log_oom();
        if (asprintf(&fsck, "systemd-fsck@%s.service", device) < 0)
                return log_oom();

        r = options_take_device_timeout(&c->rootflags, &timeout);
        if (r < 0)
                return log_oom();
        if (timeout && strspn(timeout, "0123456789abcdefghijklmnopqrstuvwxyz ") != strlen(timeout)) {
                log_warning("Ignoring invalid x-systemd.device-timeout=%s.", timeout);
                timeout = mfree(timeout);
        }
        if (gpt_auto_options(c->rootfstype, c->rw > 0, c->rootflags, &options) < 0)
                return log_oom();

        if (asprintf(&text,
                     "Before=initrd-root-fs.target\n"
                     "Requires=%1$s\n"
                     "After=%1$s\n"
                     "After=blockdev@%2$s.target\n"
                     "After=urlboot-imports.target\n"
                     "Wants=urlboot-imports.target\n",
                     fsck, device) < 0)
                return log_oom();

        /* The early directory: systemd 252's fstab-generator takes root=gpt-auto-force for a device of that
         * name and writes its sysroot.mount into the normal one. */
        r = write_mount_unit(d->early, "sysroot.mount", "Root Partition (discovered)", text, GPT_AUTO_ROOT, "/sysroot",
                             c->rootfstype, options);
        if (r < 0)
                return r;
        r = generator_add_symlink(d->early, "initrd-root-fs.target", "requires", "sysroot.mount");
        if (r < 0)
                return r;

        text = mfree(text);
        if (asprintf(&text, "[Unit]\nRequires=%1$s.device\nAfter=%1$s.device\n", device) < 0)
                return log_oom();
        r = generator_write_dropin(d->normal, "initrd-root-device.target", "50-urlboot-root-device", text);
        if (r >= 0 && timeout) {
                _cleanup_free_ char *unit = NULL, *t = NULL;
                if (asprintf(&unit, "%s.device", device) < 0 ||
                    asprintf(&t, "[Unit]\nJobRunningTimeoutSec=%s\n", timeout) < 0)
                        return log_oom();
                r = generator_write_dropin(d->normal, unit, "50-device-timeout", t);
        }
        if (r < 0)
                return log_error_errno(r, "Failed to write drop-ins for %s: %m", GPT_AUTO_ROOT);
        return 0;
}

static int add_ordering_dropin(const GeneratorDirs *d, const char *unit) {
        int r = generator_write_dropin(d->normal, unit, "50-urlboot-imports",
                                       "[Unit]\n"
                                       "Wants=urlboot-imports.target\n"
                                       "After=urlboot-imports.target\n");
        if (r < 0)
                return log_error_errno(r, "Failed to write ordering drop-in for %s: %m", unit);
        return 0;
}

/* The device jobs of systemd's veritysetup generator wait 90 s by default; the partitions appear only
 * when the download is done, which for a large image takes longer. They wait as long as the root's device
 * (x-systemd.device-timeout= in rootflags=), else without limit: a failed download stops the boot itself
 * (OnFailure=emergency.target), so this only waits for a download that is still going. */
static int add_verity_device_timeouts(const GeneratorDirs *d, RootConfig *c, size_t which, const char *timeout) {
        char *paths[VERITY_DEVICES];
        int r;

        if (!c->verity_hash[which])
                return 0;
        r = verity_device_paths(verity_name[which], c->verity_hash[which], c->verity_data[which],
                                c->verity_hash_dev[which], paths);
        if (r == -EINVAL) {
                log_debug("%shash= is not a hash systemd derives partitions from; leaving its devices' timeouts.",
                          verity_name[which]);
                return 0;
        }
        if (r < 0)
                return log_oom();
        for (size_t i = 0; i < VERITY_DEVICES && r >= 0; i++) {
                _cleanup_free_ char *unit = NULL, *text = NULL;

                r = unit_name_path_escape(paths[i], &unit);
                if (r >= 0 && (!strextend(&unit, ".device", NULL) ||
                               asprintf(&text, "[Unit]\nJobRunningTimeoutSec=%s\n", timeout ?: "infinity") < 0))
                        r = -ENOMEM;
                if (r >= 0)
                        r = generator_write_dropin(d->normal, unit, "50-urlboot-download-timeout", text);
                if (r < 0)
                        log_error_errno(r, "Failed to write the device timeout drop-in for %s: %m", paths[i]);
        }
        for (size_t i = 0; i < VERITY_DEVICES; i++)
                free(paths[i]);
        return r;
}

/* x-systemd.device-timeout= of rootflags=, without changing them. */
static int root_device_timeout(const RootConfig *c, char **ret) {
        _cleanup_free_ char *copy = NULL;

        *ret = NULL;
        if (!c->rootflags)
                return 0;
        copy = strdup(c->rootflags);
        if (!copy)
                return -ENOMEM;
        return options_take_device_timeout(&copy, ret);
}

/* systemd 252's gpt-auto generator acts only when the boot loader named its partition. */
static bool systemd_mounts_gpt_auto(int version) {
        if (version >= SYSTEMD_VERSION_OWNS_PULL)
                return true;
        return efi_get_variable("LoaderDevicePartUUID", EFI_VENDOR_LOADER_STR, NULL, NULL, NULL) >= 0;
}

static int handle_root(const GeneratorDirs *d, RootConfig *c, int version, bool owns_bind) {
        const char *bind = bind_path(c->root);

        if (bind) {
                if (!owns_bind) {
                        log_debug("systemd %d mounts root=bind: itself.", version);
                        return 0;
                }
                if (!bind_path_is_acceptable(bind)) {
                        log_error("root=bind: needs an absolute, normalized path, not '%s'; not mounting a root.", bind);
                        return -EINVAL;
                }
                return add_bind_root(d, c, bind);
        }
        if (!streq_ptr(c->root, "gpt-auto") && !streq_ptr(c->root, "gpt-auto-force"))
                return 0;
        if (c->roothash_last) {
                log_info("roothash= comes after root=%s: not mounting a discovered root (urlboot does not set up "
                         "verity roots).", c->root);
                return 0;
        }
        /* "-force" only means "whatever the factory reset state", which systemd 252 does not have. */
        if (!systemd_mounts_gpt_auto(version))
                return add_gpt_auto_root(d, c);
        return 0;
}

static int handle_usr(const GeneratorDirs *d, RootConfig *c, int version, bool owns_bind) {
        const char *bind = bind_path(c->usr);

        if (!bind || !owns_bind)
                return 0;
        if (!bind_path_is_acceptable(bind)) {
                log_error("mount.usr=bind: needs an absolute, normalized path, not '%s'; not mounting /usr.", bind);
                return -EINVAL;
        }
        return add_bind_usr(d, c, bind);
}

int main(int argc, char *argv[]) {
        RootConfig c = { .rw = -1 };
        PullConfig pulls = { .quiet = true };
        GeneratorDirs dirs;
        int version, r, failed = 0;
        bool owns_bind;

        log_set_program(GENERATOR_NAME);

        r = generator_parse_args(argc, argv, &dirs);
        if (r < 0)
                return EXIT_FAILURE;

        if (!in_initrd()) {
                log_debug("Not in the initrd, nothing to mount.");
                return EXIT_SUCCESS;
        }

        version = systemd_version();
        owns_bind = version <= 0 || version < SYSTEMD_VERSION_OWNS_PULL;

        /* root= and friends are never "rd."-stripped: rd.root= means nothing. */
        r = proc_cmdline_parse(parse_root_key, &c, 0);
        if (r >= 0)
                r = pull_config_load(&pulls, version);
        if (r < 0) {
                log_error_errno(r, "Failed to read the kernel command line: %m");
                return EXIT_FAILURE;
        }

        _cleanup_free_ char *timeout = NULL;
        if (root_device_timeout(&c, &timeout) < 0) {
                log_oom();
                failed++;
        }
        if (handle_root(&dirs, &c, version, owns_bind) < 0)
                failed++;
        if (handle_usr(&dirs, &c, version, owns_bind) < 0)
                failed++;

        /* Mounts made by anyone else (fstab-generator, gpt-auto, systemd >= 258) must wait for the downloads
         * and loop devices too. */
        if (strv_length(pulls.expressions) > 0 || strv_length(pulls.loops) > 0) {
                if (add_ordering_dropin(&dirs, "sysroot.mount") < 0)
                        failed++;
                if ((c.usr || c.usrhash) && add_ordering_dropin(&dirs, "sysusr-usr.mount") < 0)
                        failed++;
                if (add_verity_device_timeouts(&dirs, &c, VERITY_ROOT, timeout) < 0 ||
                    add_verity_device_timeouts(&dirs, &c, VERITY_USR, timeout) < 0)
                        failed++;
        }

        pull_config_done(&pulls);
        root_config_done(&c);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
