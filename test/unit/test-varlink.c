/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for the Varlink layer: framing, JSON, messages, interface text and checks, and a server
 * on a socketpair driven with raw bytes (partial writes, pipelining, oneway, more, limits, a peer that
 * does not read its replies). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "tests.h"
#include "varlink-client.h"
#include "varlink-frame.h"
#include "varlink-idl.h"
#include "varlink-json.h"
#include "varlink-members.h"
#include "string-util.h"
#include "varlink-message.h"
#include "varlink-server.h"
#include "varlink-standard.h"

/* ---- framing ---- */

TEST(frame_partial_and_several) {
        VarlinkFrame f;
        char *m;
        size_t n;

        varlink_frame_init(&f, 64);
        ASSERT_OK(varlink_frame_feed(&f, "{\"a\"", 4));
        ASSERT_EQ(varlink_frame_next(&f, &m, &n), 0);
        ASSERT_OK(varlink_frame_feed(&f, ":1}\0{}\0{\"b", 10));
        ASSERT_EQ(varlink_frame_next(&f, &m, &n), 1);
        ASSERT_STREQ(m, "{\"a\":1}");
        ASSERT_EQ(n, 7);
        ASSERT_EQ(varlink_frame_next(&f, &m, &n), 1);
        ASSERT_STREQ(m, "{}");
        ASSERT_EQ(varlink_frame_next(&f, &m, &n), 0);
        ASSERT_EQ(varlink_frame_pending(&f), 3);
        ASSERT_OK(varlink_frame_feed(&f, "\"}\0", 3));
        ASSERT_EQ(varlink_frame_next(&f, &m, &n), 1);
        ASSERT_STREQ(m, "{\"b\"}");
        ASSERT_EQ(varlink_frame_pending(&f), 0);
        varlink_frame_done(&f);
}

TEST(frame_limit) {
        VarlinkFrame f;
        char big[100], *m, *dst;
        size_t n, room;

        memset(big, 'x', sizeof(big));
        varlink_frame_init(&f, 16);
        /* 15 bytes and the NUL fit exactly. */
        ASSERT_OK(varlink_frame_feed(&f, big, 15));
        ASSERT_OK(varlink_frame_feed(&f, "", 1));
        ASSERT_EQ(varlink_frame_next(&f, &m, &n), 1);
        ASSERT_EQ(n, 15);
        /* 16 bytes without a NUL fill the buffer: refused, and nothing beyond is ever taken. */
        ASSERT_OK(varlink_frame_feed(&f, big, 16));
        ASSERT_EQ(varlink_frame_next(&f, &m, &n), -EMSGSIZE);
        ASSERT_EQ(varlink_frame_reserve(&f, 1, &dst, &room), -EMSGSIZE);
        ASSERT_EQ(varlink_frame_feed(&f, big, 1), -EMSGSIZE);
        ASSERT_TRUE(f.allocated <= 16);
        varlink_frame_done(&f);

        /* A feed larger than the limit is cut at the limit. */
        varlink_frame_init(&f, 16);
        ASSERT_EQ(varlink_frame_feed(&f, big, sizeof(big)), -EMSGSIZE);
        ASSERT_EQ(varlink_frame_pending(&f), 16);
        varlink_frame_done(&f);
}

TEST(frame_byte_by_byte) {
        static const char stream[] = "{\"method\":\"a.b.C\"}\0{\"method\":\"a.b.D\",\"oneway\":true}\0";
        VarlinkFrame f;
        int messages = 0;

        varlink_frame_init(&f, 0);
        for (size_t i = 0; i < sizeof(stream) - 1; i++) {
                char *m;
                size_t n;

                ASSERT_OK(varlink_frame_feed(&f, stream + i, 1));
                while (varlink_frame_next(&f, &m, &n) > 0)
                        messages++;
        }
        ASSERT_EQ(messages, 2);
        varlink_frame_done(&f);
}

/* ---- JSON ---- */

static int parse(const char *s, struct json_object **ret) {
        return varlink_json_parse(s, strlen(s), ret);
}

TEST(json_strict) {
        static const char *const bad[] = {
                "", " ", "nonsense", "{", "{}x", "{} {}", "{'a':1}", "{\"a\":1,}", "[1,]", "{\"a\":NaN}",
                "{\"a\":\"\\u0000\"}", "{\"a\\u0000\":1}", "{\"a\":\"\xff\"}", "/* c */{}", "{\"a\":01}",
        };
        struct json_object *o = NULL;

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                if (parse(bad[i], &o) != -EBADMSG)
                        test_fail(__FILE__, __LINE__, "accepted: %s", bad[i]);
        }

        ASSERT_OK(parse(" {\"a\":[1,2.5,\"\\\\u0000\",null,true]} \n", &o));
        ASSERT_TRUE(json_object_is_type(o, json_type_object));
        json_object_put(o);

        /* Deep nesting stops at the depth limit. */
        char deep[2 * (VARLINK_JSON_DEPTH_MAX + 1) + 1] = {};
        for (int i = 0; i <= VARLINK_JSON_DEPTH_MAX; i++) {
                deep[i] = '[';
                deep[VARLINK_JSON_DEPTH_MAX + 1 + i] = ']';
        }
        ASSERT_EQ(parse(deep, &o), -EBADMSG);
}

TEST(json_uint64) {
        static const struct {
                const char *json;
                int r;
                uint64_t v;
        } cases[] = {
                { "0", 0, 0 },
                { "18446744073709551615", 0, UINT64_MAX },
                { "\"18446744073709551615\"", 0, UINT64_MAX },
                { "\"18446744073709551616\"", -ERANGE, 0 },
                { "2000000.0", 0, 2000000 },
                { "-1", -ERANGE, 0 },
                { "1.5", -ERANGE, 0 },
                { "1e30", -ERANGE, 0 },
                { "\"abc\"", -EINVAL, 0 },
                { "\"\"", -EINVAL, 0 },
                { "true", -EINVAL, 0 },
        };

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                _cleanup_json_ struct json_object *o = NULL;
                uint64_t v = 0;

                ASSERT_OK(parse(cases[i].json, &o));
                ASSERT_EQ(varlink_json_get_uint64(o, &v), cases[i].r);
                if (cases[i].r == 0 && v != cases[i].v)
                        test_fail(__FILE__, __LINE__, "%s: %ju", cases[i].json, (uintmax_t) v);
        }
}

TEST(secret_text) {
        SecretText t = {};

        secret_text_puts(&t, "[");
        secret_text_append_json_string(&t, "a\"b\\c\n\x01é");
        secret_text_puts(&t, "]");
        ASSERT_FALSE(t.failed);
        ASSERT_STREQ(t.data, "[\"a\\\"b\\\\c\\u000a\\u0001é\"]");

        _cleanup_json_ struct json_object *o = NULL;
        ASSERT_OK(varlink_json_parse(t.data, t.len, &o));
        ASSERT_STREQ(json_object_get_string(json_object_array_get_idx(o, 0)), "a\"b\\c\n\x01é");
        varlink_json_wipe_strings(o);
        ASSERT_EQ(json_object_get_string(json_object_array_get_idx(o, 0))[0], 0);
        secret_text_done(&t);
        ASSERT_TRUE(t.data == NULL);
}

/* ---- messages ---- */

static int call_from(const char *s, VarlinkCall *c, struct json_object **keep) {
        ASSERT_OK(parse(s, keep));
        return varlink_call_parse(*keep, c);
}

TEST(call_parse) {
        static const char *const bad[] = {
                "[1]", "{}", "{\"method\":5}", "{\"method\":\"a.b\",\"parameters\":[]}",
                "{\"method\":\"a.b\",\"upgrade\":true}", "{\"method\":\"a.b\",\"x\":1}",
                "{\"method\":\"a.b\",\"oneway\":true,\"more\":false}", "{\"method\":\"a.b\",\"more\":true,\"oneway\":true}",
                "{\"method\":\"a.b\",\"more\":1}",
        };
        struct json_object *o = NULL;
        VarlinkCall c;

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                if (call_from(bad[i], &c, &o) != -EBADMSG)
                        test_fail(__FILE__, __LINE__, "accepted: %s", bad[i]);
                json_object_put(o);
        }

        ASSERT_OK(call_from("{\"method\":\"a.b.C\",\"parameters\":null,\"more\":false,\"oneway\":true}", &c, &o));
        ASSERT_STREQ(c.method, "a.b.C");
        ASSERT_TRUE(c.parameters == NULL);
        ASSERT_EQ(c.flags, VARLINK_CALL_ONEWAY);
        json_object_put(o);
}

TEST(reply_format_and_parse) {
        _cleanup_free_ char *a = varlink_reply_format(NULL, NULL, false);
        _cleanup_free_ char *b = varlink_reply_format("x.y.Z", NULL, false);
        _cleanup_free_ char *c = varlink_call_format("a.b.C", NULL, VARLINK_CALL_MORE);
        struct json_object *o = NULL;
        VarlinkReply r;

        ASSERT_STREQ(a, "{\"parameters\":{}}");
        ASSERT_STREQ(b, "{\"error\":\"x.y.Z\"}");
        ASSERT_STREQ(c, "{\"method\":\"a.b.C\",\"parameters\":{},\"more\":true}");

        ASSERT_OK(parse("{\"error\":\"e\",\"continues\":true}", &o));
        ASSERT_EQ(varlink_reply_parse(o, &r), -EBADMSG);
        json_object_put(o);
        ASSERT_OK(parse("{\"parameters\":null}", &o));
        ASSERT_OK(varlink_reply_parse(o, &r));
        ASSERT_TRUE(!r.error && !r.parameters && !r.continues);
        json_object_put(o);
}

/* ---- interfaces ---- */

static void check_golden(const VarlinkInterface *iface) {
        _cleanup_free_ char *want = NULL, *got = varlink_idl_format_full(iface, false);
        char name[128];

        snprintf(name, sizeof(name), "varlink/%s.varlink", iface->name);
        ASSERT_OK(read_full_file(test_data_path(name), 1024 * 1024, &want, NULL));
        ASSERT_STREQ(got, want);
}

TEST(standard_interfaces_text) {
        /* The golden files are what systemd 262 returns for GetInterfaceDescription, without its
         * comments (ours are our own words). */
        check_golden(&varlink_interface_org_varlink_service);
        check_golden(&varlink_interface_io_systemd);
}

static const VarlinkSymbol test_mode = {
        .type = VARLINK_ENUM_TYPE,
        .name = "Mode",
        .fields = (const VarlinkField[]) {
                VARLINK_ENUM_VALUE_DEF(NULL, "fast"),
                VARLINK_ENUM_VALUE_DEF(NULL, "slow"),
                VARLINK_FIELDS_END,
        },
};

static const VarlinkSymbol test_echo = {
        .type = VARLINK_METHOD,
        .name = "Echo",
        .fields = (const VarlinkField[]) {
                VARLINK_INPUT_FIELD(NULL, "text", VARLINK_STRING, 0),
                VARLINK_INPUT_FIELD(NULL, "n", VARLINK_INT, VARLINK_NULLABLE),
                VARLINK_INPUT_ENUM_FIELD(NULL, "mode", "Mode", VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD(NULL, "list", VARLINK_BOOL, VARLINK_NULLABLE | VARLINK_ARRAY),
                VARLINK_OUTPUT_FIELD(NULL, "text", VARLINK_STRING, 0),
                VARLINK_FIELDS_END,
        },
};

static const VarlinkSymbol test_count = {
        .type = VARLINK_METHOD,
        .name = "Count",
        .fields = (const VarlinkField[]) {
                VARLINK_INPUT_FIELD(NULL, "n", VARLINK_INT, 0),
                VARLINK_OUTPUT_FIELD(NULL, "i", VARLINK_INT, 0),
                VARLINK_FIELDS_END,
        },
        .requires_more = true,
};

static const VarlinkSymbol test_fail_method = {
        .type = VARLINK_METHOD,
        .comment = "Always fails",
        .name = "Fail",
        .fields = (const VarlinkField[]) { VARLINK_FIELDS_END },
};

static const VarlinkInterface test_interface = {
        .name = "org.example.test",
        .comment = "A test",
        .symbols = (const VarlinkSymbol *const[]) { &test_mode, &test_echo, &test_count, &test_fail_method, NULL },
};

TEST(idl_format) {
        _cleanup_free_ char *text = varlink_idl_format(&test_interface);

        ASSERT_STREQ(text,
                     "# A test\n"
                     "interface org.example.test\n"
                     "\n"
                     "type Mode(\n\tfast,\n\tslow\n)\n"
                     "\n"
                     "method Echo(\n\ttext: string,\n\tn: ?int,\n\tmode: ?Mode,\n\tlist: ?[]bool\n) -> (\n\ttext: string\n)\n"
                     "\n"
                     "method Count(\n\tn: int\n) -> (\n\ti: int\n)\n"
                     "\n"
                     "# Always fails\n"
                     "method Fail() -> ()\n");
}

static const char *validate_method(const char *method, const char *params, bool more) {
        static char bad[64];
        _cleanup_json_ struct json_object *o = NULL;
        const char *field = NULL;
        const VarlinkSymbol *m;
        int r;

        ASSERT_OK(parse(params, &o));
        m = varlink_idl_find_symbol(&test_interface, VARLINK_METHOD, method);
        r = varlink_idl_validate_call(&test_interface, m, o, more, &field);
        if (r == 0)
                return "ok";
        if (r == -EBADE)
                return "more";
        snprintf(bad, sizeof(bad), "%s", field);
        return bad;
}

static const char *validate(const char *params, bool more) {
        return validate_method("Echo", params, more);
}

TEST(idl_validate) {
        ASSERT_STREQ(validate("{\"text\":\"x\"}", false), "ok");
        ASSERT_STREQ(validate("{}", false), "text");
        ASSERT_STREQ(validate("{\"text\":null}", false), "text");
        ASSERT_STREQ(validate("{\"text\":1}", false), "text");
        ASSERT_STREQ(validate("{\"text\":\"x\",\"n\":\"12\",\"mode\":\"slow\",\"list\":[true]}", false), "ok");
        ASSERT_STREQ(validate("{\"text\":\"x\",\"n\":1.5}", false), "n");
        ASSERT_STREQ(validate("{\"text\":\"x\",\"n\":3.0,\"mode\":null}", false), "ok");
        ASSERT_STREQ(validate("{\"text\":\"x\",\"mode\":\"medium\"}", false), "mode");
        ASSERT_STREQ(validate("{\"text\":\"x\",\"list\":[1]}", false), "list");
        /* Known fields first, in the interface's order, then unknown keys. */
        ASSERT_STREQ(validate("{\"zzz\":1,\"mode\":true,\"text\":\"x\"}", false), "mode");
        ASSERT_STREQ(validate("{\"text\":\"x\",\"zzz\":1}", false), "zzz");
        ASSERT_STREQ(validate_method("Count", "{\"n\":1}", false), "more");
        ASSERT_STREQ(validate_method("Count", "{\"n\":1}", true), "ok");
}

/* ---- a server on a socketpair ---- */

static int handle_echo(VarlinkLink *l, struct json_object *p, VarlinkCallFlags flags, void *userdata) {
        struct json_object *text;

        (void) json_object_object_get_ex(p, "text", &text);
        _cleanup_json_ struct json_object *reply = json_object_new_object();
        json_object_object_add(reply, "text", json_object_get(text));
        return varlink_link_reply(l, reply);
}

static int handle_count(VarlinkLink *l, struct json_object *p, VarlinkCallFlags flags, void *userdata) {
        struct json_object *n;
        uint64_t count;
        int r;

        (void) json_object_object_get_ex(p, "n", &n);
        r = varlink_json_get_uint64(n, &count);
        if (r < 0)
                return varlink_link_error_invalid_parameter(l, "n");
        for (uint64_t i = 0; i < count; i++) {
                _cleanup_json_ struct json_object *reply = json_object_new_object();

                json_object_object_add(reply, "i", json_object_new_int64((int64_t) i));
                r = i + 1 < count ? varlink_link_notify(l, reply) : varlink_link_reply(l, reply);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int handle_fail(VarlinkLink *l, struct json_object *p, VarlinkCallFlags flags, void *userdata) {
        return -ECANCELED;
}

static const VarlinkService test_service = {
        .vendor = "Test Vendor",
        .product = "test",
        .version = "1",
        .url = "https://example.org/",
        .interfaces = (const VarlinkInterface *const[]) { &test_interface, NULL },
        .methods = (const VarlinkMethodBinding[]) {
                { "org.example.test.Echo", handle_echo },
                { "org.example.test.Count", handle_count },
                { "org.example.test.Fail", handle_fail },
                {},
        },
        .buffer_max = 4096,
};

/* Starts the test service on one end of a socketpair, in a child; returns the other end. */
static int start_server(pid_t *ret_pid) {
        int sv[2];
        pid_t pid;

        ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
        pid = fork();
        ASSERT_TRUE(pid >= 0);
        if (pid == 0) {
                close(sv[0]);
                _exit(varlink_service_serve(&test_service, sv[1]) < 0 ? 1 : 0);
        }
        close(sv[1]);
        *ret_pid = pid;
        return sv[0];
}

/* Everything the server sends until it hangs up ("<EOF>" appended) or goes quiet for a moment
 * (nothing appended), with the NUL separators shown as "|". */
static char *transcript(int fd, const char *input, size_t len, bool shut) {
        static char out[65536];
        size_t n = 0;

        ASSERT_EQ(write(fd, input, len), (ssize_t) len);
        if (shut)
                ASSERT_OK(shutdown(fd, SHUT_WR));
        for (;;) {
                struct pollfd p = { .fd = fd, .events = POLLIN };
                ssize_t k;

                /* The quiet period only ends waiting for replies that never come (oneway, pending). */
                if (poll(&p, 1, 500) <= 0)
                        break;
                k = read(fd, out + n, sizeof(out) - n - 8);
                if (k <= 0) {
                        strcpy(out + n, "<EOF>");
                        return out;
                }
                n += (size_t) k;
        }
        out[n] = 0;
        for (size_t i = 0; i < n; i++)
                if (out[i] == 0)
                        out[i] = '|';
        out[n] = 0;
        return out;
}

#define S(lit) lit, sizeof(lit) - 1

static void finish_server(int fd, pid_t pid) {
        int status;

        close(fd);
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(server_pipelined_oneway_more_errors) {
        pid_t pid;
        int fd = start_server(&pid);
        char *out;

        out = transcript(fd,
                         S("{\"method\":\"org.example.test.Echo\",\"parameters\":{\"text\":\"a\"}}\0"
                           "{\"method\":\"org.example.test.Echo\",\"parameters\":{\"text\":\"skip\"},\"oneway\":true}\0"
                           "{\"method\":\"org.example.test.Count\",\"parameters\":{\"n\":3},\"more\":true}\0"
                           "{\"method\":\"org.example.test.Count\",\"parameters\":{\"n\":1}}\0"
                           "{\"method\":\"org.example.test.Fail\"}\0"
                           "{\"method\":\"org.example.test.Nope\"}\0"
                           "{\"method\":\"org.example.test.Echo\",\"parameters\":{\"text\":\"x\",\"y\":1}}\0"),
                         false);
        ASSERT_STREQ(out,
                     "{\"parameters\":{\"text\":\"a\"}}|"
                     "{\"parameters\":{\"i\":0},\"continues\":true}|"
                     "{\"parameters\":{\"i\":1},\"continues\":true}|"
                     "{\"parameters\":{\"i\":2}}|"
                     "{\"error\":\"org.varlink.service.ExpectedMore\"}|"
                     "{\"error\":\"io.systemd.System\",\"parameters\":{\"origin\":\"linux\",\"errno\":125,\"errnoName\":\"ECANCELED\"}}|"
                     "{\"error\":\"org.varlink.service.MethodNotFound\",\"parameters\":{\"method\":\"org.example.test.Nope\"}}|"
                     "{\"error\":\"org.varlink.service.InvalidParameter\",\"parameters\":{\"parameter\":\"y\"}}|");
        finish_server(fd, pid);
}

TEST(server_introspection) {
        pid_t pid;
        int fd = start_server(&pid);
        char *out;

        out = transcript(fd, S("{\"method\":\"org.varlink.service.GetInfo\"}\0"), false);
        ASSERT_STREQ(out, "{\"parameters\":{\"vendor\":\"Test Vendor\",\"product\":\"test\",\"version\":\"1\","
                          "\"url\":\"https://example.org/\",\"interfaces\":[\"io.systemd\",\"org.example.test\","
                          "\"org.varlink.service\"]}}|");
        out = transcript(fd, S("{\"method\":\"org.varlink.service.GetInterfaceDescription\",\"parameters\":{\"interface\":\"x.y\"}}\0"
                               "{\"method\":\"org.varlink.service.GetInterfaceDescription\"}\0"
                               "{\"method\":\"org.varlink.service.GetInfo\",\"parameters\":{\"a\":1}}\0"),
                         false);
        ASSERT_STREQ(out, "{\"error\":\"org.varlink.service.InterfaceNotFound\",\"parameters\":{\"interface\":\"x.y\"}}|"
                          "{\"error\":\"org.varlink.service.InvalidParameter\",\"parameters\":{\"parameter\":\"interface\"}}|"
                          "{\"error\":\"org.varlink.service.InvalidParameter\",\"parameters\":{\"parameter\":\"a\"}}|");
        finish_server(fd, pid);
}

TEST(server_split_writes) {
        static const char msg[] = "{\"method\":\"org.example.test.Echo\",\"parameters\":{\"text\":\"split\"}}";
        pid_t pid;
        int fd = start_server(&pid);

        /* One byte at a time, the NUL last. */
        for (size_t i = 0; i < sizeof(msg) - 1; i++)
                ASSERT_EQ(write(fd, msg + i, 1), 1);
        ASSERT_STREQ(transcript(fd, "", 1, false), "{\"parameters\":{\"text\":\"split\"}}|");
        finish_server(fd, pid);
}

static void expect_hangup(const char *input, size_t len, bool shut, const char *want) {
        pid_t pid;
        int fd = start_server(&pid);

        ASSERT_STREQ(transcript(fd, input, len, shut), want);
        finish_server(fd, pid);
}

TEST(server_protocol_errors_close) {
        char big[5000];

        expect_hangup(S("nonsense\0"), false, "<EOF>");
        expect_hangup(S("{\"method\":\"org.varlink.service.GetInfo\"} x\0"), false, "<EOF>");
        expect_hangup(S("\0"), false, "<EOF>");
        expect_hangup(S("{\"method\":\"org.varlink.service.GetInfo\",\"upgrade\":true}\0"), false, "<EOF>");
        expect_hangup(S("[]\0"), false, "<EOF>");
        /* A message without its NUL is never answered; the end of the stream closes quietly. */
        expect_hangup(S("{\"method\":\"org.varlink.service.GetInfo\"}"), true, "<EOF>");
        /* Answers already due are sent before a bad message closes the connection. */
        expect_hangup(S("{\"method\":\"org.example.test.Echo\",\"parameters\":{\"text\":\"ok\"}}\0{\0"), false,
                      "{\"parameters\":{\"text\":\"ok\"}}\0<EOF>");

        /* Over the 4096-byte limit of the test service, without a NUL: the connection ends. */
        memset(big, ' ', sizeof(big));
        expect_hangup(big, sizeof(big), false, "<EOF>");
}

/* ---- a peer that does not read its replies (security review 2026-12-06, G5) ---- */

#define TIMEOUT_USEC (1000U * 1000U)

/* The test service with a message timeout of 1 s, its end of the socketpair with a small send buffer
 * and ours with a small receive buffer, so that a few unread replies fill them. */
static int start_timed_server(pid_t *ret_pid) {
        int sv[2], small = 4096;
        pid_t pid;

        ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
        ASSERT_EQ(setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &small, sizeof small), 0);
        ASSERT_EQ(setsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &small, sizeof small), 0);
        pid = fork();
        ASSERT_TRUE(pid >= 0);
        if (pid == 0) {
                VarlinkService s = test_service;

                s.message_timeout_usec = TIMEOUT_USEC;
                close(sv[0]);
                _exit(varlink_service_serve(&s, sv[1]) < 0 ? 1 : 0);
        }
        close(sv[1]);
        *ret_pid = pid;
        return sv[0];
}

/* Sends GetInfo calls, reading nothing, until the socket has taken no byte for 200 ms: the server
 * stopped reading. Returns how many whole calls went out. */
static unsigned send_until_stalled(int fd) {
        static const char call[] = "{\"method\":\"org.varlink.service.GetInfo\"}"; /* with its NUL */
        size_t pos = 0;
        unsigned calls = 0;

        while (calls < 1000000) {
                struct pollfd p = { .fd = fd, .events = POLLOUT };
                ssize_t k = send(fd, call + pos, sizeof call - pos, MSG_DONTWAIT | MSG_NOSIGNAL);

                if (k > 0) {
                        pos += (size_t) k;
                        if (pos == sizeof call) {
                                pos = 0;
                                calls++;
                        }
                        continue;
                }
                if (k < 0 && errno != EAGAIN && errno != EINTR)
                        break; /* hung up on already */
                if (poll(&p, 1, 200) == 0)
                        break;
        }
        return calls;
}

/* Waits (at most max_usec) for the server to hang up, without reading; its time, or UINT64_MAX. */
static uint64_t wait_hangup(int fd, uint64_t max_usec) {
        struct pollfd p = { .fd = fd, .events = 0 }; /* POLLHUP and POLLERR are always reported */

        if (poll(&p, 1, (int) (max_usec / 1000)) <= 0)
                return UINT64_MAX;
        return varlink_now_usec();
}

TEST(server_peer_never_reads) {
        uint64_t start = varlink_now_usec(), stalled, hangup;
        unsigned calls;
        int status;
        pid_t pid;
        int fd = start_timed_server(&pid);

        calls = send_until_stalled(fd);
        stalled = varlink_now_usec();
        hangup = wait_hangup(fd, 10 * TIMEOUT_USEC);
        if (hangup == UINT64_MAX)
                (void) kill(pid, SIGKILL); /* still blocked writing: the bug */
        close(fd);
        ASSERT_EQ(waitpid(pid, &status, 0), pid);

        ASSERT_TRUE(calls > 0);
        /* Closed within 3x the message timeout of the caller seeing it stop reading ... */
        ASSERT_TRUE(hangup != UINT64_MAX);
        ASSERT_TRUE(hangup - stalled <= 3 * TIMEOUT_USEC);
        /* ... but not before a reply waited for the whole message timeout. */
        ASSERT_TRUE(hangup - start >= TIMEOUT_USEC);
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(server_slow_reader_gets_every_reply) {
        unsigned calls, replies = 0;
        char buf[4096];
        ssize_t k;
        pid_t pid;
        int fd = start_timed_server(&pid);

        /* The server is blocked writing when the caller starts reading, well within the deadline. */
        calls = send_until_stalled(fd);
        ASSERT_OK(shutdown(fd, SHUT_WR));
        while ((k = read(fd, buf, sizeof buf)) > 0)
                for (ssize_t i = 0; i < k; i++)
                        replies += buf[i] == 0;
        ASSERT_EQ(k, 0);
        ASSERT_TRUE(calls > 0);
        ASSERT_EQ(replies, calls);
        finish_server(fd, pid);
}

/* ---- the client against the same server ---- */

static void finish_server_client(VarlinkClient *c, pid_t pid) {
        int status;

        varlink_client_done(c);
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(client_calls) {
        VarlinkClient c = { .conn.fd = -1 };
        _cleanup_json_ struct json_object *p = json_object_new_object();
        VarlinkReply r;
        pid_t pid;
        int fd = start_server(&pid);

        varlink_connection_init(&c.conn, fd, 0);
        json_object_object_add(p, "text", json_object_new_string("secret"));
        ASSERT_OK(varlink_client_call(&c, "org.example.test.Echo", p, VARLINK_INFINITY, &r));
        ASSERT_TRUE(!r.error && !r.continues);
        ASSERT_STREQ(json_object_get_string(json_object_object_get(r.parameters, "text")), "secret");

        json_object_object_add(p, "n", json_object_new_int(2));
        json_object_object_del(p, "text");
        ASSERT_OK(varlink_client_send(&c, "org.example.test.Count", p, VARLINK_CALL_MORE));
        ASSERT_OK(varlink_client_read(&c, VARLINK_INFINITY, &r));
        ASSERT_TRUE(r.continues);
        ASSERT_OK(varlink_client_read(&c, VARLINK_INFINITY, &r));
        ASSERT_FALSE(r.continues);

        ASSERT_OK(varlink_client_call(&c, "org.example.test.Fail", NULL, VARLINK_INFINITY, &r));
        ASSERT_STREQ(r.error, "io.systemd.System");
        ASSERT_EQ(json_object_get_int(json_object_object_get(r.parameters, "errno")), ECANCELED);

        /* Oneway: nothing comes back, the next call's reply is the next message. */
        ASSERT_OK(varlink_client_send(&c, "org.example.test.Fail", NULL, VARLINK_CALL_ONEWAY));
        ASSERT_OK(varlink_client_call(&c, "org.varlink.service.GetInfo", NULL, VARLINK_INFINITY, &r));
        ASSERT_STREQ(json_object_get_string(json_object_object_get(r.parameters, "product")), "test");

        finish_server_client(&c, pid);

        /* A server going away before answering is a reset, not a hang. */
        int sv[2];
        ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
        varlink_connection_init(&c.conn, sv[0], 0);
        ASSERT_OK(varlink_client_send(&c, "x.y.Z", NULL, 0));
        close(sv[1]);
        ASSERT_EQ(varlink_client_read(&c, VARLINK_INFINITY, &r), -ECONNRESET);
        varlink_client_done(&c);
}

TEST(errno_names) {
        ASSERT_STREQ(varlink_errno_name(-ECANCELED), "ECANCELED");
        ASSERT_STREQ(varlink_errno_name(EINTR), "EINTR");
        ASSERT_EQ(varlink_errno_from_name("ENOENT"), ENOENT);
        ASSERT_EQ(varlink_errno_from_name("EBOGUS"), -EINVAL);
}

/* Names given twice, as sd-varlink sees them (issue 33): decoded names compare, only the message's own
 * members and those of "parameters" count. */
TEST(duplicate_members) {
        static const struct { const char *text; int want; const char *name; } cases[] = {
                { "{\"method\":\"a.b.C\",\"parameters\":{\"x\":1,\"y\":2}}", 0, NULL },
                { "{\"method\":\"a.b.C\",\"method\":\"a.b.D\"}", VARLINK_DUPLICATE_IN_MESSAGE, "method" },
                { "{\"method\":\"a.b.C\",\"parameters\":{\"\\u0061\":1,\"a\":2}}", VARLINK_DUPLICATE_IN_PARAMETERS, "a" },
                { "{\"parameters\":{\"k\":{\"z\":1,\"z\":2}}}", 0, NULL }, /* deeper: the method's own business */
                { "{\"p\\u00e9\":1,\"p\xc3\xa9\":2}", VARLINK_DUPLICATE_IN_MESSAGE, "p\xc3\xa9" },
                { "{\"a\":[{\"b\":1,\"b\":1}],\"c\":\"}\"}", 0, NULL },
                { "[1,2]", 0, NULL },
        };

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                char *name = NULL;
                int r = varlink_json_duplicate_member(cases[i].text, strlen(cases[i].text), &name);

                if (r != cases[i].want || (cases[i].name && (!name || !streq(name, cases[i].name))))
                        test_fail(__FILE__, __LINE__, "case %zu: %d %s", i, r, name ?: "-");
                free(name);
        }
}
