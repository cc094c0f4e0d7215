/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * EFI_TCG2_PROTOCOL: measurements and the active banks.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "efi-log.h"
#include "efi-tpm.h"
#include "memory-fundamental.h"

#define EFI_TCG2_PROTOCOL_GUID { 0x607f766c, 0x7455, 0x42be, { 0x93, 0x0b, 0xe4, 0xd7, 0x6d, 0xb2, 0x72, 0x0f } }

typedef struct {
        UINT8 Major;
        UINT8 Minor;
} Tcg2Version;

/* EFI_TCG2_BOOT_SERVICE_CAPABILITY (natural alignment, as the specification declares it) */
typedef struct {
        UINT8 Size;
        Tcg2Version StructureVersion;
        Tcg2Version ProtocolVersion;
        UINT32 HashAlgorithmBitmap;
        UINT32 SupportedEventLogs;
        BOOLEAN TPMPresentFlag;
        UINT16 MaxCommandSize;
        UINT16 MaxResponseSize;
        UINT32 ManufacturerID;
        UINT32 NumberOfPCRBanks;
        UINT32 ActivePcrBanks;
} Tcg2Capability;

/* The 1.0 layout some old firmware fills in: its presence flag sits elsewhere. */
typedef struct {
        UINT8 Size;
        Tcg2Version StructureVersion;
        Tcg2Version ProtocolSpecVersion;
        UINT8 HashAlgorithmBitmap;
        BOOLEAN TPMPresentFlag;
        BOOLEAN TPMDeactivatedFlag;
} Tcg1Capability;

typedef struct Tcg2Protocol Tcg2Protocol;
struct Tcg2Protocol {
        EFI_STATUS(EFIAPI *GetCapability)(Tcg2Protocol *this, Tcg2Capability *capability);
        EFI_STATUS(EFIAPI *GetEventLog)(Tcg2Protocol *this, UINT32 format, EFI_PHYSICAL_ADDRESS *location,
                                        EFI_PHYSICAL_ADDRESS *last_entry, BOOLEAN *truncated);
        EFI_STATUS(EFIAPI *HashLogExtendEvent)(Tcg2Protocol *this, UINT64 flags, EFI_PHYSICAL_ADDRESS data,
                                               UINT64 data_size, void *event);
};

static EFI_GUID tcg2_guid = EFI_TCG2_PROTOCOL_GUID;

/* The protocol when a TPM is present, with its capability. */
static Tcg2Protocol *tcg2(Tcg2Capability *ret_capability) {
        Tcg2Capability capability = { .Size = sizeof capability };
        Tcg2Protocol *t = NULL;

        if (BS->LocateProtocol(&tcg2_guid, NULL, (void **) &t) != EFI_SUCCESS || !t ||
            t->GetCapability(t, &capability) != EFI_SUCCESS)
                return NULL;
        if (capability.StructureVersion.Major == 1 && capability.StructureVersion.Minor == 0) {
                if (!((Tcg1Capability *) &capability)->TPMPresentFlag)
                        return NULL;
        } else if (!capability.TPMPresentFlag)
                return NULL;
        if (ret_capability)
                *ret_capability = capability;
        return t;
}

bool tpm_present(void) {
        return tcg2(NULL) != NULL;
}

uint32_t tpm_active_pcr_banks(void) {
        Tcg2Capability capability;

        if (!tcg2(&capability))
                return 0;
        /* a 1.0 capability has no bank field: "unknown", as systemd reports it */
        if (capability.StructureVersion.Major == 1 && capability.StructureVersion.Minor == 0)
                return UINT32_MAX;
        return capability.ActivePcrBanks;
}

EFI_STATUS tpm_measure(const MeasureEvent *e, bool *ret_measured) {
        _cleanup_ffree_ void *event = NULL;
        Tcg2Protocol *t = tcg2(NULL);
        size_t size;
        EFI_STATUS s;

        fassert(e);
        fassert(ret_measured);

        *ret_measured = false;
        if (!t)
                return EFI_SUCCESS;
        /* in memory a section is as long as it is loaded: the zero tail is only a file's */
        if (e->zeros > 0 || measure_event_tcg2(e, &event, &size) < 0)
                return EFI_INVALID_PARAMETER;
        s = t->HashLogExtendEvent(t, 0, (EFI_PHYSICAL_ADDRESS) (uintptr_t) e->data, e->size, event);
        if (EFI_ERROR(s))
                return s;
        *ret_measured = true;
        return EFI_SUCCESS;
}

int tpm_measure_cb(const MeasureEvent *e, void *userdata) {
        TpmMeasured *m = userdata;
        bool measured;
        EFI_STATUS s = tpm_measure(e, &measured);

        fassert(e);
        fassert(userdata);

        if (EFI_ERROR(s))
                (void) log_efi(s, "could not measure into PCR %u (%s)", e->pcr,
                               e->description ?: "a command line");
        if (!measured)
                *m = TPM_MEASURED_NOT_ALL;
        else if (*m == TPM_MEASURED_NOTHING)
                *m = TPM_MEASURED_ALL;
        /* a failed measurement does not stop the boot: the PCR says so anyway */
        return 0;
}
