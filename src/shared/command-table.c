/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "command-table.h"
#include "exit-status.h"
#include "json-writer.h"
#include "log.h"
#include "string-util.h"

/* Hidden: what the build's completion generator and the man page test ask for. */
#define OPTION_DUMP_TABLE (-2)

static int getopt_has_arg(OptionArgument a) {
        return a == OPTION_REQUIRED ? required_argument : a == OPTION_OPTIONAL ? optional_argument : no_argument;
}

int option_parser_init(OptionParser *p, const CommandTable *table, int argc, char *argv[]) {
        size_t n = 0, s = 0;

        assert(p);
        assert(table);
        assert(argv);

        *p = (OptionParser) { .table = table, .argc = argc, .argv = argv };
        p->long_options = calloc(table->n_options + 2, sizeof *p->long_options);
        p->short_options = calloc(table->n_options * 3 + 3, 1);
        if (!p->long_options || !p->short_options) {
                option_parser_done(p);
                return -ENOMEM;
        }
        if (table->options_end_at_argument)
                p->short_options[s++] = '+';
        p->short_options[s++] = ':';    /* a missing value is told apart from an unknown option */
        for (size_t i = 0; i < table->n_options; i++) {
                const OptionRow *o = table->options + i;

                if (o->name)
                        p->long_options[n++] = (struct option) { o->name, getopt_has_arg(o->argument), NULL, o->id };
                if (o->short_name) {
                        p->short_options[s++] = o->short_name;
                        if (o->argument != OPTION_SWITCH)
                                p->short_options[s++] = ':';
                        if (o->argument == OPTION_OPTIONAL)
                                p->short_options[s++] = ':';
                }
        }
        p->long_options[n] = (struct option) { "dump-table", no_argument, NULL, OPTION_DUMP_TABLE };
        optind = 0;     /* getopt_long starts afresh (a verb after the command's own parse) */
        opterr = 0;     /* the messages below name the option as the user wrote it */
        return 0;
}

void option_parser_done(OptionParser *p) {
        assert(p);

        free(p->long_options);
        free(p->short_options);
        p->long_options = NULL;
        p->short_options = NULL;
}

/* The option as the user typed it, for the message: getopt_long leaves it at argv[optind - 1]. */
static const char *option_as_typed(const OptionParser *p) {
        int i = optind - 1;

        if (i >= 1 && i < p->argc && p->argv[i][0] == '-')
                return p->argv[i];
        return "?";
}

/* How messages name the command: a verb as "VERB: " (the log line starts with the program's name), a
 * command with no verbs not at all. */
static const char *verb_prefix(const CommandTable *t, char buf[static 64]) {
        const char *space = strchr(t->name, ' ');

        snprintf(buf, 64, "%s%s", space ? space + 1 : "", space ? ": " : "");
        return buf;
}

/* "NAME=VALUE" names a long option of the table */
static bool table_has_long(const CommandTable *t, const char *name_value) {
        size_t n = strcspn(name_value, "=");

        for (size_t i = 0; i < t->n_options; i++)
                if (t->options[i].name && strlen(t->options[i].name) == n &&
                    strncmp(t->options[i].name, name_value, n) == 0)
                        return true;
        return false;
}

int option_next(OptionParser *p) {
        char prefix[64];
        int c;

        assert(p);
        assert(p->long_options);

        p->argument = NULL;
        c = getopt_long(p->argc, p->argv, p->short_options, p->long_options, NULL);
        if (c == OPTION_DUMP_TABLE) {   /* negative, so before the end of the options is told */
                command_table_dump(p->table, stdout);
                exit(fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
        }
        if (c < 0)
                return 0;
        if (c == ':') {
                if (optopt && optopt < 0x80 && !strchr("?:", optopt))
                        return log_usage_error("%soption -%c needs a value (see --help).", verb_prefix(p->table, prefix), optopt);
                return log_usage_error("%soption %s needs a value (see --help).", verb_prefix(p->table, prefix), option_as_typed(p));
        }
        if (c == '?') {
                const char *typed = option_as_typed(p);

                if (startswith(typed, "--") && strchr(typed, '=') && table_has_long(p->table, typed + 2))
                        return log_usage_error("%soption %.*s takes no value (see --help).",
                                               verb_prefix(p->table, prefix), (int) strcspn(typed, "="), typed);
                if (optopt && optopt < 0x80)
                        return log_usage_error("%sunknown option -%c (see --help).", verb_prefix(p->table, prefix), optopt);
                return log_usage_error("%sunknown option %s (see --help).", verb_prefix(p->table, prefix), option_as_typed(p));
        }
        p->argument = optarg;
        return c;
}

/* n positional arguments against the table's count. */
static int check_count(const CommandTable *t, unsigned n) {
        char prefix[64];

        if (n < t->min_arguments)
                return log_usage_error("%stoo few arguments (%u given; see --help).", verb_prefix(t, prefix), n);
        if (t->max_arguments != ARGUMENTS_ANY && n > t->max_arguments)
                return log_usage_error("%stoo many arguments (%u given, it takes %s; see --help).", verb_prefix(t, prefix),
                                       n, t->max_arguments == 0 ? "none" : t->max_arguments == 1 ? "one" : "fewer");
        return 0;
}

int option_parser_arguments(OptionParser *p, int *ret_argc, char ***ret_argv) {
        unsigned n;
        int r;

        assert(p);
        assert(ret_argc);
        assert(ret_argv);

        n = optind < p->argc ? (unsigned) (p->argc - optind) : 0;
        r = check_count(p->table, n);
        if (r < 0)
                return r;
        *ret_argc = (int) n;
        *ret_argv = p->argv + (p->argc - (int) n);
        return 0;
}

int command_table_check_arguments(const CommandTable *table, int argc, char *argv[]) {
        assert(table);
        assert(argv || argc <= 1);

        return check_count(table, argc > 1 ? (unsigned) (argc - 1) : 0);
}

/* Each line of text, indented to the help column; the first after head. */
static void print_help_lines(FILE *f, const char *head, const char *text) {
        const int column = 28;
        bool first = true;

        if ((int) strlen(head) + 2 >= column) {
                fprintf(f, "  %s\n", head);
                first = false;
        }
        for (const char *line = text; line;) {
                const char *end = strchr(line, '\n');
                int n = end ? (int) (end - line) : (int) strlen(line);

                fprintf(f, "  %-*s%.*s\n", column - 2, first ? head : "", n, line);
                first = false;
                line = end ? end + 1 : NULL;
        }
}

void command_table_help_options(const CommandTable *table, FILE *f) {
        assert(table);
        assert(f);

        for (size_t i = 0; i < table->n_options; i++) {
                const OptionRow *o = table->options + i;
                char head[96];

                if (!o->help)
                        continue;
                snprintf(head, sizeof head, "%c%c%s%s%s%s%s%s", o->short_name ? '-' : ' ', o->short_name ?: ' ',
                         o->name ? " --" : "", o->name ?: "",
                         o->argument == OPTION_OPTIONAL ? "[" : "", o->metavar ? (o->name ? "=" : " ") : "",
                         o->metavar ?: "",
                         o->argument == OPTION_OPTIONAL ? "]" : "");
                print_help_lines(f, head, o->help);
        }
}

int command_table_help(const CommandTable *table, FILE *f) {
        assert(table);
        assert(f);

        fprintf(f, "Usage: %s [OPTIONS...]%s%s\n", table->name, table->arguments ? " " : "", table->arguments ?: "");
        if (table->summary)
                fprintf(f, "\n%s\n", table->summary);
        fprintf(f, "\nOptions:\n");
        command_table_help_options(table, f);
        return 0;
}

void command_table_help_verb(const CommandTable *table, int argc, char *argv[], FILE *f) {
        assert(table);
        assert(f);
        assert(argv || argc == 0);

        for (int i = 1; i < argc; i++)
                for (const CommandTable *const *v = table->verbs; v && *v; v++) {
                        const char *verb = strchr((*v)->name, ' ');

                        if (verb && streq(verb + 1, argv[i])) {
                                command_table_help(*v, f);
                                return;
                        }
                }
        command_table_help(table, f);
}

/* What a value completes to: the row's own word, else the words of a metavar "a|b|c". */
static void dump_completion(FILE *f, const char *complete, const char *metavar) {
        char words[256];

        if (!complete && metavar && strchr(metavar, '|') && !strpbrk(metavar, " []") &&
            strlen(metavar) + 7 < sizeof words) {
                snprintf(words, sizeof words, "words:%s", metavar);
                for (char *c = words; *c; c++)
                        if (*c == '|')
                                *c = ' ';
                complete = words;
        }
        json_write_string(f, complete);
}

void command_table_dump(const CommandTable *table, FILE *f) {
        static const char *const argument_names[] = { "none", "required", "optional" };

        assert(table);
        assert(f);

        fputc('{', f);
        json_write_key(f, "name", true);
        json_write_string(f, table->name);
        json_write_key(f, "arguments", false);
        json_write_string(f, table->arguments);
        fprintf(f, ",\"minArguments\":%u,\"maxArguments\":", table->min_arguments);
        if (table->max_arguments == ARGUMENTS_ANY)
                fputs("null", f);
        else
                fprintf(f, "%u", table->max_arguments);
        json_write_key(f, "completeArguments", false);
        json_write_string(f, table->complete_arguments);
        fputs(",\"options\":[", f);
        for (size_t i = 0; i < table->n_options; i++) {
                const OptionRow *o = table->options + i;
                char short_name[2] = { o->short_name, 0 };

                fputs(i ? ",{" : "{", f);
                json_write_key(f, "name", true);
                json_write_string(f, o->name);
                json_write_key(f, "short", false);
                json_write_string(f, o->short_name ? short_name : NULL);
                json_write_key(f, "argument", false);
                json_write_string(f, argument_names[o->argument]);
                json_write_key(f, "metavar", false);
                json_write_string(f, o->metavar);
                json_write_key(f, "help", false);
                json_write_string(f, o->help);
                json_write_key(f, "complete", false);
                dump_completion(f, o->complete, o->metavar);
                fputc('}', f);
        }
        fputs("]}\n", f);
        for (const CommandTable *const *v = table->verbs; v && *v; v++)
                command_table_dump(*v, f);
}

bool command_table_dump_requested(int argc, char *argv[], const CommandTable *const *tables, size_t n_tables) {
        assert(argv);
        assert(tables || n_tables == 0);

        if (argc < 2 || !streq(argv[1], "--dump-table"))
                return false;
        for (size_t i = 0; i < n_tables; i++)
                command_table_dump(tables[i], stdout);
        return true;
}
