/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-boot-nic: in the initrd, make network-online mean "the NIC the firmware booted from is".
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "boot-nic.h"
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
        bool json;
} Args;

static void help(void) {
        printf("Usage: urlboot-boot-nic [--network-dir=DIR] [--template=FILE]\n"
               "       urlboot-boot-nic --print [--json]\n"
               "\n"
               "Finds the NIC the firmware booted from (the MAC address in the device path of the\n"
               "boot option BootCurrent names) and writes networkd configuration that waits for that\n"
               "link alone to be online; other Ethernet links are configured but not waited for.\n"
               "Without a network boot option it writes nothing: every link counts, as before.\n"
               "\n"
               "  --network-dir=DIR    where to write the .network files (default %s)\n"
               "  --template=FILE      the .network file whose settings the boot NIC gets\n"
               "                       (default %s)\n"
               "  --print              print the boot NIC's address instead (exit 1 when there is none)\n"
               "  --json               with --print: {\"mac\": ..., \"bootOption\": ...}\n"
               "  -h --help            this help\n"
               "     --version         print the version\n",
               DEFAULT_NETWORK_DIR, DEFAULT_TEMPLATE);
}

static int parse_args(int argc, char *argv[], Args *a) {
        enum { ARG_VERSION = 0x100, ARG_NETWORK_DIR, ARG_TEMPLATE, ARG_PRINT, ARG_JSON };
        static const struct option options[] = {
                { "help", no_argument, NULL, 'h' },
                { "version", no_argument, NULL, ARG_VERSION },
                { "network-dir", required_argument, NULL, ARG_NETWORK_DIR },
                { "template", required_argument, NULL, ARG_TEMPLATE },
                { "print", no_argument, NULL, ARG_PRINT },
                { "json", no_argument, NULL, ARG_JSON },
                {}
        };
        int c;

        while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0)
                switch (c) {
                case 'h':
                        help();
                        return 0;
                case ARG_VERSION:
                        puts("urlboot-boot-nic " URLBOOT_VERSION);
                        return 0;
                case ARG_NETWORK_DIR:
                        a->network_dir = optarg;
                        break;
                case ARG_TEMPLATE:
                        a->template = optarg;
                        break;
                case ARG_PRINT:
                        a->print = true;
                        break;
                case ARG_JSON:
                        a->json = true;
                        break;
                default:
                        return -EINVAL;
                }
        if (optind < argc) {
                log_error("Unexpected argument '%s' (try --help).", argv[optind]);
                return -EINVAL;
        }
        if (a->json && !a->print) {
                log_error("--json goes with --print (try --help).");
                return -EINVAL;
        }
        return 1;
}

static int print_nic(const Args *a, const uint8_t mac[6], unsigned option) {
        char address[18], name[9];

        mac_to_string(mac, address);
        snprintf(name, sizeof name, "Boot%04X", option);
        if (!a->json) {
                puts(address);
                return 0;
        }
        putchar('{');
        json_write_key(stdout, "mac", true);
        json_write_string(stdout, address);
        json_write_key(stdout, "bootOption", false);
        json_write_string(stdout, name);
        puts("}");
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
                return r < 0 ? EXIT_USAGE : EXIT_SUCCESS;

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
