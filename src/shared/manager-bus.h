/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The connection to the service manager (system or user), made the way systemd's own tools make it,
 * and the few calls every companion that asks the manager needs. Its own library (libshared-bus): only
 * the programs that talk D-Bus link libsystemd.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>
#include <systemd/sd-bus.h>

typedef enum ManagerScope {
        MANAGER_SYSTEM,
        MANAGER_USER,
} ManagerScope;

/** "system" or "user", as in systemd's messages ("system scope bus"). */
const char *manager_scope_name(ManagerScope scope);

/**
 * Connect to the service manager.
 *
 * System: root talks to the manager directly on /run/systemd/private, others through the system
 * bus. User: $XDG_RUNTIME_DIR/systemd/private, or the session bus when only
 * $DBUS_SESSION_BUS_ADDRESS is set. The peer must be root or ourselves.
 *
 * @ret ret  the connection
 * @ret      0, -EHOSTDOWN if the system was not booted with systemd (system scope), -ENOMEDIUM if
 *           neither variable is set (user scope), -EPERM if the peer is someone else, another
 *           negative errno
 */
int manager_bus_connect(ManagerScope scope, sd_bus **ret);

/**
 * Connect to the service manager through the bus itself (dbus-daemon), as systemd-run --wait does.
 *
 * The manager can track a client with a name on the bus only: AddRef= of a transient unit fails
 * with EINVAL over the private socket (its messages have no sender).
 *
 * @ret ret  the connection
 * @ret      0, -EHOSTDOWN (system scope, not booted with systemd), -ENOMEDIUM (user scope, neither
 *           $XDG_RUNTIME_DIR nor $DBUS_SESSION_BUS_ADDRESS), another negative errno
 */
int manager_bus_connect_tracked(ManagerScope scope, sd_bus **ret);

/** The sender to match the manager's signals with on this connection: its bus name, or NULL on the
 * private socket. */
const char *manager_bus_sender(sd_bus *bus);

/** The D-Bus object path of a unit (/org/freedesktop/systemd1/unit/foo_2eservice). */
int unit_object_path(const char *unit, char **ret);

/**
 * Read the MainPID property of a service unit.
 *
 * @ret ret    the PID, 0 when the unit has no main process (inactive, finished oneshot, ...)
 * @ret error  the D-Bus error, when the manager answered with one
 * @ret        0 or negative errno
 */
int unit_get_main_pid(sd_bus *bus, const char *unit, pid_t *ret, sd_bus_error *error);

/**
 * Read the ControlGroup property of a service unit (the manager's path of its control group).
 * @ret ret  the path, "" while the unit has none
 */
int unit_get_control_group(sd_bus *bus, const char *unit, char **ret, sd_bus_error *error);

/** The text to show for a failed call: the D-Bus error's message, or strerror(-r). */
const char *bus_error_text(const sd_bus_error *error, int r);
