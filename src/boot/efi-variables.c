/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Variables of the Boot Loader Interface, and the firmware's SecureBoot.
 */
#include "assert-fundamental.h"
#include "efi-cleanup.h"
#include "efi-string.h"
#include "efi-variables.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"
#include "utf16.h"

EFI_GUID loader_vendor_guid = { 0x4a67b082, 0x0a4c, 0x41cf, { 0xb6, 0xc7, 0x44, 0x0b, 0x29, 0xbb, 0x8c, 0x4f } };
EFI_GUID urlboot_vendor_guid = { 0x3c0a4d1e, 0x8b7f, 0x4c55, { 0x9a, 0x1e, 0x75, 0x72, 0x6c, 0x62, 0x6f, 0x6f } };
EFI_GUID shim_lock_guid = { 0x605dab50, 0xe046, 0x4300, { 0xab, 0xb6, 0x3d, 0xd8, 0x10, 0xdd, 0x8b, 0x23 } };

EFI_STATUS efi_variable_read(EFI_GUID *vendor, const CHAR16 *name, size_t max, void **ret, size_t *ret_size) {
        _cleanup_ffree_ uint8_t *buf = NULL;
        UINTN size = 0;
        EFI_STATUS s;

        fassert(vendor);
        fassert(name);
        fassert(ret);
        fassert(ret_size);

        s = RT->GetVariable((CHAR16 *) name, vendor, NULL, &size, NULL);
        if (s != EFI_BUFFER_TOO_SMALL)
                return s == EFI_SUCCESS ? EFI_NOT_FOUND : s;
        if (size > max)
                return EFI_BAD_BUFFER_SIZE;
        buf = fmalloc(size + 1);
        if (!buf)
                return EFI_OUT_OF_RESOURCES;
        s = RT->GetVariable((CHAR16 *) name, vendor, NULL, &size, buf);
        if (EFI_ERROR(s))
                return s;
        buf[size] = 0;
        *ret = TAKE_PTR(buf);
        *ret_size = size;
        return EFI_SUCCESS;
}

static EFI_STATUS set_raw(const CHAR16 *name, const void *data, size_t size) {
        return RT->SetVariable((CHAR16 *) name, &loader_vendor_guid, EFI_VARIABLE_VOLATILE_DEFAULT, size, (void *) data);
}

static EFI_STATUS set_string(const CHAR16 *name, const char *value, uint32_t attributes) {
        _cleanup_ffree_ void *u = NULL;
        size_t size;

        if (utf8_to_utf16le(value, fstrlen(value), &u, &size) < 0)
                return EFI_INVALID_PARAMETER;
        return RT->SetVariable((CHAR16 *) name, &loader_vendor_guid, attributes, size, u);
}

EFI_STATUS set_loader_string(const CHAR16 *name, const char *value) {
        fassert(name);
        fassert(value);

        return set_string(name, value, EFI_VARIABLE_VOLATILE_DEFAULT);
}

EFI_STATUS set_loader_string_persistent(const CHAR16 *name, const char *value) {
        fassert(name);
        fassert(value);

        return set_string(name, value, EFI_VARIABLE_PERSISTENT_DEFAULT);
}

void delete_loader_variable(const CHAR16 *name) {
        fassert(name);

        (void) RT->SetVariable((CHAR16 *) name, &loader_vendor_guid, 0, 0, NULL);
}

bool loader_variable_exists(const CHAR16 *name) {
        UINTN size = 0;
        EFI_STATUS s = RT->GetVariable((CHAR16 *) name, &loader_vendor_guid, NULL, &size, NULL);

        fassert(name);

        return s == EFI_BUFFER_TOO_SMALL || s == EFI_SUCCESS;
}

EFI_STATUS set_loader_string_if_unset(const CHAR16 *name, const char *value) {
        fassert(name);
        fassert(value);

        if (loader_variable_exists(name))
                return EFI_SUCCESS;
        return set_loader_string(name, value);
}

EFI_STATUS set_loader_u64(const CHAR16 *name, uint64_t value) {
        uint8_t b[8];

        fassert(name);

        for (int i = 0; i < 8; i++)
                b[i] = (uint8_t) (value >> (8 * i));
        return set_raw(name, b, sizeof b);
}

bool get_loader_u64(const CHAR16 *name, uint64_t *ret) {
        uint8_t b[8];
        UINTN size = sizeof b;

        fassert(name);
        fassert(ret);

        if (RT->GetVariable((CHAR16 *) name, &loader_vendor_guid, NULL, &size, b) != EFI_SUCCESS || size != sizeof b)
                return false;
        *ret = 0;
        for (size_t i = 0; i < sizeof b; i++)
                *ret |= (uint64_t) b[i] << (8 * i);
        return true;
}

bool secure_boot_enabled(void) {
        EFI_GUID global = EFI_GLOBAL_VARIABLE;
        uint8_t v = 0;
        UINTN size = sizeof v;

        return RT->GetVariable(L"SecureBoot", &global, NULL, &size, &v) == EFI_SUCCESS && size == 1 && v == 1;
}

char *get_loader_string(const CHAR16 *name) {
        CHAR16 buf[256];
        UINTN size = sizeof buf - sizeof(CHAR16);

        fassert(name);

        if (RT->GetVariable((CHAR16 *) name, &loader_vendor_guid, NULL, &size, buf) != EFI_SUCCESS)
                return NULL;
        buf[size / sizeof(CHAR16)] = 0;
        return char16_to_utf8(buf, size / sizeof(CHAR16));
}
