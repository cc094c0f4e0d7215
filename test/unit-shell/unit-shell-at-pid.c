/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-unit-shell from the point where the unit's main PID is known, for the tests that have no
 * service manager to ask: unit-shell-at-pid [--cgroup=PATH] PID UNIT [COMMAND [ARG...]] (PATH: the unit's
 * control group, which the manager would have given). The exit status, the messages and the processes
 * are those of urlboot-unit-shell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "process-name.h"
#include "unit-shell-run.h"

int main(int argc, char *argv[]) {
        const char *cgroup = NULL;
        char *end;
        long pid;

        log_set_program("urlboot-unit-shell");
        process_name_init(argv);
        if (argc > 1 && strncmp(argv[1], "--cgroup=", 9) == 0) {
                cgroup = argv[1] + 9;
                argv++;
                argc--;
        }

        if (argc < 3) {
                fprintf(stderr, "Usage: unit-shell-at-pid PID UNIT [COMMAND [ARG...]]\n");
                return 2;
        }
        pid = strtol(argv[1], &end, 10);
        if (*end || pid <= 0) {
                fprintf(stderr, "unit-shell-at-pid: bad PID '%s'\n", argv[1]);
                return 2;
        }
        return unit_shell_run(argv[2], (pid_t) pid, cgroup, argc > 3 ? argv + 3 : NULL);
}
