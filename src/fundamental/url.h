/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * URL helpers with systemd's import-util semantics.
 *
 * Used by the initrd generator for "bootorigin" and by the boot manager for "uki-url :NAME".
 * The parsing is deliberately lenient, like systemd's: a scheme is anything up to the first ":",
 * the host is the first non-empty run after the slashes that follow it.
 */
#pragma once

#include "macro-fundamental.h"

/** True for "http://" or "https://" followed by at least one byte, all ASCII. */
bool url_is_http(const char *url);

/** True for "file:/" followed by at least one byte, all ASCII. */
bool url_is_file(const char *url);

/**
 * The last path component of a URL, without query, fragment or trailing slashes.
 *
 * @v url     URL
 * @v ret     newly allocated component (free with ffree())
 * @ret       0, -EINVAL if there is no scheme or host, -EADDRNOTAVAIL if the path is empty, -ENOMEM
 */
int url_last_component(const char *url, char **ret);

/**
 * Drop the query, the fragment and n_drop path components, then append "/suffix".
 *
 * Dropping more components than the path has stops at the host.
 *
 * @ret       0, -EINVAL if there is no scheme or host, -ENOMEM
 */
int url_change_suffix(const char *url, unsigned n_drop, const char *suffix, char **ret);

/** Replace the last path component (url_change_suffix() with n_drop = 1). */
int url_change_last_component(const char *url, const char *name, char **ret);

/** Whether every byte is printable ASCII ('!' to '~'), as a URL must be to stand on an HTTP request line or in
 *  a device path's Uri() node as it is: no space, CR, LF or control characters, which url_is_http() allows. */
bool url_is_printable(const char *url);

/**
 * The host and port of an http(s) URL as an HTTP Host header names them ("10.0.2.2:8080"): the
 * authority without user information. For a request of URL: it fails unless url_is_printable(url).
 * @ret 0, -EINVAL (no scheme, no host, or not printable), -ENOMEM
 */
int url_host_header(const char *url, char **ret);
