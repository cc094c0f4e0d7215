/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Where pull expressions come from, and which spellings are ours.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "log.h"
#include "path-util.h"
#include "proc-cmdline.h"
#include "pull-config.h"
#include "string-util.h"
#include "systemd-version.h"

#define CREDENTIAL_SIZE_MAX (1024 * 1024)

void pull_config_done(PullConfig *c) {
        assert(c);

        c->expressions = strv_free(c->expressions);
        c->loops = strv_free(c->loops);
        free(c->success_action);
        free(c->failure_action);
        c->success_action = c->failure_action = NULL;
}

bool pull_spelling_is_ours(const char *prefix, int systemd_version) {
        assert(prefix);

        if (streq(prefix, "urlboot"))
                return true;
        return systemd_version <= 0 || systemd_version < SYSTEMD_VERSION_OWNS_PULL;
}

static int replace_string(char **s, const char *v) {
        char *n = strdup(v);

        if (!n)
                return -ENOMEM;
        free(*s);
        *s = n;
        return 0;
}

/* systemd's SuccessAction=/FailureAction= values (emergency_action_table, v258). v258 copies the
 * command line verbatim into the unit; anything else here is refused, so no value can carry a
 * second line (a directive of its own) into the unit file. */
static bool action_is_valid(const char *s) {
        static const char *const actions[] = {
                "none", "reboot", "reboot-force", "reboot-immediate", "poweroff", "poweroff-force",
                "poweroff-immediate", "exit", "exit-force", "soft-reboot", "soft-reboot-force", "kexec",
                "kexec-force", "halt", "halt-force", "halt-immediate",
        };

        for (size_t i = 0; i < ELEMENTSOF(actions); i++)
                if (streq(s, actions[i]))
                        return true;
        return false;
}

static int parse_key(const char *key, const char *value, void *userdata) {
        PullConfig *c = userdata;
        static const char *const prefixes[] = { "urlboot", "systemd" };

        if (proc_cmdline_key_streq(key, "urlboot.loop")) {
                if (!value) {
                        if (!c->quiet)
                                log_warning("Missing argument for '%s', ignoring.", key);
                        return 0;
                }
                return strv_extend(&c->loops, value);
        }
        for (size_t i = 0; i < ELEMENTSOF(prefixes); i++) {
                const char *rest = proc_cmdline_key_startswith(key, prefixes[i]);

                if (!rest || !proc_cmdline_key_startswith(rest, ".pull"))
                        continue;
                if (streq(prefixes[i], "systemd") && !c->systemd_spelling) {
                        log_debug("systemd owns '%s' at this version, leaving it alone.", key);
                        return 0;
                }

                rest = proc_cmdline_key_startswith(rest, ".pull");
                if (*rest == 0) {
                        if (!value) {
                                if (!c->quiet)
                                        log_warning("Missing argument for '%s', ignoring.", key);
                                return 0;
                        }
                        return strv_extend(&c->expressions, value);
                }
                if (proc_cmdline_key_streq(rest, ".success_action") || proc_cmdline_key_streq(rest, ".failure_action")) {
                        bool success = proc_cmdline_key_streq(rest, ".success_action");
                        if (!value) {
                                if (!c->quiet)
                                        log_warning("Missing argument for '%s', ignoring.", key);
                                return 0;
                        }
                        if (!action_is_valid(value)) {
                                if (!c->quiet)
                                        log_warning("Ignoring '%s=%s': not an action (none, reboot, poweroff, exit, "
                                                    "soft-reboot, halt, kexec, with -force or -immediate).", key, value);
                                return 0;
                        }
                        return replace_string(success ? &c->success_action : &c->failure_action, value);
                }
        }
        return 0;
}

static int load_credential_file(PullConfig *c, const char *path) {
        _cleanup_free_ char *text = NULL;
        char *line, *save = NULL;
        int r;

        r = read_full_file(path, CREDENTIAL_SIZE_MAX, &text, NULL);
        if (r == -ENOENT)
                return 0;
        if (r < 0)
                return c->quiet ? 0 : log_warning_errno(r, "Failed to read credential %s, ignoring: %m", path);

        for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                size_t n;

                line += strspn(line, " \t\r");
                n = strlen(line);
                while (n > 0 && strchr(" \t\r", line[n - 1]))
                        line[--n] = 0;
                if (n == 0 || line[0] == '#')
                        continue;
                r = strv_extend(&c->expressions, line);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int load_credentials(PullConfig *c) {
        const char *dir = getenv("CREDENTIALS_DIRECTORY");
        const char *names[] = { "urlboot.pull", c->systemd_spelling ? "import.pull" : NULL };
        int r;

        /* Generators of systemd < 258 get no $CREDENTIALS_DIRECTORY; the system credentials are still there. */
        if (!dir)
                dir = "/run/credentials/@system";

        for (size_t i = 0; i < ELEMENTSOF(names); i++) {
                _cleanup_free_ char *path = NULL;

                if (!names[i])
                        continue;
                path = path_join(dir, names[i]);
                if (!path)
                        return -ENOMEM;
                r = load_credential_file(c, path);
                if (r < 0)
                        return r;
        }
        return 0;
}

int pull_config_load(PullConfig *c, int systemd_version) {
        int r;

        assert(c);

        c->systemd_spelling = pull_spelling_is_ours("systemd", systemd_version);

        r = proc_cmdline_parse(parse_key, c, PROC_CMDLINE_STRIP_RD_PREFIX | PROC_CMDLINE_RD_STRICT);
        if (r < 0)
                return r;

        return load_credentials(c);
}
