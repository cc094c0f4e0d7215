/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * loader.conf of the boot manager: timeout, default, editor, reboot-on-error, console-mode; and the
 * rules that combine it with the LoaderConfigTimeout* variables and decide a reboot after a failure.
 */
#pragma once

#include "macro-fundamental.h"

/* Timeouts in seconds, plus three special values (systemd's spellings in loader.conf). */
#define LOADER_TIMEOUT_MAX 0xfffffff0U
#define LOADER_TIMEOUT_UNSET 0xfffffffdU          /* not configured: menu hidden unless a key is pressed */
#define LOADER_TIMEOUT_MENU_DISABLED 0xfffffffeU  /* "menu-disabled": never a menu, not even on a key */
#define LOADER_TIMEOUT_MENU_FORCE 0xffffffffU     /* "menu-force": menu without countdown */
#define LOADER_TIMEOUT_MENU_HIDDEN 0U             /* "menu-hidden": the same as 0 */

typedef enum RebootOnError {
        REBOOT_ON_ERROR_NO,
        REBOOT_ON_ERROR_YES,
        REBOOT_ON_ERROR_AUTO,
} RebootOnError;

typedef enum ConsoleMode {
        CONSOLE_MODE_KEEP,
        CONSOLE_MODE_AUTO,
        CONSOLE_MODE_MAX,
        CONSOLE_MODE_NUMBER,
} ConsoleMode;

typedef struct LoaderConf {
        uint32_t timeout;
        char *default_pattern;          /* a glob on entry IDs, or "@saved"; NULL when unset */
        bool editor;
        RebootOnError reboot_on_error;
        ConsoleMode console_mode;
        unsigned console_mode_number;
        /* urlboot's keys (systemd-boot ignores them): a rollout's entry list beside us and the tries a new
         * version gets (rollout.h) */
        char *rollout_entries;          /* "urlboot-entries URL" (":NAME" is beside our own URL) */
        unsigned rollout_tries;         /* "urlboot-rollout-tries N", 1 to ROLLOUT_TRIES_MAX */
        unsigned rollout_watchdog;      /* "urlboot-rollout-watchdog SECONDS|no": a trial's hardware watchdog, 0 off */
} LoaderConf;

/**
 * The defaults: timeout unset, editor yes, reboot-on-error auto, console-mode keep, a trial's watchdog
 * TRIAL_WATCHDOG_DEFAULT_SEC.
 */
void loader_conf_init(LoaderConf *c);
void loader_conf_done(LoaderConf *c);

/**
 * Apply the text of a loader.conf to c. Unknown keys and invalid values are ignored (the file is
 * from the user; a typo must not stop the boot). @ret 0 or -ENOMEM
 */
int loader_conf_parse(LoaderConf *c, const char *text, size_t size);

/** A timeout value: seconds, "menu-force", "menu-hidden" or "menu-disabled". @ret 0 or -EINVAL */
int loader_timeout_parse(const char *v, size_t n, uint32_t *ret);

/** What the menu does with a timeout. */
typedef enum MenuMode {
        MENU_MODE_BOOT_NOW,        /* boot the default without looking at the keyboard */
        MENU_MODE_HIDDEN,          /* boot the default unless a key is already pressed */
        MENU_MODE_COUNTDOWN,       /* show the menu and count down */
        MENU_MODE_WAIT,            /* show the menu until a choice is made */
} MenuMode;

/**
 * The timeout in effect: LoaderConfigTimeoutOneShot (forces the menu) over LoaderConfigTimeout over the
 * file. Pass LOADER_TIMEOUT_UNSET for an absent variable.
 */
uint32_t loader_timeout_effective(uint32_t conf, uint32_t variable, uint32_t oneshot);
MenuMode loader_menu_mode(uint32_t timeout);

/**
 * Whether to reboot after the selected entry failed to start: "yes" always; "auto" when the entry had
 * tries left before this boot (tries_left > 0), or when it is a uki-url entry (which has no counter to
 * run out) and nobody pressed a key; "no" never.
 */
bool loader_reboot_after_failure(RebootOnError mode, int tries_left, bool uki_url, bool key_pressed);
