/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Collecting the boot manager's entries, in systemd-boot's load order: on our volume Type #2 UKIs in
 * \EFI\Linux then Type #1 files in \loader\entries; the same on XBOOTLDR; SMBIOS type 11 strings;
 * and the entries built into our own image (.entries). Then sorting and unique titles.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "bls-menu.h"
#include "efi-cleanup.h"
#include "efi-firmware.h"
#include "efi-log.h"
#include "efi-string.h"
#include "efi-tpm.h"
#include "efi-volume.h"
#include "manager-entries.h"
#include "memory-fundamental.h"
#include "pe-image.h"
#include "printf-fundamental.h"
#include "smbios.h"
#include "string-fundamental.h"
#include "uki-entry.h"

#define CONF_MAX (64 * 1024)
#define UKI_MAX (512U * 1024 * 1024)
#define ARCH "x64"

static bool add(Menu *m, BlsEntry *e, EFI_HANDLE device, const CHAR16 *dir, const char *filename) {
        if (m->n >= ENTRIES_MAX || !bls_entry_for_architecture(e, ARCH)) {
                bls_entry_free(e);
                return false;
        }
        m->entries[m->n++] = (BootEntry) {
                .bls = e, .device = device, .dir = dir, .filename = filename ? fstrdup(filename) : NULL,
        };
        return true;
}

/* Adds an entry given as text (SMBIOS, .entries), unless it cannot work here: a relative uki-url
 * needs our own URL, local paths need a volume. A rollout's entry must pin its UKI. */
static bool add_text_entry(Menu *m, const char *name, size_t name_len, const char *body, size_t body_len,
                           bool rollout) {
        _cleanup_ffree_ char *fname = fstrndup(name, name_len);
        _cleanup_(bls_entry_freep) BlsEntry *e = NULL;
        EFI_HANDLE device;

        if (!fname || bls_entry_parse(fname, body, body_len, &e) < 0)
                return false;
        if ((e->kind == BLS_KIND_UKI_URL && e->path[0] == ':' && !m->own_url) ||
            (e->kind != BLS_KIND_UKI_URL && !m->have_volume))
                return false;
        if (rollout && !e->pin) {
                log_efi_info("%s: a rollout's entry without urlboot-sha256 is not offered (the list must pin each "
                             "version's UKI: urlbootctl build-manager --uki=)", e->id);
                return false;
        }
        device = e->kind == BLS_KIND_UKI_URL ? NULL : m->own_device;
        if (!add(m, TAKE_PTR(e), device, NULL, NULL))
                return false;
        m->entries[m->n - 1].rollout = rollout;
        return true;
}

typedef struct Scan {
        Menu *m;
        EFI_FILE *root;
        EFI_HANDLE device;
        const CHAR16 *dir;
} Scan;

/* The local file an entry boots exists (else systemd-boot drops the entry silently). */
static bool target_exists(Scan *s, BlsEntry *e) {
        _cleanup_ffree_ char *p = bls_path_to_efi(e->path);
        _cleanup_ffree_ CHAR16 *w = p ? utf8_to_char16(p, fstrlen(p)) : NULL;

        if (!w || !volume_file_exists(s->root, w))
                return false;
        /* "efi" naming ourselves would start us again */
        return !(e->kind == BLS_KIND_EFI && s->device == s->m->own_device && s->m->own_path &&
                 fstrcaseeq(s->m->own_path, p));
}

static void on_type1_file(const char *name, void *userdata) {
        Scan *s = userdata;
        _cleanup_ffree_ CHAR16 *path = NULL;
        _cleanup_ffree_ char *text = NULL;
        _cleanup_(bls_entry_freep) BlsEntry *e = NULL;
        size_t size;

        if (!bls_filename_valid(name, ".conf") || !(path = volume_path_join(s->dir, name)))
                return;
        if (volume_read_file(s->root, path, CONF_MAX, &text, &size) != EFI_SUCCESS ||
            bls_entry_parse(name, text, size, &e) < 0)
                return;
        if (e->kind == BLS_KIND_UKI_URL ? e->path[0] == ':' && !s->m->own_url : !target_exists(s, e))
                return;
        add(s->m, TAKE_PTR(e), s->device, s->dir, name);
}

static void on_type2_file(const char *name, void *userdata) {
        Scan *s = userdata;
        _cleanup_ffree_ CHAR16 *path = NULL;
        _cleanup_ffree_ char *image = NULL;
        char efi_path[300];
        BlsEntry *e[8];
        size_t size;
        int n;

        if (!bls_filename_valid(name, ".efi") || fstrlen(name) > 200 || !(path = volume_path_join(s->dir, name)))
                return;
        fsnprintf(efi_path, sizeof efi_path, "\\EFI\\Linux\\%s", name);
        if (volume_read_file(s->root, path, UKI_MAX, &image, &size) != EFI_SUCCESS)
                return;
        n = uki_entries_make(name, efi_path, image, size, false, e, ELEMENTSOF(e));
        for (int i = 0; i < n; i++)
                add(s->m, e[i], s->device, s->dir, name);
}

static void collect_volume(Menu *m, EFI_HANDLE device) {
        _cleanup_file_close_ EFI_FILE *root = volume_open_root(device);
        Scan s = { .m = m, .device = device, .root = root };

        if (!root)
                return;
        s.dir = L"\\EFI\\Linux";
        volume_foreach_file(root, s.dir, on_type2_file, &s);
        s.dir = L"\\loader\\entries";
        volume_foreach_file(root, s.dir, on_type1_file, &s);
}

static int on_oem_string(const char *s, size_t n, void *userdata) {
        const char *name, *body;
        size_t nl, bl;

        if (smbios_entry_split(s, n, &name, &nl, &body, &bl))
                add_text_entry(userdata, name, nl, body, bl, false);
        else if (n > 24 && fmemcmp(s, "io.systemd.boot.timeout=", 24) == 0) {
                /* the firmware's word over loader.conf, for machines booted without a file system */
                Menu *m = userdata;
                (void) loader_timeout_parse(s + 24, n - 24, &m->conf.timeout);
        }
        return 0;
}

/* .entries: "ID.conf=BODY" records separated by NUL bytes, the same form as the SMBIOS strings. */
void entries_add_section(Menu *m, const uint8_t *d, size_t n, bool rollout) {
        size_t i = 0;

        fassert(m);
        fassert(d || n == 0);

        while (i < n) {
                size_t start = i, eq;
                while (i < n && d[i])
                        i++;
                for (eq = start; eq < i && d[eq] != '='; eq++)
                        ;
                if (eq < i && eq > start)
                        (void) add_text_entry(m, (const char *) d + start, eq - start, (const char *) d + eq + 1,
                                              i - eq - 1, rollout);
                i++;
        }
}

static void collect_builtin(Menu *m, EFI_LOADED_IMAGE *li) {
        const uint8_t *d;
        size_t n;

        if (pe_find_section(li->ImageBase, li->ImageSize, ".entries", true, &d, &n) >= 0)
                entries_add_section(m, d, n, false);
        /* the CA for https, pinned in this signed image (urlbootctl build-manager --ca=) */
        if (pe_find_section(li->ImageBase, li->ImageSize, ".tlsca", true, &d, &n) >= 0 && n > 0) {
                m->tls_ca = d;
                m->tls_ca_size = n;
        }
}

/* systemd-boot measures loader.conf before it reads it: PCR 5, tagged, "loader.conf". */
static void measure_loader_conf(const char *text, size_t size) {
        MeasureEvent e = {
                .pcr = TPM2_PCR_BOOT_LOADER_CONFIG, .type = TCG_EV_EVENT_TAG, .tag = TCG_TAG_LOADER_CONF,
                .data = text, .size = size, .description = "loader.conf",
        };
        bool measured;

        (void) tpm_measure(&e, &measured);
}

/* loader.conf from our volume; without a volume, from our own .loader section (same text). */
static void read_loader_conf(Menu *m, EFI_LOADED_IMAGE *li) {
        _cleanup_file_close_ EFI_FILE *root = volume_open_root(li->DeviceHandle);
        _cleanup_ffree_ char *text = NULL;
        const uint8_t *d;
        size_t n, size;

        if (root) {
                if (volume_read_file(root, L"\\loader\\loader.conf", CONF_MAX, &text, &size) == EFI_SUCCESS) {
                        measure_loader_conf(text, size);
                        (void) loader_conf_parse(&m->conf, text, size);
                }
                return;
        }
        if (pe_find_section(li->ImageBase, li->ImageSize, ".loader", true, &d, &n) >= 0)
                (void) loader_conf_parse(&m->conf, (const char *) d, fstrnlen((const char *) d, n));
}

void entries_sort(Menu *m) {
        fassert(m);

        for (unsigned i = 1; i < m->n; i++)
                for (unsigned j = i; j > 0 && bls_entry_compare(m->entries[j - 1].bls, m->entries[j].bls) > 0; j--) {
                        BootEntry t = m->entries[j];
                        m->entries[j] = m->entries[j - 1];
                        m->entries[j - 1] = t;
                }
}

void entries_collect(Menu *m, EFI_LOADED_IMAGE *li) {
        const void *smbios;
        size_t smbios_size;
        EFI_HANDLE xbootldr;

        fassert(m);
        fassert(li);

        loader_conf_init(&m->conf);
        read_loader_conf(m, li);
        if (m->have_volume) {
                collect_volume(m, li->DeviceHandle);
                xbootldr = volume_find_xbootldr(li->DeviceHandle);
                if (xbootldr)
                        collect_volume(m, xbootldr);
        }
        if (firmware_smbios_table(&smbios, &smbios_size))
                (void) smbios_oem_strings_foreach(smbios, smbios_size, on_oem_string, m);
        collect_builtin(m, li);
        entries_sort(m);
}

void entries_make_titles(Menu *m) {
        BlsEntry *bls[ENTRIES_MAX];
        char *titles[ENTRIES_MAX];

        fassert(m);

        for (unsigned i = 0; i < m->n; i++)
                bls[i] = m->entries[i].bls;
        if (bls_titles_make(bls, m->n, titles) < 0)
                return;
        for (unsigned i = 0; i < m->n; i++)
                m->entries[i].title = titles[i];
}
