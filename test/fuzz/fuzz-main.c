/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Runs a fuzz target over files and directories of inputs, without libFuzzer.
 *
 * This is how the normal test suite replays each target's corpus (under ASan/UBSan in the
 * sanitizer build), so a crash found once stays fixed.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "fuzz.h"
#include "macro.h"

static int run_file(const char *path) {
        _cleanup_free_ char *data = NULL;
        size_t size;
        int r;

        r = read_full_file(path, 16 * 1024 * 1024, &data, &size);
        if (r < 0) {
                fprintf(stderr, "Failed to read %s: %s\n", path, strerror(-r));
                return r;
        }
        LLVMFuzzerTestOneInput((const uint8_t *) data, size);
        return 1;
}

static int run_path(const char *path) {
        struct dirent **entries;
        struct stat st;
        int n, count = 0;

        if (stat(path, &st) < 0) {
                perror(path);
                return -1;
        }
        if (!S_ISDIR(st.st_mode))
                return run_file(path);

        n = scandir(path, &entries, NULL, alphasort);
        if (n < 0) {
                perror(path);
                return -1;
        }
        for (int i = 0; i < n; i++) {
                if (entries[i]->d_name[0] != '.') {
                        _cleanup_free_ char *p = NULL;
                        if (asprintf(&p, "%s/%s", path, entries[i]->d_name) >= 0) {
                                int r = run_path(p);
                                if (r < 0)
                                        count = r;
                                else if (count >= 0)
                                        count += r;
                        }
                }
                free(entries[i]);
        }
        free(entries);
        return count;
}

int main(int argc, char *argv[]) {
        int total = 0;

        for (int i = 1; i < argc; i++) {
                int r = run_path(argv[i]);
                if (r < 0)
                        return EXIT_FAILURE;
                total += r;
        }
        printf("%d inputs ran\n", total);
        return total > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
