/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The random seed for the kernel.
 */
#include <efi.h>
#include <efilib.h>

#include "efi-cleanup.h"
#include "efi-random-seed.h"
#include "efi-variables.h"
#include "memory-fundamental.h"
#include "random-seed.h"
#include "string-fundamental.h"

#define LINUX_EFI_RANDOM_SEED_TABLE_GUID \
        { 0x1ce1e5bc, 0x7ceb, 0x42f2, { 0x81, 0xe5, 0x8a, 0xad, 0xf1, 0x80, 0xf5, 0x7b } }
#define SEED_FILE L"\\loader\\random-seed"
#define SEED_FILE_MAX (32 * 1024)
#define SYSTEM_TOKEN_MAX 4096

/* What the kernel reads: a 32-bit size, then the seed. */
typedef struct {
        UINT32 size;
        UINT8 seed[];
} LinuxRandomSeed;

static EFI_GUID seed_table_guid = LINUX_EFI_RANDOM_SEED_TABLE_GUID;

static LinuxRandomSeed *previous_table(void) {
        for (size_t i = 0; i < ST->NumberOfTableEntries; i++)
                if (CompareGuid(&ST->ConfigurationTable[i].VendorGuid, &seed_table_guid) == 0)
                        return ST->ConfigurationTable[i].VendorTable;
        return NULL;
}

static bool rng_bytes(uint8_t *buf, size_t n) {
        EFI_GUID guid = EFI_RNG_PROTOCOL_GUID;
        EFI_RNG_PROTOCOL *rng = NULL;

        return BS->LocateProtocol(&guid, NULL, (void **) &rng) == EFI_SUCCESS && rng &&
               rng->GetRNG(rng, NULL, n, buf) == EFI_SUCCESS;
}

static size_t system_token(uint8_t *buf, size_t max) {
        UINTN size = max;

        if (RT->GetVariable(L"LoaderSystemToken", &loader_vendor_guid, NULL, &size, buf) != EFI_SUCCESS)
                return 0;
        return size;
}

/* The seed file's content (at most SEED_FILE_MAX), the open file for writing the next seed. */
static EFI_FILE *open_seed_file(EFI_FILE *root, bool create, uint8_t **ret, size_t *ret_size) {
        _cleanup_file_close_ EFI_FILE *f = NULL;
        _cleanup_ffree_ uint8_t *buf = NULL;
        UINTN size = SEED_FILE_MAX;

        *ret = NULL;
        *ret_size = 0;
        if (root->Open(root, &f, SEED_FILE, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0) != EFI_SUCCESS &&
            (!create || root->Open(root, &f, SEED_FILE,
                                   EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0) != EFI_SUCCESS))
                return NULL;
        buf = fmalloc(SEED_FILE_MAX);
        if (!buf || f->Read(f, &size, buf) != EFI_SUCCESS || f->SetPosition(f, 0) != EFI_SUCCESS)
                return NULL;
        /* a short file is one a power cut left behind: as good as none */
        if (size >= RANDOM_SEED_SIZE) {
                *ret = TAKE_PTR(buf);
                *ret_size = size;
        }
        return TAKE_PTR(f);
}

/* The next seed over the old content (zeros where the old file was longer), flushed. */
static void write_seed_file(EFI_FILE *f, const uint8_t *seed, size_t old_size) {
        _cleanup_ffree_ uint8_t *data = NULL;
        UINTN size = MAX(old_size, (size_t) RANDOM_SEED_SIZE);

        data = fmalloc(size);
        if (!data)
                return;
        fmemset(data, 0, size);
        fmemcpy(data, seed, RANDOM_SEED_SIZE);
        if (f->Write(f, &size, data) == EFI_SUCCESS)
                (void) f->Flush(f);
        fmemset(data, 0, size);
}

static bool install_table(const uint8_t *seed) {
        LinuxRandomSeed *table = NULL;

        if (BS->AllocatePool(EfiACPIReclaimMemory, sizeof *table + RANDOM_SEED_SIZE, (void **) &table) != EFI_SUCCESS)
                return false;
        table->size = RANDOM_SEED_SIZE;
        fmemcpy(table->seed, seed, RANDOM_SEED_SIZE);
        if (BS->InstallConfigurationTable(&seed_table_guid, table) != EFI_SUCCESS) {
                fmemset(table, 0, sizeof *table + RANDOM_SEED_SIZE);
                (void) BS->FreePool(table);
                return false;
        }
        return true;
}

bool random_seed_pass(EFI_FILE *root) {
        uint8_t rng[RANDOM_SEED_SIZE], token[SYSTEM_TOKEN_MAX], kernel[RANDOM_SEED_SIZE], next[RANDOM_SEED_SIZE];
        _cleanup_file_close_ EFI_FILE *file = NULL;
        _cleanup_ffree_ uint8_t *file_seed = NULL;
        LinuxRandomSeed *previous = previous_table();
        RandomSeedSources s = { .secure_boot = secure_boot_enabled() };
        UINT64 counter = 0;
        EFI_TIME now;
        bool ok;

        if (previous)
                s.previous_table = (RandomSeedSource) { previous->seed, previous->size };
        if (rng_bytes(rng, sizeof rng))
                s.rng = (RandomSeedSource) { rng, sizeof rng };
        s.system_token = (RandomSeedSource) { token, system_token(token, sizeof token) };
        if (!random_seed_enough(&s))
                return false;
        /* create the file only when the seed does not depend on it */
        if (root)
                file = open_seed_file(root, s.rng.size > 0 || s.previous_table.size >= RANDOM_SEED_SIZE, &file_seed,
                                      &s.file.size);
        s.file.data = file_seed;
        if (BS->GetNextMonotonicCount(&counter) == EFI_SUCCESS)
                s.monotonic_count = counter;
        if (RT->GetTime(&now, NULL) == EFI_SUCCESS)
                s.time = (RandomSeedSource) { &now, sizeof now };

        random_seed_mix(&s, kernel, next);
        if (file)
                write_seed_file(file, next, s.file.size);
        ok = install_table(kernel);
        if (ok && previous)
                fmemset(previous->seed, 0, previous->size);
        fmemset(rng, 0, sizeof rng);
        fmemset(token, 0, sizeof token);
        fmemset(kernel, 0, sizeof kernel);
        fmemset(next, 0, sizeof next);
        if (file_seed)
                fmemset(file_seed, 0, s.file.size);
        return ok;
}
