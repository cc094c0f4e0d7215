/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The keyboard settings localed keeps for X11, and the environment file Wayland sessions read.
 *
 * systemd-localed before v259 writes only /etc/X11/xorg.conf.d/00-keyboard.conf; v259 also writes
 * /etc/environment.d/90-xkb.conf with XKB_DEFAULT_* variables, which systemd --user exports and
 * libxkbcommon-based compositors read. This module reads and renders both formats.
 */
#pragma once

#include <stdbool.h>

#define XKB_X11_PATH "/etc/X11/xorg.conf.d/00-keyboard.conf"
#define XKB_ENV_PATH "/etc/environment.d/90-xkb.conf"
/* Debian's systemd-localed (252) reads and writes this instead of the X11 file. */
#define XKB_DEBIAN_PATH "/etc/default/keyboard"

typedef struct XkbConfig {
        char *layout;
        char *model;
        char *variant;
        char *options;
} XkbConfig;

void xkb_config_done(XkbConfig *c);

/** True when no value is set. */
bool xkb_config_is_empty(const XkbConfig *c);

/**
 * Parse the X11 keyboard file: the XkbLayout/XkbModel/XkbVariant/XkbOptions options of InputClass
 * sections (a later section wins); comments and other sections are ignored.
 * @ret 0, or -ENOMEM
 */
int xkb_config_parse_x11(const char *text, XkbConfig *ret);

/** Parse an environment.d file for XKB_DEFAULT_* (quoted or not); other lines are ignored. */
int xkb_config_parse_env(const char *text, XkbConfig *ret);

/** Parse Debian's /etc/default/keyboard for XKBLAYOUT, XKBMODEL, XKBVARIANT, XKBOPTIONS. */
int xkb_config_parse_debian(const char *text, XkbConfig *ret);

/**
 * Debian's /etc/default/keyboard with the XKB* assignments replaced by c's values; every other line
 * (BACKSPACE=, comments) is kept. old_text may be NULL for a new file.
 */
char *xkb_config_update_debian(const char *old_text, const XkbConfig *c);

/** A value we are willing to write: no quotes, backslashes, "$", "`" or control characters. */
bool xkb_value_is_safe(const char *v);

/** The first unsafe value's field name ("layout", ...), or NULL when all are safe. */
const char *xkb_config_find_unsafe(const XkbConfig *c);

/** The X11 file exactly as systemd-localed 252 writes it. */
char *xkb_config_render_x11(const XkbConfig *c);

/** The environment.d file (header naming the source file, then the non-empty values). */
char *xkb_config_render_env(const XkbConfig *c, const char *source);
