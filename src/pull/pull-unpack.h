/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The unpacking thread of an attempt: reads the download from the ring buffer and decodes it into
 * the temporary file (raw) or tree (tar).
 */
#pragma once

/** pthread start routine; the result is in Attempt.unpack_result. */
void *pull_unpack_thread(void *attempt);
