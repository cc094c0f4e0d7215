/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reading, listing and renaming files on FAT volumes; finding XBOOTLDR.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "efi-cleanup.h"
#include "efi-string.h"
#include "efi-volume.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"

#define FILE_INFO_MAX (SIZE_OF_EFI_FILE_INFO + 512 * sizeof(CHAR16))

/* UEFI 2.7 Partition Information protocol: which GPT type a partition has. */
static EFI_GUID partition_info_guid = { 0x8cf2f62c, 0xbc9b, 0x4821, { 0x80, 0x8d, 0xec, 0x9e, 0xc4, 0x21, 0xa1, 0xa0 } };
static EFI_GUID xbootldr_type_guid = { 0xbc13c2ff, 0x59e6, 0x4262, { 0xa3, 0x52, 0xb2, 0x75, 0xfd, 0x6f, 0x71, 0x72 } };

typedef struct PartitionInfo {
        UINT32 revision;
        UINT32 type; /* 2: GPT */
        UINT8 system;
        UINT8 reserved[7];
        EFI_GUID gpt_type;      /* the GPT entry starts with the partition type */
} __attribute__((packed)) PartitionInfo;

EFI_FILE *volume_open_root(EFI_HANDLE device) {
        EFI_FILE_IO_INTERFACE *fs = NULL;
        EFI_FILE *root = NULL;

        if (!device || BS->HandleProtocol(device, &FileSystemProtocol, (void **) &fs) != EFI_SUCCESS)
                return NULL;
        if (fs->OpenVolume(fs, &root) != EFI_SUCCESS)
                return NULL;
        return root;
}

bool volume_exists(EFI_HANDLE device) {
        _cleanup_file_close_ EFI_FILE *root = volume_open_root(device);

        return root != NULL;
}

static EFI_FILE_INFO *file_info(EFI_FILE *f) {
        UINTN size = FILE_INFO_MAX;
        _cleanup_ffree_ EFI_FILE_INFO *info = fmalloc(size);

        if (!info || f->GetInfo(f, &GenericFileInfo, &size, info) != EFI_SUCCESS)
                return NULL;
        return TAKE_PTR(info);
}

EFI_STATUS volume_read_file(EFI_FILE *root, const CHAR16 *path, size_t max, char **ret, size_t *ret_size) {
        _cleanup_file_close_ EFI_FILE *f = NULL;
        _cleanup_ffree_ EFI_FILE_INFO *info = NULL;
        _cleanup_ffree_ char *buf = NULL;
        EFI_STATUS s;
        UINTN size;

        fassert(root);
        fassert(path);
        fassert(ret);
        fassert(ret_size);

        s = root->Open(root, &f, (CHAR16 *) path, EFI_FILE_MODE_READ, 0);
        if (EFI_ERROR(s))
                return s;
        info = file_info(f);
        if (!info)
                return EFI_OUT_OF_RESOURCES;
        if ((info->Attribute & EFI_FILE_DIRECTORY) || info->FileSize > max)
                return EFI_BAD_BUFFER_SIZE;
        size = info->FileSize;
        buf = fmalloc(size + 1);
        if (!buf)
                return EFI_OUT_OF_RESOURCES;
        s = f->Read(f, &size, buf);
        if (EFI_ERROR(s))
                return s;
        buf[size] = 0;
        *ret = TAKE_PTR(buf);
        *ret_size = size;
        return EFI_SUCCESS;
}

bool volume_file_exists(EFI_FILE *root, const CHAR16 *path) {
        _cleanup_file_close_ EFI_FILE *f = NULL;
        _cleanup_ffree_ EFI_FILE_INFO *info = NULL;

        fassert(root);
        fassert(path);

        if (root->Open(root, &f, (CHAR16 *) path, EFI_FILE_MODE_READ, 0) != EFI_SUCCESS)
                return false;
        info = file_info(f);
        return info && !(info->Attribute & EFI_FILE_DIRECTORY);
}

void volume_foreach_file(EFI_FILE *root, const CHAR16 *dir, void (*cb)(const char *name, void *userdata),
                         void *userdata) {
        _cleanup_file_close_ EFI_FILE *d = NULL;
        _cleanup_ffree_ EFI_FILE_INFO *info = fmalloc(FILE_INFO_MAX);

        fassert(root);
        fassert(dir);
        fassert(cb);

        if (!info || root->Open(root, &d, (CHAR16 *) dir, EFI_FILE_MODE_READ, 0) != EFI_SUCCESS)
                return;
        for (;;) {
                UINTN size = FILE_INFO_MAX;
                _cleanup_ffree_ char *name = NULL;

                /* reading a directory returns one entry per call; size 0 at the end */
                if (d->Read(d, &size, info) != EFI_SUCCESS || size == 0)
                        break;
                if (info->Attribute & EFI_FILE_DIRECTORY)
                        continue;
                name = char16_to_utf8(info->FileName, StrLen(info->FileName));
                if (name)
                        cb(name, userdata);
        }
}

CHAR16 *volume_path_join(const CHAR16 *dir, const char *name_utf8) {
        _cleanup_ffree_ CHAR16 *name = utf8_to_char16(name_utf8, fstrlen(name_utf8));
        size_t dl, nl;
        CHAR16 *p;

        fassert(dir);
        fassert(name_utf8);

        if (!name)
                return NULL;
        dl = StrLen(dir);
        nl = StrLen(name);
        p = fmalloc((dl + 1 + nl + 1) * sizeof(CHAR16));
        if (!p)
                return NULL;
        fmemcpy(p, dir, dl * sizeof(CHAR16));
        p[dl] = L'\\';
        fmemcpy(p + dl + 1, name, (nl + 1) * sizeof(CHAR16));
        return p;
}

EFI_STATUS volume_rename(EFI_FILE *root, const CHAR16 *dir, const char *old_name, const char *new_name) {
        _cleanup_ffree_ CHAR16 *path = volume_path_join(dir, old_name);
        _cleanup_ffree_ CHAR16 *nn = utf8_to_char16(new_name, fstrlen(new_name));
        _cleanup_file_close_ EFI_FILE *f = NULL;
        _cleanup_ffree_ EFI_FILE_INFO *info = NULL, *renamed = NULL;
        EFI_STATUS s;
        size_t size;

        fassert(root);
        fassert(dir);
        fassert(old_name);
        fassert(new_name);

        if (!path || !nn)
                return EFI_OUT_OF_RESOURCES;
        s = root->Open(root, &f, path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0);
        if (EFI_ERROR(s))
                return s;
        info = file_info(f);
        size = SIZE_OF_EFI_FILE_INFO + StrSize(nn);
        renamed = fmalloc(size);
        if (!info || !renamed)
                return EFI_OUT_OF_RESOURCES;
        fmemcpy(renamed, info, SIZE_OF_EFI_FILE_INFO);
        fmemcpy(renamed->FileName, nn, StrSize(nn));
        renamed->Size = size;
        s = f->SetInfo(f, &GenericFileInfo, size, renamed);
        if (EFI_ERROR(s))
                return s;
        return f->Flush(f);
}

/* The device path up to (not including) its hard-drive node: the disk. Length in bytes, 0 if none. */
static size_t disk_prefix_size(EFI_DEVICE_PATH *dp) {
        EFI_DEVICE_PATH *n = dp;

        for (; !IsDevicePathEnd(n); n = NextDevicePathNode(n))
                if (DevicePathType(n) == MEDIA_DEVICE_PATH && DevicePathSubType(n) == MEDIA_HARDDRIVE_DP)
                        return (size_t) ((uint8_t *) n - (uint8_t *) dp);
        return 0;
}

EFI_HANDLE volume_find_xbootldr(EFI_HANDLE device) {
        EFI_DEVICE_PATH *own = device ? DevicePathFromHandle(device) : NULL;
        _cleanup_ffree_ EFI_HANDLE *handles = NULL;
        EFI_HANDLE found = NULL;
        UINTN n = 0;
        size_t prefix;

        if (!own || !(prefix = disk_prefix_size(own)))
                return NULL;
        if (BS->LocateHandleBuffer(ByProtocol, &partition_info_guid, NULL, &n, &handles) != EFI_SUCCESS)
                return NULL;
        for (size_t i = 0; i < n && !found; i++) {
                PartitionInfo *pi = NULL;
                EFI_DEVICE_PATH *dp;

                if (handles[i] == device ||
                    BS->HandleProtocol(handles[i], &partition_info_guid, (void **) &pi) != EFI_SUCCESS ||
                    pi->type != 2 || fmemcmp(&pi->gpt_type, &xbootldr_type_guid, sizeof(EFI_GUID)) != 0)
                        continue;
                dp = DevicePathFromHandle(handles[i]);
                /* same disk: the same nodes before the partition node */
                if (dp && disk_prefix_size(dp) == prefix && fmemcmp(dp, own, prefix) == 0)
                        found = handles[i];
        }
        return found;
}
