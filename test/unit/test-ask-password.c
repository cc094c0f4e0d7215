/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for urlboot-ask-password's pure parts: password lists in NUL-separated form, an Ask call's
 * parameters, deadlines, the text rule. (The protocol and the service: test/ask-password/.) */
#include <errno.h>
#include <stdlib.h>

#include "ask-password-interface.h"
#include "ask-request.h"
#include "fileio.h"
#include "passwords.h"
#include "tests.h"
#include "varlink-idl.h"
#include "varlink-json.h"

static void check_split(const char *data, size_t size, const char *want) {
        _cleanup_passwords_ char **l = NULL;
        char joined[256] = "";

        ASSERT_OK(passwords_from_nulstr(data, size, &l));
        for (size_t i = 0; l[i]; i++) {
                strcat(joined, "[");
                strcat(joined, l[i]);
                strcat(joined, "]");
        }
        ASSERT_STREQ(joined, want);
}

TEST(passwords_nulstr) {
        check_split("a\0b\0", 4, "[a][b]");
        check_split("a\0b", 3, "[a][b]");
        check_split("a\0\0", 3, "[a][]");
        check_split("\0", 1, "[]");
        check_split("", 0, "");
        check_split("pw", 2, "[pw]");
}

TEST(passwords_merge_and_join) {
        _cleanup_passwords_ char **l = NULL, **add = NULL;
        char *data;
        size_t size;

        ASSERT_OK(passwords_from_nulstr("a\0b", 3, &l));
        ASSERT_OK(passwords_from_nulstr("b\0c\0a", 5, &add));
        ASSERT_OK(passwords_merge(&l, add));
        ASSERT_EQ(passwords_count(l), 3);
        ASSERT_OK(passwords_to_nulstr(l, &data, &size));
        /* The keyring's form: separators between, no final NUL. */
        ASSERT_EQ(size, 5);
        ASSERT_TRUE(memcmp(data, "a\0b\0c", 5) == 0);
        secret_free(data, size + 1);
}

static const char *parse_bad(const char *json) {
        static char bad[64];
        _cleanup_json_ struct json_object *o = NULL;
        const char *field = NULL;
        AskRequest r;

        ASSERT_OK(varlink_json_parse(json, strlen(json), &o));
        if (ask_request_parse(o, &r, &field) == 0)
                return "ok";
        snprintf(bad, sizeof(bad), "%s", field);
        return bad;
}

TEST(request_parse) {
        _cleanup_json_ struct json_object *o = NULL;
        const char *field;
        AskRequest r;

        ASSERT_OK(ask_request_parse(NULL, &r, &field));
        ASSERT_EQ(r.timeout_usec, ASK_DEFAULT_TIMEOUT_USEC);
        ASSERT_TRUE(r.until_usec == UINT64_MAX && r.push_cache && !r.accept_cached && r.echo == ASK_ECHO_MASKED);

        const char *json = "{\"timeoutUSec\":null,\"untilUSec\":\" +0x10\",\"echo\":\"off\"}";

        ASSERT_OK(varlink_json_parse(json, strlen(json), &o));
        ASSERT_OK(ask_request_parse(o, &r, &field));
        ASSERT_TRUE(r.timeout_usec == UINT64_MAX);
        ASSERT_EQ(r.until_usec, 16);
        ASSERT_EQ(r.echo, ASK_ECHO_OFF);

        ASSERT_STREQ(parse_bad("{\"message\":\"fine: é\"}"), "ok");
        ASSERT_STREQ(parse_bad("{\"message\":null}"), "message");
        ASSERT_STREQ(parse_bad("{\"id\":\"a\\nb\"}"), "id");
        ASSERT_STREQ(parse_bad("{\"icon\":\"a\\u007fb\"}"), "icon");
        ASSERT_STREQ(parse_bad("{\"timeoutUSec\":\"-1\"}"), "timeoutUSec");
        ASSERT_STREQ(parse_bad("{\"timeoutUSec\":\"-0\"}"), "ok");
        ASSERT_STREQ(parse_bad("{\"timeoutUSec\":\"5 \"}"), "timeoutUSec");
        ASSERT_STREQ(parse_bad("{\"pushCache\":1}"), "pushCache");
        ASSERT_STREQ(parse_bad("{\"passwords\":[]}"), "passwords");
        /* The first bad field in the call's own order. */
        ASSERT_STREQ(parse_bad("{\"icon\":null,\"message\":null}"), "icon");
}

TEST(deadline) {
        AskRequest r = { .timeout_usec = 5, .until_usec = UINT64_MAX };

        ASSERT_EQ(ask_request_deadline(&r, 100), 105);
        r.until_usec = 103;
        ASSERT_EQ(ask_request_deadline(&r, 100), 103);
        r.until_usec = 0;
        ASSERT_EQ(ask_request_deadline(&r, 100), 0);
        r = (AskRequest) { .timeout_usec = 0, .until_usec = UINT64_MAX };
        ASSERT_EQ(ask_request_deadline(&r, 100), 0);
        /* No overflow: a huge relative timeout is "never". */
        r = (AskRequest) { .timeout_usec = UINT64_MAX - 10, .until_usec = UINT64_MAX };
        ASSERT_TRUE(ask_request_deadline(&r, 100) == UINT64_MAX);
}

TEST(text_rule) {
        ASSERT_TRUE(ask_text_is_safe("cryptsetup:/dev/sda5 Passphrase ü"));
        ASSERT_FALSE(ask_text_is_safe("a\"b"));
        ASSERT_FALSE(ask_text_is_safe("a'b"));
        ASSERT_FALSE(ask_text_is_safe("a\\b"));
        ASSERT_FALSE(ask_text_is_safe("a\tb"));
        ASSERT_FALSE(ask_text_is_safe("a\x7f"));
}

TEST(interface_text) {
        /* What systemd 262 returns for GetInterfaceDescription, line for line but for the comments
         * (our own words). */
        _cleanup_free_ char *want = NULL, *got = varlink_idl_format_full(&ask_password_interface, false);

        ASSERT_OK(read_full_file(test_data_path("varlink/io.systemd.AskPassword.varlink"), 1024 * 1024, &want, NULL));
        ASSERT_STREQ(got, want);
}
