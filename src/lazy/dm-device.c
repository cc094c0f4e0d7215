/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Device-mapper devices through libdevmapper.
 */
#include <assert.h>
#include <errno.h>
#include <libdevmapper.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dm-device.h"
#include "macro.h"

static void quiet(int level, const char *file, int line, int dm_errno_or_class, const char *f, ...) {
}

static struct dm_task *task_new(int type, const char *name) {
        static bool initialized;
        struct dm_task *t;

        if (!initialized) {
                dm_log_with_errno_init(quiet);
                /* The node is devtmpfs's /dev/dm-N; never wait for udev rules that may not be there. */
                dm_udev_set_sync_support(0);
                initialized = true;
        }
        t = dm_task_create(type);
        if (t && name && !dm_task_set_name(t, name)) {
                dm_task_destroy(t);
                return NULL;
        }
        return t;
}

/* libdevmapper keeps the kernel's errno only in its log calls: the best we can say is "I/O error". */
static int task_run(struct dm_task *t) {
        int r = dm_task_run(t) ? 0 : -EIO;

        dm_task_update_nodes();
        return r;
}

static int wait_for_node(const char *node) {
        for (int i = 0; i < 500; i++) {
                if (access(node, F_OK) == 0)
                        return 0;
                nanosleep(&(struct timespec) { .tv_nsec = 10 * 1000 * 1000 }, NULL);
        }
        return -ENODEV;
}

int dm_device_create(const char *name, const char *uuid, uint64_t sectors, const char *type, const char *params,
                     bool read_only, char **ret_node) {
        struct dm_task *t;
        struct dm_info info;
        int r;

        assert(name);
        assert(type);
        assert(params);
        assert(ret_node);

        if (dm_device_exists(name))
                return -EEXIST;
        t = task_new(DM_DEVICE_CREATE, name);
        if (!t)
                return -ENOMEM;
        if ((uuid && !dm_task_set_uuid(t, uuid)) || !dm_task_add_target(t, 0, sectors, type, params) ||
            (read_only && !dm_task_set_ro(t))) {
                dm_task_destroy(t);
                return -ENOMEM;
        }
        r = task_run(t);
        if (r >= 0 && (!dm_task_get_info(t, &info) || !info.exists))
                r = -EIO;
        dm_task_destroy(t);
        if (r < 0)
                return r;

        if (asprintf(ret_node, "/dev/dm-%u", info.minor) < 0)
                return -ENOMEM;
        return wait_for_node(*ret_node);
}

static int simple(int type, const char *name) {
        struct dm_task *t = task_new(type, name);
        int r;

        if (!t)
                return -ENOMEM;
        r = task_run(t);
        dm_task_destroy(t);
        return r;
}

int dm_device_replace_table(const char *name, uint64_t sectors, const char *type, const char *params, bool read_only) {
        struct dm_task *t;
        int r;

        assert(name);
        assert(type);
        assert(params);

        t = task_new(DM_DEVICE_RELOAD, name);
        if (!t)
                return -ENOMEM;
        if (!dm_task_add_target(t, 0, sectors, type, params) || (read_only && !dm_task_set_ro(t))) {
                dm_task_destroy(t);
                return -ENOMEM;
        }
        /* The new table waits in the kernel's inactive slot; resume swaps it in after suspending. */
        r = task_run(t);
        dm_task_destroy(t);
        if (r < 0)
                return r;
        r = simple(DM_DEVICE_SUSPEND, name);
        if (r < 0) {
                (void) simple(DM_DEVICE_CLEAR, name);
                return r;
        }
        r = simple(DM_DEVICE_RESUME, name);
        return r;
}

int dm_device_status(const char *name, char **ret_type, char **ret_params) {
        struct dm_task *t = task_new(DM_DEVICE_STATUS, name);
        uint64_t start, length;
        char *type = NULL, *params = NULL;
        int r;

        assert(name);
        assert(ret_type);
        assert(ret_params);

        if (!t)
                return -ENOMEM;
        r = task_run(t);
        if (r >= 0) {
                (void) dm_get_next_target(t, NULL, &start, &length, &type, &params);
                if (!type)
                        r = -ENODATA;
        }
        if (r >= 0) {
                *ret_type = strdup(type);
                *ret_params = strdup(params ?: "");
                if (!*ret_type || !*ret_params) {
                        free(*ret_type);
                        free(*ret_params);
                        r = -ENOMEM;
                }
        }
        dm_task_destroy(t);
        return r;
}

int dm_target_load(const char *type) {
        assert(type);
        return simple(DM_DEVICE_GET_TARGET_VERSION, type);
}

int dm_device_remove(const char *name) {
        assert(name);

        return simple(DM_DEVICE_REMOVE, name);
}

bool dm_device_exists(const char *name) {
        struct dm_task *t = task_new(DM_DEVICE_INFO, name);
        struct dm_info info;
        bool exists;

        assert(name);

        if (!t)
                return false;
        exists = task_run(t) >= 0 && dm_task_get_info(t, &info) && info.exists;
        dm_task_destroy(t);
        return exists;
}

char *linear_table_params(const char *device) {
        char *p;

        assert(device);

        if (asprintf(&p, "%s 0", device) < 0)
                return NULL;
        return p;
}
