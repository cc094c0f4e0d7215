/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* urlboot-unit-shell --new-sandbox: which properties of a unit are copied into the transient service, and
 * how (real sd-bus messages, as the manager's GetAll reply and StartTransientUnit carry them). The man page
 * must name every copied property. */
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
#include <systemd/sd-bus.h>

#include "fileio.h"
#include "sandbox-properties.h"
#include "string-util.h"
#include "tests.h"

TEST(man_page_lists_every_copied_property) {
        _cleanup_free_ char *man = NULL;
        int n = 0;

        ASSERT_OK(read_full_file(test_data_path("../../man/urlboot-unit-shell.1"), 1024 * 1024, &man, NULL));
        for (const SandboxProperty *p = sandbox_properties; p->name; p++) {
                char needle[128];

                snprintf(needle, sizeof(needle), "%s=", p->name);
                if (!strstr(man, needle))
                        test_fail(__FILE__, __LINE__, "man/urlboot-unit-shell.1 does not name %s", needle);
                n++;
        }
        test_note("%d properties, all in the man page", n);
        ASSERT_TRUE(sandbox_property_find("PrivateTmp"));
        ASSERT_FALSE(sandbox_property_find("ExecStart"));
        ASSERT_FALSE(sandbox_property_find("MemoryMax"));
}

/* A bus object that can build messages: never connected to anything. */
static sd_bus *message_factory(void) {
        int fds[2];
        sd_bus *bus;

        ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0 ? -errno : 0);
        ASSERT_OK(sd_bus_new(&bus));
        ASSERT_OK(sd_bus_set_fd(bus, fds[0], fds[0]));
        ASSERT_OK(sd_bus_start(bus));
        close(fds[1]);
        return bus;
}

/* What a GetAll("org.freedesktop.systemd1.Service") reply holds, in short. */
static sd_bus_message *fake_getall(sd_bus *bus) {
        sd_bus_message *m;

        ASSERT_OK(sd_bus_message_new(bus, &m, SD_BUS_MESSAGE_METHOD_RETURN));
        ASSERT_OK(sd_bus_message_append(m, "a{sv}", 13,
                                        "Type", "s", "simple",                   /* not sandbox */
                                        "PrivateTmp", "b", 1,                    /* copied */
                                        "PrivateNetwork", "b", 0,                /* false: the default */
                                        "RootDirectory", "s", "",                /* empty: the default */
                                        "ProtectSystem", "s", "strict",          /* copied */
                                        "ReadWritePaths", "as", 2, "/var/lib/a", "-/srv/b", /* copied */
                                        "InaccessiblePaths", "as", 0,            /* empty list */
                                        "BindPaths", "a(ssbt)", 1, "/x", "/y", 1, (uint64_t) 16384,
                                        "RuntimeDirectory", "as", 1, "foo",
                                        "SELinuxContext", "(bs)", 1, "system_u:ctx", /* set as "-system_u:ctx" */
                                        "AppArmorProfile", "(bs)", 0, "",        /* no profile */
                                        "WorkingDirectory", "s", "!/var/lib/x",  /* set as "-/var/lib/x" */
                                        "MemoryMax", "t", (uint64_t) 1024));      /* resource, not copied */
        ASSERT_OK(sd_bus_message_seal(m, 1, 0));
        ASSERT_OK(sd_bus_message_rewind(m, true));
        return m;
}

TEST(copy_keeps_settings_and_types) {
        sd_bus *bus = message_factory();
        sd_bus_message *reply = fake_getall(bus), *m;
        const char *name, *s, *dst, *contents;
        char type;
        uint64_t flags;
        int b, ignore, found = 0;
        bool runtime_dirs = false;

        ASSERT_OK(sd_bus_message_new(bus, &m, SD_BUS_MESSAGE_METHOD_CALL));
        ASSERT_OK(sd_bus_message_open_container(m, 'a', "(sv)"));
        ASSERT_EQ(sandbox_properties_copy(m, reply, &runtime_dirs), 7);
        ASSERT_OK(sd_bus_message_close_container(m));
        ASSERT_OK(sd_bus_message_seal(m, 2, 0));
        ASSERT_TRUE(runtime_dirs);

        ASSERT_OK(sd_bus_message_rewind(m, true));
        ASSERT_OK(sd_bus_message_enter_container(m, 'a', "(sv)"));
        while (sd_bus_message_enter_container(m, 'r', "sv") > 0) {
                ASSERT_OK(sd_bus_message_read(m, "s", &name));
                ASSERT_OK(sd_bus_message_peek_type(m, &type, &contents));
                if (streq(name, "PrivateTmp")) {
                        ASSERT_OK(sd_bus_message_read(m, "v", "b", &b));
                        ASSERT_TRUE(b);
                } else if (streq(name, "ProtectSystem")) {
                        ASSERT_OK(sd_bus_message_read(m, "v", "s", &s));
                        ASSERT_STREQ(s, "strict");
                } else if (streq(name, "ReadWritePaths")) {
                        char **l = NULL;

                        ASSERT_STREQ(contents, "as");
                        ASSERT_OK(sd_bus_message_enter_container(m, 'v', "as"));
                        ASSERT_OK(sd_bus_message_read_strv(m, &l));
                        ASSERT_EQ(strv_length(l), 2);
                        ASSERT_STREQ(l[1], "-/srv/b");
                        strv_free(l);
                        ASSERT_OK(sd_bus_message_exit_container(m));
                } else if (streq(name, "BindPaths")) {
                        ASSERT_STREQ(contents, "a(ssbt)");
                        ASSERT_OK(sd_bus_message_read(m, "v", "a(ssbt)", 1, &s, &dst, &ignore, &flags));
                        ASSERT_STREQ(dst, "/y");
                        ASSERT_EQ(flags, 16384);
                } else if (streq(name, "SELinuxContext")) {
                        ASSERT_STREQ(contents, "s");
                        ASSERT_OK(sd_bus_message_read(m, "v", "s", &s));
                        ASSERT_STREQ(s, "-system_u:ctx");
                } else if (streq(name, "WorkingDirectory")) {
                        ASSERT_OK(sd_bus_message_read(m, "v", "s", &s));
                        ASSERT_STREQ(s, "-/var/lib/x");
                } else if (streq(name, "RuntimeDirectory"))
                        ASSERT_OK(sd_bus_message_skip(m, "v"));
                else
                        test_fail(__FILE__, __LINE__, "%s should not have been copied", name);
                ASSERT_OK(sd_bus_message_exit_container(m));
                found++;
        }
        ASSERT_EQ(found, 7);

        sd_bus_message_unref(m);
        sd_bus_message_unref(reply);
        sd_bus_close_unref(bus);
}
