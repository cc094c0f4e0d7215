/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Which settings of a service make its sandbox, and copying them from the unit (as the manager
 * reports them over D-Bus) into the properties of a transient unit.
 *
 * The list is data: man/urlboot-unit-shell.1 lists the same names (a test checks that).
 */
#pragma once

#include <stdbool.h>
#include <systemd/sd-bus.h>

typedef struct SandboxProperty {
        const char *name;     /**< D-Bus property of org.freedesktop.systemd1.Service, same name to set */
        const char *category; /**< what it is about, for messages and the documentation */
} SandboxProperty;

/** The copied properties, ending with { NULL }. */
extern const SandboxProperty sandbox_properties[];

/** The entry for name, or NULL if name is not copied. */
const SandboxProperty *sandbox_property_find(const char *name);

/**
 * Append the sandbox settings found in a GetAll("org.freedesktop.systemd1.Service") reply to m, an
 * open a(sv) container of StartTransientUnit. Values that mean "not set" (empty string, empty
 * list, false) are left out, so the transient unit gets the manager's defaults for them.
 *
 * @v reply                  the reply, read from its start
 * @ret ret_runtime_dirs     true if RuntimeDirectory= was copied
 * @ret                      the number of properties copied, or negative errno
 */
int sandbox_properties_copy(sd_bus_message *m, sd_bus_message *reply, bool *ret_runtime_dirs);
