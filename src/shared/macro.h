/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Cleanup attributes and small macros for userspace code.
 *
 * Cleanup attributes give every function one exit path for its resources, so an early return
 * never leaks a file descriptor or a buffer.
 */
#pragma once

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "macro-fundamental.h"

#define _noreturn_ __attribute__((noreturn))

static inline void freep(void *p) {
        free(*(void **) p);
}

static inline void closep(int *fd) {
        if (*fd >= 0)
                (void) close(*fd);
}

static inline void fclosep(FILE **f) {
        if (*f)
                (void) fclose(*f);
}

static inline void closedirp(DIR **d) {
        if (*d)
                (void) closedir(*d);
}

#define _cleanup_free_ _cleanup_(freep)

/* free() that returns NULL, for "p = mfree(p);" */
static inline void *mfree(void *p) {
        free(p);
        return NULL;
}
#define _cleanup_close_ _cleanup_(closep)

/* close() that returns -1, for "fd = safe_close(fd);" (a negative fd is left alone) */
static inline int safe_close(int fd) {
        if (fd >= 0)
                (void) close(fd);
        return -1;
}
#define _cleanup_fclose_ _cleanup_(fclosep)

/* Hand an fd over to someone else (TAKE_PTR, for pointers, is in macro-fundamental.h). */
#define TAKE_FD(fd)                             \
        ({                                      \
                int _fd = (fd);                 \
                (fd) = -1;                      \
                _fd;                            \
        })

#define STRLEN(s) (sizeof(s) - 1)
