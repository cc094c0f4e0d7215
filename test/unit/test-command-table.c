/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The option table: getopt built from the rows, the argument count, --help's layout and the dump. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command-table.h"
#include "exit-status.h"
#include "tests.h"

enum { ARG_ESP = 0x100, ARG_JSON, ARG_ALIAS };

static const OptionRow rows[] = {
        OPTION_ROW_HELP,
        { "esp-path", 0, ARG_ESP, OPTION_REQUIRED, "DIR", "where the ESP is\nmounted", "dir" },
        { "esp", 0, ARG_ESP, OPTION_REQUIRED, "DIR", NULL, "dir" },
        { "json", 0, ARG_JSON, OPTION_OPTIONAL, "pretty|short|off", "JSON output", NULL },
        { "quiet", 'q', 'q', OPTION_SWITCH, NULL, "say less", NULL },
        { NULL, 'o', 'o', OPTION_REQUIRED, "FILE", "write to FILE", "file:efi" },
};

static const CommandTable table = {
        .name = "tool verb",
        .arguments = "URL [NAME]",
        .summary = "Does a thing.",
        .options = rows,
        .n_options = sizeof rows / sizeof rows[0],
        .min_arguments = 1,
        .max_arguments = 2,
};

/* Parses argv (NULL-terminated), returns the ids seen as a string of letters (ESP 'E', JSON 'J'). */
static int parse(char **argv, char *seen, const char **esp, const char **json, int *nargs) {
        OptionParser p;
        int argc = 0, c, r;
        char **args;

        while (argv[argc])
                argc++;
        ASSERT_OK(option_parser_init(&p, &table, argc, argv));
        *seen = 0;
        while ((c = option_next(&p)) > 0) {
                char l = c == ARG_ESP ? 'E' : c == ARG_JSON ? 'J' : (char) c;

                seen[strlen(seen) + 1] = 0;
                seen[strlen(seen)] = l;
                if (c == ARG_ESP)
                        *esp = p.argument;
                if (c == ARG_JSON)
                        *json = p.argument;
        }
        r = c < 0 ? c : option_parser_arguments(&p, nargs, &args);
        option_parser_done(&p);
        return r;
}

TEST(long_short_optional_and_aliases) {
        char *argv[] = { "verb", "--esp=/efi", "-q", "--json", "http://x/", "-o", "out.efi", "--json=pretty", NULL };
        const char *esp = NULL, *json = "unset";
        char seen[16];
        int n;

        ASSERT_OK(parse(argv, seen, &esp, &json, &n));
        ASSERT_STREQ(seen, "EqJoJ");
        ASSERT_STREQ(esp, "/efi");
        ASSERT_STREQ(json, "pretty");
        ASSERT_EQ(n, 1);
        ASSERT_STREQ(argv[optind], "http://x/");
}

TEST(usage_errors) {
        char *unknown[] = { "verb", "--nope", "x", NULL };
        char *unknown_short[] = { "verb", "-z", "x", NULL };
        char *no_value[] = { "verb", "x", "--esp-path", NULL };
        char *no_short_value[] = { "verb", "x", "-o", NULL };
        char *switch_value[] = { "verb", "--quiet=yes", "x", NULL };
        char *too_few[] = { "verb", "-q", NULL };
        char *too_many[] = { "verb", "a", "b", "c", NULL };
        const char *esp = NULL, *json = NULL;
        char seen[16];
        int n;

        ASSERT_EQ(parse(unknown, seen, &esp, &json, &n), -EUSAGE);
        ASSERT_EQ(parse(unknown_short, seen, &esp, &json, &n), -EUSAGE);
        ASSERT_EQ(parse(no_value, seen, &esp, &json, &n), -EUSAGE);
        ASSERT_EQ(parse(no_short_value, seen, &esp, &json, &n), -EUSAGE);
        ASSERT_EQ(parse(switch_value, seen, &esp, &json, &n), -EUSAGE);
        ASSERT_EQ(parse(too_few, seen, &esp, &json, &n), -EUSAGE);
        ASSERT_EQ(parse(too_many, seen, &esp, &json, &n), -EUSAGE);
}

/* What write() printed, in *ret (open_memstream's buffer, freed by the caller). */
static void capture(void (*write)(FILE *f), char **ret) {
        static size_t size;
        FILE *f = open_memstream(ret, &size);

        ASSERT_TRUE(f);
        write(f);
        ASSERT_EQ(fclose(f), 0);
}

static void write_help(FILE *f) {
        command_table_help(&table, f);
}

static void write_dump(FILE *f) {
        command_table_dump(&table, f);
}

TEST(help_layout) {
        char *text = NULL;

        capture(write_help, &text);

        ASSERT_STREQ(text,
                     "Usage: tool verb [OPTIONS...] URL [NAME]\n"
                     "\n"
                     "Does a thing.\n"
                     "\n"
                     "Options:\n"
                     "  -h --help                 show this help\n"
                     "     --esp-path=DIR         where the ESP is\n"
                     "                            mounted\n"
                     "     --json[=pretty|short|off]\n"
                     "                            JSON output\n"
                     "  -q --quiet                say less\n"
                     "  -o FILE                   write to FILE\n");
        free(text);
}

TEST(dump_names_every_row_and_its_completion) {
        char *text = NULL;

        capture(write_dump, &text);

        ASSERT_TRUE(strstr(text, "{\"name\":\"tool verb\",\"arguments\":\"URL [NAME]\",\"minArguments\":1,"
                                 "\"maxArguments\":2,"));
        ASSERT_TRUE(strstr(text, "{\"name\":\"esp\",\"short\":null,\"argument\":\"required\",\"metavar\":\"DIR\","
                                 "\"help\":null,\"complete\":\"dir\"}"));
        ASSERT_TRUE(strstr(text, "\"complete\":\"words:pretty short off\"}"));
        ASSERT_TRUE(strstr(text, "{\"name\":null,\"short\":\"o\",\"argument\":\"required\",\"metavar\":\"FILE\","
                                 "\"help\":\"write to FILE\",\"complete\":\"file:efi\"}"));
        ASSERT_TRUE(text[strlen(text) - 1] == '\n' && !strchr(text, '\n')[1]);
        free(text);
}

TEST(options_end_at_argument) {
        static const CommandTable plus = {
                .name = "shell", .options = rows, .n_options = sizeof rows / sizeof rows[0],
                .max_arguments = ARGUMENTS_ANY, .options_end_at_argument = true,
        };
        char *argv[] = { "shell", "-q", "unit", "ls", "-l", "--json", NULL };
        OptionParser p;
        char **args;
        int n, c, quiet = 0;

        ASSERT_OK(option_parser_init(&p, &plus, 6, argv));
        while ((c = option_next(&p)) > 0)
                quiet += c == 'q';
        ASSERT_EQ(c, 0);
        ASSERT_EQ(quiet, 1);
        ASSERT_OK(option_parser_arguments(&p, &n, &args));
        ASSERT_EQ(n, 4);
        ASSERT_STREQ(args[2], "-l");
        option_parser_done(&p);
}

/* --dump-table anywhere among the options prints the table and exits 0 (it must not end the options instead). */
TEST(dump_table_exits) {
        char *argv[] = { "verb", "x", "--dump-table", NULL };
        char out[8192] = {};
        int fds[2], status;
        ssize_t k, got = 0;
        pid_t pid;

        ASSERT_OK(pipe(fds));
        pid = fork();
        ASSERT_TRUE(pid >= 0);
        if (pid == 0) {
                OptionParser p;

                dup2(fds[1], STDOUT_FILENO);
                if (option_parser_init(&p, &table, 3, argv) < 0)
                        _exit(3);
                while (option_next(&p) > 0)
                        ;
                _exit(4);       /* reached only if --dump-table did not exit */
        }
        close(fds[1]);
        while ((k = read(fds[0], out + got, sizeof out - 1 - got)) > 0)
                got += k;
        close(fds[0]);
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
        ASSERT_TRUE(WIFEXITED(status));
        ASSERT_EQ(WEXITSTATUS(status), 0);
        ASSERT_TRUE(strncmp(out, "{\"name\":\"tool verb\"", 19) == 0);
}

static const CommandTable verb_a = { .name = "tool a", .options = rows, .n_options = 1 };
static const CommandTable with_verbs = {
        .name = "tool", .options = rows, .n_options = 1,
        .verbs = (const CommandTable *const []) { &table, &verb_a, NULL },
};

static void write_with_verbs(FILE *f) {
        command_table_dump(&with_verbs, f);
}

/* A command's dump carries its verbs' tables; --help shows the verb the command line names. */
TEST(verbs_dumped_and_helped) {
        char *text = NULL, *help = NULL;
        char *argv[] = { "tool", "-q", "a", "--help", NULL };
        size_t size;
        FILE *f;
        int lines = 0;

        capture(write_with_verbs, &text);
        for (char *c = text; *c; c++)
                lines += *c == '\n';
        ASSERT_EQ(lines, 3);
        ASSERT_TRUE(strstr(text, "\n{\"name\":\"tool verb\"") && strstr(text, "\n{\"name\":\"tool a\""));
        free(text);

        f = open_memstream(&help, &size);
        ASSERT_TRUE(f);
        command_table_help_verb(&with_verbs, 4, argv, f);
        ASSERT_EQ(fclose(f), 0);
        ASSERT_TRUE(strncmp(help, "Usage: tool a [OPTIONS...]", 26) == 0);
        free(help);
}
