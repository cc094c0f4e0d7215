/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "assert-fundamental.h"
#include "devicetree.h"
#include "efi-devicetree.h"
#include "string-fundamental.h"

static EFI_GUID dtb_table_guid = { 0xb1b621d5, 0xf19c, 0x41a5, { 0x83, 0x0b, 0xd9, 0x15, 0x2c, 0x69, 0xaa, 0xe0 } };
static EFI_GUID dt_fixup_guid = { 0xe617d64c, 0xfe08, 0x46da, { 0xf4, 0xdc, 0xbb, 0xd5, 0x87, 0x0c, 0x73, 0x00 } };

#define DT_FIXUP_PROTOCOL_REVISION 0x00010000
#define DT_APPLY_FIXUPS 0x00000001
#define DT_RESERVE_MEMORY 0x00000002

typedef struct DtFixupProtocol DtFixupProtocol;
struct DtFixupProtocol {
        UINT64 Revision;
        EFI_STATUS(EFIAPI *Fixup)(DtFixupProtocol *This, void *Fdt, UINTN *BufferSize, UINT32 Flags);
};

/* The table's pointer as it is, valid or not (devicetree_restore() puts back exactly that). */
static void *devicetree_table(void) {
        for (size_t i = 0; i < ST->NumberOfTableEntries; i++)
                if (CompareGuid(&ST->ConfigurationTable[i].VendorGuid, &dtb_table_guid) == 0)
                        return ST->ConfigurationTable[i].VendorTable;
        return NULL;
}

const void *firmware_devicetree(size_t *ret_size) {
        const void *table = devicetree_table();

        fassert(ret_size);

        if (table && fdt_total_size(table, FDT_HEADER_SIZE, ret_size) == 0)
                return table;
        return NULL;
}

static size_t pages_of(size_t size) {
        return (size + EFI_PAGE_SIZE - 1) / EFI_PAGE_SIZE;
}

/* The firmware's fixups (memory reservations, boot-time properties) applied to the copy at *pages, which may
 * move to a larger allocation. */
static EFI_STATUS fix_up(EFI_PHYSICAL_ADDRESS *pages, size_t *n_pages, size_t size) {
        DtFixupProtocol *fixup = NULL;
        UINTN buffer = *n_pages * EFI_PAGE_SIZE;
        EFI_PHYSICAL_ADDRESS bigger;
        EFI_STATUS s;

        if (EFI_ERROR(BS->LocateProtocol(&dt_fixup_guid, NULL, (void **) &fixup)) || !fixup ||
            fixup->Revision < DT_FIXUP_PROTOCOL_REVISION)
                return EFI_SUCCESS;     /* no fixups to apply */
        s = fixup->Fixup(fixup, (void *) (uintptr_t) *pages, &buffer, DT_APPLY_FIXUPS | DT_RESERVE_MEMORY);
        if (s != EFI_BUFFER_TOO_SMALL)
                return s;
        s = BS->AllocatePages(AllocateAnyPages, EfiACPIReclaimMemory, pages_of(buffer), &bigger);
        if (EFI_ERROR(s))
                return s;
        fmemcpy((void *) (uintptr_t) bigger, (const void *) (uintptr_t) *pages, size);
        (void) BS->FreePages(*pages, *n_pages);
        *pages = bigger;
        *n_pages = pages_of(buffer);
        return fixup->Fixup(fixup, (void *) (uintptr_t) *pages, &buffer, DT_APPLY_FIXUPS | DT_RESERVE_MEMORY);
}

EFI_STATUS devicetree_install(const void *blob, size_t size, DevicetreeState *state) {
        EFI_PHYSICAL_ADDRESS pages;
        size_t n_pages = pages_of(size);
        void *previous = devicetree_table();
        EFI_STATUS s;

        fassert(blob);
        fassert(state);

        /* ACPI-reclaim memory: the kernel keeps it (boot-services memory it would reuse) */
        s = BS->AllocatePages(AllocateAnyPages, EfiACPIReclaimMemory, n_pages, &pages);
        if (EFI_ERROR(s))
                return s;
        fmemset((void *) (uintptr_t) pages, 0, n_pages * EFI_PAGE_SIZE);
        fmemcpy((void *) (uintptr_t) pages, blob, size);
        s = fix_up(&pages, &n_pages, size);
        if (!EFI_ERROR(s))
                s = BS->InstallConfigurationTable(&dtb_table_guid, (void *) (uintptr_t) pages);
        if (EFI_ERROR(s)) {
                (void) BS->FreePages(pages, n_pages);
                return s;
        }
        *state = (DevicetreeState) { .previous = previous, .pages = pages, .n_pages = n_pages };
        return EFI_SUCCESS;
}

void devicetree_restore(DevicetreeState *state) {
        fassert(state);

        if (state->pages == 0)
                return;
        /* NULL removes the table: the firmware had none */
        (void) BS->InstallConfigurationTable(&dtb_table_guid, state->previous);
        (void) BS->FreePages(state->pages, state->n_pages);
        *state = (DevicetreeState) {};
}
