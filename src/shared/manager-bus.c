/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The connection to the service manager.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>

#include "macro.h"
#include "manager-bus.h"
#include "string-util.h"

const char *manager_scope_name(ManagerScope scope) {
        return scope == MANAGER_USER ? "user" : "system";
}

/* D-Bus addresses escape every byte but [A-Za-z0-9_/.-] as %xx. */
static char *bus_address_escape(const char *s) {
        static const char hex[] = "0123456789abcdef";
        char *e = malloc(strlen(s) * 3 + 1), *t = e;

        if (!e)
                return NULL;
        for (; *s; s++)
                if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
                    strchr("_/.-", *s))
                        *t++ = *s;
                else {
                        *t++ = '%';
                        *t++ = hex[(unsigned char) *s >> 4];
                        *t++ = hex[(unsigned char) *s & 15];
                }
        *t = 0;
        return e;
}

/* Someone could have put a socket where the manager's should be: only root or we may answer. */
static int check_peer(sd_bus *bus) {
        struct ucred cred;
        socklen_t n = sizeof(cred);
        int fd = sd_bus_get_fd(bus);

        if (fd < 0)
                return fd;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &n) < 0)
                return -errno;
        if (cred.uid != 0 && cred.uid != geteuid())
                return -EPERM;
        return 0;
}

static int connect_private(const char *address, sd_bus **ret) {
        sd_bus *bus = NULL;
        int r;

        r = sd_bus_new(&bus);
        if (r < 0)
                return r;
        r = sd_bus_set_address(bus, address);
        if (r >= 0)
                r = sd_bus_start(bus);
        if (r >= 0)
                r = check_peer(bus);
        if (r < 0) {
                sd_bus_close_unref(bus);
                return r;
        }
        *ret = bus;
        return 0;
}

static int connect_user(sd_bus **ret) {
        _cleanup_free_ char *escaped = NULL, *address = NULL;
        const char *dir = secure_getenv("XDG_RUNTIME_DIR");

        if (!dir) {
                /* Only the session bus is known: the manager is on it too. */
                if (secure_getenv("DBUS_SESSION_BUS_ADDRESS"))
                        return sd_bus_open_user(ret);
                return -ENOMEDIUM;
        }
        escaped = bus_address_escape(dir);
        if (!escaped || asprintf(&address, "unix:path=%s/systemd/private", escaped) < 0)
                return -ENOMEM;
        return connect_private(address, ret);
}

int manager_bus_connect(ManagerScope scope, sd_bus **ret) {
        assert(ret);

        if (scope == MANAGER_USER)
                return connect_user(ret);

        if (sd_booted() <= 0)
                return -EHOSTDOWN;
        if (geteuid() == 0)
                return connect_private("unix:path=/run/systemd/private", ret);
        return sd_bus_open_system(ret);
}

int manager_bus_connect_tracked(ManagerScope scope, sd_bus **ret) {
        assert(ret);

        if (scope == MANAGER_USER) {
                if (!secure_getenv("XDG_RUNTIME_DIR") && !secure_getenv("DBUS_SESSION_BUS_ADDRESS"))
                        return -ENOMEDIUM;
                return sd_bus_open_user(ret);
        }
        if (sd_booted() <= 0)
                return -EHOSTDOWN;
        return sd_bus_open_system(ret);
}

const char *manager_bus_sender(sd_bus *bus) {
        assert(bus);

        /* On the bus the manager's signals come from its name; on its private socket nothing has one. */
        return sd_bus_is_bus_client(bus) > 0 ? "org.freedesktop.systemd1" : NULL;
}

int unit_object_path(const char *unit, char **ret) {
        assert(unit);
        assert(ret);

        return sd_bus_path_encode("/org/freedesktop/systemd1/unit", unit, ret);
}

int unit_get_main_pid(sd_bus *bus, const char *unit, pid_t *ret, sd_bus_error *error) {
        _cleanup_free_ char *path = NULL;
        uint32_t pid;
        int r;

        assert(bus);
        assert(unit);
        assert(ret);

        r = unit_object_path(unit, &path);
        if (r < 0)
                return r;
        r = sd_bus_get_property_trivial(bus, "org.freedesktop.systemd1", path, "org.freedesktop.systemd1.Service",
                                        "MainPID", error, 'u', &pid);
        if (r < 0)
                return r;
        *ret = (pid_t) pid;
        return 0;
}

int unit_get_control_group(sd_bus *bus, const char *unit, char **ret, sd_bus_error *error) {
        _cleanup_free_ char *path = NULL;
        int r;

        assert(bus);
        assert(unit);
        assert(ret);

        r = unit_object_path(unit, &path);
        if (r < 0)
                return r;
        return sd_bus_get_property_string(bus, "org.freedesktop.systemd1", path, "org.freedesktop.systemd1.Service",
                                          "ControlGroup", error, ret);
}

const char *bus_error_text(const sd_bus_error *error, int r) {
        if (sd_bus_error_is_set(error) && error->message)
                return error->message;
        return strerror(r < 0 ? -r : r);
}
