/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The kernel keyring as password cache, as systemd v258 uses it: a "user" key named after the
 * query's keyname, found by request_key() from the keyrings this process can search, holding
 * the passwords NUL-separated. New passwords are merged into it (no duplicates), it expires
 * after 150 s, and it goes into the user keyring; $SYSTEMD_ASK_PASSWORD_KEYRING_TIMEOUT_SEC
 * (seconds or "infinity"; 0 disables pushing) and $SYSTEMD_ASK_PASSWORD_KEYRING_TYPE (a name
 * like "session" or a KEY_SPEC number) change both, as they do for systemd.
 */
#pragma once

/**
 * Cached passwords for keyname.
 * @ret  0 with a non-empty list; -ENOKEY if none (also when keyrings are unavailable); other errno
 */
int ask_keyring_read(const char *keyname, char ***ret);

/**
 * Merge passwords into the key for keyname and (re)set its timeout.
 * @ret  1 if the key was written, 0 if pushing is disabled or there is nothing to push, errno
 */
int ask_keyring_push(const char *keyname, char *const *passwords);
