/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The oracle for the directory quota tables: systemd's own parsers and hash, called from the libraries
 * of the reference tree (systemd 262, tools/reference/systemd-unstable), which export them.
 *
 * Reads lines "KIND<TAB>ARG" on stdin and prints one result line each, in the tables' format:
 *   value   ARG as a StateDirectoryQuota= value (config_parse_exec_quota): "off", "bytes N", "scale N",
 *           or "invalid" (the earlier value was kept)
 *   bool    ARG as StateDirectoryAccounting= (config_parse_bool): "yes", "no" or "invalid"
 *   hash    SipHash-2-4 of ARG with the project ID key: "N" (the 64-bit value)
 *   project-id  the same reduced into v258's range (PROJ_ID_CLAMP_INTO_QUOTA_RANGE, exec-invoke.c)
 *   bytes   ARG (a number) as systemctl status formats sizes (format_bytes_full() with flags 0xb, the
 *           constant systemctl 262 passes: IEC | BELOW_POINT | TRAILING_B in its numbering)
 *   type    exec_directory_type_to_string(ARG)
 * Built on the host (no link to systemd) and run inside the tree: argv[1] is its library directory.
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* systemd's layout (src/core/execute.h) */
typedef struct QuotaLimit {
        uint64_t quota_absolute;
        uint32_t quota_scale;
        bool quota_enforce;
        bool quota_accounting;
} QuotaLimit;

typedef int (*config_parser_t)(const char *unit, const char *filename, unsigned line, const char *section,
                               unsigned section_line, const char *lvalue, int ltype, const char *rvalue, void *data,
                               void *userdata);

static void *need(void *lib, const char *name) {
        void *f = dlsym(lib, name);

        if (!f) {
                fprintf(stderr, "oracle: %s: %s\n", name, dlerror());
                exit(1);
        }
        return f;
}

/* The tables' escapes: \n \r \t \\ (as test_unescape()). */
static char *unescape(char *s) {
        char *o = s;

        for (char *i = s; *i; i++) {
                if (*i == '\\' && i[1] && strchr("nrt\\", i[1])) {
                        i++;
                        *o++ = *i == 'n' ? '\n' : *i == 't' ? '\t' : *i == 'r' ? '\r' : *i;
                } else
                        *o++ = *i;
        }
        *o = 0;
        return s;
}

int main(int argc, char *argv[]) {
        static const uint8_t key[16] = { 0xe1, 0x4a, 0x79, 0x9b, 0x64, 0x40, 0x41, 0x4a,
                                         0xa8, 0x46, 0xc2, 0xf3, 0xf9, 0x19, 0x4f, 0x01 };
        char shared_path[512], core_path[512], line[4096];
        void *shared, *core;

        if (argc != 3) {
                fprintf(stderr, "usage: oracle LIBDIR VERSION\n");
                return 2;
        }
        snprintf(shared_path, sizeof shared_path, "%s/libsystemd-shared-%s.so", argv[1], argv[2]);
        snprintf(core_path, sizeof core_path, "%s/libsystemd-core-%s.so", argv[1], argv[2]);
        shared = dlopen(shared_path, RTLD_NOW | RTLD_GLOBAL);
        core = shared ? dlopen(core_path, RTLD_NOW | RTLD_GLOBAL) : NULL;
        if (!core) {
                fprintf(stderr, "oracle: %s\n", dlerror());
                return 1;
        }

        config_parser_t parse_quota = (config_parser_t) need(core, "config_parse_exec_quota");
        config_parser_t parse_bool = (config_parser_t) need(shared, "config_parse_bool");
        uint64_t (*sip)(const void *, size_t, const uint8_t *) = need(shared, "siphash24");
        char *(*fmt_bytes)(char *, size_t, uint64_t, int) = need(shared, "format_bytes_full");
        const char *(*type_name)(int) = need(shared, "exec_directory_type_to_string");
        void (*set_level)(int) = need(shared, "log_set_max_level");

        set_level(2);   /* keep the parsers' warnings off the output */

        while (fgets(line, sizeof line, stdin)) {
                char *tab, *arg;

                line[strcspn(line, "\n")] = 0;
                tab = strchr(line, '\t');
                arg = tab ? unescape(tab + 1) : (char *) "";
                if (tab)
                        *tab = 0;

                if (strcmp(line, "value") == 0) {
                        /* a sentinel that no valid value produces: unchanged means "ignored" */
                        QuotaLimit q = { .quota_absolute = 7, .quota_scale = 7, .quota_enforce = true };

                        parse_quota(NULL, "oracle", 1, "Service", 1, "StateDirectoryQuota", 0, arg, &q, NULL);
                        if (q.quota_absolute == 7 && q.quota_scale == 7 && q.quota_enforce)
                                printf("invalid\n");
                        else if (!q.quota_enforce)
                                printf("off\n");
                        else if (q.quota_absolute != UINT64_MAX)
                                printf("bytes %" PRIu64 "\n", q.quota_absolute);
                        else
                                printf("scale %" PRIu32 "\n", q.quota_scale);
                } else if (strcmp(line, "value-raw") == 0) {
                        QuotaLimit q = { .quota_absolute = 7, .quota_scale = 7, .quota_enforce = true };

                        parse_quota(NULL, "oracle", 1, "Service", 1, "StateDirectoryQuota", 0, arg, &q, NULL);
                        printf("%" PRIu64 " %" PRIu32 " %d %d\n", q.quota_absolute, q.quota_scale, q.quota_enforce,
                               q.quota_accounting);
                } else if (strcmp(line, "bool") == 0) {
                        bool b = false, c = true;

                        parse_bool(NULL, "oracle", 1, "Service", 1, "StateDirectoryAccounting", 0, arg, &b, NULL);
                        parse_bool(NULL, "oracle", 1, "Service", 1, "StateDirectoryAccounting", 0, arg, &c, NULL);
                        printf("%s\n", b && c ? "yes" : !b && !c ? "no" : "invalid");
                } else if (strcmp(line, "hash") == 0)
                        printf("%" PRIu64 "\n", sip(arg, strlen(arg), key));
                else if (strcmp(line, "project-id") == 0)
                        printf("%" PRIu64 "\n", sip(arg, strlen(arg), key) % UINT64_C(2147483647) + UINT64_C(2147483648));
                else if (strcmp(line, "bytes") == 0) {
                        char buf[128];

                        printf("%s\n", fmt_bytes(buf, sizeof buf, strtoull(arg, NULL, 10), 0xb) ?: "(null)");
                } else if (strcmp(line, "type") == 0)
                        printf("%s\n", type_name(atoi(arg)) ?: "(null)");
                else {
                        fprintf(stderr, "oracle: unknown kind '%s'\n", line);
                        return 2;
                }
                fflush(stdout);
        }
        return 0;
}
