/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reading configuration from environment variables.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "env-util.h"
#include "string-util.h"

int getenv_bool(const char *name) {
        const char *e = getenv(name);

        assert(name);

        if (!e)
                return -ENXIO;
        return parse_boolean(e);
}
