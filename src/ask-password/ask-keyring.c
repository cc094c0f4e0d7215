/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The kernel keyring as password cache.
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <keyutils.h>

#include "ask-keyring.h"
#include "passwords.h"
#include "string-util.h"

#define KEYRING_TIMEOUT_SEC 150 /* v258: 2.5 minutes */
#define KEYRING_TIMEOUT_INFINITY UINT64_MAX

static uint64_t keyring_timeout_sec(void) {
        const char *e = secure_getenv("SYSTEMD_ASK_PASSWORD_KEYRING_TIMEOUT_SEC");
        char *end;
        unsigned long long v;

        if (!e)
                return KEYRING_TIMEOUT_SEC;
        if (streq(e, "infinity"))
                return KEYRING_TIMEOUT_INFINITY;
        errno = 0;
        v = strtoull(e, &end, 10);
        if (errno != 0 || end == e || !(streq(end, "") || streq(end, "s")))
                return KEYRING_TIMEOUT_SEC; /* invalid: ignored, as systemd does */
        return v;
}

static key_serial_t keyring_type(void) {
        static const struct {
                const char *name;
                key_serial_t spec;
        } names[] = {
                { "thread", KEY_SPEC_THREAD_KEYRING },   { "process", KEY_SPEC_PROCESS_KEYRING },
                { "session", KEY_SPEC_SESSION_KEYRING }, { "user", KEY_SPEC_USER_KEYRING },
                { "user-session", KEY_SPEC_USER_SESSION_KEYRING }, { "group", KEY_SPEC_GROUP_KEYRING },
        };
        const char *e = secure_getenv("SYSTEMD_ASK_PASSWORD_KEYRING_TYPE");
        char *end;
        long v;

        if (!e)
                return KEY_SPEC_USER_KEYRING;
        errno = 0;
        v = strtol(e, &end, 10);
        if (errno == 0 && end != e && *end == 0)
                return v >= 0 && v <= INT32_MAX ? (key_serial_t) v : KEY_SPEC_USER_KEYRING;
        for (size_t i = 0; i < ELEMENTSOF(names); i++)
                if (streq(e, names[i].name))
                        return names[i].spec;
        return KEY_SPEC_USER_KEYRING;
}

/* The key's passwords; -ENOKEY when there is none. */
static int keyring_lookup(const char *keyname, key_serial_t *ret_serial, char ***ret) {
        key_serial_t serial;
        void *data = NULL;
        long size;
        int r;

        serial = request_key("user", keyname, NULL, 0);
        if (serial < 0)
                return -errno;

        size = keyctl_read_alloc(serial, &data);
        if (size < 0)
                return -errno;
        r = passwords_from_nulstr(data, (size_t) size, ret);
        secret_free(data, (size_t) size);
        if (r < 0)
                return r;
        *ret_serial = serial;
        return 0;
}

int ask_keyring_read(const char *keyname, char ***ret) {
        _cleanup_passwords_ char **l = NULL;
        key_serial_t serial;
        int r;

        assert(keyname);
        assert(ret);

        r = keyring_lookup(keyname, &serial, &l);
        /* Keyrings missing or forbidden (containers) are as good as an empty cache; EACCES is
         * kept: the key is there but not ours to read. */
        if (r == -ENOSYS || r == -EOPNOTSUPP || r == -EPERM || r == -EKEYEXPIRED || r == -EKEYREVOKED)
                return -ENOKEY;
        if (r < 0)
                return r;
        if (passwords_count(l) == 0)
                return -ENOKEY;
        *ret = TAKE_PTR(l);
        return 0;
}

int ask_keyring_push(const char *keyname, char *const *passwords) {
        _cleanup_passwords_ char **l = NULL;
        uint64_t timeout = keyring_timeout_sec();
        key_serial_t serial;
        char *data;
        size_t size;
        int r;

        assert(keyname);

        if (timeout == 0 || passwords_count(passwords) == 0)
                return 0;

        r = keyring_lookup(keyname, &serial, &l);
        if (r < 0 && r != -ENOKEY)
                return r;
        r = passwords_merge(&l, passwords);
        if (r < 0)
                return r;
        r = passwords_to_nulstr(l, &data, &size);
        if (r < 0)
                return r;

        serial = add_key("user", keyname, data, size, keyring_type());
        r = serial < 0 ? -errno : 0;
        secret_free(data, size + 1);
        if (r < 0)
                return r;

        if (timeout != KEYRING_TIMEOUT_INFINITY)
                (void) keyctl_set_timeout(serial, timeout > UINT32_MAX ? UINT32_MAX : (unsigned) timeout);
        return 1;
}
