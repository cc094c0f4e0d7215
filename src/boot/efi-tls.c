/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The pinned CA, for the firmware's TLS during our fetches, and for the OS to see.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "efi-log.h"
#include "efi-tls.h"
#include "efi-variables.h"
#include "memory-fundamental.h"
#include "sha256.h"
#include "signature-list.h"
#include "string-fundamental.h"

/* EFI_TLS_CA_CERTIFICATE_GUID, the vendor of TlsCaCertificate */
static EFI_GUID tls_ca_guid = { 0xfd2340d0, 0x3dab, 0x4349, { 0xa6, 0xc7, 0x3b, 0x4f, 0x12, 0xb4, 0x8e, 0xae } };

#define TLS_CA_VAR L"TlsCaCertificate"
#define OWNER_COPY_VAR L"UrlbootTlsCaOwner"
#define OWNER_MAX (256U * 1024U)

typedef struct Pin {
        const void *esl;
        size_t size;
        bool applied;           /* ours is in place of the owner's */
        bool owner_present;
        bool owner_copied;      /* a non-volatile copy exists for a power cut */
        bool owner_within_ours; /* the owner's list trusts no CA ours does not */
        uint32_t owner_attributes;
        void *owner_data;
        size_t owner_size;
} Pin;

static Pin pin;

/* The owner's variable as it is: bytes and attributes. EFI_NOT_FOUND when there is none. */
static EFI_STATUS owner_read(uint32_t *ret_attributes, void **ret_data, size_t *ret_size) {
        UINTN size = 0;
        UINT32 attributes = 0;
        void *data;
        EFI_STATUS s;

        s = RT->GetVariable(TLS_CA_VAR, &tls_ca_guid, &attributes, &size, NULL);
        if (s != EFI_BUFFER_TOO_SMALL)
                return s == EFI_SUCCESS ? EFI_NOT_FOUND : s;   /* an empty variable is no list */
        if (size > OWNER_MAX)
                return EFI_BAD_BUFFER_SIZE;
        data = fmalloc(size);
        if (!data)
                return EFI_OUT_OF_RESOURCES;
        s = RT->GetVariable(TLS_CA_VAR, &tls_ca_guid, &attributes, &size, data);
        if (EFI_ERROR(s)) {
                ffree(data);
                return s;
        }
        *ret_attributes = attributes;
        *ret_data = data;
        *ret_size = size;
        return EFI_SUCCESS;
}

/* The copy kept for a power cut: the attributes (4 bytes, little-endian), then the bytes. */
static EFI_STATUS owner_copy_write(uint32_t attributes, const void *data, size_t size) {
        _cleanup_ffree_ uint8_t *copy = fmalloc(4 + size);

        if (!copy)
                return EFI_OUT_OF_RESOURCES;
        for (unsigned i = 0; i < 4; i++)
                copy[i] = (uint8_t) (attributes >> (8 * i));
        fmemcpy(copy + 4, data, size);
        return RT->SetVariable(OWNER_COPY_VAR, &urlboot_vendor_guid,
                               EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS, 4 + size, copy);
}

static void owner_copy_delete(void) {
        (void) RT->SetVariable(OWNER_COPY_VAR, &urlboot_vendor_guid, 0, 0, NULL);
}

/* Whatever is in TlsCaCertificate goes; then the owner's bytes with their attributes. */
static EFI_STATUS owner_restore(uint32_t attributes, const void *data, size_t size) {
        (void) RT->SetVariable(TLS_CA_VAR, &tls_ca_guid, 0, 0, NULL);
        return RT->SetVariable(TLS_CA_VAR, &tls_ca_guid, attributes, size, (void *) data);
}

void tls_owner_recover(void) {
        _cleanup_ffree_ uint8_t *copy = NULL;
        uint32_t attributes = 0;
        size_t size = 0;

        if (efi_variable_read(&urlboot_vendor_guid, OWNER_COPY_VAR, OWNER_MAX + 4, (void **) &copy, &size) != EFI_SUCCESS)
                return;
        if (size > 4) {
                for (unsigned i = 0; i < 4; i++)
                        attributes |= (uint32_t) copy[i] << (8 * i);
                if (owner_restore(attributes, copy + 4, size - 4) != EFI_SUCCESS) {
                        log_efi_info("cannot put the firmware's TLS CA list back from the copy left by an earlier "
                                     "start; the copy stays (UrlbootTlsCaOwner)");
                        return;
                }
                log_efi_info("put the firmware's TLS CA list back (an earlier start was cut off while its pin was in place)");
        }
        owner_copy_delete();
}

void tls_pin_register(const void *esl, size_t size) {
        fassert(esl || size == 0);

        pin.esl = esl;
        pin.size = size;
}

EFI_STATUS tls_pin_begin(void) {
        EFI_STATUS s;

        if (!pin.esl || pin.applied)
                return EFI_SUCCESS;
        s = owner_read(&pin.owner_attributes, &pin.owner_data, &pin.owner_size);
        if (EFI_ERROR(s) && s != EFI_NOT_FOUND)
                return log_efi(s, "cannot read the firmware's TLS CA list (TlsCaCertificate); not pinning ours");
        pin.owner_present = s == EFI_SUCCESS;
        pin.owner_within_ours = !pin.owner_present ||
                                esl_x509_subset(pin.owner_data, pin.owner_size, pin.esl, pin.size);
        if (pin.owner_present && (pin.owner_attributes & EFI_VARIABLE_NON_VOLATILE)) {
                s = owner_copy_write(pin.owner_attributes, pin.owner_data, pin.owner_size);
                if (EFI_ERROR(s))
                        return log_efi(s, "cannot keep a copy of the firmware's TLS CA list; not replacing it with our pin");
                pin.owner_copied = true;
        }
        /* One set with other attributes (non-volatile from the setup screen) would make ours fail: it goes first. */
        (void) RT->SetVariable(TLS_CA_VAR, &tls_ca_guid, 0, 0, NULL);
        pin.applied = true;
        s = RT->SetVariable(TLS_CA_VAR, &tls_ca_guid, EFI_VARIABLE_BOOTSERVICE_ACCESS, pin.size, (void *) pin.esl);
        if (EFI_ERROR(s))
                log_efi(s, "cannot pin our CA for https (TlsCaCertificate)");
        return s;
}

bool tls_pin_exclusive(void) {
        return pin.esl && pin.owner_within_ours;
}

void tls_pin_end(void) {
        if (!pin.applied)
                return;
        pin.applied = false;
        if (pin.owner_present) {
                if (owner_restore(pin.owner_attributes, pin.owner_data, pin.owner_size) != EFI_SUCCESS) {
                        /* the copy stays, so that the next start puts it back */
                        log_efi_info("cannot put the firmware's TLS CA list back now; the next start will");
                        return;
                }
        } else
                (void) RT->SetVariable(TLS_CA_VAR, &tls_ca_guid, 0, 0, NULL);
        if (pin.owner_copied)
                owner_copy_delete();
        pin.owner_copied = false;
        ffree(pin.owner_data);
        pin.owner_data = NULL;
}

typedef struct Hex {
        char text[4 * (2 * SHA256_DIGEST_SIZE + 1) + 1];        /* room for four fingerprints */
        size_t len;
} Hex;

static int add_fingerprint(const uint8_t *der, size_t size, void *userdata) {
        uint8_t d[SHA256_DIGEST_SIZE];
        Hex *h = userdata;

        if (h->len + 2 * SHA256_DIGEST_SIZE + 2 > sizeof h->text)
                return 1;
        sha256_digest(der, size, d);
        if (h->len > 0)
                h->text[h->len++] = ' ';
        sha256_to_hex(d, h->text + h->len);
        h->len += 2 * SHA256_DIGEST_SIZE;
        return 0;
}

void tls_export_fingerprints(const void *esl, size_t size) {
        Hex h = {};

        fassert(esl || size == 0);

        (void) esl_foreach_x509(esl, size, add_fingerprint, &h);
        if (h.len > 0)
                (void) RT->SetVariable(L"" URLBOOT_VAR_TLS_CA, &urlboot_vendor_guid, EFI_VARIABLE_VOLATILE_DEFAULT,
                                       h.len, h.text);
}
