/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A shell in a new sandbox built from a service's settings.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "macro.h"
#include "manager-bus.h"
#include "namespace-fork.h"
#include "pty-forward.h"
#include "random-util.h"
#include "sandbox-properties.h"
#include "string-util.h"
#include "transient-shell.h"
#include "unit-shell-run.h"

#define SYSTEMD_DEST "org.freedesktop.systemd1"
#define MANAGER_PATH "/org/freedesktop/systemd1"
#define MANAGER_IFACE "org.freedesktop.systemd1.Manager"
#define UNIT_IFACE "org.freedesktop.systemd1.Unit"
#define SERVICE_IFACE "org.freedesktop.systemd1.Service"

/* The exit statuses systemd's executor uses when it fails to set a service up (systemd.exec(5)). */
static const struct {
        int status;
        const char *name;
} setup_steps[] = {
        { 200, "CHDIR" },         { 201, "NICE" },          { 202, "FDS" },
        { 203, "EXEC" },          { 204, "MEMORY" },        { 205, "LIMITS" },
        { 206, "OOM_ADJUST" },    { 207, "SIGNAL_MASK" },   { 208, "STDIN" },
        { 209, "STDOUT" },        { 210, "CHROOT" },        { 211, "IOPRIO" },
        { 212, "TIMERSLACK" },    { 213, "SECUREBITS" },    { 214, "SETSCHEDULER" },
        { 215, "CPUAFFINITY" },   { 216, "GROUP" },         { 217, "USER" },
        { 218, "CAPABILITIES" },  { 219, "CGROUP" },        { 220, "SETSID" },
        { 221, "CONFIRM" },       { 222, "STDERR" },        { 224, "PAM" },
        { 225, "NETWORK" },       { 226, "NAMESPACE" },     { 227, "NO_NEW_PRIVILEGES" },
        { 228, "SECCOMP" },       { 229, "SELINUX_CONTEXT" }, { 230, "PERSONALITY" },
        { 231, "APPARMOR_PROFILE" }, { 232, "ADDRESS_FAMILIES" }, { 233, "RUNTIME_DIRECTORY" },
        { 235, "CHOWN" },         { 236, "SMACK_PROCESS_LABEL" }, { 237, "KEYRING" },
        { 238, "STATE_DIRECTORY" }, { 239, "CACHE_DIRECTORY" }, { 240, "LOGS_DIRECTORY" },
        { 241, "CONFIGURATION_DIRECTORY" }, { 242, "NUMA_POLICY" }, { 243, "CREDENTIALS" },
        { 245, "BPF" },
};

static const char *setup_step_name(int status) {
        for (size_t i = 0; i < ELEMENTSOF(setup_steps); i++)
                if (setup_steps[i].status == status)
                        return setup_steps[i].name;
        return NULL;
}

typedef struct TransientShell {
        sd_bus *bus;
        sd_event *event;
        const char *unit; /* whose sandbox is copied */
        char *name;       /* the transient service */
        char *path;
        bool pty;
        int master;
        int slave; /* held until the service has the terminal open, see pty-forward.h */
        PtyForward *forward;
        sd_bus_slot *properties_slot;

        char *job_result; /* NULL until the start job is done */
        bool ended;
        int exec_code, exec_status;
} TransientShell;

/* The unit's settings: its Service properties, and JoinsNamespaceOf= from the Unit interface. */
static int read_unit_settings(TransientShell *t, sd_bus_message **ret_service, char ***ret_joins) {
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_message *reply = NULL;
        _cleanup_free_ char *load_state = NULL, *path = NULL;
        char **joins = NULL;
        const char *p;
        int r;

        r = sd_bus_call_method(t->bus, SYSTEMD_DEST, MANAGER_PATH, MANAGER_IFACE, "LoadUnit", &error, &reply, "s",
                               t->unit);
        if (r < 0)
                return log_error_errno(r, "Failed to load %s: %s", t->unit, bus_error_text(&error, r));
        r = sd_bus_message_read_basic(reply, 'o', &p);
        if (r >= 0 && !(path = strdup(p)))
                r = -ENOMEM;
        reply = sd_bus_message_unref(reply);
        if (r < 0)
                return log_error_errno(r, "Failed to read the reply to LoadUnit: %m");

        r = sd_bus_get_property_string(t->bus, SYSTEMD_DEST, path, UNIT_IFACE, "LoadState", &error, &load_state);
        if (r < 0)
                return log_error_errno(r, "Failed to get the load state of %s: %s", t->unit,
                                       bus_error_text(&error, r));
        if (!streq(load_state, "loaded")) {
                log_error("Unit %s is %s, there are no settings to build a sandbox from.", t->unit,
                          streq(load_state, "not-found") ? "not found" : load_state);
                return -ENOENT;
        }

        r = sd_bus_get_property_strv(t->bus, SYSTEMD_DEST, path, UNIT_IFACE, "JoinsNamespaceOf", &error, &joins);
        if (r < 0)
                return log_error_errno(r, "Failed to get JoinsNamespaceOf= of %s: %s", t->unit,
                                       bus_error_text(&error, r));

        r = sd_bus_call_method(t->bus, SYSTEMD_DEST, path, "org.freedesktop.DBus.Properties", "GetAll", &error,
                               &reply, "s", SERVICE_IFACE);
        if (r < 0) {
                strv_free(joins);
                return log_error_errno(r, "Failed to get the settings of %s: %s", t->unit, bus_error_text(&error, r));
        }
        *ret_service = reply;
        *ret_joins = joins;
        return 0;
}

/* "urlboot-unit-shell-foo-1a2b3c4d.service": the service's name for whoever reads unit lists,
 * random so that several shells can run at once. */
static int make_unit_name(const char *unit, char **ret) {
        char prefix[64];
        uint32_t rnd = (uint32_t) random_u64_insecure();
        size_t n = 0;

        for (const char *p = unit; *p && *p != '.' && n < sizeof(prefix) - 1; p++)
                prefix[n++] = strchr("@\\", *p) ? '_' : *p;
        prefix[n] = 0;
        return asprintf(ret, TRANSIENT_SHELL_PREFIX "%s-%08x.service", prefix, rnd) < 0 ? -ENOMEM : 0;
}

static int open_pty(TransientShell *t, char **ret_slave_path) {
        char name[64];

        t->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (t->master < 0)
                return -errno;
        if (grantpt(t->master) < 0 || unlockpt(t->master) < 0)
                return -errno;
        if (ptsname_r(t->master, name, sizeof(name)) != 0)
                return -errno;
        t->slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (t->slave < 0)
                return -errno;
        *ret_slave_path = strdup(name);
        return *ret_slave_path ? 0 : -ENOMEM;
}

static int append_string(sd_bus_message *m, const char *name, const char *value) {
        return sd_bus_message_append(m, "(sv)", name, "s", value);
}

static int append_bool(sd_bus_message *m, const char *name, bool value) {
        return sd_bus_message_append(m, "(sv)", name, "b", (int) value);
}

static int append_strv(sd_bus_message *m, const char *name, char **l) {
        int r;

        r = sd_bus_message_open_container(m, 'r', "sv");
        if (r >= 0)
                r = sd_bus_message_append(m, "s", name);
        if (r >= 0)
                r = sd_bus_message_open_container(m, 'v', "as");
        if (r >= 0)
                r = sd_bus_message_append_strv(m, l);
        if (r >= 0)
                r = sd_bus_message_close_container(m);
        if (r >= 0)
                r = sd_bus_message_close_container(m);
        return r;
}

/* The manager expands $VAR and ${VAR} in a command's arguments when it runs it, and turns "$$" into "$":
 * doubled, every "$" reaches the command as typed (as it does in the running service's shell). */
static char *escape_dollars(const char *s) {
        size_t n = strlen(s) + 1;
        char *e, *t;

        for (const char *p = s; *p; p++)
                n += *p == '$';
        e = t = malloc(n);
        if (!e)
                return NULL;
        for (; *s; s++) {
                if (*s == '$')
                        *t++ = '$';
                *t++ = *s;
        }
        *t = 0;
        return e;
}

static int append_exec_start(sd_bus_message *m, const char *path, char **argv) {
        _cleanup_strv_free_ char **escaped = NULL;
        int r;

        for (char **a = argv; a && *a; a++) {
                char *e = escape_dollars(*a);

                if (!e || strv_consume(&escaped, e) < 0)
                        return -ENOMEM;
        }
        argv = escaped;

        r = sd_bus_message_open_container(m, 'r', "sv");
        if (r >= 0)
                r = sd_bus_message_append(m, "s", "ExecStart");
        if (r >= 0)
                r = sd_bus_message_open_container(m, 'v', "a(sasb)");
        if (r >= 0)
                r = sd_bus_message_open_container(m, 'a', "(sasb)");
        if (r >= 0)
                r = sd_bus_message_open_container(m, 'r', "sasb");
        if (r >= 0)
                r = sd_bus_message_append(m, "s", path);
        if (r >= 0)
                r = sd_bus_message_append_strv(m, argv);
        if (r >= 0)
                r = sd_bus_message_append(m, "b", 0);
        for (int i = 0; i < 4 && r >= 0; i++)
                r = sd_bus_message_close_container(m);
        return r;
}

static int append_stdio(TransientShell *t, sd_bus_message *m, const char *slave_path) {
        const char *term = getenv("TERM");
        int r;

        if (!t->pty)
                return sd_bus_message_append(m, "(sv)(sv)(sv)", "StandardInputFileDescriptor", "h", STDIN_FILENO,
                                             "StandardOutputFileDescriptor", "h", STDOUT_FILENO,
                                             "StandardErrorFileDescriptor", "h", STDERR_FILENO);

        r = sd_bus_message_append(m, "(sv)(sv)(sv)(sv)", "StandardInput", "s", "tty", "StandardOutput", "s", "tty",
                                  "StandardError", "s", "tty", "TTYPath", "s", slave_path);
        if (r >= 0)
                r = append_bool(m, "SendSIGHUP", true);
        /* Ours is the terminal that draws what the shell writes: it should know its type. */
        if (r >= 0 && term) {
                _cleanup_free_ char *assignment = NULL;

                if (asprintf(&assignment, "TERM=%s", term) < 0)
                        return -ENOMEM;
                r = sd_bus_message_append(m, "(sv)", "Environment", "as", 1, assignment);
        }
        return r;
}

static int start_unit(TransientShell *t, sd_bus_message *settings, char **joins, const char *path, char **argv,
                      const char *slave_path) {
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_message *m = NULL, *reply = NULL;
        _cleanup_free_ char *description = NULL;
        bool runtime_dirs;
        int r;

        if (asprintf(&description, "Shell in a new sandbox of %s", t->unit) < 0)
                return log_oom();

        r = sd_bus_message_new_method_call(t->bus, &m, SYSTEMD_DEST, MANAGER_PATH, MANAGER_IFACE,
                                           "StartTransientUnit");
        if (r >= 0)
                r = sd_bus_message_append(m, "ss", t->name, "fail");
        if (r >= 0)
                r = sd_bus_message_open_container(m, 'a', "(sv)");
        if (r >= 0)
                r = append_string(m, "Description", description);
        /* exec: the start job fails when the command cannot be started, so we can tell that apart
         * from the command failing. */
        if (r >= 0)
                r = append_string(m, "Type", "exec");
        /* Keeps the ended unit (and its exit status) around until we have read it. */
        if (r >= 0)
                r = append_bool(m, "AddRef", true);
        if (r >= 0)
                r = append_string(m, "CollectMode", "inactive-or-failed");
        if (r >= 0)
                r = append_bool(m, "IgnoreSIGPIPE", false);
        if (r >= 0)
                r = sd_bus_message_rewind(settings, true);
        if (r >= 0)
                r = sandbox_properties_copy(m, settings, &runtime_dirs);
        /* The unit's runtime directory may belong to a running instance: never remove it. */
        if (r >= 0 && runtime_dirs)
                r = append_string(m, "RuntimeDirectoryPreserve", "yes");
        if (r >= 0 && joins && joins[0])
                r = append_strv(m, "JoinsNamespaceOf", joins);
        if (r >= 0)
                r = append_exec_start(m, path, argv);
        if (r >= 0)
                r = append_stdio(t, m, slave_path);
        if (r >= 0)
                r = sd_bus_message_close_container(m);
        if (r >= 0)
                r = sd_bus_message_append(m, "a(sa(sv))", 0);
        if (r < 0) {
                sd_bus_message_unref(m);
                return log_error_errno(r, "Failed to build the request for %s: %m", t->name);
        }

        r = sd_bus_call(t->bus, m, 0, &error, &reply);
        sd_bus_message_unref(m);
        if (r < 0)
                return log_error_errno(r, "Failed to start %s with the sandbox of %s: %s", t->name, t->unit,
                                       bus_error_text(&error, r));
        sd_bus_message_unref(reply);
        return 0;
}

/* Once the start job is done, an inactive or failed unit has ended: its exit status is final. */
static int check_ended(TransientShell *t) {
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_free_ char *state = NULL;
        int32_t code = 0, status = 0;
        int r;

        if (!t->job_result || t->ended)
                return 0;
        r = sd_bus_get_property_string(t->bus, SYSTEMD_DEST, t->path, UNIT_IFACE, "ActiveState", &error, &state);
        if (r < 0)
                return log_error_errno(r, "Failed to get the state of %s: %s", t->name, bus_error_text(&error, r));
        if (!streq(state, "inactive") && !streq(state, "failed"))
                return 0;

        r = sd_bus_get_property_trivial(t->bus, SYSTEMD_DEST, t->path, SERVICE_IFACE, "ExecMainCode", &error, 'i',
                                        &code);
        if (r >= 0)
                r = sd_bus_get_property_trivial(t->bus, SYSTEMD_DEST, t->path, SERVICE_IFACE, "ExecMainStatus",
                                                &error, 'i', &status);
        if (r < 0)
                return log_error_errno(r, "Failed to get the exit status of %s: %s", t->name,
                                       bus_error_text(&error, r));
        t->ended = true;
        t->exec_code = code;
        t->exec_status = status;
        return sd_event_exit(t->event, 0);
}

static int on_job_removed(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
        TransientShell *t = userdata;
        const char *job, *unit, *result;
        uint32_t id;
        int r;

        r = sd_bus_message_read(m, "uoss", &id, &job, &unit, &result);
        if (r < 0 || !streq(unit, t->name))
                return 0;
        t->job_result = strdup(result);
        if (!t->job_result)
                return log_oom();
        /* The service has its terminal open now (or never will): from here on a hangup on the
         * master means it closed it. */
        if (t->slave >= 0) {
                (void) close(t->slave);
                t->slave = -1;
        }
        r = check_ended(t);
        return r < 0 ? sd_event_exit(t->event, r) : 0;
}

static int on_properties_changed(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
        TransientShell *t = userdata;
        int r = check_ended(t);

        return r < 0 ? sd_event_exit(t->event, r) : 0;
}

static int on_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata) {
        TransientShell *t = userdata;
        int r;

        if (si->ssi_signo == SIGINT)
                r = sd_bus_call_method_async(t->bus, NULL, SYSTEMD_DEST, MANAGER_PATH, MANAGER_IFACE, "KillUnit",
                                             NULL, NULL, "ssi", t->name, "main", (int32_t) SIGINT);
        else
                r = sd_bus_call_method_async(t->bus, NULL, SYSTEMD_DEST, MANAGER_PATH, MANAGER_IFACE, "StopUnit",
                                             NULL, NULL, "ss", t->name, "replace");
        if (r < 0)
                log_warning_errno(r, "Failed to pass %s on to %s: %m", signal_name((int) si->ssi_signo), t->name);
        return 0;
}

/* Once for all runs: the manager's signals reach us, and signals are blocked for sd-event's signalfd. */
static int setup_bus(TransientShell *t) {
        static const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGWINCH };
        sigset_t mask;
        int r;

        sigemptyset(&mask);
        for (size_t i = 0; i < ELEMENTSOF(signals); i++)
                sigaddset(&mask, signals[i]);
        if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
                return -errno;

        r = sd_bus_match_signal(t->bus, NULL, manager_bus_sender(t->bus), MANAGER_PATH, MANAGER_IFACE, "JobRemoved",
                                on_job_removed, t);
        if (r < 0)
                return r;
        /* The manager sends unit and job signals only to subscribers. */
        return sd_bus_call_method(t->bus, SYSTEMD_DEST, MANAGER_PATH, MANAGER_IFACE, "Subscribe", NULL, NULL, NULL);
}

/* A fresh event loop for each run: an event loop that exited cannot run again. */
static int setup_event_loop(TransientShell *t) {
        int r;

        r = sd_event_new(&t->event);
        if (r >= 0)
                r = sd_bus_attach_event(t->bus, t->event, SD_EVENT_PRIORITY_NORMAL);
        if (r >= 0)
                r = sd_event_add_signal(t->event, NULL, SIGINT, on_signal, t);
        if (r >= 0)
                r = sd_event_add_signal(t->event, NULL, SIGTERM, on_signal, t);
        if (r >= 0)
                r = sd_event_add_signal(t->event, NULL, SIGHUP, on_signal, t);
        if (r >= 0)
                r = sd_bus_match_signal(t->bus, &t->properties_slot, manager_bus_sender(t->bus), t->path,
                                        "org.freedesktop.DBus.Properties", "PropertiesChanged", on_properties_changed, t);
        return r;
}

/* Everything one run set up, so that the next can start afresh. */
static void end_run(TransientShell *t) {
        t->forward = pty_forward_free(t->forward);
        if (t->master >= 0)
                (void) close(t->master);
        if (t->slave >= 0)
                (void) close(t->slave);
        t->master = t->slave = -1;
        t->properties_slot = sd_bus_slot_unref(t->properties_slot);
        if (t->event) {
                (void) sd_bus_detach_event(t->bus);
                t->event = sd_event_unref(t->event);
        }
}

/* Starts one transient service running path with argv and waits for it to end. */
static int run_once(TransientShell *t, sd_bus_message *settings, char **joins, const char *path, char **argv) {
        _cleanup_free_ char *slave_path = NULL;
        int r;

        end_run(t);
        t->name = mfree(t->name);
        t->path = mfree(t->path);
        t->job_result = mfree(t->job_result);
        t->ended = false;

        r = make_unit_name(t->unit, &t->name);
        if (r >= 0)
                r = unit_object_path(t->name, &t->path);
        if (r < 0)
                return log_error_errno(r, "Failed to make a unit name: %m");
        r = setup_event_loop(t);
        if (r < 0)
                return log_error_errno(r, "Failed to set up waiting for %s: %m", t->name);
        if (t->pty) {
                r = open_pty(t, &slave_path);
                if (r < 0)
                        return log_error_errno(r, "Failed to allocate a pseudo terminal: %m");
        }

        r = start_unit(t, settings, joins, path, argv, slave_path);
        if (r < 0)
                return r;
        log_debug("Started %s with the sandbox of %s.", t->name, t->unit);

        if (t->pty) {
                r = pty_forward_new(t->event, t->master, &t->forward);
                if (r < 0)
                        return log_error_errno(r, "Failed to forward the terminal: %m");
        }

        r = sd_event_loop(t->event);
        if (t->forward)
                pty_forward_drain(t->forward);
        end_run(t);
        if (r < 0)
                return log_error_errno(r, "Failed to wait for %s: %m", t->name);

        /* AddRef kept it for us; it is collected now. */
        (void) sd_bus_call_method(t->bus, SYSTEMD_DEST, t->path, UNIT_IFACE, "Unref", NULL, NULL, NULL);
        return 0;
}

static void transient_shell_done(TransientShell *t) {
        end_run(t);
        free(t->name);
        free(t->path);
        free(t->job_result);
}

/* The start job failed: the sandbox could not be set up, or the command not be started. */
static int report_setup_failure(TransientShell *t, const char *what) {
        const char *step = t->exec_code == CLD_EXITED ? setup_step_name(t->exec_status) : NULL;

        if (step && t->exec_status == 203)
                log_error("Failed to execute %s in the new sandbox of %s (exit status 203/EXEC); see 'journalctl -u %s'.",
                          what, t->unit, t->name);
        else if (step)
                log_error("Failed to set up the new sandbox of %s: step %s failed (exit status %d); see 'journalctl -u %s'.",
                          t->unit, step, t->exec_status, t->name);
        else
                log_error("Failed to start %s with the sandbox of %s: job %s; see 'journalctl -u %s'.", t->name,
                          t->unit, t->job_result, t->name);
        return EXIT_FAILURE;
}

int transient_shell_run(sd_bus *bus, const char *unit, char **command, ShellStdio stdio) {
        TransientShell t = { .bus = bus, .unit = unit, .master = -1, .slave = -1 };
        sd_bus_message *settings = NULL;
        _cleanup_strv_free_ char **joins = NULL;
        char *bash[] = { (char *) "-bash", NULL }, *sh[] = { (char *) "-sh", NULL };
        _cleanup_free_ char *what = NULL;
        int r;

        assert(bus);
        assert(unit);

        if (!endswith(unit, ".service")) {
                log_error("A new sandbox can be built from a service unit only, not from %s.", unit);
                return EXIT_FAILURE;
        }
        t.pty = stdio == SHELL_STDIO_PTY || (stdio == SHELL_STDIO_AUTO && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO));

        r = read_unit_settings(&t, &settings, &joins);
        if (r < 0)
                return EXIT_FAILURE;
        r = setup_bus(&t);
        if (r < 0) {
                sd_bus_message_unref(settings);
                log_error_errno(r, "Failed to subscribe to the manager's signals: %m");
                return EXIT_FAILURE;
        }

        if (command && command[0]) {
                r = run_once(&t, settings, joins, command[0], command);
                if (asprintf(&what, "'%s'", command[0]) < 0)
                        what = NULL;
        } else {
                r = run_once(&t, settings, joins, UNIT_SHELL_DEFAULT_SHELL, bash);
                /* As systemd-analyze does: /bin/sh when there is no bash in the sandbox. */
                if (r >= 0 && !streq(t.job_result, "done") && t.exec_code == CLD_EXITED && t.exec_status == 203)
                        r = run_once(&t, settings, joins, "/bin/sh", sh);
                what = strdup("'" UNIT_SHELL_DEFAULT_SHELL "', '/bin/bash', and '/bin/sh'");
        }
        sd_bus_message_unref(settings);

        if (r >= 0)
                r = !streq(t.job_result, "done") ? report_setup_failure(&t, what ?: "the command")
                                                 : unit_shell_report_end(t.exec_code, t.exec_status);
        else
                r = EXIT_FAILURE;
        transient_shell_done(&t);
        return r;
}
