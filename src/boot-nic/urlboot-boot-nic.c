/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-boot-nic: in the initrd, make network-online mean "the NIC the firmware booted from is".
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "boot-nic.h"
#include "command-table.h"
#include "json-format.h"
#include "device-path.h"
#include "efivars.h"
#include "exit-status.h"
#include "json-writer.h"
#include "log.h"

#define DEFAULT_NETWORK_DIR "/run/systemd/network"
#define DEFAULT_TEMPLATE "/usr/lib/systemd/network/90-urlboot-dhcp.network"

typedef struct Args {
        const char *network_dir;
        const char *template;
        bool print;
        JsonFormat json;
} Args;

enum { ARG_VERSION = 0x100, ARG_NETWORK_DIR, ARG_TEMPLATE, ARG_PRINT, ARG_JSON };

static const OptionRow options[] = {
        OPTION_ROW_HELP,
        OPTION_ROW_VERSION(ARG_VERSION),
        { "network-dir", 0, ARG_NETWORK_DIR, OPTION_REQUIRED, "DIR",
          "where to write the .network files (default " DEFAULT_NETWORK_DIR ")", "dir" },
        { "template", 0, ARG_TEMPLATE, OPTION_REQUIRED, "FILE",
          "the .network file whose settings the boot NIC gets\n(default " DEFAULT_TEMPLATE ")", "file:network" },
        { "print", 0, ARG_PRINT, OPTION_SWITCH, NULL,
          "print the boot NIC's address instead (exit 1 when there is none)", NULL },
        OPTION_ROW_JSON(ARG_JSON, "with --print: {\"mac\": ..., \"bootOption\": ...}"),
};

static const CommandTable table = {
        .name = "urlboot-boot-nic",
        .summary = "Finds the NIC the firmware booted from (the MAC address in the device path of the\n"
                   "boot option BootCurrent names) and writes networkd configuration that waits for that\n"
                   "link alone to be online; other Ethernet links are configured but not waited for.\n"
                   "Without a network boot option it writes nothing: every link counts, as before.\n"
                   "With --print [--json] it prints the boot NIC's address instead.",
        .options = options,
        .n_options = ELEMENTSOF(options),
};

static int parse_args(int argc, char *argv[], Args *a) {
        OptionParser p;
        char **args;
        int nargs, c = 0, r = 1;

        if (option_parser_init(&p, &table, argc, argv) < 0)
                return log_oom();
        while (r > 0 && (c = option_next(&p)) > 0)
                switch (c) {
                case 'h':
                        r = command_table_help(&table, stdout);
                        break;
                case ARG_VERSION:
                        puts("urlboot-boot-nic " URLBOOT_VERSION);
                        r = 0;
                        break;
                case ARG_NETWORK_DIR:
                        a->network_dir = p.argument;
                        break;
                case ARG_TEMPLATE:
                        a->template = p.argument;
                        break;
                case ARG_PRINT:
                        a->print = true;
                        break;
                case ARG_JSON:
                        if (json_format_option(p.argument, &a->json) < 0)
                                r = -EUSAGE;
                        break;
                }
        if (r > 0 && c < 0)
                r = c;
        if (r > 0 && option_parser_arguments(&p, &nargs, &args) < 0)
                r = -EUSAGE;
        option_parser_done(&p);
        if (r > 0 && a->json && !a->print)
                return log_usage_error("--json goes with --print (try --help).");
        return r;
}

static int print_nic(const Args *a, const uint8_t mac[6], unsigned option) {
        char address[18], name[9];
        JsonCapture capture;

        mac_to_string(mac, address);
        snprintf(name, sizeof name, "Boot%04X", option);
        if (!a->json) {
                puts(address);
                return 0;
        }
        if (json_capture_begin(&capture, a->json) < 0)
                return -ENOMEM;
        putchar('{');
        json_write_key(stdout, "mac", true);
        json_write_string(stdout, address);
        json_write_key(stdout, "bootOption", false);
        json_write_string(stdout, name);
        puts("}");
        (void) json_capture_end(&capture);
        return 0;
}

int main(int argc, char *argv[]) {
        Args a = { .network_dir = DEFAULT_NETWORK_DIR, .template = DEFAULT_TEMPLATE };
        uint8_t mac[6];
        unsigned option;
        char address[18];
        int r;

        r = parse_args(argc, argv, &a);
        if (r <= 0)
                return r == -ENOMEM ? EXIT_FAILURE : r < 0 ? EXIT_USAGE : EXIT_SUCCESS;

        r = boot_nic_find(mac, &option);
        if (r == -ENOENT) {
                if (a.print)
                        return EXIT_FAILURE;
                log_info("The firmware did not boot from a network boot option: network-online waits for any "
                         "Ethernet link.");
                return EXIT_SUCCESS;
        }
        if (r < 0) {
                /* Not fatal for the boot: without the files every link counts, as without us. */
                log_warning_errno(r, "Cannot read the boot option's device path from %s: %m; network-online "
                                  "waits for any Ethernet link.", efivars_dir());
                return a.print ? EXIT_FAILURE : EXIT_SUCCESS;
        }
        if (a.print)
                return print_nic(&a, mac, option);

        r = boot_nic_write_network(a.network_dir, a.template, mac, option);
        if (r < 0) {
                log_error_errno(r, "Failed to write the boot NIC's configuration from %s to %s: %m", a.template,
                                a.network_dir);
                return EXIT_FAILURE;
        }
        log_info("The firmware booted from the NIC %s (Boot%04X): network-online waits for that link; other "
                 "Ethernet links are configured, not waited for.", mac_to_string(mac, address), option);
        return EXIT_SUCCESS;
}
