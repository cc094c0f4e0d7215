/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl event-log: the records of the TPM event log and the PCR values they replay to, checked
 * against the TPM's own values (/sys/class/tpm/tpm0/pcr-BANK/N) when they can be read.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "json-writer.h"
#include "exit-status.h"
#include "log.h"
#include "macro.h"
#include "measure-log.h"
#include "string-util.h"
#include "tpm-event-log.h"
#include "verb-event-log.h"

#define DEFAULT_LOG "/sys/kernel/security/tpm0/binary_bios_measurements"
#define LOG_SIZE_MAX (16UL * 1024 * 1024)
/* systemd's (systemd-pcrphase and friends, v253 on) and urlboot-sysext-measure's */
#define DEFAULT_USERSPACE_LOGS "/run/log/systemd/tpm2-measure.log", MEASURE_LOG_DEFAULT

typedef struct Args {
        const char *log;
        char **userspace_logs;          /* CEL-JSON logs of measurements after boot, replayed after it */
        bool userspace_logs_given;
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

/* One userspace log's records: listed with --events, extended into @s. */
static int replay_userspace_log(const char *path, Listing *l, PcrSet *s, unsigned *banks) {
        _cleanup_(measure_log_done) MeasureLog log = {};
        size_t bad = 0;
        int r;

        r = measure_log_read(path, &log, &bad);
        if (r == -EBADMSG)
                return log_error_errno(EIO, "%s: record %zu is not a CEL-JSON record this tool can read.", path,
                                       bad + 1);
        if (r < 0)
                return log_error_errno(r, "Failed to read %s: %m", path);
        for (size_t i = 0; i < log.n; i++) {
                const MeasureLogRecord *rec = &log.records[i];
                for (size_t j = 0; j < rec->digests.n_banks; j++) {
                        int b = pcr_bank_from_tcg_alg(rec->digests.banks[j].alg);
                        if (b >= 0 && pcr_extend_digest(s, rec->pcr, b, rec->digests.banks[j].digest) >= 0)
                                *banks |= 1U << b;
                }
                if (!l->args->events || (l->args->pcrs && !(l->args->pcrs & (1U << rec->pcr))))
                        continue;
                if (l->args->json) {
                        printf("%s{\"pcr\":%u,\"log\":", l->n++ ? "," : "", rec->pcr);
                        json_write_string(stdout, path);
                        json_write_key(stdout, "description", false);
                        json_write_string(stdout, rec->text);
                        putchar('}');
                } else
                        printf("%3u  %-10s  %s\n", rec->pcr, "CEL-JSON", rec->text ?: "");
        }
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

enum { ARG_PCR = 0x100, ARG_EVENTS, ARG_USERSPACE_LOG, ARG_SYSFS, ARG_JSON };

static const OptionRow event_log_options[] = {
        OPTION_ROW_HELP,
        { "pcr", 0, ARG_PCR, OPTION_REQUIRED, "N", "only PCR N (repeatable)", NULL },
        { "events", 0, ARG_EVENTS, OPTION_SWITCH, NULL, "list the records too (PCR, type, description)", NULL },
        { "userspace-log", 0, ARG_USERSPACE_LOG, OPTION_REQUIRED, "FILE",
          "a CEL-JSON log to replay after FILE instead of the default ones\n(repeatable; \"\" for none)", "file" },
        { "sysfs", 0, ARG_SYSFS, OPTION_REQUIRED, "DIR",
          "where the TPM's pcr-BANK/N files are (default /sys/class/tpm/tpm0;\n\"\" not to compare)", "dir" },
        { "json", 0, ARG_JSON, OPTION_SWITCH, NULL, "JSON output", NULL },
};

const CommandTable verb_event_log_table = {
        .name = "urlbootctl event-log",
        .arguments = "[FILE]",
        .summary = "Replay the firmware's TPM event log (default " DEFAULT_LOG "),\n"
                   "then the logs of what was measured after boot (CEL-JSON: systemd's and urlboot's in\n"
                   "/run/log/*/tpm2-measure.log), and compare every PCR they extend with the TPM's value in\n"
                   "/sys/class/tpm/tpm0.\n"
                   "\n"
                   "Exits with 1 when a replayed value differs from the TPM's.",
        .options = event_log_options,
        .n_options = ELEMENTSOF(event_log_options),
        .max_arguments = 1,
        .complete_arguments = "file",
};

/* 1: run; 0: help printed; <0: error (logged). */
static int parse_argv(int argc, char *argv[], Args *a) {
        OptionParser p;
        char **args, *end;
        int nargs = 0, c, r;
        long n;

        if (option_parser_init(&p, &verb_event_log_table, argc, argv) < 0)
                return log_oom();
        while ((c = option_next(&p)) > 0)
                switch (c) {
                case 'h':
                        option_parser_done(&p);
                        return command_table_help(&verb_event_log_table, stdout);
                case ARG_PCR:
                        n = strtol(p.argument, &end, 10);
                        if (*end || end == p.argument || n < 0 || n >= PCR_COUNT) {
                                option_parser_done(&p);
                                return log_usage_error("--pcr= takes a PCR number 0-23, not '%s'.", p.argument);
                        }
                        a->pcrs |= 1U << n;
                        break;
                case ARG_EVENTS:
                        a->events = true;
                        break;
                case ARG_USERSPACE_LOG:
                        a->userspace_logs_given = true;
                        if (*p.argument && strv_extend(&a->userspace_logs, p.argument) < 0) {
                                option_parser_done(&p);
                                return log_oom();
                        }
                        break;
                case ARG_SYSFS:
                        a->sysfs = *p.argument ? p.argument : NULL;
                        break;
                case ARG_JSON:
                        a->json = true;
                        break;
                }
        r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;
        if (nargs > 0)
                a->log = args[0];
        if (!a->userspace_logs_given) {
                static const char *const defaults[] = { DEFAULT_USERSPACE_LOGS };
                for (size_t i = 0; i < ELEMENTSOF(defaults); i++)
                        if (access(defaults[i], F_OK) >= 0 && strv_extend(&a->userspace_logs, defaults[i]) < 0)
                                return log_oom();
        }
        return 1;
}

static void args_done(Args *a) {
        strv_free(a->userspace_logs);
}

int verb_event_log(int argc, char *argv[], const void *data) {
        _cleanup_(args_done) Args a = { .log = DEFAULT_LOG, .sysfs = "/sys/class/tpm/tpm0" };
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
        if (r == -ENOENT && a.userspace_logs_given && a.userspace_logs) {
                /* a machine booted without measurements, or a log of a TPM of its own (a test's) */
                log_info("No firmware event log %s: replaying the userspace logs from zero.", a.log);
                r = size = 0;
        } else if (r < 0)
                return log_error_errno(r, "Failed to read the event log %s: %m%s", a.log,
                                       r == -ENOENT ? " (no TPM, or securityfs not mounted on /sys/kernel/security)" : "");
        if (size == 0) {
                s = (PcrSet) {};
                banks = 0;
        } else
                r = tpm_log_replay(log, size, &s, &banks);
        if (r < 0)
                return log_error_errno(r == -EBADMSG ? EIO : r, "%s is not a TPM 2.0 event log this tool can read (%s).",
                                       a.log, r == -EBADMSG ? "bad or cut record" : strerror(-r));
        if (a.json)
                putchar('{');
        if (a.events) {
                if (a.json)
                        fputs("\"events\":[", stdout);
                if (size > 0)
                        (void) tpm_log_parse(log, size, list_event, &l);
        }
        STRV_FOREACH(u, a.userspace_logs) {
                r = replay_userspace_log(*u, &l, &s, &banks);
                if (r < 0)
                        return r;
        }
        if (a.events) {
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
