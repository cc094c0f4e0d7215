/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The server side of Varlink.
 */
#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "string-util.h"
#include "varlink-connection.h"
#include "varlink-json.h"
#include "varlink-server.h"
#include "varlink-standard.h"

struct VarlinkLink {
        const VarlinkService *service;
        VarlinkConnection conn;
        ProcessIdentity peer;
        VarlinkCallFlags flags; /* of the call being handled */
        bool answered;          /* the final reply or error went out (or would have, for oneway) */
        bool closed;
        uint64_t timeout_usec;  /* each message read or written within (VARLINK_INFINITY: no limit) */
        int send_error;         /* a reply that did not go out: the connection ends (negative errno) */
};

static int link_send(VarlinkLink *l, const char *text, size_t len, bool final) {
        int r;

        if (l->closed || l->answered)
                return -EPROTO;
        if (l->send_error < 0)
                return l->send_error;
        if (final)
                l->answered = true;
        if (l->flags & VARLINK_CALL_ONEWAY)
                return 0;
        r = varlink_connection_send(&l->conn, text, len, l->timeout_usec);
        if (r < 0)
                l->send_error = r; /* part of it may be out: nothing after it could be framed */
        return r;
}

static int link_send_message(VarlinkLink *l, const char *error, struct json_object *parameters, bool continues) {
        _cleanup_free_ char *text = varlink_reply_format(error, parameters, continues);

        if (!text)
                return -ENOMEM;
        return link_send(l, text, strlen(text), !continues);
}

int varlink_link_reply(VarlinkLink *l, struct json_object *parameters) {
        assert(l);

        return link_send_message(l, NULL, parameters, false);
}

int varlink_link_notify(VarlinkLink *l, struct json_object *parameters) {
        assert(l);

        if (!(l->flags & VARLINK_CALL_MORE))
                return -EPROTO;
        return link_send_message(l, NULL, parameters, true);
}

int varlink_link_reply_text(VarlinkLink *l, const char *text, size_t len) {
        assert(l);
        assert(text || len == 0);

        return link_send(l, text, len, true);
}

int varlink_link_error(VarlinkLink *l, const char *error, struct json_object *parameters) {
        assert(l);
        assert(error);

        return link_send_message(l, error, parameters, false);
}

/* Errors with one string parameter: {"parameter":"x"}, {"method":"m"}, {"interface":"i"}. */
static int link_error_with_string(VarlinkLink *l, const char *error, const char *key, const char *value) {
        _cleanup_json_ struct json_object *p = json_object_new_object();

        if (!p || json_object_object_add(p, key, json_object_new_string(value)) < 0)
                return -ENOMEM;
        return varlink_link_error(l, error, p);
}

int varlink_link_error_invalid_parameter(VarlinkLink *l, const char *field) {
        assert(l);
        assert(field);

        return link_error_with_string(l, VARLINK_ERROR_INVALID_PARAMETER, "parameter", field);
}

int varlink_link_error_errno(VarlinkLink *l, int error) {
        _cleanup_json_ struct json_object *p = json_object_new_object();
        const char *name = varlink_errno_name(error);

        assert(l);

        if (!p)
                return -ENOMEM;
        /* The key order is v258's. */
        json_object_object_add(p, "origin", json_object_new_string("linux"));
        json_object_object_add(p, "errno", json_object_new_int(abs(error)));
        if (name)
                json_object_object_add(p, "errnoName", json_object_new_string(name));
        return varlink_link_error(l, VARLINK_ERROR_SYSTEM, p);
}

void varlink_link_close(VarlinkLink *l) {
        assert(l);

        l->closed = true;
}

int varlink_link_fd(const VarlinkLink *l) {
        assert(l);

        return l->conn.fd;
}

const ProcessIdentity *varlink_link_peer(const VarlinkLink *l) {
        assert(l);

        return &l->peer;
}

/* The service's interfaces, then the two every service has. */
static const VarlinkInterface *service_interface(const VarlinkService *s, size_t i) {
        size_t n = 0;

        while (s->interfaces && s->interfaces[n])
                n++;
        if (i < n)
                return s->interfaces[i];
        if (i == n)
                return &varlink_interface_io_systemd;
        if (i == n + 1)
                return &varlink_interface_org_varlink_service;
        return NULL;
}

static const VarlinkInterface *service_find_interface(const VarlinkService *s, const char *name) {
        const VarlinkInterface *iface;

        for (size_t i = 0; (iface = service_interface(s, i)); i++)
                if (streq(iface->name, name))
                        return iface;
        return NULL;
}

static int compare_strings(const void *a, const void *b) {
        return strcmp(*(const char *const *) a, *(const char *const *) b);
}

static int method_get_info(VarlinkLink *l, struct json_object *parameters, VarlinkCallFlags flags, void *userdata) {
        const VarlinkService *s = l->service;
        _cleanup_json_ struct json_object *p = json_object_new_object();
        struct json_object *list = json_object_new_array();
        const char *names[64];
        size_t n = 0;

        if (!p || !list) {
                json_object_put(list);
                return -ENOMEM;
        }
        for (const VarlinkInterface *iface; n < ELEMENTSOF(names) && (iface = service_interface(s, n)); n++)
                names[n] = iface->name;
        qsort(names, n, sizeof(names[0]), compare_strings);
        for (size_t i = 0; i < n; i++)
                json_object_array_add(list, json_object_new_string(names[i]));

        json_object_object_add(p, "vendor", json_object_new_string(s->vendor));
        json_object_object_add(p, "product", json_object_new_string(s->product));
        json_object_object_add(p, "version", json_object_new_string(s->version));
        json_object_object_add(p, "url", json_object_new_string(s->url));
        json_object_object_add(p, "interfaces", list);
        return varlink_link_reply(l, p);
}

static int method_get_interface_description(VarlinkLink *l, struct json_object *parameters, VarlinkCallFlags flags,
                                            void *userdata) {
        _cleanup_json_ struct json_object *p = NULL;
        _cleanup_free_ char *text = NULL;
        const VarlinkInterface *iface;
        struct json_object *name;

        /* Validation made sure "interface" is a string. */
        (void) json_object_object_get_ex(parameters, "interface", &name);
        iface = service_find_interface(l->service, json_object_get_string(name));
        if (!iface)
                return link_error_with_string(l, VARLINK_ERROR_INTERFACE_NOT_FOUND, "interface",
                                              json_object_get_string(name));

        text = varlink_idl_format(iface);
        p = json_object_new_object();
        if (!text || !p || json_object_object_add(p, "description", json_object_new_string(text)) < 0)
                return -ENOMEM;
        return varlink_link_reply(l, p);
}

static VarlinkMethodHandler service_find_handler(const VarlinkService *s, const char *method) {
        for (const VarlinkMethodBinding *b = s->methods; b && b->method; b++)
                if (streq(b->method, method))
                        return b->handler;
        if (streq(method, "org.varlink.service.GetInfo"))
                return method_get_info;
        if (streq(method, "org.varlink.service.GetInterfaceDescription"))
                return method_get_interface_description;
        return NULL;
}

/* The interface definition of a method ("a.b.Method" → interface "a.b", symbol "Method"). */
static const VarlinkSymbol *service_find_method(const VarlinkService *s, const char *method,
                                                const VarlinkInterface **ret_iface) {
        const char *dot = strrchr(method, '.');
        const VarlinkInterface *iface;
        char name[256];

        if (!dot || (size_t) (dot - method) >= sizeof(name))
                return NULL;
        memcpy(name, method, (size_t) (dot - method));
        name[dot - method] = 0;
        iface = service_find_interface(s, name);
        if (!iface)
                return NULL;
        *ret_iface = iface;
        return varlink_idl_find_symbol(iface, VARLINK_METHOD, dot + 1);
}

/* One call: check, run the handler, make sure it was answered. Negative only when the
 * connection must end. */
static int link_dispatch(VarlinkLink *l, const VarlinkCall *call, const char *duplicate) {
        VarlinkMethodHandler handler = service_find_handler(l->service, call->method);
        const VarlinkInterface *iface = NULL;
        const VarlinkSymbol *symbol;
        const char *bad_field = NULL;
        int r;

        l->flags = call->flags;
        l->answered = false;

        if (!handler)
                return link_error_with_string(l, VARLINK_ERROR_METHOD_NOT_FOUND, "method", call->method);
        /* sd-varlink's answers to a parameter given twice (the connection stays): its own
         * GetInterfaceDescription dispatches "interface" with ENOTUNIQ, the rest name the parameter. */
        if (duplicate && handler == method_get_interface_description && streq(duplicate, "interface"))
                return varlink_link_error_errno(l, ENOTUNIQ);
        if (duplicate)
                return varlink_link_error_invalid_parameter(l, duplicate);

        symbol = service_find_method(l->service, call->method, &iface);
        if (symbol) {
                r = varlink_idl_validate_call(iface, symbol, call->parameters, call->flags & VARLINK_CALL_MORE,
                                              &bad_field);
                if (r == -EBADE)
                        return varlink_link_error(l, VARLINK_ERROR_EXPECTED_MORE, NULL);
                if (r < 0)
                        return varlink_link_error_invalid_parameter(l, bad_field);
        }

        r = handler(l, call->parameters, call->flags, l->service->userdata);
        if (l->send_error < 0)
                return l->send_error;
        if (l->closed)
                return -ECONNABORTED;
        if (r < 0 && !l->answered)
                return varlink_link_error_errno(l, r);
        if (!l->answered) {
                log_debug("Method %s returned without an answer.", call->method);
                return varlink_link_error_errno(l, EIO);
        }
        return 0;
}

/* Why the connection ends after a call: a reply the peer did not take, or anything else. */
static void log_dispatch_end(const VarlinkLink *l, int r) {
        if (l->send_error == -ETIMEDOUT)
                log_debug("Closing the connection: the peer did not read a reply within the message timeout.");
        else if (l->send_error < 0)
                log_debug_errno(l->send_error, "Closing the connection: a reply could not be sent: %m");
        else if (r != -ECONNABORTED)
                log_debug_errno(r, "Closing the connection: %m");
}

int varlink_service_serve(const VarlinkService *s, int fd) {
        VarlinkLink l = { .service = s, .peer = PROCESS_IDENTITY_NULL };
        int r;

        assert(s);

        /* Reads and writes share one limit: a peer that never reads must not hold the process either. */
        l.timeout_usec = s->message_timeout_usec > 0 ? s->message_timeout_usec : VARLINK_INFINITY;

        varlink_connection_init(&l.conn, fd, s->buffer_max);
        /* Before the first byte is read: the caller cannot hand the socket on and leave first. */
        r = process_identity_from_socket(fd, !s->peer_without_pidfd, &l.peer);
        if (r < 0)
                log_debug_errno(r, "Cannot identify the peer, methods that depend on it will refuse: %m");
        for (;;) {
                _cleanup_json_ struct json_object *msg = NULL;
                VarlinkCall call;

                r = varlink_connection_read(&l.conn, l.timeout_usec, &msg);
                if (r == 0)
                        break; /* the peer hung up */
                if (r < 0) {
                        log_debug_errno(r, "Closing the connection: %m");
                        break;
                }
                r = varlink_call_parse(msg, &call);
                if (r < 0) {
                        log_debug("Closing the connection: not a Varlink method call.");
                        break;
                }
                r = link_dispatch(&l, &call, l.conn.duplicate_parameter);
                if (r < 0) {
                        log_dispatch_end(&l, r);
                        break;
                }
        }
        varlink_connection_done(&l.conn);
        process_identity_done(&l.peer);
        return 0;
}

static volatile sig_atomic_t stop_listening = 0;

static void on_stop_signal(int sig) {
        stop_listening = 1;
}

int varlink_service_listen(const VarlinkService *s, int listen_fd) {
        struct sigaction sa = { .sa_handler = on_stop_signal }, old_term, old_int;

        assert(s);

        /* No SA_RESTART: accept() must return so the flag is seen. */
        (void) sigaction(SIGTERM, &sa, &old_term);
        (void) sigaction(SIGINT, &sa, &old_int);
        (void) signal(SIGCHLD, SIG_IGN); /* children are reaped by the kernel */

        while (!stop_listening) {
                int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
                pid_t pid;

                if (fd < 0) {
                        if (errno == EINTR || errno == ECONNABORTED)
                                continue;
                        return -errno;
                }
                pid = fork();
                if (pid < 0) {
                        (void) close(fd);
                        continue;
                }
                if (pid == 0) {
                        (void) sigaction(SIGTERM, &old_term, NULL);
                        (void) sigaction(SIGINT, &old_int, NULL);
                        (void) signal(SIGCHLD, SIG_DFL);
                        (void) close(listen_fd);
                        _exit(varlink_service_serve(s, fd) < 0 ? EXIT_FAILURE : EXIT_SUCCESS);
                }
                (void) close(fd);
        }
        return 0;
}

int varlink_listen_unix(const char *path, mode_t mode, int *ret_fd) {
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        int fd;

        assert(path);
        assert(ret_fd);

        if (strlen(path) >= sizeof(sa.sun_path))
                return -ENAMETOOLONG;
        strcpy(sa.sun_path, path);

        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return -errno;
        (void) unlink(path);
        if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0 || chmod(path, mode) < 0 || listen(fd, SOMAXCONN) < 0) {
                int r = -errno;

                (void) close(fd);
                return r;
        }
        *ret_fd = fd;
        return 0;
}
