/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: the CEL-JSON log of measurements after boot (urlbootctl event-log, urlboot-sysext-measure).
 * A log that parses is written back record by record as urlboot-sysext-measure writes them and must parse
 * to the same records; every digest has its bank's size; no record names a PCR above 23. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "measure-log.h"

static void check_same(const MeasureLog *a, const MeasureLog *b) {
        if (a->n != b->n)
                abort();
        for (size_t i = 0; i < a->n; i++) {
                const MeasureLogRecord *x = &a->records[i], *y = &b->records[i];
                if (x->pcr != y->pcr || x->pcr > 23 || x->digests.n_banks != y->digests.n_banks)
                        abort();
                /* the writer writes a missing text as an empty one */
                if (strcmp(x->text ?: "", y->text ?: "") != 0)
                        abort();
                for (size_t j = 0; j < x->digests.n_banks; j++) {
                        const TpmBankDigest *d = &x->digests.banks[j], *e = &y->digests.banks[j];
                        if (d->size != tpm_alg_digest_size(d->alg) || d->alg != e->alg || d->size != e->size ||
                            memcmp(d->digest, e->digest, d->size) != 0)
                                abort();
                }
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        MeasureLog log = {}, again = {};
        char *text = NULL;
        size_t bad, text_size = 0;
        int fd;

        if (measure_log_parse((const char *) data, size, &log, &bad) < 0)
                return 0;
        fd = memfd_create("log", MFD_CLOEXEC);
        if (fd < 0)
                abort();
        for (size_t i = 0; i < log.n; i++)
                /* a text with a NUL in it is cut there by json-c's reader as by the writer */
                if (measure_log_append(fd, log.records[i].pcr, log.records[i].text ?: "", &log.records[i].digests) < 0)
                        abort();
        text_size = (size_t) lseek(fd, 0, SEEK_CUR);
        text = malloc(text_size + 1);
        if (!text || pread(fd, text, text_size, 0) != (ssize_t) text_size)
                abort();
        close(fd);
        if (measure_log_parse(text, text_size, &again, &bad) < 0)
                abort();
        check_same(&log, &again);
        measure_log_done(&log);
        measure_log_done(&again);
        free(text);
        return 0;
}
