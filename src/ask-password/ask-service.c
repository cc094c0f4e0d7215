/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The io.systemd.AskPassword service.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ask-file.h"
#include "ask-keyring.h"
#include "ask-password-interface.h"
#include "ask-polkit.h"
#include "ask-request.h"
#include "ask-service.h"
#include "log.h"
#include "passwords.h"
#include "string-util.h"
#include "varlink-connection.h"
#include "varlink-json.h"
#include "varlink-server.h"
#include "varlink-standard.h"

static int check_cache(void *userdata, char ***ret) {
        return ask_keyring_read(userdata, ret);
}

/* v258's order: the keyring first when cached passwords are welcome; with a deadline of 0
 * nothing else; otherwise an ask file, watching the keyring meanwhile. */
static int acquire_passwords(const AskServiceConfig *config, const AskRequest *req, uint64_t deadline, int hup_fd,
                             char ***ret) {
        bool use_cache = req->accept_cached && req->keyname;
        int r;

        if (use_cache) {
                r = ask_keyring_read(req->keyname, ret);
                if (r != -ENOKEY)
                        return r;
        }
        if (deadline == 0)
                return -EUNATCH;

        AskQuestion q = {
                .directory = config->directory,
                .message = req->message,
                .icon = req->icon,
                .id = req->id,
                .accept_cached = req->accept_cached,
                .echo = req->echo,
                .not_after = deadline,
                .hup_fd = hup_fd,
                .check_cache = use_cache ? check_cache : NULL,
                .userdata = (void *) req->keyname,
        };
        r = ask_file_query(&q, ret);
        if (r < 0)
                return r;

        if (req->keyname && req->push_cache) {
                r = ask_keyring_push(req->keyname, *ret);
                if (r < 0)
                        log_debug_errno(r, "Failed to add the password to the kernel keyring, ignoring: %m");
                else if (r > 0)
                        (void) ask_file_touch_directory(config->directory);
        }
        return 0;
}

/* {"parameters":{"passwords":[...]}} built in memory that is wiped afterwards. */
static int reply_passwords(VarlinkLink *link, char *const *passwords) {
        SecretText t = {};
        int r;

        secret_text_puts(&t, "{\"parameters\":{\"passwords\":[");
        for (size_t i = 0; passwords[i]; i++) {
                if (i > 0)
                        secret_text_puts(&t, ",");
                secret_text_append_json_string(&t, passwords[i]);
        }
        secret_text_puts(&t, "]}}");
        r = t.failed ? -ENOMEM : varlink_link_reply_text(link, t.data, t.len);
        secret_text_done(&t);
        return r;
}

static int method_ask(VarlinkLink *link, struct json_object *parameters, VarlinkCallFlags flags, void *userdata) {
        const AskServiceConfig *config = userdata;
        _cleanup_passwords_ char **passwords = NULL;
        const char *bad_field = NULL;
        AskRequest req;
        int r;

        r = ask_request_parse(parameters, &req, &bad_field);
        if (r < 0)
                return varlink_link_error_invalid_parameter(link, bad_field);

        switch (ask_polkit_check(varlink_link_peer(link), req.allow_interactive_authentication)) {
        case ASK_ACCESS_ALLOWED:
                break;
        case ASK_ACCESS_NEEDS_INTERACTION:
                return varlink_link_error(link, VARLINK_ERROR_INTERACTIVE_AUTHENTICATION_REQUIRED, NULL);
        default:
                return varlink_link_error(link, VARLINK_ERROR_PERMISSION_DENIED, NULL);
        }

        r = acquire_passwords(config, &req, ask_request_deadline(&req, varlink_now_usec()), varlink_link_fd(link),
                              &passwords);
        switch (r) {
        case 0:
                return reply_passwords(link, passwords);
        case -EUNATCH:
                return varlink_link_error(link, ASK_PASSWORD_ERROR_NO_PASSWORD, NULL);
        case -ETIME:
                return varlink_link_error(link, ASK_PASSWORD_ERROR_TIMEOUT, NULL);
        case -ECONNRESET:
                /* The caller hung up: the question is withdrawn, nobody is left to answer. */
                varlink_link_close(link);
                return 0;
        case -EINTR:
                /* SIGINT/SIGTERM: answer, then end this connection's process. */
                (void) varlink_link_error_errno(link, EINTR);
                varlink_link_close(link);
                return 0;
        default:
                return r;
        }
}

static const VarlinkInterface *const interfaces[] = { &ask_password_interface, NULL };

static const VarlinkMethodBinding methods[] = {
        { "io.systemd.AskPassword.Ask", method_ask },
        {},
};

/* An Ask call is a few hundred bytes: anyone may connect, so nobody gets more parsed for them (the
 * library's default is 16 MiB). */
#define ASK_MESSAGE_MAX (64U * 1024U)

static VarlinkService service_for(const AskServiceConfig *config) {
        const char *pidfd = secure_getenv("URLBOOT_VARLINK_PEER_PIDFD");

        return (VarlinkService) {
                .vendor = "urlboot",
                .product = "urlboot (urlboot-ask-password)",
                .version = URLBOOT_VERSION,
                .url = "man:urlboot-ask-password(1)",
                .interfaces = interfaces,
                .methods = methods,
                .userdata = (void *) config,
                .buffer_max = ASK_MESSAGE_MAX,
                .message_timeout_usec = config->message_timeout_usec == UINT64_MAX ? 0 : config->message_timeout_usec,
                .peer_without_pidfd = pidfd && streq(pidfd, "0"),
        };
}

int ask_service_serve(const AskServiceConfig *config, int fd) {
        VarlinkService s = service_for(config);

        assert(config);

        return varlink_service_serve(&s, fd);
}

int ask_service_listen(const AskServiceConfig *config, int listen_fd) {
        VarlinkService s = service_for(config);

        assert(config);

        return varlink_service_listen(&s, listen_fd);
}
