/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The client side of Varlink.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "macro.h"
#include "string-util.h"
#include "varlink-client.h"
#include "varlink-json.h"

int varlink_client_connect(VarlinkClient *c, const char *address) {
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        const char *path = startswith(address, "unix:") ?: address;
        int fd;

        assert(c);
        assert(address);

        *c = (VarlinkClient) { .conn.fd = -1 };
        if (strlen(path) >= sizeof(sa.sun_path))
                return -ENAMETOOLONG;
        strcpy(sa.sun_path, path);

        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return -errno;
        if (connect(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
                int r = -errno;

                (void) close(fd);
                return r;
        }
        varlink_connection_init(&c->conn, fd, 0);
        return 0;
}

static void client_drop_current(VarlinkClient *c) {
        if (!c->current)
                return;
        varlink_json_wipe_strings(c->current);
        json_object_put(c->current);
        c->current = NULL;
}

void varlink_client_done(VarlinkClient *c) {
        assert(c);

        client_drop_current(c);
        varlink_connection_done(&c->conn);
}

int varlink_client_send(VarlinkClient *c, const char *method, struct json_object *parameters, VarlinkCallFlags flags) {
        _cleanup_free_ char *text = varlink_call_format(method, parameters, flags);

        assert(c);
        assert(method);

        if (!text)
                return -ENOMEM;
        /* Only the newest call's flags are remembered: pipelining "more" calls is not supported. */
        c->pending = flags;
        c->awaiting = !(flags & VARLINK_CALL_ONEWAY);
        return varlink_connection_send(&c->conn, text, strlen(text), VARLINK_INFINITY);
}

int varlink_client_read(VarlinkClient *c, uint64_t timeout_usec, VarlinkReply *ret) {
        struct json_object *msg = NULL;
        int r;

        assert(c);
        assert(ret);

        client_drop_current(c);
        r = varlink_connection_read(&c->conn, timeout_usec, &msg);
        if (r == 0)
                return -ECONNRESET;
        if (r < 0)
                return r == -EMSGSIZE ? -EBADMSG : r;
        c->current = msg;

        r = varlink_reply_parse(msg, ret);
        if (r < 0)
                return r;
        if (ret->continues && !(c->pending & VARLINK_CALL_MORE))
                return -EBADMSG;
        if (!ret->continues)
                c->awaiting = false;
        return 0;
}

int varlink_client_call(VarlinkClient *c, const char *method, struct json_object *parameters, uint64_t timeout_usec,
                        VarlinkReply *ret) {
        int r;

        assert(c);
        assert(method);
        assert(ret);

        r = varlink_client_send(c, method, parameters, 0);
        if (r < 0)
                return r;
        return varlink_client_read(c, timeout_usec, ret);
}
