/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reading, listing and renaming files on FAT volumes; finding XBOOTLDR.
 */
#include <efi.h>
#include <efilib.h>

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

static EFI_FILE_INFO *file_info(EFI_FILE *f) {
        UINTN size = FILE_INFO_MAX;
        EFI_FILE_INFO *info = fmalloc(size);

        if (info && f->GetInfo(f, &GenericFileInfo, &size, info) != EFI_SUCCESS) {
                ffree(info);
                return NULL;
        }
        return info;
}

EFI_STATUS volume_read_file(EFI_FILE *root, const CHAR16 *path, UINTN max, char **ret, UINTN *ret_size) {
        EFI_FILE *f = NULL;
        EFI_FILE_INFO *info;
        EFI_STATUS s;
        UINTN size;
        char *buf;

        s = root->Open(root, &f, (CHAR16 *) path, EFI_FILE_MODE_READ, 0);
        if (EFI_ERROR(s))
                return s;
        info = file_info(f);
        if (!info || (info->Attribute & EFI_FILE_DIRECTORY) || info->FileSize > max) {
                s = info ? EFI_BAD_BUFFER_SIZE : EFI_OUT_OF_RESOURCES;
                goto out;
        }
        size = info->FileSize;
        buf = fmalloc(size + 1);
        if (!buf) {
                s = EFI_OUT_OF_RESOURCES;
                goto out;
        }
        s = f->Read(f, &size, buf);
        if (EFI_ERROR(s)) {
                ffree(buf);
                goto out;
        }
        buf[size] = 0;
        *ret = buf;
        *ret_size = size;
out:
        ffree(info);
        f->Close(f);
        return s;
}

BOOLEAN volume_file_exists(EFI_FILE *root, const CHAR16 *path) {
        EFI_FILE *f = NULL;
        EFI_FILE_INFO *info;
        BOOLEAN ok;

        if (root->Open(root, &f, (CHAR16 *) path, EFI_FILE_MODE_READ, 0) != EFI_SUCCESS)
                return FALSE;
        info = file_info(f);
        ok = info && !(info->Attribute & EFI_FILE_DIRECTORY);
        ffree(info);
        f->Close(f);
        return ok;
}

void volume_foreach_file(EFI_FILE *root, const CHAR16 *dir, void (*cb)(const char *name, void *userdata),
                         void *userdata) {
        EFI_FILE *d = NULL;
        EFI_FILE_INFO *info = fmalloc(FILE_INFO_MAX);

        if (!info)
                return;
        if (root->Open(root, &d, (CHAR16 *) dir, EFI_FILE_MODE_READ, 0) != EFI_SUCCESS) {
                ffree(info);
                return;
        }
        for (;;) {
                UINTN size = FILE_INFO_MAX;
                char *name;

                /* reading a directory returns one entry per call; size 0 at the end */
                if (d->Read(d, &size, info) != EFI_SUCCESS || size == 0)
                        break;
                if (info->Attribute & EFI_FILE_DIRECTORY)
                        continue;
                name = char16_to_utf8(info->FileName, StrLen(info->FileName));
                if (name)
                        cb(name, userdata);
                ffree(name);
        }
        d->Close(d);
        ffree(info);
}

CHAR16 *volume_path_join(const CHAR16 *dir, const char *name_utf8) {
        CHAR16 *name = utf8_to_char16(name_utf8, fstrlen(name_utf8)), *p;
        UINTN dl, nl;

        if (!name)
                return NULL;
        dl = StrLen(dir);
        nl = StrLen(name);
        p = fmalloc((dl + 1 + nl + 1) * sizeof(CHAR16));
        if (p) {
                fmemcpy(p, dir, dl * sizeof(CHAR16));
                p[dl] = L'\\';
                fmemcpy(p + dl + 1, name, (nl + 1) * sizeof(CHAR16));
        }
        ffree(name);
        return p;
}

EFI_STATUS volume_rename(EFI_FILE *root, const CHAR16 *dir, const char *old_name, const char *new_name) {
        CHAR16 *path = volume_path_join(dir, old_name), *nn = utf8_to_char16(new_name, fstrlen(new_name));
        EFI_FILE *f = NULL;
        EFI_FILE_INFO *info = NULL, *renamed = NULL;
        EFI_STATUS s = EFI_OUT_OF_RESOURCES;
        UINTN size;

        if (!path || !nn)
                goto out;
        s = root->Open(root, &f, path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0);
        if (EFI_ERROR(s))
                goto out;
        s = EFI_OUT_OF_RESOURCES;
        info = file_info(f);
        size = SIZE_OF_EFI_FILE_INFO + StrSize(nn);
        renamed = fmalloc(size);
        if (!info || !renamed)
                goto out;
        fmemcpy(renamed, info, SIZE_OF_EFI_FILE_INFO);
        fmemcpy(renamed->FileName, nn, StrSize(nn));
        renamed->Size = size;
        s = f->SetInfo(f, &GenericFileInfo, size, renamed);
        if (!EFI_ERROR(s))
                s = f->Flush(f);
out:
        if (f)
                f->Close(f);
        ffree(info);
        ffree(renamed);
        ffree(path);
        ffree(nn);
        return s;
}

/* The device path up to (not including) its hard-drive node: the disk. Length in bytes, 0 if none. */
static UINTN disk_prefix_size(EFI_DEVICE_PATH *dp) {
        EFI_DEVICE_PATH *n = dp;

        for (; !IsDevicePathEnd(n); n = NextDevicePathNode(n))
                if (DevicePathType(n) == MEDIA_DEVICE_PATH && DevicePathSubType(n) == MEDIA_HARDDRIVE_DP)
                        return (UINTN) ((UINT8 *) n - (UINT8 *) dp);
        return 0;
}

EFI_HANDLE volume_find_xbootldr(EFI_HANDLE device) {
        EFI_DEVICE_PATH *own = device ? DevicePathFromHandle(device) : NULL;
        EFI_HANDLE *handles = NULL, found = NULL;
        UINTN n = 0, prefix;

        if (!own || !(prefix = disk_prefix_size(own)))
                return NULL;
        if (BS->LocateHandleBuffer(ByProtocol, &partition_info_guid, NULL, &n, &handles) != EFI_SUCCESS)
                return NULL;
        for (UINTN i = 0; i < n && !found; i++) {
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
        FreePool(handles);
        return found;
}
