/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-unit-shell from the point where the unit's main PID is known, for the tests that have no
 * service manager to ask: unit-shell-at-pid PID UNIT [COMMAND [ARG...]]. The exit status, the
 * messages and the processes are those of urlboot-unit-shell.
 */
#include <stdio.h>
#include <stdlib.h>

#include "log.h"
#include "process-name.h"
#include "unit-shell-run.h"

int main(int argc, char *argv[]) {
        char *end;
        long pid;

        log_set_program("urlboot-unit-shell");
        process_name_init(argv);

        if (argc < 3) {
                fprintf(stderr, "Usage: unit-shell-at-pid PID UNIT [COMMAND [ARG...]]\n");
                return 2;
        }
        pid = strtol(argv[1], &end, 10);
        if (*end || pid <= 0) {
                fprintf(stderr, "unit-shell-at-pid: bad PID '%s'\n", argv[1]);
                return 2;
        }
        return unit_shell_run(argv[2], (pid_t) pid, argc > 3 ? argv + 3 : NULL);
}
