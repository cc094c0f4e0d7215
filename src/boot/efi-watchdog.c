/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The Intel 6300ESB watchdog, armed and locked through the firmware's PCI I/O protocol.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "efi-watchdog.h"
#include "memory-fundamental.h"
#include "trial-watchdog.h"

#define ESB_VENDOR_ID 0x8086
#define ESB_DEVICE_ID 0x25ab

/* PCI configuration space */
#define ESB_CONFIG_REG 0x60
#define ESB_LOCK_REG 0x68
#define ESB_CONFIG_NO_INTERRUPT 0x0003          /* timer 1 raises nothing; reboot on timer 2; ~1 kHz */
#define ESB_LOCK_ENABLE 0x02
#define ESB_LOCK_LOCKED 0x01

/* Registers in BAR 0 */
#define ESB_TIMER1_REG 0x00
#define ESB_TIMER2_REG 0x04
#define ESB_RELOAD_REG 0x0c
#define ESB_UNLOCK1 0x80
#define ESB_UNLOCK2 0x86
#define ESB_RELOAD 0x0100
#define ESB_TIMEOUT_CLEAR 0x0200

static bool is_esb(EFI_PCI_IO *io) {
        UINT16 ids[2] = {};

        if (io->Pci.Read(io, EfiPciIoWidthUint16, 0, 2, ids) != EFI_SUCCESS)
                return false;
        return ids[0] == ESB_VENDOR_ID && ids[1] == ESB_DEVICE_ID;
}

static EFI_PCI_IO *find_esb(void) {
        _cleanup_ffree_ EFI_HANDLE *handles = NULL;
        UINTN n = 0;

        if (BS->LocateHandleBuffer(ByProtocol, &PciIoProtocol, NULL, &n, &handles) != EFI_SUCCESS)
                return NULL;
        for (UINTN i = 0; i < n; i++) {
                EFI_PCI_IO *io = NULL;

                if (BS->HandleProtocol(handles[i], &PciIoProtocol, (void **) &io) == EFI_SUCCESS && io && is_esb(io))
                        return io;
        }
        return NULL;
}

/* The registers in BAR 0 take one write after the two-step unlock sequence. */
static EFI_STATUS esb_write_unlocked(EFI_PCI_IO *io, EFI_PCI_IO_PROTOCOL_WIDTH width, UINT64 offset, UINT32 value) {
        UINT16 step1 = ESB_UNLOCK1, step2 = ESB_UNLOCK2;
        UINT16 v16 = (UINT16) value;
        EFI_STATUS s;

        s = io->Mem.Write(io, EfiPciIoWidthUint16, 0, ESB_RELOAD_REG, 1, &step1);
        if (!EFI_ERROR(s))
                s = io->Mem.Write(io, EfiPciIoWidthUint16, 0, ESB_RELOAD_REG, 1, &step2);
        if (!EFI_ERROR(s))
                s = io->Mem.Write(io, width, 0, offset, 1, width == EfiPciIoWidthUint16 ? (void *) &v16 : (void *) &value);
        return s;
}

EFI_STATUS watchdog_arm_locked(unsigned seconds, const char **ret_name) {
        UINT16 config = ESB_CONFIG_NO_INTERRUPT;
        UINT8 lock = ESB_LOCK_ENABLE | ESB_LOCK_LOCKED, now = 0;
        UINT32 preload = trial_watchdog_esb_preload(seconds);
        EFI_PCI_IO *io = find_esb();
        EFI_STATUS s;

        fassert(ret_name);

        if (!io)
                return EFI_NOT_FOUND;
        /* the firmware has no driver for it: its registers may not be decoded yet */
        (void) io->Attributes(io, EfiPciIoAttributeOperationEnable, EFI_PCI_IO_ATTRIBUTE_MEMORY, NULL);
        s = io->Pci.Write(io, EfiPciIoWidthUint16, ESB_CONFIG_REG, 1, &config);
        if (!EFI_ERROR(s))
                s = esb_write_unlocked(io, EfiPciIoWidthUint32, ESB_TIMER1_REG, preload);
        if (!EFI_ERROR(s))
                s = esb_write_unlocked(io, EfiPciIoWidthUint32, ESB_TIMER2_REG, preload);
        if (!EFI_ERROR(s))
                s = esb_write_unlocked(io, EfiPciIoWidthUint16, ESB_RELOAD_REG, ESB_RELOAD | ESB_TIMEOUT_CLEAR);
        if (!EFI_ERROR(s))
                s = io->Pci.Write(io, EfiPciIoWidthUint8, ESB_LOCK_REG, 1, &lock);
        if (!EFI_ERROR(s))
                s = io->Pci.Read(io, EfiPciIoWidthUint8, ESB_LOCK_REG, 1, &now);
        if (EFI_ERROR(s))
                return s;
        if (!(now & ESB_LOCK_ENABLE))
                return EFI_DEVICE_ERROR;
        *ret_name = "i6300esb";
        return EFI_SUCCESS;
}
