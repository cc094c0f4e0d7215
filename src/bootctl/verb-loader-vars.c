/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Setting LoaderEntryDefault, LoaderEntryOneShot, LoaderConfigTimeout and LoaderConfigTimeoutOneShot
 * (UTF-16 strings, non-volatile) through efivarfs or into an OVMF variable store. An empty value
 * removes the variable.
 */
#include <assert.h>
#include <errno.h>
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

enum { ARG_VARS = 0x100 };

/* The four verbs take the same options. */
static const OptionRow loader_variable_options[] = {
        OPTION_ROW_HELP,
        { "vars-file", 0, ARG_VARS, OPTION_REQUIRED, "FILE", "write into an OVMF variable store (OVMF_VARS*.fd)",
          "file" },
};

#define LOADER_VARIABLE_SUMMARY                                                                                        \
        "Tell the boot manager which entry to boot (always, or next time only) and how long to show\n"                 \
        "its menu: LoaderEntryDefault, LoaderEntryOneShot, LoaderConfigTimeout(OneShot). An empty\n"                   \
        "value removes the setting. --vars-file writes into an OVMF variable store (OVMF_VARS*.fd)."
#define TIMEOUT_WORDS "words:menu-force menu-hidden menu-disabled"

#define LOADER_VARIABLE_TABLE(verb, args, complete)                                                                    \
        {                                                                                                              \
                .name = "urlbootctl " verb,                                                                            \
                .arguments = args,                                                                                     \
                .summary = LOADER_VARIABLE_SUMMARY,                                                                    \
                .options = loader_variable_options,                                                                    \
                .n_options = ELEMENTSOF(loader_variable_options),                                                      \
                .min_arguments = 1,                                                                                    \
                .max_arguments = 1,                                                                                    \
                .complete_arguments = complete,                                                                        \
        }

const CommandTable verb_set_default_table = LOADER_VARIABLE_TABLE("set-default", "ID|GLOB|@saved", NULL);
const CommandTable verb_set_oneshot_table = LOADER_VARIABLE_TABLE("set-oneshot", "ID|GLOB", NULL);
const CommandTable verb_set_timeout_table =
        LOADER_VARIABLE_TABLE("set-timeout", "SECONDS|menu-force|menu-hidden|menu-disabled", TIMEOUT_WORDS);
const CommandTable verb_set_timeout_oneshot_table =
        LOADER_VARIABLE_TABLE("set-timeout-oneshot", "SECONDS|menu-force|menu-hidden|menu-disabled", TIMEOUT_WORDS);

const LoaderVariable loader_variable_default = { "LoaderEntryDefault", false, &verb_set_default_table };
const LoaderVariable loader_variable_oneshot = { "LoaderEntryOneShot", false, &verb_set_oneshot_table };
const LoaderVariable loader_variable_timeout = { "LoaderConfigTimeout", true, &verb_set_timeout_table };
const LoaderVariable loader_variable_timeout_oneshot = { "LoaderConfigTimeoutOneShot", true,
                                                         &verb_set_timeout_oneshot_table };

int verb_set_loader_variable(int argc, char *argv[], const void *data) {
        const LoaderVariable *v = data;
        const char *vars = NULL, *value;
        void *u16 = NULL;
        size_t size = 0;
        OptionParser p;
        char **args;
        uint32_t t;
        Target target;
        int nargs, c, r;

        assert(argc > 0);
        assert(v);
        assert(argv);
        assert(data);

        if (option_parser_init(&p, v->table, argc, argv) < 0)
                return log_oom();
        while ((c = option_next(&p)) > 0)
                switch (c) {
                case 'h': option_parser_done(&p); return command_table_help(v->table, stdout);
                case ARG_VARS: vars = p.argument; break;
                }
        r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;
        value = args[0];
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
