/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl set-default, set-oneshot, set-timeout, set-timeout-oneshot: the Boot Loader Interface
 * variables the OS sets for the next boots, as systemd's bootctl writes them.
 */
#pragma once

#include <stdbool.h>

#include "command-table.h"

extern const CommandTable verb_set_default_table, verb_set_oneshot_table, verb_set_timeout_table,
        verb_set_timeout_oneshot_table;

/** What one of these verbs sets: the Verb table's data for verb_set_loader_variable(). */
typedef struct LoaderVariable {
        const char *name;       /* in the Boot Loader Interface's vendor GUID */
        bool timeout;           /* a menu timeout (seconds or menu-*) rather than an entry ID */
        const CommandTable *table;      /* the verb's options and arguments */
} LoaderVariable;

extern const LoaderVariable loader_variable_default, loader_variable_oneshot, loader_variable_timeout,
        loader_variable_timeout_oneshot;

/** argv[0] is the verb; data the LoaderVariable it sets. */
int verb_set_loader_variable(int argc, char *argv[], const void *data);
