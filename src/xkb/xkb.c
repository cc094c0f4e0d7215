/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-xkb: give Wayland sessions the keyboard layout localectl set for X11.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command-table.h"
#include "json-format.h"
#include "exit-status.h"
#include "fileio.h"
#include "json-writer.h"
#include "log.h"
#include "mkdir.h"
#include "path-util.h"
#include "string-util.h"
#include "xkb-config.h"
#include "xkb-rules.h"

#define CONFIG_SIZE_MAX (1024 * 1024)

typedef enum Source { SOURCE_AUTO, SOURCE_X11, SOURCE_DEBIAN } Source;

static const char *arg_root = "/";
static JsonFormat arg_json = JSON_FORMAT_OFF;
static Source arg_source = SOURCE_AUTO;

enum { ARG_ROOT = 0x100, ARG_JSON, ARG_SOURCE, ARG_VERSION };

#define ROW_ROOT { "root", 0, ARG_ROOT, OPTION_REQUIRED, "DIR", "operate on the system below DIR", "dir" }
#define ROW_JSON(help) OPTION_ROW_JSON(ARG_JSON, help)
#define ROW_SOURCE { "source", 0, ARG_SOURCE, OPTION_REQUIRED, "auto|x11|debian",                   \
                     "where the keyboard settings live: the X11 file\n"                              \
                     "(" XKB_X11_PATH ") or\n"                                                       \
                     XKB_DEBIAN_PATH " (Debian's localed uses it);\n"                                \
                     "auto: the Debian file when it exists", NULL }

/* Options may come before or after the command (getopt moves them to the front), so this table takes
 * them all; a command's table lists those that matter to it (its --help, the completion) and counts its
 * arguments. */
static const OptionRow xkb_options[] = {
        OPTION_ROW_HELP,
        OPTION_ROW_VERSION(ARG_VERSION),
        ROW_ROOT,
        ROW_JSON("machine-readable output (show)"),
        ROW_SOURCE,
};

static const OptionRow sync_options[] = {
        OPTION_ROW_HELP,
        ROW_ROOT,
        ROW_SOURCE,
};

static const CommandTable sync_table = {
        .name = "urlboot-xkb sync",
        .summary = "Write the Wayland file (" XKB_ENV_PATH ") from the X11 file\n"
                   "(" XKB_X11_PATH ", or " XKB_DEBIAN_PATH ": see --source=).",
        .options = sync_options,
        .n_options = ELEMENTSOF(sync_options),
};

static const CommandTable set_table = {
        .name = "urlboot-xkb set",
        .arguments = "LAYOUT [MODEL [VARIANT [OPTIONS]]]",
        .summary = "Write both files (as localectl set-x11-keymap does from systemd 259 on); LAYOUT \"\" clears.",
        .options = sync_options,
        .n_options = ELEMENTSOF(sync_options),
        .min_arguments = 1,
        .max_arguments = 4,
};

static const OptionRow show_options[] = {
        OPTION_ROW_HELP,
        ROW_ROOT,
        ROW_JSON("machine-readable output"),
        ROW_SOURCE,
};

static const CommandTable show_table = {
        .name = "urlboot-xkb show",
        .summary = "Print both settings and whether they are in sync.",
        .options = show_options,
        .n_options = ELEMENTSOF(show_options),
};

static const CommandTable xkb_table = {
        .name = "urlboot-xkb",
        .arguments = "COMMAND [ARGUMENTS...]",
        .summary = "Keep the Wayland keyboard settings (" XKB_ENV_PATH ")\n"
                   "in step with the X11 ones localectl writes (" XKB_X11_PATH ").\n"
                   "\n"
                   "Commands:\n"
                   "  sync                          write the Wayland file from the X11 file\n"
                   "  set LAYOUT [MODEL [VARIANT [OPTIONS]]]\n"
                   "                                write both files (as localectl set-x11-keymap\n"
                   "                                does from systemd 259 on); LAYOUT \"\" clears\n"
                   "  show                          print both settings\n"
                   "\n"
                   "Run 'urlboot-xkb COMMAND --help' for a command's options.",
        .options = xkb_options,
        .n_options = ELEMENTSOF(xkb_options),
        .max_arguments = ARGUMENTS_ANY,
        .complete_arguments = "verbs",
        .verbs = (const CommandTable *const []) { &sync_table, &set_table, &show_table, NULL },
};

static char *root_path(const char *path) {
        return streq(arg_root, "/") ? strdup(path) : path_join(arg_root, path);
}

typedef enum Format { FORMAT_X11, FORMAT_ENV, FORMAT_DEBIAN } Format;

/* Reads and parses one of the files; a missing file is an empty configuration. */
static int read_config(const char *path, Format format, XkbConfig *ret) {
        _cleanup_free_ char *full = root_path(path), *text = NULL;
        int r;

        if (!full)
                return log_oom();
        r = read_full_file(full, CONFIG_SIZE_MAX, &text, NULL);
        if (r == -ENOENT) {
                *ret = (XkbConfig) {};
                return 0;
        }
        if (r < 0)
                return log_error_errno(r, "Failed to read %s: %m", full);
        r = format == FORMAT_X11 ? xkb_config_parse_x11(text, ret) :
            format == FORMAT_ENV ? xkb_config_parse_env(text, ret) :
                                   xkb_config_parse_debian(text, ret);
        if (r < 0)
                return log_oom();
        return 0;
}

static bool file_exists(const char *path) {
        _cleanup_free_ char *full = root_path(path);

        return full && access(full, F_OK) >= 0;
}

/* The file that holds the system's keyboard settings. */
static Source pick_source(void) {
        if (arg_source != SOURCE_AUTO)
                return arg_source;
        return file_exists(XKB_DEBIAN_PATH) ? SOURCE_DEBIAN : SOURCE_X11;
}

static const char *source_path(Source s) {
        return s == SOURCE_DEBIAN ? XKB_DEBIAN_PATH : XKB_X11_PATH;
}

static int read_source(Source s, XkbConfig *ret) {
        return read_config(source_path(s), s == SOURCE_DEBIAN ? FORMAT_DEBIAN : FORMAT_X11, ret);
}

static int remove_file(const char *path) {
        _cleanup_free_ char *full = root_path(path);

        if (!full)
                return log_oom();
        if (unlink(full) < 0) {
                if (errno == ENOENT)
                        return 0;
                return log_error_errno(errno, "Failed to remove %s: %m", full);
        }
        log_info("Removed %s.", full);
        return 0;
}

/* Writes text unless the file already holds exactly that. */
static int write_if_changed(const char *path, const char *text) {
        _cleanup_free_ char *full = root_path(path), *old = NULL;
        int r;

        if (!full)
                return log_oom();
        if (read_full_file(full, CONFIG_SIZE_MAX, &old, NULL) >= 0 && streq(old, text)) {
                log_debug("%s is up to date.", full);
                return 0;
        }

        r = mkdir_parents(full, 0755);
        if (r >= 0)
                r = write_file_atomic(full, text, strlen(text), 0644);
        if (r < 0)
                return log_error_errno(r, "Failed to write %s: %m (the old file, if any, is unchanged)", full);
        log_info("Wrote %s.", full);
        return 0;
}

static int write_env_file(const XkbConfig *c, Source source) {
        _cleanup_free_ char *text = NULL;

        if (xkb_config_is_empty(c))
                return remove_file(XKB_ENV_PATH);
        text = xkb_config_render_env(c, source_path(source));
        if (!text)
                return log_oom();
        return write_if_changed(XKB_ENV_PATH, text);
}

static int verb_sync(int argc, char *argv[]) {
        Source source = pick_source();
        XkbConfig c;
        const char *bad;
        int r;

        r = read_source(source, &c);
        if (r < 0)
                return r;

        bad = xkb_config_find_unsafe(&c);
        if (bad) {
                log_error("The keyboard %s in %s contains quotes, backslashes, \"$\" or control characters; "
                          "not copying it. Set the keyboard again with localectl.",
                          bad, source_path(source));
                xkb_config_done(&c);
                return -EINVAL;
        }
        r = write_env_file(&c, source);
        xkb_config_done(&c);
        return r;
}

/* Splits a comma list in place; returns the items' count. */
static size_t split_commas(char *s, char **items, size_t max) {
        size_t n = 0;

        for (char *p = s; p && n < max; n++) {
                items[n] = p;
                p = strchr(p, ',');
                if (p)
                        *p++ = 0;
        }
        return n;
}

static void warn_unknown_names(const XkbConfig *c) {
        _cleanup_free_ char *layouts = strdup(c->layout ?: ""), *variants = strdup(c->variant ?: ""),
                           *options = strdup(c->options ?: "");
        char *l[16], *v[16], *o[32];
        size_t nl, nv, no;
        XkbRules *rules;
        int r;

        r = xkb_rules_load(XKB_RULES_PATH, &rules);
        if (r < 0) {
                log_warning_errno(r, "Cannot read %s to check the names (install xkb-data): %m", XKB_RULES_PATH);
                return;
        }
        if (!layouts || !variants || !options) {
                xkb_rules_free(rules);
                return;
        }

        if (!isempty(c->model) && !xkb_rules_has_model(rules, c->model))
                log_warning("Unknown keyboard model '%s'.", c->model);
        nl = isempty(c->layout) ? 0 : split_commas(layouts, l, 16);
        nv = isempty(c->variant) ? 0 : split_commas(variants, v, 16);
        no = isempty(c->options) ? 0 : split_commas(options, o, 32);
        for (size_t i = 0; i < nl; i++)
                if (!xkb_rules_has_layout(rules, l[i]))
                        log_warning("Unknown keyboard layout '%s'.", l[i]);
        for (size_t i = 0; i < nv; i++)
                if (!isempty(v[i]) && !xkb_rules_has_variant(rules, i < nl ? l[i] : NULL, v[i]))
                        log_warning("Unknown variant '%s' of layout '%s'.", v[i], i < nl ? l[i] : "?");
        for (size_t i = 0; i < no; i++)
                if (!isempty(o[i]) && !xkb_rules_has_option(rules, o[i]))
                        log_warning("Unknown keyboard option '%s'.", o[i]);
        xkb_rules_free(rules);
}

static int update_debian_file(const XkbConfig *c) {
        _cleanup_free_ char *full = root_path(XKB_DEBIAN_PATH), *old = NULL, *text = NULL;
        int r;

        if (!full)
                return log_oom();
        r = read_full_file(full, CONFIG_SIZE_MAX, &old, NULL);
        if (r < 0 && r != -ENOENT)
                return log_error_errno(r, "Failed to read %s: %m", full);
        text = xkb_config_update_debian(old, c);
        if (!text)
                return log_oom();
        return write_if_changed(XKB_DEBIAN_PATH, text);
}

static int verb_set(int argc, char *argv[]) {
        XkbConfig c = {
                .layout = argc > 0 ? argv[0] : NULL,
                .model = argc > 1 ? argv[1] : NULL,
                .variant = argc > 2 ? argv[2] : NULL,
                .options = argc > 3 ? argv[3] : NULL,
        };
        _cleanup_free_ char *x11 = NULL;
        const char *bad;
        int r;

        bad = xkb_config_find_unsafe(&c);
        if (bad)
                return log_usage_error("The %s must not contain quotes, backslashes, \"$\" or control characters.", bad);

        if (!xkb_config_is_empty(&c))
                warn_unknown_names(&c);

        /* Debian's localed keeps the settings in its own file: keep it in step, other lines untouched. */
        if (pick_source() == SOURCE_DEBIAN) {
                r = update_debian_file(&c);
                if (r < 0)
                        return r;
        }

        if (xkb_config_is_empty(&c))
                r = remove_file(XKB_X11_PATH);
        else {
                x11 = xkb_config_render_x11(&c);
                if (!x11)
                        return log_oom();
                r = write_if_changed(XKB_X11_PATH, x11);
        }
        if (r < 0)
                return r;
        return write_env_file(&c, pick_source());
}

static void print_config_json(const XkbConfig *c) {
        putchar('{');
        json_write_key(stdout, "layout", true);
        json_write_string(stdout, c->layout);
        json_write_key(stdout, "model", false);
        json_write_string(stdout, c->model);
        json_write_key(stdout, "variant", false);
        json_write_string(stdout, c->variant);
        json_write_key(stdout, "options", false);
        json_write_string(stdout, c->options);
        putchar('}');
}

static void print_config_text(const char *title, const char *path, const XkbConfig *c) {
        printf("%s (%s):\n", title, path);
        if (xkb_config_is_empty(c)) {
                printf("    (not set)\n");
                return;
        }
        printf("    Layout: %s\n    Model: %s\n    Variant: %s\n    Options: %s\n", c->layout ?: "", c->model ?: "",
               c->variant ?: "", c->options ?: "");
}

static int verb_show(int argc, char *argv[]) {
        Source source = pick_source();
        XkbConfig x11, env;
        bool in_sync;
        int r;

        r = read_source(source, &x11);
        if (r < 0)
                return r;
        r = read_config(XKB_ENV_PATH, FORMAT_ENV, &env);
        if (r < 0) {
                xkb_config_done(&x11);
                return r;
        }

        in_sync = streq(x11.layout ?: "", env.layout ?: "") && streq(x11.model ?: "", env.model ?: "") &&
                  streq(x11.variant ?: "", env.variant ?: "") && streq(x11.options ?: "", env.options ?: "");

        if (arg_json) {
                putchar('{');
                json_write_key(stdout, "source", true);
                json_write_string(stdout, source_path(source));
                json_write_key(stdout, "keyboard", false);
                print_config_json(&x11);
                json_write_key(stdout, "wayland", false);
                print_config_json(&env);
                json_write_key(stdout, "inSync", false);
                fputs(in_sync ? "true" : "false", stdout);
                puts("}");
        } else {
                print_config_text("Keyboard", source_path(source), &x11);
                print_config_text("Wayland", XKB_ENV_PATH, &env);
                printf("In sync: %s\n", in_sync ? "yes" : "no (run \"urlboot-xkb sync\")");
        }
        xkb_config_done(&x11);
        xkb_config_done(&env);
        return 0;
}

typedef struct Verb {
        const char *name;
        const CommandTable *table;
        int (*run)(int argc, char *argv[]);     /* the arguments after the command's name; -EUSAGE: exit 2 */
} Verb;

static const Verb verbs[] = {
        { "sync", &sync_table, verb_sync },
        { "set", &set_table, verb_set },
        { "show", &show_table, verb_show },
};

static const Verb *verb_find(const char *name) {
        for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
                if (streq(name, verbs[i].name))
                        return verbs + i;
        return NULL;
}

int main(int argc, char *argv[]) {
        JsonCapture capture;
        const Verb *verb;
        OptionParser p;
        char **args;
        int nargs, c = 0, r = 0;

        log_set_program("urlboot-xkb");

        if (option_parser_init(&p, &xkb_table, argc, argv) < 0)
                return log_oom(), EXIT_FAILURE;
        while (r == 0 && (c = option_next(&p)) > 0)
                switch (c) {
                case ARG_ROOT:
                        if (!path_is_absolute(p.argument))
                                r = log_usage_error("--root= needs an absolute path, not '%s'.", p.argument);
                        else
                                arg_root = p.argument;
                        break;
                case ARG_JSON:
                        r = json_format_option(p.argument, &arg_json);
                        break;
                case ARG_SOURCE:
                        if (streq(p.argument, "auto"))
                                arg_source = SOURCE_AUTO;
                        else if (streq(p.argument, "x11"))
                                arg_source = SOURCE_X11;
                        else if (streq(p.argument, "debian"))
                                arg_source = SOURCE_DEBIAN;
                        else
                                r = log_usage_error("--source= takes auto, x11 or debian, not '%s'.", p.argument);
                        break;
                case 'h':
                        command_table_help_verb(&xkb_table, argc, argv, stdout);
                        r = 1;
                        break;
                case ARG_VERSION:
                        puts("urlboot-xkb " URLBOOT_VERSION);
                        r = 1;
                        break;
                }
        if (r == 0)
                r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r != 0)
                return r > 0 ? EXIT_SUCCESS : EXIT_USAGE;

        if (nargs == 0) {
                log_error("Missing command: sync, set or show (see --help).");
                return EXIT_USAGE;
        }
        verb = verb_find(args[0]);
        if (!verb) {
                log_error("Unknown command '%s' (see --help).", args[0]);
                return EXIT_USAGE;
        }
        r = command_table_check_arguments(verb->table, nargs, args);
        if (r < 0)
                return r == -ENOMEM ? EXIT_FAILURE : EXIT_USAGE;

        r = json_capture_begin(&capture, arg_json);
        if (r < 0)
                return EXIT_FAILURE;
        r = verb->run(nargs - 1, args + 1);
        (void) json_capture_end(&capture);
        return r == -EUSAGE ? EXIT_USAGE : r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
