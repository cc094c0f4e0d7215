/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The words of urlboot-pull's advice (pull-advice.h).
 */
#include <stdbool.h>
#include <stdlib.h>

#include "pull-advice.h"
#include "string-util.h"

static const char *const words[_PULL_ADVICE_MAX][2] = {
        /*                              command line                   pull expression */
        [PULL_ADVICE_VERIFY_NO]       = { "--verify=no",                 "verify=no" },
        [PULL_ADVICE_VERIFY_CHECKSUM] = { "--verify=checksum",           "verify=checksum" },
        [PULL_ADVICE_PIN]             = { "--verify=sha256:HEX",         "sha256=HEX" },
        [PULL_ADVICE_KEYRING]         = { "--keyring=FILE",              "/etc/systemd/import-pubring.gpg" },
};

const char *pull_advice(PullAdvice what) {
        bool expression = streq_ptr(getenv("URLBOOT_PULL_ADVICE"), "expression");

        return what >= 0 && what < _PULL_ADVICE_MAX ? words[what][expression] : "";
}
