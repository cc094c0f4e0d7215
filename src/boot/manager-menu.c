/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The text menu: arrows and Enter, a countdown that any key stops, 'e' to edit an entry's options.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "efi-cleanup.h"
#include "efi-string.h"
#include "efi-variables.h"
#include "manager-menu.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"

#define OPTIONS_MAX 1024

static void print_utf8(const char *s) {
        _cleanup_ffree_ CHAR16 *w = utf8_to_char16(s, fstrlen(s));

        Print(L"%s", w ?: L"?");
}

static void print_menu(Menu *m, unsigned selected) {
        Print(L"\nurlboot boot manager " URLBOOT_VERSION_W L"\n\n");
        for (unsigned i = 0; i < m->n; i++) {
                Print(L" %c ", i == selected ? L'>' : L' ');
                print_utf8(m->entries[i].title ?: m->entries[i].bls->id);
                Print(L"\n");
        }
        Print(L"\n");
}

static bool read_key(EFI_INPUT_KEY *key) {
        return ST->ConIn->ReadKeyStroke(ST->ConIn, key) == EFI_SUCCESS;
}

static void wait_key(EFI_INPUT_KEY *key) {
        UINTN index;

        do
                BS->WaitForEvent(1, &ST->ConIn->WaitForKey, &index);
        while (!read_key(key));
}

/* Edit text in place on one line: printable keys insert at the end, Backspace deletes, Enter accepts,
 * Esc cancels. Returns the new text or NULL when cancelled. */
static char *edit_line(const char *initial) {
        _cleanup_ffree_ char *buf = fmalloc(OPTIONS_MAX);
        size_t n = fstrnlen(initial ?: "", OPTIONS_MAX - 1);
        EFI_INPUT_KEY key;

        if (!buf)
                return NULL;
        fmemcpy(buf, initial ?: "", n);
        buf[n] = 0;
        Print(L"\noptions (Enter to boot, Esc to cancel): ");
        print_utf8(buf);
        for (;;) {
                wait_key(&key);
                if (key.ScanCode == SCAN_ESC) {
                        Print(L"\n");
                        return NULL;
                }
                if (key.UnicodeChar == CHAR_CARRIAGE_RETURN) {
                        Print(L"\n");
                        return TAKE_PTR(buf);
                }
                /* echo only what changed: a slow serial console must keep up with typing */
                if (key.UnicodeChar == CHAR_BACKSPACE) {
                        if (n > 0) {
                                buf[--n] = 0;
                                Print(L"\b \b");
                        }
                } else if (key.UnicodeChar >= 0x20 && key.UnicodeChar < 0x7f && n + 1 < OPTIONS_MAX) {
                        buf[n++] = (char) key.UnicodeChar;
                        buf[n] = 0;
                        Print(L"%c", key.UnicodeChar);
                }
        }
}

static bool editor_allowed(Menu *m) {
        /* under Secure Boot the stub ignores changed options anyway; do not pretend */
        return m->conf.editor && !secure_boot_enabled();
}

/* Arrows, Enter and 'e' until a choice is made. */
static void choose(Menu *m, MenuChoice *c, EFI_INPUT_KEY key) {
        for (;;) {
                if (key.ScanCode == SCAN_UP && c->index > 0)
                        c->index--;
                else if (key.ScanCode == SCAN_DOWN && c->index + 1 < m->n)
                        c->index++;
                else if (key.ScanCode == SCAN_HOME)
                        c->index = 0;
                else if (key.ScanCode == SCAN_END)
                        c->index = m->n - 1;
                else if (key.UnicodeChar == CHAR_CARRIAGE_RETURN)
                        return;
                else if (key.UnicodeChar == L'e' && editor_allowed(m)) {
                        _cleanup_ffree_ char *current = bls_entry_load_options(m->entries[c->index].bls);
                        char *edited = edit_line(current);
                        if (edited) {
                                ffree(c->options);
                                c->options = edited;
                                return;
                        }
                }
                print_menu(m, c->index);
                wait_key(&key);
        }
}

/* Count down; a key stops the countdown and hands over to choose(). */
static void countdown(Menu *m, MenuChoice *c, uint32_t seconds) {
        _cleanup_event_close_ EFI_EVENT timer = NULL;
        EFI_EVENT events[2];
        EFI_INPUT_KEY key;

        if (BS->CreateEvent(EVT_TIMER, 0, NULL, NULL, &timer) != EFI_SUCCESS)
                return;
        events[0] = ST->ConIn->WaitForKey;
        events[1] = timer;
        for (uint32_t left = seconds; left > 0;) {
                UINTN index;

                Print(L"\rBooting the selected entry in %u s (arrows to choose, Enter to boot%s)  ", left,
                      editor_allowed(m) ? L", e to edit" : L"");
                BS->SetTimer(timer, TimerRelative, 10 * 1000 * 1000);
                if (BS->WaitForEvent(2, events, &index) != EFI_SUCCESS)
                        break;
                if (index == 1) {
                        left--;
                        continue;
                }
                if (!read_key(&key))
                        continue;
                c->key_pressed = true;
                Print(L"\n");
                choose(m, c, key);
                break;
        }
        Print(L"\n");
}

/* loader.conf console-mode: keep the firmware's mode, a given mode number, or the largest text mode. */
void console_apply_mode(const LoaderConf *conf) {
        UINTN cols, rows;
        size_t best = 0, best_area = 0;
        INT32 max = ST->ConOut->Mode ? ST->ConOut->Mode->MaxMode : 0;

        fassert(conf);

        switch (conf->console_mode) {
        case CONSOLE_MODE_KEEP:
                return;
        case CONSOLE_MODE_NUMBER:
                if ((INT32) conf->console_mode_number < max &&
                    ST->ConOut->QueryMode(ST->ConOut, conf->console_mode_number, &cols, &rows) == EFI_SUCCESS)
                        (void) ST->ConOut->SetMode(ST->ConOut, conf->console_mode_number);
                return;
        case CONSOLE_MODE_AUTO:
        case CONSOLE_MODE_MAX:
                for (INT32 i = 0; i < max; i++)
                        if (ST->ConOut->QueryMode(ST->ConOut, (UINTN) i, &cols, &rows) == EFI_SUCCESS &&
                            cols * rows > best_area) {
                                best = (size_t) i;
                                best_area = cols * rows;
                        }
                if (best_area)
                        (void) ST->ConOut->SetMode(ST->ConOut, best);
                return;
        }
}

MenuChoice menu_run(Menu *m, unsigned selected, uint32_t timeout) {
        MenuChoice c = { .index = selected };
        EFI_INPUT_KEY key;

        fassert(m);

        switch (loader_menu_mode(timeout)) {
        case MENU_MODE_BOOT_NOW:
                break;
        case MENU_MODE_HIDDEN:
                /* a key already pressed (held during start) opens the menu */
                if (read_key(&key)) {
                        c.key_pressed = true;
                        print_menu(m, c.index);
                        wait_key(&key);
                        choose(m, &c, key);
                }
                break;
        case MENU_MODE_COUNTDOWN:
                print_menu(m, c.index);
                countdown(m, &c, timeout);
                break;
        case MENU_MODE_WAIT:
                print_menu(m, c.index);
                Print(L"Arrows to choose, Enter to boot%s.\n", editor_allowed(m) ? L", e to edit" : L"");
                wait_key(&key);
                c.key_pressed = true;
                choose(m, &c, key);
                break;
        }
        return c;
}
