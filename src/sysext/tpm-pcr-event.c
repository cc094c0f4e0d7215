/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tss2/tss2_esys.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_tctildr.h>

#include "dlopen-util.h"
#include "macro.h"
#include "measure-log.h"
#include "tpm-pcr-event.h"

static DLSYM_DEFINE(Esys_Initialize);
static DLSYM_DEFINE(Esys_Finalize);
static DLSYM_DEFINE(Esys_PCR_Event);
static DLSYM_DEFINE(Esys_Free);
static DLSYM_DEFINE(Tss2_TctiLdr_Initialize);
static DLSYM_DEFINE(Tss2_TctiLdr_Finalize);
static DLSYM_DEFINE(Tss2_RC_Decode);

static int load_libraries(const char **ret_error) {
        static const DlSymbol esys[] = {
                DLSYM_ENTRY(Esys_Initialize), DLSYM_ENTRY(Esys_Finalize), DLSYM_ENTRY(Esys_PCR_Event),
                DLSYM_ENTRY(Esys_Free),
        };
        static const DlSymbol tctildr[] = { DLSYM_ENTRY(Tss2_TctiLdr_Initialize), DLSYM_ENTRY(Tss2_TctiLdr_Finalize) };
        static const DlSymbol rc[] = { DLSYM_ENTRY(Tss2_RC_Decode) };
        static DlOnce once_esys, once_tctildr, once_rc;
        int r;

        r = dlopen_symbols(&once_esys, "libtss2-esys.so.0", esys, ELEMENTSOF(esys), ret_error);
        if (r >= 0)
                r = dlopen_symbols(&once_tctildr, "libtss2-tctildr.so.0", tctildr, ELEMENTSOF(tctildr), ret_error);
        if (r >= 0)
                r = dlopen_symbols(&once_rc, "libtss2-rc.so.0", rc, ELEMENTSOF(rc), ret_error);
        return r;
}

const char *tpm_device(void) {
        static const char *const devices[] = { "/dev/tpmrm0", "/dev/tpm0" };

        for (size_t i = 0; i < ELEMENTSOF(devices); i++)
                if (access(devices[i], F_OK) >= 0)
                        return devices[i];
        return NULL;
}

static void copy_digests(const TPML_DIGEST_VALUES *d, TpmEventResult *ret) {
        *ret = (TpmEventResult) {};
        for (uint32_t i = 0; i < d->count && ret->n_banks < TPM_EVENT_BANKS_MAX; i++) {
                const TPMT_HA *h = &d->digests[i];
                TpmBankDigest *b = &ret->banks[ret->n_banks];
                size_t size = tpm_alg_digest_size(h->hashAlg);
                if (size == 0)
                        continue;
                b->alg = h->hashAlg;
                b->size = size;
                memcpy(b->digest, &h->digest, size);
                ret->n_banks++;
        }
}

int tpm_pcr_event(const char *device, unsigned pcr, const void *data, size_t size, TpmEventResult *ret,
                  const char **ret_error) {
        static char error[200];
        _cleanup_free_ char *conf = NULL;
        TSS2_TCTI_CONTEXT *tcti = NULL;
        ESYS_CONTEXT *ctx = NULL;
        TPML_DIGEST_VALUES *digests = NULL;
        TPM2B_EVENT event = {};
        TSS2_RC rc;
        int r;

        assert(device);
        assert(pcr < 24);
        assert(ret);

        if (size > sizeof event.buffer)
                return -E2BIG;
        r = load_libraries(ret_error);
        if (r < 0)
                return r;
        /* libtss2 logs to stderr by itself; errors are ours to say */
        (void) setenv("TSS2_LOG", "all+none", false);
        if (asprintf(&conf, "%s%s", strchr(device, ':') ? "" : "device:", device) < 0)
                return -ENOMEM;
        rc = sym_Tss2_TctiLdr_Initialize(conf, &tcti);
        if (rc == TSS2_RC_SUCCESS) {
                rc = sym_Esys_Initialize(&ctx, tcti, NULL);
                if (rc == TSS2_RC_SUCCESS) {
                        event.size = (UINT16) size;
                        memcpy(event.buffer, data, size);
                        rc = sym_Esys_PCR_Event(ctx, ESYS_TR_PCR0 + pcr, ESYS_TR_PASSWORD, ESYS_TR_NONE,
                                                ESYS_TR_NONE, &event, &digests);
                        if (rc == TSS2_RC_SUCCESS)
                                copy_digests(digests, ret);
                        sym_Esys_Free(digests);
                        sym_Esys_Finalize(&ctx);
                }
                sym_Tss2_TctiLdr_Finalize(&tcti);
        }
        if (rc != TSS2_RC_SUCCESS) {
                snprintf(error, sizeof error, "%s", sym_Tss2_RC_Decode(rc));
                if (ret_error)
                        *ret_error = error;
                return -EIO;
        }
        return 0;
}
