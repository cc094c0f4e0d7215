/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Showing lazy disks.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "json-writer.h"
#include "lazy-status.h"
#include "macro.h"
#include "nbd-device.h"
#include "string-util.h"

static void print_bytes(FILE *f, uint64_t b) {
        if (b >= (1ULL << 30))
                fprintf(f, "%.1f GiB", (double) b / (1ULL << 30));
        else
                fprintf(f, "%.1f MiB", (double) b / (1ULL << 20));
}

static void print_time(FILE *f, const char *what, uint64_t usec, bool *first) {
        if (usec == 0)
                return;
        fprintf(f, "%s%s %.2f s", *first ? "" : ", ", what, usec / 1e6);
        *first = false;
}

void lazy_status_print(FILE *f, const LazyState *s, bool running) {
        unsigned percent = s->size > 0 ? (unsigned) (s->copied * 100 / s->size) : 0;
        bool first = true;

        assert(f);
        assert(s);

        fprintf(f, "%s: %s", s->name, lazy_phase_to_string(s->phase));
        if (s->phase == LAZY_REMOTE)
                fprintf(f, ", served from the network; the copy starts when the root is mounted%s",
                        running ? "" : " - urlboot-lazy is not running");
        else if (s->phase == LAZY_COPYING) {
                fprintf(f, ", %u%% copied (", percent);
                print_bytes(f, s->copied);
                fputs(" of ", f);
                print_bytes(f, s->size);
                fputc(')', f);
                if (!running)
                        fputs(" - urlboot-lazy is not running", f);
        } else if (s->phase == LAZY_LOCAL && s->local_usec > s->copy_usec && s->copy_usec > 0) {
                double secs = (s->local_usec - s->copy_usec) / 1e6;
                fputs(", copy complete: ", f);
                print_bytes(f, s->size);
                fprintf(f, " in %.1f s; the network is no longer needed", secs);
        }
        fputc('\n', f);
        fprintf(f, "         URL: %s\n", s->url ?: "-");
        if (s->verity)
                fprintf(f, "    Verified: %s\n", streq(s->verity, "none") ? "NO (verify=no): blocks are used as the server sends them" :
                                                  streq(s->verity, "usrhash") ? "every block, by dm-verity (usrhash=)" :
                                                  streq(s->verity, "roothash") ? "every block, by dm-verity (roothash=)" :
                                                  "every block, by dm-verity (roothash=, usrhash=)");
        fprintf(f, "      Device: %s", s->device ?: "-");
        if (s->mapper)
                fprintf(f, " on %s (%s)", s->mapper,
                        s->phase == LAZY_LOCAL ? "linear: the local copy" : "linear: the network");
        fputc('\n', f);
        fprintf(f, "  Local copy: %s", s->image ?: "-");
        if (s->local_loop)
                fprintf(f, " (%s)", s->local_loop);
        if (s->stored > 0) {
                fputs(", ", f);
                print_bytes(f, s->stored);
                fputs(" in memory", f);
        }
        if (s->zero > 0) {
                fputs(", ", f);
                print_bytes(f, s->zero);
                fputs(" of zero blocks left as holes", f);
        }
        fputc('\n', f);
        if (s->nbd)
                fprintf(f, "     Network: %s, nbdkit PID %d\n", s->nbd, s->nbdkit_pid);
        fputs("     Fetched: ", f);
        print_bytes(f, s->fetched);
        if (s->root_usec > 0) {
                fputs(" (", f);
                print_bytes(f, s->fetched_at_root);
                fputs(" until the root was mounted)", f);
        }
        fputc('\n', f);
        fputs("    Timeline: ", f);
        print_time(f, "started", s->started_usec, &first);
        print_time(f, "ready", s->ready_usec, &first);
        print_time(f, "root mounted", s->root_usec, &first);
        print_time(f, "copying", s->copy_usec, &first);
        print_time(f, "local", s->local_usec, &first);
        fputs(first ? "-\n" : " (since boot)\n", f);
}

static void json_u64(FILE *f, const char *key, uint64_t v, bool null_if_zero) {
        json_write_key(f, key, false);
        if (null_if_zero && v == 0)
                fputs("null", f);
        else
                fprintf(f, "%llu", (unsigned long long) v);
}

void lazy_status_print_root_writes(FILE *f, const RootWrites *writes) {
        assert(f);
        assert(writes);

        fputs("Root writes: ", f);
        print_bytes(f, writes->used);
        fputs(" in memory, at most ", f);
        print_bytes(f, writes->max);
        fputs(" (systemd.volatile=overlay's tmpfs over the read-only root)\n", f);
}

void lazy_status_print_json(FILE *f, const LazyState *s, bool running, const RootWrites *writes) {
        assert(f);
        assert(s);

        fputc('{', f);
        json_write_key(f, "name", true);
        json_write_string(f, s->name);
        json_write_key(f, "phase", false);
        json_write_string(f, lazy_phase_to_string(s->phase));
        json_write_key(f, "running", false);
        fputs(running ? "true" : "false", f);
        json_write_key(f, "url", false);
        json_write_string(f, s->url);
        /* "none" for an unverified disk, null for a state written before the key existed */
        json_write_key(f, "verity", false);
        json_write_string(f, s->verity);
        json_write_key(f, "image", false);
        json_write_string(f, s->image);
        json_write_key(f, "device", false);
        json_write_string(f, s->device);
        json_write_key(f, "mapper", false);
        json_write_string(f, s->mapper);
        json_write_key(f, "nbd", false);
        json_write_string(f, s->nbd);
        json_write_key(f, "localLoop", false);
        json_write_string(f, s->local_loop);
        json_u64(f, "size", s->size, false);
        json_u64(f, "copied", s->copied, false);
        json_u64(f, "zero", s->zero, false);
        json_u64(f, "stored", s->stored, true);
        json_u64(f, "fetched", s->fetched, false);
        json_u64(f, "fetchedBeforeRoot", s->fetched_at_root, s->root_usec == 0);
        json_u64(f, "startedUSec", s->started_usec, true);
        json_u64(f, "readyUSec", s->ready_usec, true);
        json_u64(f, "rootMountedUSec", s->root_usec, true);
        json_u64(f, "copyUSec", s->copy_usec, true);
        json_u64(f, "localUSec", s->local_usec, true);
        /* the same for every disk: the root's, not the disk's */
        json_write_key(f, "rootWrites", false);
        if (writes)
                fprintf(f, "{\"used\":%llu,\"max\":%llu}", (unsigned long long) writes->used,
                        (unsigned long long) writes->max);
        else
                fputs("null", f);
        fputc('}', f);
}

static int cmp_names(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

int lazy_status_show(const char *dir, const char *root, char *const *names, bool json) {
        _cleanup_strv_free_ char **files = NULL;
        RootWrites writes;
        bool have_writes = root_writes_get(root, &writes) >= 0;
        struct dirent *de;
        DIR *d;
        int n = 0, r;

        assert(dir);
        assert(root);

        d = opendir(dir);
        if (!d && errno != ENOENT)
                return -errno;
        while (d && (de = readdir(d))) {
                char *e = endswith(de->d_name, ".state");

                if (!e || e == de->d_name)
                        continue;
                if (names && !strv_contains(names, strndupa(de->d_name, (size_t) (e - de->d_name))))
                        continue;
                r = strv_extend(&files, de->d_name);
                if (r < 0) {
                        closedir(d);
                        return r;
                }
        }
        if (d)
                closedir(d);
        if (files)
                qsort(files, strv_length(files), sizeof *files, cmp_names);

        if (json)
                fputc('[', stdout);
        STRV_FOREACH(file, files) {
                _cleanup_free_ char *path = NULL;
                LazyState s;
                bool running;

                if (asprintf(&path, "%s/%s", dir, *file) < 0)
                        return -ENOMEM;
                if (lazy_state_read(path, &s) < 0)
                        continue;
                running = s.pid > 0 && kill(s.pid, 0) == 0;
                if (json) {
                        if (n > 0)
                                fputc(',', stdout);
                        lazy_status_print_json(stdout, &s, running, have_writes ? &writes : NULL);
                } else {
                        if (n > 0)
                                fputc('\n', stdout);
                        lazy_status_print(stdout, &s, running);
                }
                lazy_state_done(&s);
                n++;
        }
        if (json)
                fputs("]\n", stdout);
        else if (n > 0 && have_writes) {
                fputc('\n', stdout);
                lazy_status_print_root_writes(stdout, &writes);
        }
        return n;
}
