/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Discoverable Partitions Specification: partition type UUIDs and the automatic root choice.
 *
 * The root of a disk image is the partition with the root type of the machine's architecture; with
 * several, the one whose label has the newest version (systemd's version order), never one flagged
 * "no-auto" (GPT attribute bit 63).
 */
#pragma once

#include "macro-fundamental.h"

#define GPT_ROOT_X86_64 "4f68bce3-e8cd-4db1-96e7-fbcaf984b709"
#define GPT_ROOT_ARM64 "b921b045-1df0-41c3-af44-4c6f280d3fae"
#define GPT_ROOT_X86 "44479540-f297-41b2-9af7-d131d5f0458a"
#define GPT_ROOT_ARM "69dad710-2ce4-4e3c-b16c-21a1d49abed3"
#define GPT_ROOT_RISCV64 "72ec70a6-cf74-40e6-bd49-4bda08e8f224"
#define GPT_ESP "c12a7328-f81f-11d2-ba4b-00a0c93ec93b"
#define GPT_XBOOTLDR "bc13c2ff-59e6-4262-a352-b275fd6f7172"

#define GPT_FLAG_NO_AUTO (UINT64_C(1) << 63)

/** The root partition type of the architecture this was built for (NULL if it has none). */
const char *gpt_root_type_native(void);

/** Compare two UUID strings ignoring case; false for NULL. */
bool gpt_uuid_equal(const char *a, const char *b);

typedef struct GptPartition {
        const char *type;       /* type UUID, any case */
        const char *uuid;       /* partition UUID */
        const char *label;      /* may be NULL */
        uint64_t flags;         /* GPT attribute bits */
} GptPartition;

/**
 * Choose the root partition: the native root type, not no-auto, not labelled "_empty", the newest
 * label; the first of equals.
 * @v root_type  the type to look for (normally gpt_root_type_native())
 * @ret index into partitions, or -1 when there is none
 */
int gpt_pick_root(const GptPartition *partitions, size_t n, const char *root_type);
