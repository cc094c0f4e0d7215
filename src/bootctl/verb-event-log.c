/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl event-log: the records of the TPM event log and the PCR values they replay to, checked
 * against the TPM's own values (/sys/class/tpm/tpm0/pcr-BANK/N) when they can be read.
 */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "json-writer.h"
#include "exit-status.h"
#include "log.h"
#include "macro.h"
#include "tpm-event-log.h"
#include "verb-event-log.h"

#define DEFAULT_LOG "/sys/kernel/security/tpm0/binary_bios_measurements"
#define LOG_SIZE_MAX (16UL * 1024 * 1024)

typedef struct Args {
        const char *log;
        const char *sysfs;              /* directory with pcr-BANK/N, NULL: do not compare */
        unsigned pcrs;                  /* 1 << N; 0: all that were extended */
        bool events;
        bool json;
} Args;

typedef struct Listing {
        const Args *args;
        size_t n;
} Listing;

static int list_event(const TpmLogEvent *e, void *userdata) {
        Listing *l = userdata;
        _cleanup_free_ char *text = tpm_log_event_describe(e);

        if (l->args->pcrs && !(e->pcr < 32 && (l->args->pcrs & (1U << e->pcr))))
                return 0;
        if (l->args->json) {
                printf("%s{\"pcr\":%u,\"type\":%u", l->n++ ? "," : "", e->pcr, e->type);
                json_write_key(stdout, "description", false);
                json_write_string(stdout, text);
                putchar('}');
        } else
                printf("%3u  0x%08x  %s\n", e->pcr, e->type, text ?: "");
        return 0;
}

/* The TPM's value of a PCR (lowercase hex), or NULL when it cannot be read. */
static char *read_tpm_pcr(const char *sysfs, unsigned pcr, PcrBank b) {
        _cleanup_free_ char *path = NULL;
        char *s = NULL;
        size_t n;

        if (!sysfs || asprintf(&path, "%s/pcr-%s/%u", sysfs, pcr_bank_name(b), pcr) < 0)
                return NULL;
        if (read_full_file(path, 4096, &s, &n) < 0)
                return NULL;
        for (size_t i = 0; i < n; i++)
                s[i] = (char) (s[i] >= 'A' && s[i] <= 'F' ? s[i] - 'A' + 'a' : s[i]);
        while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
                s[--n] = 0;
        return s;
}

/* Prints the replayed PCRs; @ret the number that differ from the TPM's */
static int print_pcrs(const Args *a, const PcrSet *s, unsigned banks) {
        char hex[2 * PCR_DIGEST_MAX + 1];
        int differ = 0;
        bool first = true;

        if (a->json)
                fputs("\"pcrs\":[", stdout);
        else
                printf("PCR  BANK    TPM      REPLAYED VALUE\n");
        for (unsigned pcr = 0; pcr < PCR_COUNT; pcr++) {
                if (a->pcrs ? !(a->pcrs & (1U << pcr)) : !s->touched[pcr])
                        continue;
                for (PcrBank b = 0; b < _PCR_BANK_MAX; b++) {
                        _cleanup_free_ char *tpm = NULL;
                        const char *state;
                        if (!(banks & (1U << b)))
                                continue;
                        tpm = read_tpm_pcr(a->sysfs, pcr, b);
                        pcr_hex(s, pcr, b, hex);
                        state = !tpm ? "unknown" : strcmp(tpm, hex) == 0 ? "matches" : "DIFFERS";
                        if (tpm && strcmp(tpm, hex) != 0)
                                differ++;
                        if (a->json) {
                                printf("%s{\"pcr\":%u,\"bank\":\"%s\",\"replayed\":\"%s\",\"tpm\":", first ? "" : ",",
                                       pcr, pcr_bank_name(b), hex);
                                json_write_string(stdout, tpm);
                                putchar('}');
                                first = false;
                        } else
                                printf("%3u  %-6s  %-7s  %s\n", pcr, pcr_bank_name(b), state, hex);
                }
        }
        if (a->json)
                putchar(']');
        return differ;
}

static void help(void) {
        printf("Usage: urlbootctl event-log [OPTIONS] [FILE]\n"
               "\n"
               "Replay the firmware's TPM event log (default " DEFAULT_LOG ")\n"
               "and compare every PCR it extends with the TPM's value in /sys/class/tpm/tpm0.\n"
               "\n"
               "  --pcr=N       only PCR N (repeatable)\n"
               "  --events      list the records too (PCR, type, description)\n"
               "  --sysfs=DIR   where the TPM's pcr-BANK/N files are (default /sys/class/tpm/tpm0;\n"
               "                \"\" not to compare)\n"
               "  --json        JSON output\n"
               "  -h --help     this help\n"
               "\n"
               "Exits with 1 when a replayed value differs from the TPM's.\n");
}

static int parse_argv(int argc, char *argv[], Args *a) {
        enum { ARG_PCR = 0x100, ARG_EVENTS, ARG_SYSFS, ARG_JSON };
        static const struct option options[] = {
                { "pcr", required_argument, NULL, ARG_PCR },
                { "events", no_argument, NULL, ARG_EVENTS },
                { "sysfs", required_argument, NULL, ARG_SYSFS },
                { "json", no_argument, NULL, ARG_JSON },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        char *end;
        long n;
        int c;

        optind = 0;
        while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0)
                switch (c) {
                case ARG_PCR:
                        n = strtol(optarg, &end, 10);
                        if (*end || end == optarg || n < 0 || n >= PCR_COUNT)
                                return log_usage_error("--pcr= takes a PCR number 0-23, not '%s'.", optarg);
                        a->pcrs |= 1U << n;
                        break;
                case ARG_EVENTS:
                        a->events = true;
                        break;
                case ARG_SYSFS:
                        a->sysfs = *optarg ? optarg : NULL;
                        break;
                case ARG_JSON:
                        a->json = true;
                        break;
                case 'h':
                        help();
                        return 0;
                default:
                        return -EUSAGE;
                }
        if (optind + 1 < argc)
                return log_usage_error("event-log takes one file (see 'urlbootctl event-log --help').");
        if (optind < argc)
                a->log = argv[optind];
        return 1;
}

int verb_event_log(int argc, char *argv[], const void *data) {
        Args a = { .log = DEFAULT_LOG, .sysfs = "/sys/class/tpm/tpm0" };
        _cleanup_free_ char *log = NULL;
        Listing l = { .args = &a };
        PcrSet s;
        unsigned banks;
        size_t size;
        int r, differ;

        assert(argv);

        r = parse_argv(argc, argv, &a);
        if (r <= 0)
                return r;
        r = read_full_file(a.log, LOG_SIZE_MAX, &log, &size);
        if (r < 0)
                return log_error_errno(r, "Failed to read the event log %s: %m%s", a.log,
                                       r == -ENOENT ? " (no TPM, or securityfs not mounted on /sys/kernel/security)" : "");
        r = tpm_log_replay(log, size, &s, &banks);
        if (r < 0)
                return log_error_errno(r == -EBADMSG ? EIO : r, "%s is not a TPM 2.0 event log this tool can read (%s).",
                                       a.log, r == -EBADMSG ? "bad or cut record" : strerror(-r));
        if (a.json)
                putchar('{');
        if (a.events) {
                if (a.json)
                        fputs("\"events\":[", stdout);
                (void) tpm_log_parse(log, size, list_event, &l);
                if (a.json)
                        fputs("],", stdout);
                else
                        putchar('\n');
        }
        differ = print_pcrs(&a, &s, banks);
        if (a.json)
                puts("}");
        if (differ > 0)
                return log_error_errno(EIO, "%d replayed PCR value(s) differ from the TPM's: the log does not "
                                       "account for everything measured.", differ);
        return 0;
}
