/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Checking a detached OpenPGP signature with gpgv (never a parser of our own).
 */
#pragma once

#include <stddef.h>

/** Where keys are looked for when --keyring= is not given (systemd-importd's files). */
#define DEFAULT_KEYRINGS { "/etc/systemd/import-pubring.gpg", "/usr/lib/systemd/import-pubring.gpg" }

/**
 * Verify that sig (binary or ASCII-armoured) signs data, with a key from keyring (NULL: the default).
 * @v error  the reason on failure
 * @ret 0, -EBADMSG for a bad or unknown signature, -ENOENT when gpgv or the keyring is missing
 */
int verify_signature(const void *data, size_t data_size, const void *sig, size_t sig_size, const char *keyring,
                     char *error, size_t error_size);
