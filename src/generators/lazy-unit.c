/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The unit of a "lazy" pull expression, and the hashes that verify it.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error-buf.h"
#include "generator.h"
#include "lazy-unit.h"
#include "proc-cmdline.h"
#include "string-util.h"
#include "unit-name.h"
#include "url.h"
#include "verity-devices.h"

void verity_pins_done(VerityPins *p) {
        assert(p);

        p->roothash = mfree(p->roothash);
        p->usrhash = mfree(p->usrhash);
}

static int load_pin(const char *key, char **ret, char *error, size_t error_size) {
        char *v = NULL;
        int r;

        r = proc_cmdline_get_key(key, 0, &v);
        if (r < 0)
                return r;
        if (r == 0 || !v)
                return 0;
        if (!verity_hash_is_valid(v)) {
                r = error_setf(error, error_size, -EINVAL,
                               "%s=%s is not a hexadecimal hash of 128 to 512 bits", key, v);
                free(v);
                return r;
        }
        for (char *c = v; *c; c++)
                if (*c >= 'A' && *c <= 'F')
                        *c += 'a' - 'A';
        *ret = v;
        return 0;
}

int verity_pins_load(VerityPins *ret, char *error, size_t error_size) {
        int r;

        assert(ret);

        *ret = (VerityPins) {};
        r = load_pin("roothash", &ret->roothash, error, error_size);
        if (r >= 0)
                r = load_pin("usrhash", &ret->usrhash, error, error_size);
        if (r < 0)
                verity_pins_done(ret);
        return r;
}

int lazy_check_pins(const PullExpression *e, const VerityPins *pins, char *error, size_t error_size) {
        assert(e);
        assert(pins);

        if (!e->lazy || pins->roothash || pins->usrhash)
                return 0;
        if (e->verify_explicit && e->verify == IMPORT_VERIFY_NO)
                return 0;
        return error_setf(error, error_size, -EINVAL,
                          "option 'lazy' uses blocks before the download ends, so dm-verity checks them: pin "
                          "roothash= (or usrhash=) on the kernel command line, or say verify=no");
}

static void write_exec_start(FILE *f, const PullExpression *e, const VerityPins *pins) {
        _cleanup_free_ char *url = unit_exec_quote(e->url), *path = unit_exec_quote(e->image_path);

        if (!url || !path)
                return;
        /* %n: the unit urlboot-lazy keeps for the real root's systemd (keep-unit.h) */
        fprintf(f, "ExecStart=%s attach --unit=%%n", URLBOOT_LAZY_PATH);
        if (pins->roothash)
                fprintf(f, " --roothash=%s", pins->roothash);
        if (pins->usrhash)
                fprintf(f, " --usrhash=%s", pins->usrhash);
        if (!pins->roothash && !pins->usrhash)
                fputs(" --no-verity", f);
        /* "--": whatever the URL and the path look like, they are never options. */
        fprintf(f, " -- %s %s\n", url, path);
}

int lazy_unit_write(const char *dir, const char *unit, const char *generator, const PullExpression *e,
                    const LazyUnitSettings *s) {
        _cleanup_free_ char *description = NULL, *where_escaped = NULL;
        FILE *f;
        int r;

        assert(dir);
        assert(unit);
        assert(generator);
        assert(e);
        assert(s);

        description = unit_text_escape(e->url);
        if (!description)
                return -ENOMEM;
        where_escaped = unit_specifier_escape(e->image_root);
        if (!where_escaped)
                return -ENOMEM;

        r = generator_open_unit_file(dir, unit, generator, &f);
        if (r < 0)
                return r;

        /* No Conflicts=shutdown.target, IgnoreOnIsolate= and RefuseManualStop=: the root may live on this
         * device until the copy is complete, across the switch to the real root; stopping the unit
         * would take the network away from it. */
        fprintf(f,
                "[Unit]\n"
                "Description=Lazy Attach of %s\n"
                "Documentation=man:urlboot-lazy(8) man:urlboot-import-generator(8)\n"
                "SourcePath=/proc/cmdline\n"
                "DefaultDependencies=no\n"
                "IgnoreOnIsolate=yes\n"
                "RefuseManualStop=yes\n"
                "After=urlboot-imports-pre.target\n"
                "Before=urlboot-imports.target\n"
                "RequiresMountsFor=%s\n"
                "Wants=modprobe@nbd.service modprobe@dm_mod.service modprobe@loop.service\n"
                "After=modprobe@nbd.service modprobe@dm_mod.service modprobe@loop.service\n",
                description, where_escaped);
        if (!url_is_file(e->url))
                generator_write_network_dependency(f);
        generator_write_extension_order(f, e->class, s->initrd);
        /* The download is done when the copy is: that is when the service exits. */
        generator_write_job_actions(f, s->success_action, s->failure_action, s->initrd);

        /* Ready (the device is there) long before it exits (the copy is complete). The first
         * request may wait for the server as long as a download would: no start timeout. */
        fputs("\n[Service]\n"
              "Type=notify\n"
              "NotifyAccess=main\n"
              "RemainAfterExit=yes\n"
              "TimeoutStartSec=infinity\n",
              f);
        if (s->initrd)
                fputs("StandardError=journal+console\n", f);
        write_exec_start(f, e, s->pins);

        return generator_close_unit_file(f, unit);
}
