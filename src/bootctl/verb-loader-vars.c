/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Setting LoaderEntryDefault, LoaderEntryOneShot, LoaderConfigTimeout and LoaderConfigTimeoutOneShot
 * (UTF-16 strings, non-volatile) through efivarfs or into an OVMF variable store. An empty value
 * removes the variable.
 */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "efivars.h"
#include "loader-conf.h"
#include "verb-loader-vars.h"
#include "exit-status.h"
#include "log.h"
#include "macro.h"
#include "string-util.h"
#include "utf16.h"
#include "var-store.h"

const LoaderVariable loader_variable_default = { "LoaderEntryDefault", false };
const LoaderVariable loader_variable_oneshot = { "LoaderEntryOneShot", false };
const LoaderVariable loader_variable_timeout = { "LoaderConfigTimeout", true };
const LoaderVariable loader_variable_timeout_oneshot = { "LoaderConfigTimeoutOneShot", true };

static void help(void) {
        printf("Usage: urlbootctl set-default ID|GLOB|@saved [--vars-file=FILE]\n"
               "       urlbootctl set-oneshot ID|GLOB [--vars-file=FILE]\n"
               "       urlbootctl set-timeout SECONDS|menu-force|menu-hidden|menu-disabled [--vars-file=FILE]\n"
               "       urlbootctl set-timeout-oneshot SECONDS|menu-force|menu-hidden|menu-disabled [--vars-file=FILE]\n"
               "\n"
               "Tell the boot manager which entry to boot (always, or next time only) and how long to show\n"
               "its menu: LoaderEntryDefault, LoaderEntryOneShot, LoaderConfigTimeout(OneShot). An empty\n"
               "value removes the setting. --vars-file writes into an OVMF variable store (OVMF_VARS*.fd).\n");
}

int verb_set_loader_variable(int argc, char *argv[], const void *data) {
        enum { ARG_VARS = 0x100 };
        static const struct option options[] = {
                { "vars-file", required_argument, NULL, ARG_VARS },
                { "help", no_argument, NULL, 'h' },
                {}
        };
        const LoaderVariable *v = data;
        const char *vars = NULL, *value;
        void *u16 = NULL;
        size_t size = 0;
        uint32_t t;
        Target target;
        int c, r;

        assert(argc > 0);
        assert(v);
        assert(argv);
        assert(data);

        optind = 0;
        while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0)
                switch (c) {
                case 'h':
                        help();
                        return 0;
                case ARG_VARS:
                        vars = optarg;
                        break;
                default:
                        return -EUSAGE;
                }
        if (optind + 1 != argc)
                return log_usage_error("%s needs exactly one value (see 'urlbootctl %s --help').", argv[0], argv[0]);
        value = argv[optind];
        if (v->timeout && *value && loader_timeout_parse(value, strlen(value), &t) < 0)
                return log_usage_error("'%s' is not a timeout: give seconds, menu-force, menu-hidden or menu-disabled.",
                                       value);
        if (*value && utf8_to_utf16le(value, strlen(value), &u16, &size) < 0)
                return log_oom();

        r = target_open(&target, vars, EFI_VENDOR_LOADER_STR);
        if (r >= 0) {
                r = target_set(&target, v->name, u16, size);
                if (r < 0 && !(r == -ENOENT && size == 0))
                        log_error_errno(r, "Failed to %s %s: %m", size ? "set" : "remove", v->name);
                else
                        r = 0;
                if (target_close(&target) < 0 && r >= 0)
                        r = -EIO;
        }
        free(u16);
        return r < 0 ? r : 0;
}
