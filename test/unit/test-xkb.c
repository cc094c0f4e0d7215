/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for the keyboard settings formats (test/data/xkb) and the XKB rules list. */
#include <errno.h>
#include <stdlib.h>

#include "fileio.h"
#include "macro.h"
#include "tests.h"
#include "xkb-config.h"
#include "xkb-rules.h"

static char *data(const char *name) {
        char *text;

        ASSERT_OK(read_full_file(test_data_path(name), 1 << 20, &text, NULL));
        return text;
}

TEST(localed_x11_file_roundtrip) {
        _cleanup_free_ char *x11 = data("xkb/00-keyboard.conf"), *env = data("xkb/90-xkb.conf");
        _cleanup_free_ char *x11_again = NULL, *env_rendered = NULL;
        XkbConfig c;

        ASSERT_OK(xkb_config_parse_x11(x11, &c));
        ASSERT_STREQ(c.layout, "us,de");
        ASSERT_STREQ(c.model, "pc105");
        ASSERT_STREQ(c.variant, ",nodeadkeys");
        ASSERT_STREQ(c.options, "grp:alt_shift_toggle");

        /* What we write for X11 is byte for byte what localed 252 writes. */
        x11_again = xkb_config_render_x11(&c);
        ASSERT_STREQ(x11_again, x11);

        env_rendered = xkb_config_render_env(&c, XKB_X11_PATH);
        ASSERT_STREQ(env_rendered, env);
        xkb_config_done(&c);

        ASSERT_OK(xkb_config_parse_env(env, &c));
        ASSERT_STREQ(c.layout, "us,de");
        ASSERT_STREQ(c.variant, ",nodeadkeys");
        xkb_config_done(&c);
}

TEST(hand_edited_x11_file) {
        _cleanup_free_ char *x11 = data("xkb/hand-edited.conf");
        XkbConfig c;

        ASSERT_OK(xkb_config_parse_x11(x11, &c));
        ASSERT_STREQ(c.layout, "fr");
        ASSERT_STREQ(c.model, "pc104");
        ASSERT_TRUE(c.variant == NULL);
        ASSERT_STREQ(c.options, "ctrl:nocaps,compose:ralt");
        xkb_config_done(&c);
}

TEST(empty_values_are_omitted) {
        XkbConfig c = { .layout = (char *) "de", .variant = (char *) "" };
        _cleanup_free_ char *env = xkb_config_render_env(&c, XKB_X11_PATH), *x11 = xkb_config_render_x11(&c);

        ASSERT_TRUE(strstr(env, "XKB_DEFAULT_LAYOUT=\"de\"\n"));
        ASSERT_TRUE(!strstr(env, "XKB_DEFAULT_VARIANT"));
        ASSERT_TRUE(!strstr(env, "XKB_DEFAULT_MODEL"));
        ASSERT_TRUE(!strstr(x11, "XkbVariant"));
        ASSERT_FALSE(xkb_config_is_empty(&c));
        ASSERT_TRUE(xkb_config_is_empty(&(XkbConfig) { .layout = (char *) "" }));
}

TEST(nothing_to_parse) {
        XkbConfig c;

        ASSERT_OK(xkb_config_parse_x11("", &c));
        ASSERT_TRUE(xkb_config_is_empty(&c));
        ASSERT_OK(xkb_config_parse_x11("Option \"XkbLayout\" \"outside-a-section\"\n", &c));
        ASSERT_TRUE(xkb_config_is_empty(&c));
        ASSERT_OK(xkb_config_parse_x11("Section \"InputClass\"\nOption \"XkbLayout\" \"unterminated\n", &c));
        ASSERT_STREQ(c.layout, "unterminated");
        xkb_config_done(&c);
}

TEST(debian_keyboard_file) {
        _cleanup_free_ char *deb = data("xkb/keyboard.debian"), *updated = NULL;
        XkbConfig c;
        XkbConfig n = { .layout = (char *) "de", .model = (char *) "pc105", .options = (char *) "ctrl:nocaps" };

        ASSERT_OK(xkb_config_parse_debian(deb, &c));
        ASSERT_STREQ(c.layout, "us");
        ASSERT_STREQ(c.model, "pc105");
        ASSERT_STREQ(c.variant, "");
        xkb_config_done(&c);

        /* Our values replace the XKB* lines in place; comments and BACKSPACE stay. */
        updated = xkb_config_update_debian(deb, &n);
        ASSERT_STREQ(updated, "# KEYBOARD CONFIGURATION FILE\n\n# Consult the keyboard(5) manual page.\n\n"
                              "XKBMODEL=\"pc105\"\nXKBLAYOUT=\"de\"\nXKBVARIANT=\"\"\nXKBOPTIONS=\"ctrl:nocaps\"\n\n"
                              "BACKSPACE=\"guess\"\n");
        free(updated);

        /* Debian's localed writes bare values; a new file gets all four keys. */
        ASSERT_OK(xkb_config_parse_debian("XKBLAYOUT=us,de\nXKBVARIANT=,nodeadkeys\n", &c));
        ASSERT_STREQ(c.layout, "us,de");
        ASSERT_STREQ(c.variant, ",nodeadkeys");
        xkb_config_done(&c);
        updated = xkb_config_update_debian(NULL, &n);
        ASSERT_STREQ(updated, "XKBLAYOUT=\"de\"\nXKBMODEL=\"pc105\"\nXKBVARIANT=\"\"\nXKBOPTIONS=\"ctrl:nocaps\"\n");
}

TEST(unsafe_values) {
        ASSERT_TRUE(xkb_value_is_safe("us,de"));
        ASSERT_TRUE(xkb_value_is_safe("grp:alt_shift_toggle,ctrl:nocaps"));
        ASSERT_TRUE(xkb_value_is_safe(NULL));
        ASSERT_FALSE(xkb_value_is_safe("us\"; rm -rf /"));
        ASSERT_FALSE(xkb_value_is_safe("us\nXKB_DEFAULT_MODEL=evil"));
        ASSERT_FALSE(xkb_value_is_safe("$HOME"));
        ASSERT_FALSE(xkb_value_is_safe("a\\b"));
        ASSERT_FALSE(xkb_value_is_safe("`id`"));
        ASSERT_FALSE(xkb_value_is_safe("tab\there"));
        ASSERT_STREQ(xkb_config_find_unsafe(&(XkbConfig) { .layout = (char *) "us", .options = (char *) "'" }),
                     "options");
}

TEST(rules_list) {
        XkbRules *r;
        int k = xkb_rules_load(XKB_RULES_PATH, &r);

        if (k == -ENOENT)
                test_fail(__FILE__, __LINE__, "%s missing: install xkb-data", XKB_RULES_PATH);
        ASSERT_OK(k);
        ASSERT_TRUE(xkb_rules_has_layout(r, "us"));
        ASSERT_TRUE(xkb_rules_has_layout(r, "de"));
        ASSERT_FALSE(xkb_rules_has_layout(r, "xx"));
        ASSERT_TRUE(xkb_rules_has_model(r, "pc105"));
        ASSERT_FALSE(xkb_rules_has_model(r, "us"));
        ASSERT_TRUE(xkb_rules_has_variant(r, "de", "nodeadkeys"));
        ASSERT_FALSE(xkb_rules_has_variant(r, "us", "nodeadkeys-that-does-not-exist"));
        ASSERT_TRUE(xkb_rules_has_option(r, "grp:alt_shift_toggle"));
        ASSERT_FALSE(xkb_rules_has_option(r, "grp:no_such_toggle"));
        xkb_rules_free(r);
        ASSERT_EQ(xkb_rules_load("/nonexistent/evdev.lst", &r), -ENOENT);
}
