/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Which settings of a service make its sandbox, and copying them.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "macro.h"
#include "sandbox-properties.h"
#include "string-util.h"

#define FS "file system"
#define NS "namespaces"
#define ID "identity"
#define ENV "environment"
#define SEC "restrictions"
#define CG "access control (cgroup)"

const SandboxProperty sandbox_properties[] = {
        { "RootDirectory", FS },
        { "RootImage", FS },
        { "RootImageOptions", FS },
        { "RootHash", FS },
        { "RootHashPath", FS },
        { "RootHashSignature", FS },
        { "RootHashSignaturePath", FS },
        { "RootVerity", FS },
        { "MountAPIVFS", FS },
        { "ProtectProc", FS },
        { "ProcSubset", FS },
        { "PrivateTmp", FS },
        { "PrivateDevices", FS },
        { "PrivateMounts", FS },
        { "ProtectSystem", FS },
        { "ProtectHome", FS },
        { "ProtectKernelTunables", FS },
        { "ProtectKernelModules", FS },
        { "ProtectKernelLogs", FS },
        { "ProtectControlGroups", FS },
        { "ReadWritePaths", FS },
        { "ReadOnlyPaths", FS },
        { "InaccessiblePaths", FS },
        { "ExecPaths", FS },
        { "NoExecPaths", FS },
        { "BindPaths", FS },
        { "BindReadOnlyPaths", FS },
        { "TemporaryFileSystem", FS },
        { "MountImages", FS },
        { "ExtensionImages", FS },
        { "ExtensionDirectories", FS },
        { "MountFlags", FS },
        { "StateDirectory", FS },
        { "StateDirectoryMode", FS },
        { "CacheDirectory", FS },
        { "CacheDirectoryMode", FS },
        { "LogsDirectory", FS },
        { "LogsDirectoryMode", FS },
        { "ConfigurationDirectory", FS },
        { "ConfigurationDirectoryMode", FS },
        { "RuntimeDirectory", FS },
        { "RuntimeDirectoryMode", FS },
        { "LoadCredential", FS },
        { "LoadCredentialEncrypted", FS },
        { "SetCredential", FS },
        { "SetCredentialEncrypted", FS },

        { "PrivateNetwork", NS },
        { "NetworkNamespacePath", NS },
        { "PrivateIPC", NS },
        { "IPCNamespacePath", NS },
        { "PrivateUsers", NS },
        { "ProtectHostname", NS },
        { "ProtectClock", NS },

        { "User", ID },
        { "Group", ID },
        { "DynamicUser", ID },
        { "SupplementaryGroups", ID },

        { "Environment", ENV },
        { "EnvironmentFiles", ENV },
        { "PassEnvironment", ENV },
        { "UnsetEnvironment", ENV },
        { "WorkingDirectory", ENV },
        { "UMask", ENV },
        { "ExecSearchPath", ENV },

        { "NoNewPrivileges", SEC },
        { "CapabilityBoundingSet", SEC },
        { "AmbientCapabilities", SEC },
        { "SecureBits", SEC },
        { "SystemCallFilter", SEC },
        { "SystemCallArchitectures", SEC },
        { "SystemCallErrorNumber", SEC },
        { "SystemCallLog", SEC },
        { "RestrictAddressFamilies", SEC },
        { "RestrictFileSystems", SEC },
        { "RestrictNamespaces", SEC },
        { "RestrictRealtime", SEC },
        { "RestrictSUIDSGID", SEC },
        { "LockPersonality", SEC },
        { "MemoryDenyWriteExecute", SEC },
        { "Personality", SEC },
        { "KeyringMode", SEC },
        { "RemoveIPC", SEC },
        { "AppArmorProfile", SEC },
        { "SELinuxContext", SEC },
        { "SmackProcessLabel", SEC },

        { "DevicePolicy", CG },
        { "DeviceAllow", CG },
        { "IPAddressAllow", CG },
        { "IPAddressDeny", CG },
        { "IPIngressFilterPath", CG },
        { "IPEgressFilterPath", CG },
        { "RestrictNetworkInterfaces", CG },
        { "SocketBindAllow", CG },
        { "SocketBindDeny", CG },
        {},
};

const SandboxProperty *sandbox_property_find(const char *name) {
        assert(name);

        for (const SandboxProperty *p = sandbox_properties; p->name; p++)
                if (streq(p->name, name))
                        return p;
        return NULL;
}

/* With the reply inside the variant: is its value one that means "not set"? Leaves the reply
 * where it was. */
static int value_is_unset(sd_bus_message *reply, const char *contents) {
        int r, unset;

        switch (contents[0]) {
        case 's': {
                const char *s;

                r = sd_bus_message_read_basic(reply, 's', &s);
                if (r < 0)
                        return r;
                unset = isempty(s);
                break;
        }
        case 'b': {
                int b;

                r = sd_bus_message_read_basic(reply, 'b', &b);
                if (r < 0)
                        return r;
                unset = !b;
                break;
        }
        case 'a':
                r = sd_bus_message_enter_container(reply, 'a', contents + 1);
                if (r < 0)
                        return r;
                unset = sd_bus_message_at_end(reply, false) > 0;
                /* An array is left only at its end. */
                while ((r = sd_bus_message_at_end(reply, false)) == 0) {
                        r = sd_bus_message_skip(reply, NULL);
                        if (r < 0)
                                return r;
                }
                if (r >= 0)
                        r = sd_bus_message_exit_container(reply);
                if (r < 0)
                        return r;
                break;
        default:
                return 0;
        }
        r = sd_bus_message_rewind(reply, false);
        return r < 0 ? r : unset;
}

/* With the reply inside a (bs) variant: appends it as the string the setter takes. */
static int copy_label(sd_bus_message *m, sd_bus_message *reply, const char *name) {
        _cleanup_free_ char *value = NULL;
        const char *label;
        int ignore, r;

        r = sd_bus_message_read(reply, "(bs)", &ignore, &label);
        if (r >= 0)
                r = sd_bus_message_exit_container(reply);
        if (r < 0)
                return r;
        if (isempty(label))
                return 0;
        if (asprintf(&value, "%s%s", ignore ? "-" : "", label) < 0)
                return -ENOMEM;
        r = sd_bus_message_append(m, "(sv)", name, "s", value);
        return r < 0 ? r : 1;
}

/* With the reply inside the WorkingDirectory variant: "!/dir" (missing is fine) reads back as "!" but
 * is set with "-", as in unit files. */
static int copy_working_directory(sd_bus_message *m, sd_bus_message *reply) {
        _cleanup_free_ char *value = NULL;
        const char *dir;
        int r;

        r = sd_bus_message_read_basic(reply, 's', &dir);
        if (r >= 0)
                r = sd_bus_message_exit_container(reply);
        if (r < 0)
                return r;
        if (isempty(dir))
                return 0;
        value = strdup(dir);
        if (!value)
                return -ENOMEM;
        if (value[0] == '!')
                value[0] = '-';
        r = sd_bus_message_append(m, "(sv)", "WorkingDirectory", "s", value);
        return r < 0 ? r : 1;
}

/* Copies the variant the reply is at into m as (sv), unless its value means "not set". */
static int copy_one(sd_bus_message *m, sd_bus_message *reply, const char *name) {
        const char *contents;
        char type;
        int r;

        r = sd_bus_message_peek_type(reply, &type, &contents);
        if (r < 0)
                return r;
        r = sd_bus_message_enter_container(reply, 'v', contents);
        if (r < 0)
                return r;

        /* SELinuxContext=, AppArmorProfile=, SmackProcessLabel= read as (ignore, label) but are set as
         * one string, "-label" for "ignore errors". */
        if (streq(contents, "(bs)"))
                return copy_label(m, reply, name);
        if (streq(name, "WorkingDirectory"))
                return copy_working_directory(m, reply);

        r = value_is_unset(reply, contents);
        if (r < 0)
                return r;
        if (r > 0) {
                r = sd_bus_message_skip(reply, contents);
                if (r >= 0)
                        r = sd_bus_message_exit_container(reply);
                return r < 0 ? r : 0;
        }

        r = sd_bus_message_open_container(m, 'r', "sv");
        if (r >= 0)
                r = sd_bus_message_append_basic(m, 's', name);
        if (r >= 0)
                r = sd_bus_message_open_container(m, 'v', contents);
        if (r >= 0)
                r = sd_bus_message_copy(m, reply, true);
        if (r >= 0)
                r = sd_bus_message_close_container(m);
        if (r >= 0)
                r = sd_bus_message_close_container(m);
        if (r >= 0)
                r = sd_bus_message_exit_container(reply);
        if (r < 0)
                return r;
        log_debug("Copying %s=.", name);
        return 1;
}

int sandbox_properties_copy(sd_bus_message *m, sd_bus_message *reply, bool *ret_runtime_dirs) {
        bool runtime_dirs = false;
        int r, n = 0;

        assert(m);
        assert(reply);
        assert(ret_runtime_dirs);

        r = sd_bus_message_enter_container(reply, 'a', "{sv}");
        if (r < 0)
                return r;
        for (;;) {
                const char *name;

                r = sd_bus_message_enter_container(reply, 'e', "sv");
                if (r < 0)
                        return r;
                if (r == 0)
                        break;
                r = sd_bus_message_read_basic(reply, 's', &name);
                if (r < 0)
                        return r;

                if (sandbox_property_find(name)) {
                        r = copy_one(m, reply, name);
                        if (r < 0)
                                return r;
                        n += r;
                        if (r > 0 && streq(name, "RuntimeDirectory"))
                                runtime_dirs = true;
                } else {
                        r = sd_bus_message_skip(reply, "v");
                        if (r < 0)
                                return r;
                }

                r = sd_bus_message_exit_container(reply);
                if (r < 0)
                        return r;
        }
        r = sd_bus_message_exit_container(reply);
        if (r < 0)
                return r;

        *ret_runtime_dirs = runtime_dirs;
        return n;
}
