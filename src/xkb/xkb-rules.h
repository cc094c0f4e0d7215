/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The XKB rules list (evdev.lst from xkb-data): which models, layouts, variants and options exist.
 */
#pragma once

#include <stdbool.h>

#define XKB_RULES_PATH "/usr/share/X11/xkb/rules/evdev.lst"

typedef struct XkbRules XkbRules;

/** Load a rules list; -ENOENT when xkb-data is not installed. */
int xkb_rules_load(const char *path, XkbRules **ret);
XkbRules *xkb_rules_free(XkbRules *r);

bool xkb_rules_has_model(const XkbRules *r, const char *model);
bool xkb_rules_has_layout(const XkbRules *r, const char *layout);
/** A variant of the given layout (evdev.lst describes variants as "LAYOUT: text"). */
bool xkb_rules_has_variant(const XkbRules *r, const char *layout, const char *variant);
bool xkb_rules_has_option(const XkbRules *r, const char *option);
