/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The device-mapper tables of a lazy disk and what the kernel says about them.
 *
 * While the copy runs the disk is a "mirror" (dm-raid1, as pvmove uses it): leg 0 the nbd device, the
 * source of the resynchronisation, leg 1 the local copy, with an in-memory ("core") region log that
 * starts out of sync, so the kernel copies every region in the background. When the status reports
 * all regions in sync, the table becomes "linear" over the local leg alone.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

typedef struct MirrorStatus {
        unsigned legs;
        uint64_t in_sync;       /* regions copied */
        uint64_t regions;
        char health[8];         /* one letter per leg: A alive, D dead, S sync failed, R read failed, U other */
} MirrorStatus;

/**
 * Parse the status line of a "mirror" target: "2 43:0 7:0 12/16 1 AA 1 core".
 * @ret 0, -EBADMSG
 */
int mirror_status_parse(const char *s, MirrorStatus *ret);

/** Whether every leg is healthy. */
bool mirror_status_healthy(const MirrorStatus *s);

/**
 * The "mirror" table parameters: leg 0 remote, leg 1 local, regions of region_sectors (a power of
 * two), in-memory log, every region to be copied.
 * @ret the newly allocated string, NULL without memory
 */
char *mirror_table_params(const char *remote, const char *local, uint64_t region_sectors);

/** "DEVICE 0": a linear map of a whole device. */
char *linear_table_params(const char *device);
