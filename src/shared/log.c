/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Logging to stderr, with journal priority prefixes when stderr is the journal.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "log.h"

static const char *program;
static int max_level = -1;
static int prefix_mode = -1;

static const char *const level_names[] = {
        [LOG_EMERG] = "emerg", [LOG_ALERT] = "alert", [LOG_CRIT] = "crit",  [LOG_ERR] = "err",
        [LOG_WARNING] = "warning", [LOG_NOTICE] = "notice", [LOG_INFO] = "info", [LOG_DEBUG] = "debug",
};

void log_set_program(const char *name) {
        program = name;
}

void log_set_max_level(int level) {
        max_level = level;
}

int log_level_from_string(const char *s) {
        char *end;
        long l;

        if (!s || !*s)
                return -EINVAL;
        for (size_t i = 0; i < ELEMENTSOF(level_names); i++)
                if (strcasecmp(s, level_names[i]) == 0)
                        return (int) i;
        if (strcasecmp(s, "error") == 0)
                return LOG_ERR;
        if (strcasecmp(s, "warn") == 0)
                return LOG_WARNING;

        errno = 0;
        l = strtol(s, &end, 10);
        if (errno != 0 || *end || l < 0 || l > LOG_DEBUG)
                return -EINVAL;
        return (int) l;
}

int log_get_max_level(void) {
        if (max_level < 0) {
                const char *e = getenv("URLBOOT_LOG_LEVEL");
                int l;

                if (!e)
                        e = getenv("SYSTEMD_LOG_LEVEL");
                l = log_level_from_string(e);
                max_level = l >= 0 ? l : LOG_INFO;
        }
        return max_level;
}

void log_set_prefix_mode(int mode) {
        prefix_mode = mode;
}

/* $JOURNAL_STREAM is "DEV:INODE" of the journal's stream socket; it only counts if that is still stderr. */
static bool stderr_is_journal(void) {
        const char *e = getenv("JOURNAL_STREAM");
        unsigned long long dev, ino;
        struct stat st;

        if (!e || sscanf(e, "%llu:%llu", &dev, &ino) != 2)
                return false;
        if (fstat(STDERR_FILENO, &st) < 0)
                return false;
        return (unsigned long long) st.st_dev == dev && (unsigned long long) st.st_ino == ino;
}

/* Generators run with stderr on /dev/kmsg, which reads the same "<N>" prefix. */
static bool stderr_is_kmsg(void) {
        struct stat st;

        return fstat(STDERR_FILENO, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
               minor(st.st_rdev) == 11;
}

/* Writes the message with every control character as \xNN: names from archives and servers
 * must not start a new (forged) log line or reach a terminal as an escape sequence. */
static void write_escaped(FILE *f, const char *s) {
        for (; *s; s++) {
                unsigned char c = (unsigned char) *s;

                if (c < ' ' || c == 0x7f)
                        fprintf(f, "\\x%02x", c);
                else
                        fputc(c, f);
        }
}

int log_internal(int level, int error, const char *format, ...) {
        int saved_errno = errno;
        va_list ap;

        assert(format);

        if (error < 0)
                error = -error;

        if (level <= log_get_max_level()) {
                bool prefix = prefix_mode >= 0 ? prefix_mode : (stderr_is_journal() || stderr_is_kmsg());
                char *text = NULL;
                int n;

                /* %m in the format refers to the error we were given, not whatever errno holds. */
                errno = error;
                va_start(ap, format);
                n = vasprintf(&text, format, ap);
                va_end(ap);
                /* The whole line in one write(): stderr is unbuffered, and on /dev/kmsg every write is a
                 * record of its own (one per character otherwise, as urlboot-lazy's lines after the
                 * switch to the real root were). */
                char *line = NULL;
                size_t len = 0;
                FILE *m = open_memstream(&line, &len);
                FILE *f = m ?: stderr;

                flockfile(stderr);
                if (prefix)
                        fprintf(f, "<%d>", level);
                else
                        fprintf(f, "%s: ", program ?: program_invocation_short_name);
                write_escaped(f, n >= 0 ? text : "(cannot format the message: out of memory)");
                fputc('\n', f);
                if (m && fclose(m) == 0 && line) {
                        fflush(stderr);
                        (void) !write(STDERR_FILENO, line, len);
                }
                funlockfile(stderr);
                free(line);
                free(text);
        }

        errno = saved_errno;
        return -error;
}
