/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A command's options and arguments, declared once: the rows of a CommandTable drive getopt_long (the
 * long and short option strings are built from them), --help (one layout for every command), the
 * argument-count errors, and the shell completion, which the build generates from `--dump-table`
 * (a hidden option every table answers: one JSON object per command, see command_table_dump()). The man
 * page test reads the same dump. A new option is one row and one case in the command's switch.
 */
#pragma once

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

typedef enum OptionArgument {
        OPTION_SWITCH,          /* --NAME */
        OPTION_REQUIRED,        /* --NAME=VALUE or --NAME VALUE */
        OPTION_OPTIONAL,        /* --NAME or --NAME=VALUE */
} OptionArgument;

typedef struct OptionRow {
        const char *name;       /* the long name without "--"; NULL: only the short one */
        char short_name;        /* 0: none */
        int id;                 /* what option_next() returns: the short letter, or a value ≥ 0x100 */
        OptionArgument argument;
        const char *metavar;    /* --NAME=METAVAR in --help; "a|b|c" lists the words the value takes */
        const char *help;       /* --help's text ("\n" continues on the next line); NULL: an alias, not listed */
        const char *complete;   /* what the value completes to: "file", "file:EXT|EXT", "dir", "words:A B",
                                 * NULL: the words of a metavar "a|b|c", else nothing */
} OptionRow;

#define ARGUMENTS_ANY UINT_MAX

typedef struct CommandTable CommandTable;

struct CommandTable {
        const char *name;       /* "urlboot-lazy" or "urlbootctl list" */
        const char *arguments;  /* after "[OPTIONS...]" in the usage line: "URL [NAME]", or NULL */
        const char *summary;    /* what it does, printed under the usage line; "\n" breaks lines */
        const OptionRow *options;
        size_t n_options;
        unsigned min_arguments, max_arguments;  /* positional arguments (ARGUMENTS_ANY: no limit) */
        const char *complete_arguments;         /* as OptionRow.complete, for the positional arguments */
        const CommandTable *const *verbs;       /* a command's verbs' tables (NULL-terminated): dumped with it,
                                                 * and their --help shown when the command line names one */
        bool options_end_at_argument;           /* getopt's "+": what follows the first argument is its own
                                                 * (a command line to run, with its options) */
};

/* The row every table has first: -h --help, answered by command_table_help(). */
#define OPTION_ROW_HELP { "help", 'h', 'h', OPTION_SWITCH, NULL, "show this help", NULL }
#define OPTION_ROW_VERSION(id) { "version", 0, (id), OPTION_SWITCH, NULL, "print the version", NULL }
/* --json=pretty|short|off as systemd's tools take it (a bare --json is short), read with json_format_option(). */
#define OPTION_ROW_JSON(id, help) { "json", 0, (id), OPTION_OPTIONAL, "pretty|short|off", (help), NULL }

typedef struct OptionParser {
        const CommandTable *table;
        int argc;
        char **argv;
        struct option *long_options;    /* built from the rows */
        char *short_options;
        const char *argument;           /* the value of the option option_next() returned, or NULL */
} OptionParser;

/** Builds getopt_long's view of the table and starts at argv[1]. Returns 0 or -ENOMEM. */
int option_parser_init(OptionParser *p, const CommandTable *table, int argc, char *argv[]);
void option_parser_done(OptionParser *p);

/**
 * The id of the next option (its value in p->argument), 0 at the end of the options, or -EUSAGE after
 * saying which option is unknown or lacks its value. `--dump-table` prints the table and exits.
 */
int option_next(OptionParser *p);

/**
 * After the last option: the positional arguments (*ret_argv, *ret_argc), checked against the table's
 * count ("Too many arguments." / "Too few arguments.": -EUSAGE).
 */
int option_parser_arguments(OptionParser *p, int *ret_argc, char ***ret_argv);

/**
 * The count alone, for a verb whose options the command's own table parsed: argv[0] is the verb, the rest
 * its positional arguments. 0, or -EUSAGE with the message of option_parser_arguments().
 */
int command_table_check_arguments(const CommandTable *table, int argc, char *argv[]);

/** --help: the usage line, the summary and the options, in the layout every urlboot command shares. Returns 0. */
int command_table_help(const CommandTable *table, FILE *f);

/** --help of the verb the command line names (its first word that is one of table->verbs), else of table. */
void command_table_help_verb(const CommandTable *table, int argc, char *argv[], FILE *f);

/** The option rows alone, as command_table_help() lists them (for a help text put together elsewhere). */
void command_table_help_options(const CommandTable *table, FILE *f);

/** One line of JSON per table, the table's own then its verbs' (name, arguments, each option, its help (null: an alias) and completion). */
void command_table_dump(const CommandTable *table, FILE *f);

/** "--dump-table" as the first argument: dumps the tables (a command with verbs dumps every verb's) and returns true. */
bool command_table_dump_requested(int argc, char *argv[], const CommandTable *const *tables, size_t n_tables);
