/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-import-generator: pull expressions on the kernel command line become download units.
 *
 * Each transfer becomes urlboot-import@<escaped image path>.service, which runs urlboot-pull;
 * with "blockdev" also urlboot-loop@<same>.service. Both are wanted by urlboot-imports.target,
 * which the root mount is ordered after (urlboot-root-generator); in the initrd both are ordered
 * before it. Nothing is downloaded here.
 * A "lazy" transfer is one urlboot-lazy@<same>.service instead (lazy-unit.c). "urlboot.loop=PATH"
 * attaches a file that is already there the same way, with no download (loop-image.h).
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "efivars.h"
#include "error-buf.h"
#include "generator.h"
#include "initrd.h"
#include "lazy-unit.h"
#include "loop-image.h"
#include "volatile-root.h"
#include "log.h"
#include "pull-config.h"
#include "pull-expression.h"
#include "pull-option.h"
#include "string-util.h"
#include "systemd-version.h"
#include "unit-name.h"
#include "url.h"

#define GENERATOR_NAME "urlboot-import-generator"

typedef struct Context {
        const GeneratorDirs *dirs;
        const PullConfig *config;
        bool initrd;
        char *stub_url;
        int stub_url_error;     /* 0 when stub_url is set, else why not */
        VerityPins pins;        /* roothash=, usrhash= (lazy transfers are verified with them) */
        char pins_error[ERROR_BUF_MIN]; /* why they could not be read, if so */
        int n_refused;
        int n_units;
        int n_blockdev;         /* of them attached as disks */
} Context;

/* urlboot-pull's command line: the option names come from its own table (pull-option.h). -ENOMEM leaves the
 * line unwritten, and the caller the unit. */
static int write_exec_start(FILE *f, const PullExpression *e) {
        _cleanup_free_ char *url = unit_exec_quote(e->url), *local = unit_exec_quote(e->local);
        _cleanup_free_ char *root_quoted = NULL, *pin = NULL, *keep = NULL, *keep_quoted = NULL;
        char **mirrors_quoted = NULL;
        int r = -ENOMEM;

        assert(f);
        assert(e);

        if (!url || !local)
                return -ENOMEM;
        root_quoted = unit_exec_quote(e->image_root);
        if (!root_quoted)
                return -ENOMEM;
        /* A pinned digest is stronger than any SHA256SUMS or signature check. */
        if (e->sha256 && asprintf(&pin, "sha256:%s", e->sha256) < 0)
                return -ENOMEM;
        if (e->serve && (asprintf(&keep, PULL_KEEP_DOWNLOAD_DIR "/%s", e->local) < 0 ||
                         !(keep_quoted = unit_exec_quote(keep))))
                return -ENOMEM;
        STRV_FOREACH(m, e->mirrors)
                if (strv_consume(&mirrors_quoted, unit_exec_quote(*m)) < 0)
                        goto finish;

        fprintf(f, "ExecStart=%s %s", URLBOOT_PULL_PATH, image_type_to_string(e->type));
        pull_option_write(f, PULL_OPTION_CLASS, image_class_to_string(e->class));
        pull_option_write(f, PULL_OPTION_IMAGE_ROOT, root_quoted);
        pull_option_write(f, PULL_OPTION_VERIFY, pin ?: import_verify_to_string(e->verify));
        if (e->read_only)
                pull_option_write(f, PULL_OPTION_READ_ONLY, NULL);
        STRV_FOREACH(m, mirrors_quoted)
                pull_option_write(f, PULL_OPTION_MIRROR, *m);
        if (keep_quoted)
                pull_option_write(f, PULL_OPTION_KEEP_DOWNLOAD, keep_quoted);
        /* "--": whatever the URL and the name look like, they are never options. */
        fprintf(f, " -- %s %s\n", url, local);
        r = 0;
finish:
        strv_free(mirrors_quoted);
        return r;
}

static int write_import_unit(Context *c, const PullExpression *e, const char *unit, const char *loop_unit) {
        _cleanup_free_ char *description = unit_text_escape(e->url);
        FILE *f;
        int r;

        if (!description)
                return log_oom();

        r = generator_open_unit_file(c->dirs->normal, unit, GENERATOR_NAME, &f);
        if (r == -EEXIST)
                return r;
        if (r < 0)
                return log_error_errno(r, "Failed to create unit file %s: %m", unit);

        fprintf(f,
                "[Unit]\n"
                "Description=Download of %s\n"
                "Documentation=man:urlboot-import-generator(8) man:urlboot-pull(1)\n"
                "SourcePath=/proc/cmdline\n"
                "DefaultDependencies=no\n"
                "Conflicts=shutdown.target\n"
                "After=urlboot-imports-pre.target\n"
                "Before=urlboot-imports.target shutdown.target\n",
                description);

        if (!url_is_file(e->url))
                generator_write_network_dependency(f);
        if (loop_unit)
                fprintf(f, "Before=%s\n", loop_unit);
        generator_write_extension_order(f, e->class, c->initrd);
        generator_write_job_actions(f, c->config->success_action, c->config->failure_action, c->initrd);

        /* NotifyAccess=: urlboot-pull's progress (STATUS=) would be dropped by a oneshot unit otherwise. */
        /* URLBOOT_PULL_ADVICE=: urlboot-pull's advice then names the expression's options (verify=no), not its own */
        fputs("\n[Service]\n"
              "Type=oneshot\n"
              "RemainAfterExit=yes\n"
              "NotifyAccess=main\n"
              "Environment=URLBOOT_PULL_ADVICE=expression\n",
              f);
        /* In the initrd a failed download must be visible on the console, not only in the journal. */
        if (c->initrd)
                fputs("StandardError=journal+console\n", f);
        r = write_exec_start(f, e);
        if (r < 0) {
                /* no unit without ExecStart= (systemd would refuse it at boot, far from the cause) */
                fclose(f);
                (void) generator_remove_unit_file(c->dirs->normal, unit);
                return log_oom();
        }
        return generator_close_unit_file(f, unit);
}

static int write_lazy_unit(Context *c, const PullExpression *e, const char *unit) {
        LazyUnitSettings s = {
                .initrd = c->initrd,
                .success_action = c->config->success_action,
                .failure_action = c->config->failure_action,
                .pins = &c->pins,
        };
        int r = lazy_unit_write(c->dirs->normal, unit, GENERATOR_NAME, e, &s);

        if (r < 0 && r != -EEXIST)
                return log_error_errno(r, "Failed to write unit file %s: %m", unit);
        return r;
}

/* unit wanted by urlboot-imports.target, which sysinit.target pulls in at every boot (enabled or not). */
static int want_from_imports(Context *c, const char *unit) {
        int r = generator_add_symlink(c->dirs->normal, "urlboot-imports.target", "wants", unit);

        if (r >= 0)
                r = generator_add_symlink(c->dirs->normal, "sysinit.target", "wants", "urlboot-imports.target");
        if (r < 0)
                return log_error_errno(r, "Failed to link %s into urlboot-imports.target: %m", unit);
        return 0;
}

/* A loop unit wanted by urlboot-imports.target. In the initrd the root mount waits for that target, so the
 * attach must have finished by then: a switch root while urlboot-loop still waits for udev kills it, and the
 * booted system starts degraded with it failed. (Not in the booted system: there a loop of a file on a
 * late file system may come after sysinit.target, which waits for urlboot-imports.target.) */
static int want_loop_from_imports(Context *c, const char *loop_unit) {
        int r = want_from_imports(c, loop_unit);

        if (r < 0 || !c->initrd)
                return r;
        r = generator_write_dropin(c->dirs->normal, loop_unit, "50-urlboot-imports",
                                   "# Written by " GENERATOR_NAME ": the root mount waits for the attach\n"
                                   "[Unit]\nBefore=urlboot-imports.target\n");
        if (r < 0)
                return log_error_errno(r, "Failed to order %s before urlboot-imports.target: %m", loop_unit);
        return 0;
}

static int add_transfer(Context *c, const PullExpression *e, const char *expression) {
        _cleanup_free_ char *unit = NULL, *loop_unit = NULL;
        int r;

        r = unit_name_from_path_instance(e->lazy ? "urlboot-lazy" : "urlboot-import", e->image_path, ".service", &unit);
        if (r < 0)
                return log_error_errno(r, "Cannot make a unit name for image path %s, ignoring pull expression '%s': %m",
                                       e->image_path, expression);
        if (e->blockdev && !e->lazy) {
                r = unit_name_from_path_instance("urlboot-loop", e->image_path, ".service", &loop_unit);
                if (r < 0)
                        return log_oom();
        }

        r = e->lazy ? write_lazy_unit(c, e, unit) : write_import_unit(c, e, unit, loop_unit);
        if (r == -EEXIST)
                return log_error_errno(r, "Image %s is already requested by an earlier pull expression, ignoring '%s'.",
                                       e->image_path, expression);
        if (r < 0)
                return r;

        r = want_from_imports(c, unit);
        if (r >= 0 && loop_unit)
                r = want_loop_from_imports(c, loop_unit);
        if (r < 0)
                return r;

        c->n_units++;
        if (e->blockdev)
                c->n_blockdev++;
        log_debug("Pull expression '%s' → %s (%s).", expression, unit, e->url);
        return 0;
}

static int process_expression(Context *c, const char *expression) {
        _cleanup_pull_expression_ PullExpression *e = NULL;
        char reason[ERROR_BUF_MIN] = "";
        int r;

        r = pull_expression_parse(expression, &e, reason, sizeof reason);
        if (r == -ENOMEM)
                return log_oom();
        if (r < 0)
                return log_error_errno(r, "Ignoring pull expression '%s': %s.", expression, reason[0] ? reason : "invalid");

        if (e->bootorigin && !c->stub_url) {
                /* The same initrd boots from local disks too: there is simply no origin to pull from. */
                if (c->stub_url_error == -ENOENT) {
                        /* notice: otherwise the only sign is a device timeout minutes later */
                        log_notice("Not booted from a URL (no StubDeviceURL EFI variable): skipping bootorigin "
                                   "expression '%s'.", expression);
                        return 0;
                }
                return log_error_errno(c->stub_url_error,
                                       "Failed to read StubDeviceURL EFI variable for bootorigin expression '%s': %m",
                                       expression);
        }

        r = pull_expression_resolve(e, c->stub_url, c->initrd, reason, sizeof reason);
        if (r == -ENOMEM)
                return log_oom();
        if (r >= 0 && e->lazy && c->pins_error[0])
                r = error_setf(reason, sizeof reason, -EINVAL, "%s", c->pins_error);
        else if (r >= 0)
                r = lazy_check_pins(e, &c->pins, reason, sizeof reason);
        if (r < 0)
                return log_error_errno(r, "Ignoring pull expression '%s': %s.", expression, reason[0] ? reason : "invalid");
        if (e->bootorigin)
                log_info("Pulling %s (next to the boot URL %s).", e->url, c->stub_url);

        return add_transfer(c, e, expression);
}

/* "urlboot.loop=PATH": the file attached where it is (loop-image.h), by the unit a "blockdev" pull uses. */
static int process_loop(Context *c, const char *path) {
        _cleanup_free_ char *unit = NULL;
        char reason[ERROR_BUF_MIN] = "";
        int r;

        r = loop_image_check(path, c->initrd, reason, sizeof reason);
        if (r < 0)
                return log_error_errno(r, "Not attaching %surlboot.loop=%s: %s.", c->initrd ? "rd." : "", path, reason);
        r = unit_name_from_path_instance("urlboot-loop", path, ".service", &unit);
        if (r < 0)
                return log_error_errno(r, "Cannot make a unit name for %s, not attaching it: %m", path);
        r = want_loop_from_imports(c, unit);
        if (r < 0)
                return r;
        c->n_units++;
        c->n_blockdev++;
        log_debug("urlboot.loop=%s → %s.", path, unit);
        return 0;
}

int main(int argc, char *argv[]) {
        PullConfig config = {};
        GeneratorDirs dirs;
        Context c = { .dirs = &dirs, .config = &config };
        int version, r;

        log_set_program(GENERATOR_NAME);

        r = generator_parse_args(argc, argv, &dirs);
        if (r < 0)
                return EXIT_FAILURE;

        c.initrd = in_initrd();
        version = systemd_version();
        if (version < 0)
                log_debug_errno(version, "Cannot tell the systemd version, assuming one older than %d: %m",
                                SYSTEMD_VERSION_OWNS_PULL);

        r = pull_config_load(&config, version);
        if (r < 0) {
                log_error_errno(r, "Failed to read pull expressions: %m");
                return EXIT_FAILURE;
        }

        c.stub_url_error = efi_get_variable_string("StubDeviceURL", EFI_VENDOR_LOADER_STR, &c.stub_url);

        /* Only lazy transfers need them: a malformed one refuses those alone. */
        r = verity_pins_load(&c.pins, c.pins_error, sizeof c.pins_error);
        if (r == -ENOMEM) {
                log_oom();
                return EXIT_FAILURE;
        }

        STRV_FOREACH(x, config.expressions)
                if (process_expression(&c, *x) < 0)
                        c.n_refused++;
        STRV_FOREACH(x, config.loops)
                if (process_loop(&c, *x) < 0)
                        c.n_refused++;
        /* a pulled disk whose verified root roothash= pins: give it a writable layer (volatile-root.h) */
        if (c.initrd && c.n_blockdev > 0 && c.pins.roothash && volatile_root_add(dirs.normal, GENERATOR_NAME) < 0)
                c.n_refused++;

        free(c.stub_url);
        verity_pins_done(&c.pins);
        pull_config_done(&config);
        return c.n_refused > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
