/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Files systemd-stub picks up from the ESP and passes to the initrd as cpio archives (cpio.h), each
 * archive measured as one EV_IPL event: credentials (*.cred) and system and configuration extension
 * images (*.raw, *.confext.raw) from the directory beside the UKI ("<UKI>.extra.d") and from the
 * global directories \loader\credentials and \loader\extensions. The table is systemd 262's, in its
 * order; a UKI that came over HTTP has no ESP and picks up nothing.
 *
 * Which files: regular files whose name is ASCII, at most 255 characters, does not start with a dot,
 * ends in the suffix (letters in any case) and not in the excluded one (.raw takes system
 * extensions; *.confext.raw are configuration extensions); sorted by name.
 */
#pragma once

#include "cpio.h"
#include "measure-event.h"

typedef enum StubSidecarKind {
        STUB_SIDECAR_PARAMETERS,        /* counts for StubPcrKernelParameters */
        STUB_SIDECAR_SYSEXTS,           /* StubPcrInitRDSysExts */
        STUB_SIDECAR_CONFEXTS,          /* StubPcrInitRDConfExts */
} StubSidecarKind;

typedef struct StubSidecar {
        const char *global_dir;         /* "\loader\credentials"; NULL: the UKI's own "<UKI>.extra.d" */
        const char *suffix;
        const char *exclude_suffix;     /* or NULL */
        const char *target_dir;         /* in the initrd, e.g. ".extra/credentials" */
        uint32_t dir_mode;
        uint32_t file_mode;
        uint32_t pcr;
        const char *description;        /* of the event */
        StubSidecarKind kind;
} StubSidecar;

/** Sidecar i of systemd's list, in its order; NULL past the end. */
const StubSidecar *stub_sidecar(size_t i);

/** Whether the stub takes this file name for the sidecar. */
bool stub_sidecar_wants(const StubSidecar *s, const char *name);

/** The directory beside a UKI: its path with ".extra.d" appended (new string, ffree()); NULL when out of memory. */
char *stub_sidecar_extra_dir(const char *uki_path);

/**
 * The archive of the files (sorted here) and its event.
 * @v ret_archive  new buffer (ffree()); the event points into it
 * @ret 0, -E2BIG, -ENOMEM
 */
int stub_sidecar_pack(const StubSidecar *s, CpioFile *files, size_t n, void **ret_archive, size_t *ret_size,
                      MeasureEvent *ret_event);
