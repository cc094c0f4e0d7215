/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The blocks a boot read, in the order it first read them. The lazy disk's plugin records them
 * (record=FILE: one image offset per line, as each block is first read for the boot); served beside
 * the image as IMAGE.readahead, the list lets the next boots' plugin fetch those blocks, several at a
 * time, before the boot asks for them one after another (the boot then waits for a round trip less
 * often). The list only says what to fetch first: every block is still checked as it is decoded and,
 * with roothash=, by dm-verity.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOOT_READS_MAX 65536            /* offsets in a list (64 GiB of 1 MiB frames) */
#define BOOT_READS_FILE_MAX (1U << 20)  /* bytes of a list: 65536 lines of up to 15 digits fit */

typedef struct BootReads {
        uint64_t *offset;               /* in the order first read */
        size_t n;
        uint64_t *sorted;               /* the same, sorted: what was seen (recording) */
        size_t allocated;
} BootReads;

/** Parse a list: one decimal image offset per line; empty lines and '#' comments are skipped, a repeat
 * is dropped (the first place counts). @ret 0, -EBADMSG (error says which line), -E2BIG, -ENOMEM */
int boot_reads_parse(const char *text, size_t size, BootReads *ret, char *error, size_t error_size);

/** Add offset unless it is in the list already. @ret 1 added, 0 known, -E2BIG full, -ENOMEM */
int boot_reads_add(BootReads *r, uint64_t offset);

void boot_reads_done(BootReads *r);
