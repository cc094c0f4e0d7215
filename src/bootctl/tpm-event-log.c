/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reading and replaying the TPM event log.
 */
#include <assert.h>
#include <errno.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "string-util.h"
#include "tpm-event-log.h"
#include "utf16.h"

#define SPEC_ID_SIGNATURE "Spec ID Event03"
#define LEGACY_HEADER_SIZE 32           /* PCR, type, SHA-1 digest (20), event size */
#define SPEC_ID_FIXED_SIZE 28           /* signature (16), class, versions, errata, uintn size, count */
#define STARTUP_LOCALITY "StartupLocality"
/* The Linux kernel's EFI stub tags its load options and initrd events with ASCII text, not UTF-16. */
#define LINUX_TAG_INITRD 0x8f3b22ecU
#define LINUX_TAG_LOAD_OPTIONS 0x8f3b22edU

typedef struct Reader {
        const uint8_t *p;
        size_t size;
        size_t off;
} Reader;

static bool take(Reader *r, size_t n, const uint8_t **ret) {
        if (r->size - r->off < n)
                return false;
        *ret = r->p + r->off;
        r->off += n;
        return true;
}

static bool take_u32(Reader *r, uint32_t *ret) {
        const uint8_t *p;

        if (!take(r, 4, &p))
                return false;
        *ret = (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
        return true;
}

static bool take_u16(Reader *r, uint16_t *ret) {
        const uint8_t *p;

        if (!take(r, 2, &p))
                return false;
        *ret = (uint16_t) (p[0] | p[1] << 8);
        return true;
}

typedef struct Algorithms {
        uint16_t id[TPM_LOG_ALGORITHMS_MAX];
        uint16_t size[TPM_LOG_ALGORITHMS_MAX];
        size_t n;
} Algorithms;

/* The first record: old layout, EV_NO_ACTION, its data the Spec ID event with the algorithms. */
static int read_header(Reader *r, Algorithms *algs) {
        const uint8_t *fixed, *data;
        uint32_t pcr, type, size, count;
        Reader spec;

        if (!take_u32(r, &pcr) || !take_u32(r, &type) || !take(r, 20, &fixed) || !take_u32(r, &size) ||
            !take(r, size, &data))
                return -EBADMSG;
        if (type != TCG_EV_NO_ACTION || size < SPEC_ID_FIXED_SIZE || memcmp(data, SPEC_ID_SIGNATURE, 16) != 0)
                return -EBADMSG;
        spec = (Reader) { .p = data, .size = size, .off = 24 };
        if (!take_u32(&spec, &count) || count == 0 || count > TPM_LOG_ALGORITHMS_MAX)
                return -EBADMSG;
        for (uint32_t i = 0; i < count; i++) {
                if (!take_u16(&spec, &algs->id[i]) || !take_u16(&spec, &algs->size[i]) || algs->size[i] == 0 ||
                    algs->size[i] > PCR_DIGEST_MAX)
                        return -EBADMSG;
        }
        algs->n = count;
        return 0;
}

static int read_event(Reader *r, const Algorithms *algs, TpmLogEvent *e) {
        uint32_t count, size;

        *e = (TpmLogEvent) {};
        if (!take_u32(r, &e->pcr) || !take_u32(r, &e->type) || !take_u32(r, &count) || count > algs->n)
                return -EBADMSG;
        for (uint32_t i = 0; i < count; i++) {
                TpmLogDigest *d = &e->digests[i];
                size_t k;

                if (!take_u16(r, &d->alg))
                        return -EBADMSG;
                for (k = 0; k < algs->n && algs->id[k] != d->alg; k++)
                        ;
                /* the digest size comes from the header: an unknown algorithm cannot be skipped */
                if (k == algs->n || !take(r, algs->size[k], &d->digest))
                        return -EBADMSG;
                d->size = algs->size[k];
        }
        e->n_digests = count;
        if (!take_u32(r, &size) || !take(r, size, &e->data))
                return -EBADMSG;
        e->data_size = size;
        return 0;
}

int tpm_log_parse(const void *log, size_t size, tpm_log_event_cb cb, void *userdata) {
        Reader r = { .p = log, .size = size };
        Algorithms algs = {};
        int k;

        assert(log || size == 0);

        k = read_header(&r, &algs);
        if (k < 0)
                return k;
        while (r.off < r.size) {
                TpmLogEvent e;

                k = read_event(&r, &algs, &e);
                if (k < 0)
                        return k;
                k = cb(&e, userdata);
                if (k != 0)
                        return k;
        }
        return 0;
}

typedef struct Replay {
        PcrSet *pcrs;
        unsigned banks;
} Replay;

static int replay_event(const TpmLogEvent *e, void *userdata) {
        Replay *rp = userdata;
        int r;

        if (e->type == TCG_EV_NO_ACTION) {
                /* "StartupLocality\0" then the locality: PCR 0 starts as that number, not zero */
                if (e->data_size == sizeof STARTUP_LOCALITY + 1 && memcmp(e->data, STARTUP_LOCALITY, sizeof STARTUP_LOCALITY) == 0)
                        for (PcrBank b = 0; b < _PCR_BANK_MAX; b++)
                                rp->pcrs->value[0][b][pcr_bank_digest_size(b) - 1] = e->data[sizeof STARTUP_LOCALITY];
                return 0;
        }
        if (e->pcr >= PCR_COUNT)
                return -EBADMSG;
        for (size_t i = 0; i < e->n_digests; i++) {
                int b = pcr_bank_from_tcg_alg(e->digests[i].alg);
                if (b < 0 || e->digests[i].size != pcr_bank_digest_size(b))
                        continue;
                r = pcr_extend_digest(rp->pcrs, e->pcr, b, e->digests[i].digest);
                if (r < 0)
                        return r;
                rp->banks |= 1U << b;
        }
        return 0;
}

int tpm_log_replay(const void *log, size_t size, PcrSet *s, unsigned *ret_banks) {
        Replay rp = { .pcrs = s };
        int r;

        assert(log || size == 0);
        assert(s);
        assert(ret_banks);

        memset(s, 0, sizeof *s);
        r = tpm_log_parse(log, size, replay_event, &rp);
        if (r < 0)
                return r;
        *ret_banks = rp.banks;
        return 0;
}

/* UTF-16 text of size bytes as new UTF-8, or NULL */
static char *utf16_text(const uint8_t *p, size_t size) {
        char *s = NULL;

        return utf16le_to_utf8(p, size, &s) < 0 ? NULL : s;
}

/* EV_IPL text: systemd's and ours are UTF-16, shim's ("MokList", "MokListX", ...) ASCII with a NUL. */
static char *ipl_text(const uint8_t *p, size_t size) {
        size_t n = strnlen((const char *) p, size);

        if (n > 1 && (n == size || (n == size - 1 && p[n] == 0)))
                return strndup((const char *) p, n);
        return utf16_text(p, size);
}

/* The length of the first line of p (size bytes, perhaps without a NUL): up to a character of stop or a NUL. */
static size_t strcspn_n(const char *p, size_t size, const char *stop) {
        size_t n = 0;

        while (n < size && p[n] && !strchr(stop, p[n]))
                n++;
        return n;
}

/* The subject of a DER certificate inside EFI_SIGNATURE_DATA (owner GUID, then the certificate), or NULL. */
static char *signature_data_subject(const uint8_t *value, size_t size) {
        const unsigned char *der = value + 16;
        _cleanup_free_ char *subject = NULL;
        X509 *x;

        if (size <= 16)
                return NULL;
        x = d2i_X509(NULL, &der, (long) (size - 16));
        if (!x)
                return NULL;
        subject = X509_NAME_oneline(X509_get_subject_name(x), NULL, 0);
        X509_free(x);
        return subject ? strdup(subject) : NULL;
}

/* UEFI_VARIABLE_DATA: GUID, name length (UTF-16 units), data length, name, data. Driver configuration
 * (SecureBoot, PK, db, ...) shows the value's first bytes as a number; an authority (what verified an image:
 * db, or shim's MokListRT and vendor certificate) the certificate's subject. */
static char *describe_variable(const TpmLogEvent *e) {
        Reader r = { .p = e->data, .size = e->data_size, .off = 16 };
        _cleanup_free_ char *name = NULL, *subject = NULL;
        const uint8_t *p, *value;
        uint32_t name_len_lo, name_len_hi, value_len_lo, value_len_hi;
        uint64_t v = 0;
        char *s = NULL;

        if (e->data_size < 32 || !take_u32(&r, &name_len_lo) || !take_u32(&r, &name_len_hi) ||
            !take_u32(&r, &value_len_lo) || !take_u32(&r, &value_len_hi) || name_len_hi || value_len_hi ||
            name_len_lo > 256 || !take(&r, (size_t) name_len_lo * 2, &p) || !take(&r, value_len_lo, &value))
                return NULL;
        name = utf16_text(p, (size_t) name_len_lo * 2);
        if (!name)
                return NULL;
        if (e->type == TCG_EV_EFI_VARIABLE_AUTHORITY) {
                /* a certificate, or text such as shim's SbatLevel ("sbat,1,2024010900\n..."): its first line */
                subject = signature_data_subject(value, value_len_lo);
                if (!subject)
                        subject = strndup((const char *) value, strcspn_n((const char *) value, value_len_lo, "\n"));
                if (asprintf(&s, "authority %s: %s", name, subject ?: "") < 0)
                        return NULL;
                return s;
        }
        for (size_t i = 0; i < value_len_lo && i < 8; i++)
                v |= (uint64_t) value[i] << (8 * i);
        if (asprintf(&s, "%s=%llu", name, (unsigned long long) v) < 0)
                return NULL;
        return s;
}

static char *describe_raw(const TpmLogEvent *e) {
        char *s = NULL;

        if (e->type == TCG_EV_IPL)
                return ipl_text(e->data, e->data_size);
        if (e->type == TCG_EV_EVENT_TAG && e->data_size >= 8) {
                uint32_t tag = (uint32_t) e->data[0] | (uint32_t) e->data[1] << 8 | (uint32_t) e->data[2] << 16 |
                               (uint32_t) e->data[3] << 24;
                uint32_t n = (uint32_t) e->data[4] | (uint32_t) e->data[5] << 8 | (uint32_t) e->data[6] << 16 |
                             (uint32_t) e->data[7] << 24;
                bool ascii = tag == LINUX_TAG_INITRD || tag == LINUX_TAG_LOAD_OPTIONS;
                _cleanup_free_ char *d = n > e->data_size - 8 ? NULL
                                         : ascii ? strndup((const char *) e->data + 8, n)
                                                 : utf16_text(e->data + 8, n);
                if (asprintf(&s, "tag 0x%08x: %s", tag, d ?: "") < 0)
                        return NULL;
                return s;
        }
        if (e->type == TCG_EV_EFI_VARIABLE_DRIVER_CONFIG || e->type == TCG_EV_EFI_VARIABLE_AUTHORITY)
                return describe_variable(e);
        return NULL;
}

/* The event data is the firmware's and the ESP's: no byte of it reaches a terminal unescaped. */
char *tpm_log_event_describe(const TpmLogEvent *e) {
        _cleanup_free_ char *raw = describe_raw(e);

        assert(e);

        return raw ? escape_cc(raw) : NULL;
}
