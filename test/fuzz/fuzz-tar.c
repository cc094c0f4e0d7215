/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: unpacking damaged and hostile tarballs (any compression) into a scratch directory.
 * Nothing may appear outside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "rm-rf.h"
#include "tar-unpack.h"

typedef struct Input {
        const uint8_t *data;
        size_t size, off;
} Input;

static long input_read(void *userdata, void *buf, size_t size) {
        Input *in = userdata;
        size_t n = in->size - in->off < size ? in->size - in->off : size;

        /* Small reads exercise libarchive's buffering. */
        if (n > 4096)
                n = 4096;
        memcpy(buf, in->data + in->off, n);
        in->off += n;
        return (long) n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char top[] = "/tmp/urlboot-fuzz-tar.XXXXXX", dir[64], error[256], sentinel[64];
        Input in = { data, size, 0 };

        if (!mkdtemp(top))
                return 0;
        snprintf(dir, sizeof dir, "%s/tree", top);
        if (mkdir(dir, 0755) < 0) {
                (void) rm_rf(top);
                return 0;
        }
        (void) tar_unpack(dir, input_read, &in, error, sizeof error);

        /* The only entry in top must still be "tree". */
        snprintf(sentinel, sizeof sentinel, "%s/escaped", top);
        if (access(sentinel, F_OK) == 0)
                abort();
        (void) rm_rf(top);
        return 0;
}
