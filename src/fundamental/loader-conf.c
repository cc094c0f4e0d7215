/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * loader.conf parsing and the timeout and reboot rules.
 */
#include "assert-fundamental.h"
#include "conf-line.h"
#include "errno-fundamental.h"
#include "loader-conf.h"
#include "memory-fundamental.h"
#include "rollout.h"
#include "string-fundamental.h"
#include "trial-watchdog.h"

void loader_conf_init(LoaderConf *c) {
        fassert(c);

        *c = (LoaderConf) {
                .timeout = LOADER_TIMEOUT_UNSET,
                .editor = true,
                .reboot_on_error = REBOOT_ON_ERROR_AUTO,
                .console_mode = CONSOLE_MODE_KEEP,
                .rollout_tries = ROLLOUT_TRIES_DEFAULT,
                .rollout_watchdog = TRIAL_WATCHDOG_DEFAULT_SEC,
        };
}

void loader_conf_done(LoaderConf *c) {
        fassert(c);

        ffree(c->default_pattern);
        c->default_pattern = NULL;
        ffree(c->rollout_entries);
        c->rollout_entries = NULL;
}

static bool value_is(const ConfLine *l, const char *word) {
        return l->value_len == fstrlen(word) && fmemcmp(l->value, word, l->value_len) == 0;
}

int loader_timeout_parse(const char *v, size_t n, uint32_t *ret) {
        ConfLine l = { .value = v, .value_len = n };
        uint64_t x;

        fassert(v || n == 0);
        fassert(ret);

        if (value_is(&l, "menu-force"))
                *ret = LOADER_TIMEOUT_MENU_FORCE;
        else if (value_is(&l, "menu-hidden"))
                *ret = LOADER_TIMEOUT_MENU_HIDDEN;
        else if (value_is(&l, "menu-disabled"))
                *ret = LOADER_TIMEOUT_MENU_DISABLED;
        else if (fparse_uint64(v, n, LOADER_TIMEOUT_MAX, &x) == 0)
                *ret = (uint32_t) x;
        else
                return -EINVAL;
        return 0;
}

static void parse_reboot_on_error(LoaderConf *c, const ConfLine *l) {
        int b;

        if (value_is(l, "auto")) {
                c->reboot_on_error = REBOOT_ON_ERROR_AUTO;
                return;
        }
        b = conf_parse_bool(l->value, l->value_len);
        if (b >= 0)
                c->reboot_on_error = b ? REBOOT_ON_ERROR_YES : REBOOT_ON_ERROR_NO;
}

static void parse_console_mode(LoaderConf *c, const ConfLine *l) {
        uint64_t x;

        if (value_is(l, "keep"))
                c->console_mode = CONSOLE_MODE_KEEP;
        else if (value_is(l, "auto"))
                c->console_mode = CONSOLE_MODE_AUTO;
        else if (value_is(l, "max"))
                c->console_mode = CONSOLE_MODE_MAX;
        else if (fparse_uint64(l->value, l->value_len, 1000, &x) == 0) {
                c->console_mode = CONSOLE_MODE_NUMBER;
                c->console_mode_number = (unsigned) x;
        }
}

static int parse_default(LoaderConf *c, const ConfLine *l) {
        char *p;

        /* "@saved" is the only pseudo-entry */
        if (l->value_len > 0 && l->value[0] == '@' && !value_is(l, "@saved"))
                return 0;
        p = fstrndup(l->value, l->value_len);
        if (!p)
                return -ENOMEM;
        for (char *q = p; *q; q++)
                *q = fascii_tolower(*q);
        ffree(c->default_pattern);
        c->default_pattern = p;
        return 0;
}

/* "no" (or 0) leaves a trial uncovered; a number of seconds within what the hardware counts. */
static void parse_rollout_watchdog(LoaderConf *c, const ConfLine *l) {
        uint64_t x;

        if (conf_parse_bool(l->value, l->value_len) == 0)
                c->rollout_watchdog = 0;
        else if (fparse_uint64(l->value, l->value_len, TRIAL_WATCHDOG_MAX_SEC, &x) == 0)
                c->rollout_watchdog = (unsigned) x;
}

int loader_conf_parse(LoaderConf *c, const char *text, size_t size) {
        size_t pos = 0;
        ConfLine l;

        fassert(c);
        fassert(text || size == 0);

        while (conf_line_next(text, size, &pos, " \t", &l)) {
                if (conf_line_key_is(&l, "timeout"))
                        (void) loader_timeout_parse(l.value, l.value_len, &c->timeout);
                else if (conf_line_key_is(&l, "default")) {
                        if (parse_default(c, &l) < 0)
                                return -ENOMEM;
                } else if (conf_line_key_is(&l, "editor")) {
                        int b = conf_parse_bool(l.value, l.value_len);
                        if (b >= 0)
                                c->editor = b;
                } else if (conf_line_key_is(&l, "reboot-on-error"))
                        parse_reboot_on_error(c, &l);
                else if (conf_line_key_is(&l, "console-mode"))
                        parse_console_mode(c, &l);
                else if (conf_line_key_is(&l, "urlboot-entries")) {
                        char *p = fstrndup(l.value, l.value_len);
                        if (!p)
                                return -ENOMEM;
                        ffree(c->rollout_entries);
                        c->rollout_entries = p;
                } else if (conf_line_key_is(&l, "urlboot-rollout-tries")) {
                        uint64_t x;
                        if (fparse_uint64(l.value, l.value_len, ROLLOUT_TRIES_MAX, &x) == 0 && x > 0)
                                c->rollout_tries = (unsigned) x;
                } else if (conf_line_key_is(&l, "urlboot-rollout-watchdog"))
                        parse_rollout_watchdog(c, &l);
        }
        return 0;
}

uint32_t loader_timeout_effective(uint32_t conf, uint32_t variable, uint32_t oneshot) {
        if (oneshot != LOADER_TIMEOUT_UNSET)
                /* a one-shot timeout is asked for to see the menu: 0 would hide it */
                return oneshot == 0 || oneshot == LOADER_TIMEOUT_MENU_DISABLED ? LOADER_TIMEOUT_MENU_FORCE : oneshot;
        if (variable != LOADER_TIMEOUT_UNSET)
                return variable;
        return conf;
}

MenuMode loader_menu_mode(uint32_t timeout) {
        switch (timeout) {
        case LOADER_TIMEOUT_MENU_DISABLED:
                return MENU_MODE_BOOT_NOW;
        case LOADER_TIMEOUT_UNSET:
        case LOADER_TIMEOUT_MENU_HIDDEN:
                return MENU_MODE_HIDDEN;
        case LOADER_TIMEOUT_MENU_FORCE:
                return MENU_MODE_WAIT;
        default:
                return MENU_MODE_COUNTDOWN;
        }
}

bool loader_reboot_after_failure(RebootOnError mode, int tries_left, bool uki_url, bool key_pressed) {
        switch (mode) {
        case REBOOT_ON_ERROR_YES:
                return true;
        case REBOOT_ON_ERROR_AUTO:
                return tries_left > 0 || (uki_url && tries_left < 0 && !key_pressed);
        default:
                return false;
        }
}
