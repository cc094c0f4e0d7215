/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: urlbootctl build-uki --hwids=, a device description (JSON, as ukify reads them) made into a
 * .hwids section. The oracle reads the same JSON on its own (json-c's tokener on the file's bytes, as
 * json_object_from_file hands them over; the rules and the CHID's text checked here) and says whether it is a
 * description (-1 not one; -2 more distinct CHIDs than it keeps: not judged); when it is, the section must parse (src/fundamental/hwids.c), hold one entry per distinct
 * CHID in text order, each naming the description's name and compatible (or fwid). */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "chid.h"
#include "fuzz.h"
#include "hwids.h"
#include "hwids-build.h"
#include "log.h"

static const char *oracle_member(json_object *o, const char *key) {
        json_object *v;

        if (!json_object_object_get_ex(o, key, &v) || json_object_get_type(v) != json_type_string)
                return NULL;
        return json_object_get_string(v);
}

/* 8-4-4-4-12 hex digits, nothing else */
static bool oracle_chid_text(const char *s) {
        static const size_t groups[] = { 8, 4, 4, 4, 12 };
        size_t at = 0;

        for (size_t g = 0; g < 5; g++) {
                for (size_t i = 0; i < groups[g]; i++, at++)
                        if (!strchr("0123456789abcdefABCDEF", s[at]) || s[at] == 0)
                                return false;
                if (s[at] != (g == 4 ? 0 : '-'))
                        return false;
                at++;
        }
        return true;
}

/* -1: not a description, -2: not judged; else the number of distinct CHIDs (by their lowercase text), with the
 * name and the compatible (or fwid). */
static int oracle_description(json_object *o, const char **ret_name, const char **ret_string) {
        const char *type, *name, *compatible, *fwid;
        json_object *list;
        char seen[64][37];
        int n = 0;

        if (!o || json_object_get_type(o) != json_type_object)
                return -1;
        type = oracle_member(o, "type");
        name = oracle_member(o, "name");
        compatible = oracle_member(o, "compatible");
        fwid = oracle_member(o, "fwid");
        if (!type || !name || !json_object_object_get_ex(o, "hwids", &list) ||
            json_object_get_type(list) != json_type_array)
                return -1;
        if (strcmp(type, "devicetree") == 0 ? !compatible || fwid : strcmp(type, "uefi-fw") != 0 || !fwid || compatible)
                return -1;
        for (size_t i = 0; i < json_object_array_length(list); i++) {
                json_object *v = json_object_array_get_idx(list, i);
                const char *s = json_object_get_type(v) == json_type_string ? json_object_get_string(v) : NULL;
                char lower[37];
                bool known = false;

                if (!s || !oracle_chid_text(s))
                        return -1;
                for (size_t k = 0; k < 37; k++)
                        lower[k] = (char) (s[k] >= 'A' && s[k] <= 'F' ? s[k] - 'A' + 'a' : s[k]);
                for (int k = 0; k < n; k++)
                        known = known || strcmp(seen[k], lower) == 0;
                if (!known && n == 64)
                        return -2;
                if (!known)
                        memcpy(seen[n++], lower, 37);
        }
        *ret_name = name;
        *ret_string = compatible ?: fwid;
        return n;
}

static void check_section(const void *section, size_t size, int n, const char *name, const char *string) {
        char previous[37] = "", text[37];
        HwidsEntry e;

        for (int i = 0; i < n; i++) {
                if (hwids_entry(section, size, i, &e) < 0 || !e.name || !e.compatible || strcmp(e.name, name) != 0 ||
                    strcmp(e.compatible, string) != 0)
                        abort();
                chid_to_string(&e.chid, text);
                if (strcmp(previous, text) >= 0)        /* sorted, each once */
                        abort();
                memcpy(previous, text, sizeof text);
        }
        if (hwids_entry(section, size, n, &e) != -ENOENT)
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static char dir[] = "/tmp/fuzz-hwids-json.XXXXXX", *file;
        json_tokener *tok;
        json_object *o;
        const char *name = NULL, *string = NULL;
        void *section = NULL;
        size_t section_size = 0;
        int r, n;
        FILE *f;

        if (size > 64 * 1024)
                return 0;
        if (!file) {
                log_set_max_level(LOG_EMERG);   /* the refusals' lines: not what is checked */
                if (!mkdtemp(dir) || asprintf(&file, "%s/device.json", dir) < 0)
                        abort();
        }
        f = fopen(file, "w");
        if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
                abort();

        tok = json_tokener_new();
        if (!tok)
                abort();
        o = json_tokener_parse_ex(tok, (const char *) data, (int) size);
        json_tokener_free(tok);
        n = oracle_description(o, &name, &string);
        r = hwids_build_from_dir(dir, &section, &section_size);
        if (n == -1 && r >= 0)
                abort();
        if (n >= 0 && r < 0)
                abort();
        if (n >= 0)
                check_section(section, section_size, n, name, string);
        free(section);
        json_object_put(o);
        return 0;
}
