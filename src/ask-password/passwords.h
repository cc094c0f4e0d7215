/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Lists of passwords (NULL-terminated string vectors) that are wiped when freed, and their
 * NUL-separated form used by the agent protocol and the kernel keyring.
 */
#pragma once

#include <stddef.h>

#include "macro.h"

/** Wipe every string, then free the list. */
char **passwords_free(char **l);
static inline void passwords_freep(char ***l) {
        passwords_free(*l);
}
#define _cleanup_passwords_ _cleanup_(passwords_freep)

size_t passwords_count(char *const *l);

/**
 * Split NUL-separated passwords as v258 does: one item per NUL, a final NUL is optional
 * ("a\0b\0" and "a\0b" are both a and b; "\0" is one empty password; 0 bytes is none).
 * @ret  0 or -ENOMEM
 */
int passwords_from_nulstr(const char *data, size_t size, char ***ret);

/** Join with NUL separators and no final NUL (the keyring's form); *ret is wiped-on-free memory of *ret_size bytes. */
int passwords_to_nulstr(char *const *l, char **ret, size_t *ret_size);

/** Append the passwords of add missing from *l, keeping the order. */
int passwords_merge(char ***l, char *const *add);

/** Wipe and free a buffer of size bytes. */
void secret_free(void *p, size_t size);
