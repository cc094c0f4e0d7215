/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl chid: the CHIDs (Computer Hardware IDs) of this machine, computed by the code urlboot's stub runs
 * (src/fundamental/chid.c) from the firmware's SMBIOS table as the kernel exports it
 * (/sys/firmware/dmi/tables/DMI), or from a saved table (--smbios=FILE, e.g. a copy of that file taken on
 * another machine): what to write in the "hwids" of a device description for build-uki --hwids=. Like
 * systemd-analyze chid (systemd 258 and later, which Debian 12 lacks), one row per CHID the machine has;
 * only the types the stub matches with are shown (3-11: systemd-stub matches 17-15 by the display's EDID,
 * which urlboot does not read).
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chid.h"
#include "exit-status.h"
#include "fileio.h"
#include "json-writer.h"
#include "log.h"
#include "macro.h"
#include "string-util.h"
#include "verb-chid.h"

#define DMI_TABLE "/sys/firmware/dmi/tables/DMI"
#define SMBIOS_TABLE_MAX (1 << 20)

/* The types the stub matches a .hwids entry with (hwids.c), in the order shown. */
static const unsigned shown_types[] = { 3, 4, 5, 6, 7, 8, 9, 10, 11 };

/* One row of the output: a CHID the machine has, of a type the stub matches with. */
typedef struct ChidRow {
        unsigned type;
        char input[_CHID_FIELD_MAX + 1];        /* the field letters, as systemd-analyze chid's INPUT column */
        char chid[37];
} ChidRow;

static size_t chid_rows(const Chid chids[static CHID_TYPES], ChidRow rows[static ELEMENTSOF(shown_types)]) {
        static const char letters[_CHID_FIELD_MAX] = "MFPSmpBvRreE";
        size_t n = 0;

        for (size_t i = 0; i < ELEMENTSOF(shown_types); i++) {
                unsigned t = shown_types[i];
                uint32_t f = chid_type_fields(t);

                if (chid_is_null(&chids[t]))
                        continue;
                rows[n].type = t;
                for (size_t k = 0; k < _CHID_FIELD_MAX; k++)
                        rows[n].input[k] = f & (UINT32_C(1) << k) ? letters[k] : '-';
                rows[n].input[_CHID_FIELD_MAX] = 0;
                chid_to_string(&chids[t], rows[n].chid);
                n++;
        }
        return n;
}

static void print_table(const ChidRow *rows, size_t n, char *const fields[static _CHID_FIELD_MAX]) {
        static const char *const names[] = { "manufacturer", "family", "product-name", "product-sku",
                                             "baseboard-manufacturer", "baseboard-product" };

        printf("TYPE %-12s CHID\n", "INPUT");
        for (size_t i = 0; i < n; i++)
                printf("%4u %s %s\n", rows[i].type, rows[i].input, rows[i].chid);
        printf("\n");
        for (size_t i = 0; i < ELEMENTSOF(names); i++)
                printf("%c %s: \"%s\"\n", "MFPSmp"[i], names[i], fields[i]);
}

static void print_json(const ChidRow *rows, size_t n) {
        putchar('[');
        for (size_t i = 0; i < n; i++) {
                fputs(i == 0 ? "{" : ",{", stdout);
                json_write_key(stdout, "type", true);
                printf("%u", rows[i].type);
                json_write_key(stdout, "input", false);
                json_write_string(stdout, rows[i].input);
                json_write_key(stdout, "chid", false);
                json_write_string(stdout, rows[i].chid);
                putchar('}');
        }
        puts("]");
}

enum { ARG_SMBIOS = 0x100, ARG_JSON };

static const OptionRow chid_options[] = {
        OPTION_ROW_HELP,
        { "smbios", 0, ARG_SMBIOS, OPTION_REQUIRED, "FILE",
          "an SMBIOS structure table (default: " DMI_TABLE ")", "file" },
        { "json", 0, ARG_JSON, OPTION_SWITCH, NULL, "JSON output", NULL },
};

const CommandTable verb_chid_table = {
        .name = "urlbootctl chid",
        .summary = "Show this machine's CHIDs as urlboot's stub computes them from its SMBIOS fields (types\n"
                   "3-11, those a .hwids entry is matched with): what a device description for\n"
                   "build-uki --hwids= lists under \"hwids\". --smbios=FILE reads a saved table instead.",
        .options = chid_options,
        .n_options = ELEMENTSOF(chid_options),
};

int verb_chid(int argc, char *argv[], const void *data) {
        _cleanup_free_ char *table = NULL;
        const char *path = DMI_TABLE;
        char *fields[_CHID_FIELD_MAX];
        Chid chids[CHID_TYPES];
        ChidRow rows[ELEMENTSOF(shown_types)];
        bool json = false;
        OptionParser p;
        char **args;
        size_t size, n;
        int nargs, c, r;

        assert(argv);

        if (option_parser_init(&p, &verb_chid_table, argc, argv) < 0)
                return log_oom();
        while ((c = option_next(&p)) > 0)
                switch (c) {
                case 'h': option_parser_done(&p); return command_table_help(&verb_chid_table, stdout);
                case ARG_SMBIOS: path = p.argument; break;
                case ARG_JSON: json = true; break;
                }
        r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;
        r = read_full_file(path, SMBIOS_TABLE_MAX, &table, &size);
        if (r < 0)
                return log_error_errno(r, "Failed to read the SMBIOS table %s: %m%s", path,
                                       r == -ENOENT && streq(path, DMI_TABLE)
                                               ? " (a machine without SMBIOS, or a kernel without DMI: give --smbios=FILE)"
                                               : "");
        if (chid_fields_from_smbios(table, size, fields) < 0)
                return log_oom();
        if (!fields[CHID_MANUFACTURER][0])
                log_notice("%s names no manufacturer (SMBIOS type 1): these are the CHIDs of empty fields, which the "
                           "stub computes alike on such a machine.", path);
        chid_compute_all((const char *const *) fields, chids);
        n = chid_rows(chids, rows);
        if (json)
                print_json(rows, n);
        else
                print_table(rows, n, fields);
        chid_fields_free(fields);
        return 0;
}
