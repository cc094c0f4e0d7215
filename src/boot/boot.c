/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootx64.efi: the urlboot boot manager.
 *
 * Works when it was itself HTTP-booted, with no file system behind it: its menu comes from SMBIOS
 * type 11 strings (io.systemd.boot.entries-extra:ID.conf=BODY) and from entries built into its own
 * image (.entries section, the same "ID.conf=BODY" records separated by NUL bytes). A "uki-url"
 * entry is fetched through the firmware's HTTP boot (LoadFile) and started; ":NAME" means NAME next
 * to the URL the boot manager itself came from. Parsing and ordering live in src/fundamental.
 */
#include <efi.h>
#include <efilib.h>

#include "bls.h"
#include "device-path.h"
#include "efi-util.h"
#include "memory-fundamental.h"
#include "pe-image.h"
#include "smbios.h"
#include "string-fundamental.h"
#include "url.h"

#define ENTRIES_MAX 64
#define LOADFILE_TRIES 3

#define LOADER_FEATURES \
        (EFI_LOADER_FEATURE_ENTRY_DEFAULT | EFI_LOADER_FEATURE_ENTRY_ONESHOT | EFI_LOADER_FEATURE_SORT_KEY | \
         EFI_LOADER_FEATURE_REPORT_URL | EFI_LOADER_FEATURE_TYPE1_UKI_URL)

typedef struct Menu {
        BlsEntry *entries[ENTRIES_MAX];
        unsigned n;
        char *own_url;          /* where we were loaded from, NULL without network boot */
        unsigned timeout;       /* seconds; 0 boots the default at once */
} Menu;

static void add_entry(Menu *m, const char *name, size_t name_len, const char *body, size_t body_len) {
        char *fname = fstrndup(name, name_len);
        BlsEntry *e = NULL;

        if (!fname)
                return;
        if (m->n < ENTRIES_MAX && bls_entry_parse(fname, body, body_len, &e) >= 0) {
                /* A relative uki-url needs our own URL; without one the entry cannot work: hide it. */
                if (e->kind == BLS_KIND_UKI_URL && e->path[0] == ':' && !m->own_url)
                        bls_entry_free(e);
                else
                        m->entries[m->n++] = e;
        }
        ffree(fname);
}

static int on_oem_string(const char *s, size_t n, void *userdata) {
        Menu *m = userdata;
        const char *name, *body;
        size_t nl, bl;

        if (smbios_entry_split(s, n, &name, &nl, &body, &bl))
                add_entry(m, name, nl, body, bl);
        else if (n > 24 && fmemcmp(s, "io.systemd.boot.timeout=", 24) == 0) {
                unsigned t = 0;
                for (size_t i = 24; i < n && fascii_isdigit(s[i]); i++)
                        t = t * 10 + (unsigned) (s[i] - '0');
                m->timeout = t;
        }
        return 0;
}

static void collect_smbios(Menu *m) {
        smbios_foreach_oem_string(on_oem_string, m);
}

/* .entries: "ID.conf=BODY" records separated by NUL bytes, the same form as the SMBIOS strings. */
static void collect_builtin(Menu *m, EFI_LOADED_IMAGE *li) {
        const uint8_t *d;
        size_t n, i = 0;

        if (pe_find_section(li->ImageBase, li->ImageSize, ".entries", TRUE, &d, &n) < 0)
                return;
        while (i < n) {
                size_t start = i, eq;
                while (i < n && d[i])
                        i++;
                for (eq = start; eq < i && d[eq] != '='; eq++)
                        ;
                if (eq < i && eq > start)
                        add_entry(m, (const char *) d + start, eq - start, (const char *) d + eq + 1, i - eq - 1);
                i++;
        }
}

static void sort_entries(Menu *m) {
        for (unsigned i = 1; i < m->n; i++)
                for (unsigned j = i; j > 0 && bls_entry_compare(m->entries[j - 1], m->entries[j]) > 0; j--) {
                        BlsEntry *t = m->entries[j];
                        m->entries[j] = m->entries[j - 1];
                        m->entries[j - 1] = t;
                }
}

static char *get_loader_string(const CHAR16 *name) {
        CHAR16 buf[256];
        UINTN size = sizeof buf - sizeof(CHAR16);

        if (RT->GetVariable((CHAR16 *) name, &loader_vendor_guid, NULL, &size, buf) != EFI_SUCCESS)
                return NULL;
        buf[size / sizeof(CHAR16)] = 0;
        return char16_to_utf8(buf, size / sizeof(CHAR16));
}

static unsigned pick_default(Menu *m) {
        char *pattern = get_loader_string(L"LoaderEntryOneShot");

        if (pattern)
                (void) RT->SetVariable(L"LoaderEntryOneShot", &loader_vendor_guid, 0, 0, NULL);
        else
                pattern = get_loader_string(L"LoaderEntryDefault");
        if (pattern) {
                for (unsigned i = 0; i < m->n; i++)
                        if (bls_glob_match(pattern, m->entries[i]->id)) {
                                ffree(pattern);
                                return i;
                        }
                ffree(pattern);
        }
        return 0;
}

static void export_entries(Menu *m) {
        /* LoaderEntries: NUL-terminated UTF-16 IDs, one after the other. */
        UINTN total = 0, off = 0;
        CHAR16 *all;

        for (unsigned i = 0; i < m->n; i++)
                total += fstrlen(m->entries[i]->id) + 1;
        all = fmalloc((total + 1) * sizeof(CHAR16));
        if (!all)
                return;
        for (unsigned i = 0; i < m->n; i++) {
                CHAR16 *id = utf8_to_char16(m->entries[i]->id, fstrlen(m->entries[i]->id));
                UINTN k = 0;
                if (!id)
                        continue;
                while (id[k])
                        all[off++] = id[k++];
                all[off++] = 0;
                ffree(id);
        }
        (void) RT->SetVariable(L"LoaderEntries", &loader_vendor_guid, EFI_VARIABLE_VOLATILE_DEFAULT,
                               off * sizeof(CHAR16), all);
        ffree(all);
}

static void print_menu(Menu *m, unsigned selected) {
        Print(L"\nurlboot boot manager " URLBOOT_VERSION_W L"\n\n");
        for (unsigned i = 0; i < m->n; i++) {
                const char *t = m->entries[i]->title ?: m->entries[i]->id;
                CHAR16 *w = utf8_to_char16(t, fstrlen(t));
                Print(L" %c %s\n", i == selected ? L'>' : L' ', w ?: L"?");
                ffree(w);
        }
}

/* Waits up to timeout seconds for keys; returns the chosen entry. */
static unsigned run_menu(Menu *m, unsigned selected) {
        EFI_EVENT timer = NULL, events[2];
        unsigned left = m->timeout;

        print_menu(m, selected);
        if (m->timeout == 0)
                return selected;
        if (BS->CreateEvent(EVT_TIMER, 0, NULL, NULL, &timer) != EFI_SUCCESS)
                return selected;
        events[0] = ST->ConIn->WaitForKey;
        events[1] = timer;
        while (left > 0) {
                UINTN index;
                EFI_INPUT_KEY key;

                Print(L"\rBooting the selected entry in %u s (arrows to choose, Enter to boot)  ", left);
                BS->SetTimer(timer, TimerRelative, 10 * 1000 * 1000);
                if (BS->WaitForEvent(2, events, &index) != EFI_SUCCESS)
                        break;
                if (index == 1) {
                        left--;
                        continue;
                }
                if (ST->ConIn->ReadKeyStroke(ST->ConIn, &key) != EFI_SUCCESS)
                        continue;
                left = 0; /* any key stops the countdown... */
                for (;;) {
                        if (key.ScanCode == SCAN_UP && selected > 0)
                                selected--;
                        else if (key.ScanCode == SCAN_DOWN && selected + 1 < m->n)
                                selected++;
                        else if (key.UnicodeChar == CHAR_CARRIAGE_RETURN)
                                break;
                        print_menu(m, selected);
                        /* ...and from then on we wait for Enter */
                        BS->WaitForEvent(1, events, &index);
                        if (ST->ConIn->ReadKeyStroke(ST->ConIn, &key) != EFI_SUCCESS)
                                continue;
                }
        }
        BS->CloseEvent(timer);
        Print(L"\n");
        return selected;
}

/* The LoadFile dance: the firmware's HTTP boot fetches the URL for the handle that accepts it. */
static EFI_STATUS load_url(EFI_HANDLE parent, const char *url, EFI_HANDLE *ret) {
        void *dp;
        size_t dp_size;
        EFI_STATUS s = EFI_NOT_FOUND;

        if (device_path_make_url(url, &dp, &dp_size) < 0)
                return EFI_OUT_OF_RESOURCES;

        for (unsigned attempt = 0; attempt < LOADFILE_TRIES && EFI_ERROR(s); attempt++) {
                EFI_HANDLE *handles = NULL;
                UINTN n = 0;

                s = BS->LocateHandleBuffer(ByProtocol, &LoadFileProtocol, NULL, &n, &handles);
                if (attempt > 0 && !EFI_ERROR(s)) {
                        /* Network drivers sometimes answer again only after a reconnect. */
                        for (UINTN i = 0; i < n; i++)
                                (void) BS->ConnectController(handles[i], NULL, NULL, TRUE);
                        BS->Stall(500 * 1000);
                }
                if (EFI_ERROR(s))
                        break;
                s = EFI_NOT_FOUND;
                for (UINTN i = 0; i < n; i++) {
                        EFI_LOAD_FILE_INTERFACE *lf = NULL;
                        EFI_DEVICE_PATH *hdp;
                        UINTN size = 0;
                        EFI_STATUS k;

                        if (BS->HandleProtocol(handles[i], &LoadFileProtocol, (void **) &lf) != EFI_SUCCESS)
                                continue;
                        k = lf->LoadFile(lf, dp, TRUE, &size, NULL);
                        /* PXE handles answer "invalid parameter" or "not found": not ours. */
                        if (k != EFI_BUFFER_TOO_SMALL && !(k == EFI_SUCCESS && size == 0))
                                continue;
                        /* The firmware rewrote the handle's path to end in our Uri(). */
                        hdp = DevicePathFromHandle(handles[i]);
                        if (!hdp)
                                continue;
                        s = BS->LoadImage(TRUE, parent, hdp, NULL, 0, ret);
                        if (!EFI_ERROR(s))
                                break;
                }
                FreePool(handles);
        }
        ffree(dp);
        return s;
}

static char *resolve_url(Menu *m, const BlsEntry *e) {
        char *u = NULL;

        if (e->path[0] != ':')
                return fstrdup(e->path);
        /* ":NAME": NAME beside our own URL, with exactly one slash between them. */
        if (url_change_last_component(m->own_url, e->path + 1, &u) < 0)
                return NULL;
        return u;
}

static EFI_STATUS boot_entry(Menu *m, EFI_HANDLE image, const BlsEntry *e) {
        EFI_LOADED_IMAGE *child_li;
        EFI_HANDLE child = NULL;
        EFI_STATUS s;
        char *url;

        if (e->kind != BLS_KIND_UKI_URL) {
                log_line("urlboot: this entry needs a file system (linux, efi, uki); only uki-url works over HTTP.");
                return EFI_UNSUPPORTED;
        }
        url = resolve_url(m, e);
        if (!url || (!url_is_http(url)))
                return EFI_INVALID_PARAMETER;

        {
                CHAR16 *w = utf8_to_char16(url, fstrlen(url));
                Print(L"urlboot: starting %s\n", w ?: L"?");
                ffree(w);
        }
        (void) set_loader_string(L"LoaderEntrySelected", e->id);
        s = load_url(image, url, &child);
        ffree(url);
        if (EFI_ERROR(s))
                return s;

        if (BS->HandleProtocol(child, &LoadedImageProtocol, (void **) &child_li) == EFI_SUCCESS) {
                char *text = bls_entry_load_options(e);
                CHAR16 *o = text ? utf8_to_char16(text, fstrlen(text)) : NULL;
                UINTN k = 0;

                ffree(text);
                if (o) {
                        while (o[k])
                                k++;
                        child_li->LoadOptions = o;
                        child_li->LoadOptionsSize = (UINT32) ((k + 1) * sizeof(CHAR16));
                }
        }
        s = BS->StartImage(child, NULL, NULL);
        return s;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table) {
        EFI_LOADED_IMAGE *li = NULL;
        EFI_DEVICE_PATH *dp;
        Menu m = {};
        unsigned selected;
        EFI_STATUS s;
        char *info;

        InitializeLib(image, system_table);
        s = BS->HandleProtocol(image, &LoadedImageProtocol, (void **) &li);
        if (EFI_ERROR(s))
                return s;

        (void) set_loader_string(L"LoaderInfo", "urlboot " URLBOOT_VERSION);
        (void) set_loader_u64(L"LoaderFeatures", LOADER_FEATURES);
        if ((info = firmware_info())) {
                (void) set_loader_string(L"LoaderFirmwareInfo", info);
                ffree(info);
        }
        if ((info = firmware_type())) {
                (void) set_loader_string(L"LoaderFirmwareType", info);
                ffree(info);
        }
        dp = DevicePathFromHandle(li->DeviceHandle);
        if (dp && device_path_find_url(dp, device_path_size(dp), &m.own_url) >= 0)
                (void) set_loader_string_if_unset(L"LoaderDeviceURL", m.own_url);

        collect_smbios(&m);
        collect_builtin(&m, li);
        sort_entries(&m);
        export_entries(&m);

        if (m.n == 0) {
                Print(L"urlboot boot manager: no boot entries.\n"
                      L"Add them as SMBIOS type 11 strings 'io.systemd.boot.entries-extra:ID.conf=BODY'\n"
                      L"or build them into this program (.entries section).\n");
                BS->Stall(10 * 1000 * 1000);
                return EFI_NOT_FOUND;
        }

        selected = run_menu(&m, pick_default(&m));
        s = boot_entry(&m, image, m.entries[selected]);
        Print(L"urlboot: starting '%a' failed: %r\n", m.entries[selected]->id, s);
        BS->Stall(5 * 1000 * 1000);
        return s;
}
