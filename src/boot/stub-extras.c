/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Credentials and extension images beside the UKI on the ESP.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "efi-cleanup.h"
#include "efi-log.h"
#include "efi-string.h"
#include "efi-volume.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"
#include "stub-extras.h"

#define FILES_MAX 64
#define FILE_SIZE_MAX (1024U * 1024 * 1024)

typedef struct Collect {
        const StubSidecar *sidecar;
        EFI_FILE *root;
        const char *dir;
        CpioFile files[FILES_MAX];
        size_t n;
} Collect;

static void collect_done(Collect *c) {
        for (size_t i = 0; i < c->n; i++) {
                ffree((char *) c->files[i].name);
                ffree((void *) c->files[i].data);
        }
}

static void on_file(const char *name, void *userdata) {
        Collect *c = userdata;
        _cleanup_ffree_ CHAR16 *path = NULL, *dir = NULL;
        _cleanup_ffree_ char *copy = NULL, *data = NULL;
        size_t size;

        if (c->n >= FILES_MAX || !stub_sidecar_wants(c->sidecar, name))
                return;
        dir = utf8_to_char16(c->dir, fstrlen(c->dir));
        path = dir ? volume_path_join(dir, name) : NULL;
        copy = fstrdup(name);
        if (!path || !copy)
                return;
        if (volume_read_file(c->root, path, FILE_SIZE_MAX, &data, &size) != EFI_SUCCESS) {
                log_efi_info("cannot read %s\\%s, leaving it out", c->dir, name);
                return;
        }
        c->files[c->n++] = (CpioFile) { .name = TAKE_PTR(copy), .data = TAKE_PTR(data), .size = size };
}

/* The UKI's own path on its volume ("\EFI\Linux\x.efi"), or NULL. */
static char *uki_path(EFI_LOADED_IMAGE *li) {
        _cleanup_ffree_ CHAR16 *text = li->FilePath ? DevicePathToStr(li->FilePath) : NULL;

        return text ? char16_to_utf8(text, StrLen(text)) : NULL;
}

static void collect_one(EFI_FILE *root, const char *extra_dir, size_t i, StubExtras *x) {
        const StubSidecar *s = stub_sidecar(i);
        Collect c = { .sidecar = s, .root = root, .dir = s->global_dir ?: extra_dir };
        _cleanup_ffree_ CHAR16 *dir = NULL;
        MeasureEvent e;

        if (!c.dir || !(dir = utf8_to_char16(c.dir, fstrlen(c.dir))))
                return;
        volume_foreach_file(root, dir, on_file, &c);
        if (c.n > 0 && stub_sidecar_pack(s, c.files, c.n, &x->archive[i], &x->size[i], &e) >= 0)
                (void) tpm_measure_cb(&e, &x->measured[s->kind]);
        collect_done(&c);
}

void stub_extras_collect(EFI_LOADED_IMAGE *li, StubExtras *ret) {
        _cleanup_file_close_ EFI_FILE *root = volume_open_root(li->DeviceHandle);
        _cleanup_ffree_ char *path = NULL, *extra_dir = NULL;

        fassert(li);
        fassert(ret);

        *ret = (StubExtras) {};
        if (!root)
                return;         /* loaded over HTTP: no ESP */
        path = uki_path(li);
        extra_dir = path ? stub_sidecar_extra_dir(path) : NULL;
        for (size_t i = 0; stub_sidecar(i) && i < STUB_EXTRAS_MAX; i++)
                collect_one(root, extra_dir, i, ret);
}

void stub_extras_done(StubExtras *x) {
        fassert(x);

        for (size_t i = 0; i < STUB_EXTRAS_MAX; i++)
                ffree(x->archive[i]);
}
