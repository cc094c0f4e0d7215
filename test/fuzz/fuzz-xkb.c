/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: the three keyboard settings formats and the Debian file update. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "macro.h"
#include "xkb-config.h"

static void check(XkbConfig *c) {
        _cleanup_free_ char *x11 = NULL, *again = NULL;
        XkbConfig d;

        /* What we would write parses back to the same values, when the values are safe. */
        if (xkb_config_find_unsafe(c) || xkb_config_is_empty(c))
                return;
        x11 = xkb_config_render_x11(c);
        if (!x11 || xkb_config_parse_x11(x11, &d) < 0)
                return;
        if (strcmp(d.layout ?: "", c->layout ?: "") != 0 || strcmp(d.model ?: "", c->model ?: "") != 0 ||
            strcmp(d.variant ?: "", c->variant ?: "") != 0 || strcmp(d.options ?: "", c->options ?: "") != 0)
                abort();
        xkb_config_done(&d);
        again = xkb_config_update_debian(x11, c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        _cleanup_free_ char *text = strndup((const char *) data, size), *updated = NULL;
        XkbConfig c;

        if (!text)
                return 0;
        if (xkb_config_parse_x11(text, &c) >= 0) {
                check(&c);
                updated = xkb_config_update_debian(text, &c);
                xkb_config_done(&c);
        }
        if (xkb_config_parse_env(text, &c) >= 0)
                xkb_config_done(&c);
        if (xkb_config_parse_debian(text, &c) >= 0)
                xkb_config_done(&c);
        return 0;
}
