/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The nbdkit command line that serves an HTTP(S) image as an NBD export on a Unix socket.
 *
 * urlboot's HTTP plugin alone (nbdkit-http-plugin.c: exact range requests, each answer checked, requests
 * in parallel, failed requests tried again after a pause so that a server that goes away for a while only
 * makes reads wait, and a multi-block .xz read in place, told by its first bytes), no filters.
 * The plugin advertises multi-conn (nothing is ever written): the boot's connection and the background
 * copy's are served side by side. Requests and redirects stay with the URL's protocol: https only for an
 * https URL, http or https for an http one. Read-only; argv[0] starts with "@" so
 * systemd's killing spree at the switch to the real root and at shutdown spares the process
 * (systemd's "storage daemons for the root file system" rule).
 */
#pragma once

#include <stdbool.h>

typedef struct NbdkitSettings {
        const char *url;
        const char *socket;             /* Unix socket to listen on */
        const char *plugin;             /* the plugin's path */
        unsigned retries;               /* per request, before an error reaches the kernel */
        unsigned retry_delay;           /* seconds between tries */
        unsigned timeout;               /* seconds for one HTTP request */
        const char *cainfo;             /* the only CA trusted for https, NULL: libcurl's default store */
        const char *record;             /* where the plugin lists the blocks read (boot-reads.h), NULL: nowhere */
} NbdkitSettings;

/** Defaults: 1000 tries a second apart (a server may be away for a quarter of an hour), 60 s per request. */
#define NBDKIT_RETRIES_DEFAULT 1000
#define NBDKIT_RETRY_DELAY_DEFAULT 1
#define NBDKIT_TIMEOUT_DEFAULT 60


/**
 * Build the argument vector (argv[0] is "@nbdkit"; exec the binary by path).
 * @ret 0, -ENOMEM, -EINVAL (a URL with a character no nbdkit parameter may hold)
 */
int nbdkit_command(const NbdkitSettings *s, char ***ret);
