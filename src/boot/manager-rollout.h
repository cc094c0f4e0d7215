/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A rollout: the entry list a server offers, its trust and generation, the choice among its versions,
 * counting their starts and fetch failures.
 */
#pragma once

#include <efi.h>

#include "boot-entry.h"

/**
 * A rollout (loader.conf "urlboot-entries URL"): fetch the entry list the server offers - a PE image with
 * .entries and .rollout sections, as urlbootctl build-manager --generation= makes it (rollout-list.h) - and
 * add its entries. It is trusted when LoadImage verified it (Secure Boot: db, or shim's keys) or it came over
 * https with our pinned CA; otherwise it is ignored with one line. A list of a lower generation than the one
 * this machine took last is refused, and so is one that cannot be fetched: the list kept then is offered.
 * Entries without a pin (urlboot-sha256) are skipped.
 */
void rollout_collect(Menu *m, EFI_HANDLE image);

/**
 * The rollout's choice among its entries that were not tried in this boot yet, as the default (*index);
 * logged. @ret whether it chose one
 */
bool rollout_default(Menu *m, unsigned *index);

/** A rollout entry's UKI could not be fetched, or its bytes were refused: no try, a fetch failure counted. */
void rollout_note_fetch_failure(Menu *m, unsigned index);

/**
 * Right before a rollout entry's verified UKI starts: count the start if it is on trial, say which runs and
 * why (with its pin), and arm the hardware watchdog for a version on trial whose command line hands it to
 * systemd (trial-watchdog.h).
 */
void rollout_starting(Menu *m, BootEntry *e, EFI_HANDLE child);
