/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Showing how far a download is.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <systemd/sd-daemon.h>
#include <time.h>
#include <unistd.h>

#include "dlopen-util.h"
#include "log.h"
#include "macro.h"
#include "progress.h"
#include "string-util.h"

#define BAR_INTERVAL_USEC (200 * 1000ULL)
#define NOTIFY_INTERVAL_USEC (1000 * 1000ULL)
#define LOG_INTERVAL_USEC (5 * 1000 * 1000ULL)
/* the drawn bar: no narrower than this (else none), no wider than that */
#define BAR_WIDTH_MIN 10
#define BAR_WIDTH_MAX 40

struct Progress {
        ProgressMode mode;
        bool notify;            /* running under systemd with a notification socket */
        const char *verb;       /* a string that outlives this (the callers': literals) */
        char *name;
        uint64_t start, last_print, last_notify;
        bool line_shown;
};

ProgressMode progress_mode_from_string(const char *s) {
        static const char *const names[_PROGRESS_MODE_MAX] = { "auto", "bar", "plain", "none" };

        assert(s);

        for (int i = 0; i < _PROGRESS_MODE_MAX; i++)
                if (streq(s, names[i]))
                        return (ProgressMode) i;
        return _PROGRESS_MODE_INVALID;
}

static uint64_t now_usec(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t) ts.tv_sec * 1000000ULL + (uint64_t) ts.tv_nsec / 1000;
}

/* libsystemd is loaded only under systemd: outside it, the notification code is never needed. */
static DLSYM_DEFINE(sd_notifyf);

static bool notify_load(void) {
        static DlOnce once;
        static const DlSymbol symbols[] = { DLSYM_ENTRY(sd_notifyf) };

        return dlopen_symbols(&once, "libsystemd.so.0", symbols, ELEMENTSOF(symbols), NULL) >= 0;
}

Progress *progress_new(ProgressMode mode, const char *verb, const char *name) {
        Progress *p = calloc(1, sizeof *p);

        if (!p)
                return NULL;
        p->notify = getenv("NOTIFY_SOCKET");
        if (mode == PROGRESS_AUTO) {
                if (isatty(STDERR_FILENO))
                        mode = PROGRESS_BAR;
                else if (p->notify || getenv("JOURNAL_STREAM") || getenv("INVOCATION_ID"))
                        mode = PROGRESS_PLAIN;
                else
                        mode = PROGRESS_NONE;
        }
        if (mode == PROGRESS_NONE || (p->notify && !notify_load()))
                p->notify = false;
        p->mode = mode;
        p->verb = verb;
        p->name = strdup(name ?: "");
        if (!p->name) {
                free(p);
                return NULL;
        }
        p->start = p->last_print = p->last_notify = now_usec();
        return p;
}

void progress_free(Progress *p) {
        if (!p)
                return;
        progress_clear(p);
        free(p->name);
        free(p);
}

char *format_bytes(char *buf, size_t size, uint64_t bytes) {
        static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
        double v = (double) bytes;
        int u = 0;

        assert(buf || size == 0);

        while (v >= 1024 && u < 4) {
                v /= 1024;
                u++;
        }
        snprintf(buf, size, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
        return buf;
}

/* "12.0 MiB of 700.0 MiB (1%), 45.2 MiB/s, 0:13 left" */
static void describe(Progress *p, uint64_t received, int64_t total, uint64_t now, char *buf, size_t size) {
        char a[32], b[32], c[32];
        double secs = (double) (now - p->start) / 1e6;
        double rate = secs > 0 ? (double) received / secs : 0;

        format_bytes(a, sizeof a, received);
        format_bytes(c, sizeof c, (uint64_t) rate);
        if (total > 0) {
                unsigned eta = rate > 0 ? (unsigned) (((double) total - (double) received) / rate) : 0;
                format_bytes(b, sizeof b, (uint64_t) total);
                snprintf(buf, size, "%s of %s (%u%%), %s/s, %u:%02u left", a, b,
                         (unsigned) (received * 100 / (uint64_t) total), c, eta / 60, eta % 60);
        } else
                snprintf(buf, size, "%s, %s/s", a, c);
}

/* "[#######-------] " in what the terminal's width leaves beside the text; nothing without a total or room. */
static void draw_bar(uint64_t received, int64_t total, size_t text_width, char *buf, size_t size) {
        struct winsize ws = {};
        size_t columns = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) >= 0 && ws.ws_col > 0 ? ws.ws_col : 80;
        size_t width, filled;

        buf[0] = 0;
        if (total <= 0 || columns < text_width + BAR_WIDTH_MIN + 3)
                return;
        width = MIN(columns - text_width - 3, (size_t) BAR_WIDTH_MAX);
        if (width + 4 > size)
                return;
        filled = (size_t) (MIN(received, (uint64_t) total) * width / (uint64_t) total);
        buf[0] = '[';
        memset(buf + 1, '#', filled);
        memset(buf + 1 + filled, '-', width - filled);
        buf[1 + width] = ']';
        buf[2 + width] = ' ';
        buf[3 + width] = 0;
}

void progress_update(Progress *p, uint64_t received, int64_t total) {
        uint64_t now = now_usec();
        char text[160];

        if (!p || p->mode == PROGRESS_NONE)
                return;

        if (p->notify && now - p->last_notify >= NOTIFY_INTERVAL_USEC) {
                describe(p, received, total, now, text, sizeof text);
                (void) sym_sd_notifyf(false, "STATUS=%s %s: %s", p->verb, p->name, text);
                p->last_notify = now;
        }

        if (p->mode == PROGRESS_BAR && now - p->last_print >= BAR_INTERVAL_USEC) {
                char bar[BAR_WIDTH_MAX + 4];

                describe(p, received, total, now, text, sizeof text);
                draw_bar(received, total, strlen(p->name) + 2 + strlen(text), bar, sizeof bar);
                fprintf(stderr, "\r\033[K%s: %s%s", p->name, bar, text);
                fflush(stderr);
                p->line_shown = true;
                p->last_print = now;
        } else if (p->mode == PROGRESS_PLAIN && now - p->last_print >= LOG_INTERVAL_USEC) {
                describe(p, received, total, now, text, sizeof text);
                log_info("%s %s: %s", p->verb, p->name, text);
                p->last_print = now;
        }
}

void progress_clear(Progress *p) {
        if (p && p->line_shown) {
                fputs("\r\033[K", stderr);
                fflush(stderr);
                p->line_shown = false;
        }
}
