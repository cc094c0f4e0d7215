/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What the system manager knows about a service, over D-Bus (sd-bus): the files it loaded the unit from,
 * its StateDirectory=, CacheDirectory= and LogsDirectory=, DynamicUser= and its control group.
 */
#pragma once

#include <stdbool.h>
#include <systemd/sd-bus.h>

#include "quota-apply.h"

typedef struct UnitInfo {
        char *id;                                       /* the unit's name */
        char *load_state;                               /* "loaded", "not-found", "masked", … */
        char *fragment_path;                            /* "" for transient units */
        char **dropin_paths;
        char **directories[_QUOTA_DIR_TYPE_MAX];        /* as configured, relative to the prefixes */
        bool dynamic_user;
        char *control_group;                            /* "" while the unit has none */
        char *slice;                                    /* "system.slice", … ("" if none) */
} UnitInfo;

/**
 * Load the unit (LoadUnit) and read its properties.
 * @v error  filled with the manager's error when it gives one
 */
int unit_info_load(sd_bus *bus, const char *unit, UnitInfo *ret, sd_bus_error *error);

void unit_info_done(UnitInfo *i);

/**
 * The control group the unit has when it runs: ControlGroup, or while it has none the path the manager
 * gives it below its slice ("a-b.slice" → "/a.slice/a-b.slice/UNIT"), from which v258's candidate
 * project IDs are hashed.
 * @ret 0, -ENOMEM, -EINVAL for a unit without a slice
 */
int unit_info_cgroup_path(const UnitInfo *i, char **ret);

/** "foo" → "foo.service"; names with a unit suffix stay as they are. NULL when out of memory. */
char *unit_name_mangle_service(const char *name);
