/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * RefuseRecordTypes= from resolved.conf and its drop-ins, read as systemd v258's resolved reads it.
 *
 * Files: the first of /etc, /run, /usr/local/lib, /usr/lib + "/systemd/resolved.conf" that exists
 * (skipped when it is the same file as one of the drop-ins), then every "*.conf" in the
 * "systemd/resolved.conf.d/" directories of the same four places: a name in an earlier place hides
 * the same name in later ones, hidden files are skipped, and the survivors are read in lexical order
 * of their names. In "[Resolve]", every RefuseRecordTypes= adds its space-separated types; an empty
 * assignment empties the list. A file systemd cannot parse stops the reading and what was read stays.
 */
#pragma once

#include "refuse-set.h"

/** Where v258 looks, in order of precedence. */
#define RESOLVED_CONF_DIRS { "/etc", "/run", "/usr/local/lib", "/usr/lib" }

typedef struct RefuseConfig {
        RefuseSet types;        /**< the effective list */
        char **files;           /**< the files read, in order (NULL-terminated vector) */
        char **diagnostics;     /**< what resolved would log: "FILE:LINE: message" */
        int error;              /**< negative errno when a file stopped the reading, else 0 */
        char *error_file;       /**< that file */
} RefuseConfig;

/**
 * Read the configuration.
 *
 * @v root    the file system to read from ("/" or NULL for the running system)
 * @v ret     filled in also when reading stopped early (see ret->error); free with refuse_config_done()
 * @ret       0, or -ENOMEM
 */
int refuse_config_load(const char *root, RefuseConfig *ret);

void refuse_config_done(RefuseConfig *c);

/**
 * Apply one RefuseRecordTypes= value to a set, as config_parse_record_types() does.
 *
 * @v warn       called with each message resolved would log for this value (may be NULL)
 * @ret          0 or -ENOMEM
 */
int refuse_record_types_apply(RefuseSet *set, const char *value, void (*warn)(const char *message, void *userdata),
                              void *userdata);

/**
 * Parse one file's text into a set (the unit of the test table).
 *
 * @v name   the file name used in diagnostics
 * @ret      0, or the negative errno that stops the reading (the set keeps what came before)
 */
int refuse_config_parse_text(RefuseConfig *c, const char *name, const char *text, size_t size);
