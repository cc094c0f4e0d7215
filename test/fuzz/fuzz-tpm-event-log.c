/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: the TPM event log reader (urlbootctl event-log). Every pointer it hands out must lie in
 * the input, every digest must have its algorithm's size, and replay must agree with the walk. */
#include <stdlib.h>

#include "fuzz.h"
#include "string-util.h"
#include "tpm-event-log.h"

typedef struct Bounds {
        const uint8_t *start, *end;
        size_t n;
} Bounds;

static void check_range(const Bounds *b, const uint8_t *p, size_t n) {
        if (n && (p < b->start || p > b->end || n > (size_t) (b->end - p)))
                abort();
}

static int check_event(const TpmLogEvent *e, void *userdata) {
        Bounds *b = userdata;
        char *text;

        check_range(b, e->data, e->data_size);
        if (e->n_digests > TPM_LOG_ALGORITHMS_MAX)
                abort();
        for (size_t i = 0; i < e->n_digests; i++) {
                check_range(b, e->digests[i].digest, e->digests[i].size);
                if (e->digests[i].size == 0 || e->digests[i].size > PCR_DIGEST_MAX)
                        abort();
        }
        text = tpm_log_event_describe(e);
        /* what is printed holds no control character, whatever the log says */
        if (text && string_has_cc(text))
                abort();
        free(text);
        b->n++;
        return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        Bounds b = { .start = data, .end = data + size };
        PcrSet pcrs;
        unsigned banks;
        int walk, replay;

        walk = tpm_log_parse(data, size, check_event, &b);
        replay = tpm_log_replay(data, size, &pcrs, &banks);
        /* a log the walk refuses cannot replay; one it reads replays unless a PCR number is out of range */
        if (walk < 0 && replay >= 0)
                abort();
        return 0;
}
