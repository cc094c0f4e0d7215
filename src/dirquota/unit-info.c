/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reading a service's properties from the system manager with sd-bus.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "macro.h"
#include "unit-info.h"
#include "string-util.h"
#include "unit-name.h"

#define SYSTEMD_DEST "org.freedesktop.systemd1"
#define UNIT_IFACE "org.freedesktop.systemd1.Unit"
#define SERVICE_IFACE "org.freedesktop.systemd1.Service"

static const char *const unit_suffixes[] = {
        ".service", ".socket", ".target", ".device", ".mount", ".automount",
        ".swap", ".timer", ".path", ".slice", ".scope",
};

char *unit_name_mangle_service(const char *name) {
        char *s;

        assert(name);

        for (size_t i = 0; i < ELEMENTSOF(unit_suffixes); i++)
                if (endswith(name, unit_suffixes[i]))
                        return strdup(name);
        return asprintf(&s, "%s.service", name) < 0 ? NULL : s;
}

int unit_info_load(sd_bus *bus, const char *unit, UnitInfo *ret, sd_bus_error *error) {
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
        UnitInfo i = {};
        const char *path;
        int r, dynamic_user = 0;

        assert(bus);
        assert(unit);
        assert(ret);

        r = sd_bus_call_method(bus, SYSTEMD_DEST, "/org/freedesktop/systemd1", SYSTEMD_DEST ".Manager",
                               "LoadUnit", error, &reply, "s", unit);
        if (r < 0)
                return r;
        r = sd_bus_message_read(reply, "o", &path);
        if (r < 0)
                return r;

        r = sd_bus_get_property_string(bus, SYSTEMD_DEST, path, UNIT_IFACE, "Id", error, &i.id);
        if (r >= 0)
                r = sd_bus_get_property_string(bus, SYSTEMD_DEST, path, UNIT_IFACE, "LoadState", error,
                                               &i.load_state);
        if (r >= 0)
                r = sd_bus_get_property_string(bus, SYSTEMD_DEST, path, UNIT_IFACE, "FragmentPath", error,
                                               &i.fragment_path);
        if (r >= 0)
                r = sd_bus_get_property_strv(bus, SYSTEMD_DEST, path, UNIT_IFACE, "DropInPaths", error,
                                             &i.dropin_paths);
        if (r >= 0 && endswith(i.id, ".service"))
                r = sd_bus_get_property_string(bus, SYSTEMD_DEST, path, SERVICE_IFACE, "Slice", error, &i.slice);
        /* the rest exists for services only; a unit of another type has no such directories for us */
        if (r >= 0 && endswith(i.id, ".service")) {
                for (QuotaDirType t = 0; r >= 0 && t < _QUOTA_DIR_TYPE_MAX; t++)
                        r = sd_bus_get_property_strv(bus, SYSTEMD_DEST, path, SERVICE_IFACE,
                                                     quota_dir_type_to_string(t), error, &i.directories[t]);
                if (r >= 0)
                        r = sd_bus_get_property_trivial(bus, SYSTEMD_DEST, path, SERVICE_IFACE, "DynamicUser",
                                                        error, 'b', &dynamic_user);
                if (r >= 0)
                        r = sd_bus_get_property_string(bus, SYSTEMD_DEST, path, SERVICE_IFACE, "ControlGroup",
                                                       error, &i.control_group);
        }
        if (r < 0) {
                unit_info_done(&i);
                return r;
        }
        i.dynamic_user = dynamic_user;
        if ((!i.control_group && !(i.control_group = strdup(""))) || (!i.slice && !(i.slice = strdup("")))) {
                unit_info_done(&i);
                return -ENOMEM;
        }
        *ret = i;
        return 0;
}

void unit_info_done(UnitInfo *i) {
        assert(i);

        free(i->id);
        free(i->load_state);
        free(i->fragment_path);
        strv_free(i->dropin_paths);
        for (QuotaDirType t = 0; t < _QUOTA_DIR_TYPE_MAX; t++)
                strv_free(i->directories[t]);
        free(i->control_group);
        free(i->slice);
        *i = (UnitInfo) {};
}

int unit_info_cgroup_path(const UnitInfo *i, char **ret) {
        _cleanup_free_ char *path = NULL;
        const char *suffix;

        assert(i);
        assert(ret);

        if (!isempty(i->control_group)) {
                *ret = strdup(i->control_group);
                return *ret ? 0 : -ENOMEM;
        }
        suffix = endswith(i->slice, ".slice");
        if (!suffix || suffix == i->slice)
                return -EINVAL;
        /* "-.slice" is the root; "a-b.slice" lives in "a.slice": one level per dash-separated prefix */
        path = strdup("");
        if (!path)
                return -ENOMEM;
        if (!streq(i->slice, "-.slice"))
                for (const char *p = i->slice;;) {
                        const char *dash = strchr(p, '-');
                        size_t n = !dash || dash > suffix ? (size_t) (suffix - i->slice) : (size_t) (dash - i->slice);
                        char level[UNIT_NAME_MAX + 16];

                        (void) snprintf(level, sizeof(level), "/%.*s.slice", (int) n, i->slice);
                        if (!strextend(&path, level, NULL))
                                return -ENOMEM;
                        if (n == (size_t) (suffix - i->slice))
                                break;
                        p = dash + 1;
                }
        if (!strextend(&path, "/", i->id, NULL))
                return -ENOMEM;
        *ret = TAKE_PTR(path);
        return 0;
}
