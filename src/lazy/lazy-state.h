/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What urlboot-lazy records about a lazy disk in /run/urlboot/lazy/NAME.state, for "urlboot-lazy
 * status": KEY=VALUE lines, replaced atomically on every change. Times are CLOCK_BOOTTIME
 * microseconds (the kernel log's clock), so they line up with the boot's timeline.
 */
#pragma once

#include <stdint.h>

#define LAZY_STATE_DIR "/run/urlboot/lazy"

typedef enum LazyPhase {
        LAZY_STARTING,          /* setting up the devices */
        LAZY_REMOTE,            /* served from the network; the copy waits for the root to be mounted */
        LAZY_COPYING,           /* served from the network while urlboot-lazy copies it (copy-pace.h) */
        LAZY_LOCAL,             /* the copy is complete: served from memory, network no longer needed */
        LAZY_FAILED,
        _LAZY_PHASE_MAX,
        _LAZY_PHASE_INVALID = -1,
} LazyPhase;

const char *lazy_phase_to_string(LazyPhase p);
LazyPhase lazy_phase_from_string(const char *s);

typedef struct LazyState {
        char *name;             /* the image's local name, "rootdisk" */
        char *url;
        char *image;            /* the local copy, /run/machines/rootdisk.raw */
        char *device;           /* what udev and the root see: the loop device with the reference */
        char *mapper;           /* the device-mapper name */
        char *nbd;              /* /dev/nbdN while connected */
        char *local_loop;       /* the loop device over the local copy */
        char *verity;           /* what dm-verity checks: "roothash", "usrhash", "roothash,usrhash", "none" (verify=no) */
        LazyPhase phase;
        uint64_t size;
        uint64_t copied;        /* bytes of the disk done: in the local copy, or known zero */
        uint64_t zero;          /* bytes of zero blocks the verified trees name: never fetched */
        uint64_t skipped;       /* bytes the copy did not read (zero blocks, so far) */
        uint64_t stored;        /* bytes the complete local copy takes in memory (0 until then) */
        uint64_t fetched;       /* bytes read from the network: the boot's and the copy's */
        uint64_t fetched_at_root;       /* ... until /sysroot was mounted (0: not seen) */
        uint64_t started_usec, ready_usec, root_usec, copy_usec, local_usec;
        int pid, nbdkit_pid;
} LazyState;

void lazy_state_done(LazyState *s);

/** Write the state to path (atomically). */
int lazy_state_write(const char *path, const LazyState *s);

/** The same as NAME in the directory dir_fd refers to. */
int lazy_state_write_at(int dir_fd, const char *name, const LazyState *s);

/** Read a state file; unknown keys are ignored. @ret 0, -EBADMSG, -ENOENT... */
int lazy_state_read(const char *path, LazyState *ret);
