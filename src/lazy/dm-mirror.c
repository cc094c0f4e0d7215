/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * dm-raid1 table and status strings (the kernel's dm-raid1.c and dm-log.c formats).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-mirror.h"

#define LEGS_MAX 7

int mirror_status_parse(const char *s, MirrorStatus *ret) {
        MirrorStatus st = {};
        unsigned long long a, b;
        unsigned features;
        int n;

        /* <#legs> <dev>... <in-sync>/<regions> 1 <health letters> <log status...> */
        if (sscanf(s, "%u%n", &st.legs, &n) != 1 || st.legs < 1 || st.legs > LEGS_MAX)
                return -EBADMSG;
        s += n;
        for (unsigned i = 0; i < st.legs; i++) {
                char dev[32];

                if (sscanf(s, " %31s%n", dev, &n) != 1)
                        return -EBADMSG;
                s += n;
        }
        if (sscanf(s, " %llu/%llu %u %7s%n", &a, &b, &features, st.health, &n) != 4 || features != 1 || a > b ||
            b == 0 || strlen(st.health) != st.legs)
                return -EBADMSG;
        st.in_sync = a;
        st.regions = b;
        *ret = st;
        return 0;
}

bool mirror_status_healthy(const MirrorStatus *s) {
        return s->legs > 0 && strspn(s->health, "A") == s->legs;
}

char *mirror_table_params(const char *remote, const char *local, uint64_t region_sectors) {
        char *p;

        if (asprintf(&p, "core 2 %llu sync 2 %s 0 %s 0", (unsigned long long) region_sectors, remote, local) < 0)
                return NULL;
        return p;
}

char *linear_table_params(const char *device) {
        char *p;

        if (asprintf(&p, "%s 0", device) < 0)
                return NULL;
        return p;
}
