/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The words of urlboot-pull's advice, as the user wrote the setting: a pull expression's option
 * ("verify=no" in rd.systemd.pull=) when the generator's unit runs it (URLBOOT_PULL_ADVICE=expression in its
 * environment), the command line's ("--verify=no") otherwise.
 */
#pragma once

typedef enum PullAdvice {
        PULL_ADVICE_VERIFY_NO,
        PULL_ADVICE_VERIFY_CHECKSUM,
        PULL_ADVICE_PIN,
        PULL_ADVICE_KEYRING,
        _PULL_ADVICE_MAX,
} PullAdvice;

/** The setting's spelling where the user gives it, e.g. "verify=no" or "--verify=no". */
const char *pull_advice(PullAdvice what);
