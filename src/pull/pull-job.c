/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One image download: fetch, hash, decompress, write, verify, place atomically.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/magic.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "checksums.h"
#include "decompress.h"
#include "digest.h"
#include "fileio.h"
#include "http-source.h"
#include "log.h"
#include "macro.h"
#include "memory-fundamental.h"
#include "path-util.h"
#include "progress.h"
#include "pull-job.h"
#include "ring-buffer.h"
#include "rm-rf.h"
#include "sparse-file.h"
#include "string-util.h"
#include "tar-unpack.h"
#include "url.h"
#include "verify-signature.h"
#include "xz-parallel.h"

#define RING_CAPACITY (256 * 1024)
#define READ_CHUNK (256 * 1024)
#define SPARSE_BUFFER (1024 * 1024)
/* Bytes written between two fdatasync() calls of the flusher thread (flusher.h). */
#define FLUSH_STEP (32 * 1024 * 1024)
#define BACKOFF_MAX_SEC 30

typedef struct Attempt {
        const PullOptions *o;
        PullReport *report;
        const char *url;
        char *final_path;
        char *tmp_path;
        int fd;                         /* raw: the temporary file */
        Sha256 *hash;
        RingBuffer *ring;
        pthread_t thread;
        bool thread_running;
        int unpack_result;
        bool unpack_failed;             /* the unpacker itself failed (not just saw the download end) */
        bool ring_error;                /* the unpacker got the downloader's error from the ring */
        char unpack_error[256];
        Compression compression;
        uint64_t received;              /* bytes of the served file passed on so far */
        int64_t total;
        char *validator;                /* ETag (preferred) or Last-Modified of the first answer */
        bool seen_headers;
        bool resuming;
        char expected[65];              /* the digest the served file must have, "" if none */
        Progress *progress;
        char *error;
        size_t error_size;
} Attempt;

static int fail(Attempt *a, int r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(Attempt *a, int r, const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(a->error, a->error_size, fmt, ap);
        va_end(ap);
        return r;
}

/* ---- the unpacking thread ---- */

/* Reads from the downloader; a negative result is the downloader's failure, not ours. */
static long read_ring(void *userdata, void *buf, size_t size) {
        Attempt *a = userdata;
        long n = ring_buffer_read(a->ring, buf, size);

        if (n < 0)
                a->ring_error = true;
        return n;
}

/* zstd, gzip, bzip2 or none: one decoder, output appended in order. */
static int unpack_stream(Attempt *a, unsigned char *buf, size_t head, Flusher *flusher) {
        Decompressor *d = NULL;
        SparseFile *sf = NULL;
        long n;
        int r;

        r = sparse_file_new(a->fd, SPARSE_BUFFER, &sf);
        if (r >= 0)
                sparse_file_set_flusher(sf, flusher);
        /* Decoding is the slowest step: the copies into the page cache go to a thread of their own. */
        if (r >= 0)
                r = sparse_file_start_writer(sf);
        if (r >= 0)
                r = decompressor_new(a->compression, &d);
        if (r >= 0)
                r = decompressor_push(d, buf, head, sf);
        while (r >= 0) {
                n = read_ring(a, buf, READ_CHUNK);
                if (n <= 0) {
                        r = (int) n;
                        break;
                }
                r = decompressor_push(d, buf, (size_t) n, sf);
        }
        if (r >= 0)
                r = decompressor_finish(d);
        if (r >= 0)
                r = sparse_file_finish(sf);
        if (r >= 0)
                a->report->image_size = sparse_file_size(sf);
        decompressor_free(d);
        sparse_file_free(sf);
        return r;
}

static int unpack_raw(Attempt *a) {
        unsigned char *buf = malloc(READ_CHUNK);
        Flusher *flusher = NULL;
        size_t head = 0;
        long n;
        int r = 0;

        if (!buf)
                return -ENOMEM;

        /* Enough bytes to tell the format. */
        while (head < COMPRESSION_MAGIC_MAX) {
                n = read_ring(a, buf + head, COMPRESSION_MAGIC_MAX - head);
                if (n < 0) {
                        r = (int) n;
                        goto finish;
                }
                if (n == 0)
                        break;
                head += (size_t) n;
        }
        a->compression = compression_detect(buf, head);
        /* Without it (no thread to be had) the final fsync just has more to do. */
        (void) flusher_start(a->fd, FLUSH_STEP, &flusher);
        if (a->compression == COMPRESSION_XZ) {
                XzDecodeOptions xo = {
                        .threads = a->o->threads ?: (unsigned) MAX(sysconf(_SC_NPROCESSORS_ONLN), 1L),
                        .prefix = buf,
                        .prefix_size = head,
                        .read = read_ring,
                        .userdata = a,
                        .flusher = flusher,
                };
                r = xz_decode_to_file(a->fd, &xo, &a->report->image_size);
                if (r == -E2BIG)
                        snprintf(a->unpack_error, sizeof a->unpack_error,
                                 "the xz data needs more than 1 GiB of memory per block to decode");
        } else
                r = unpack_stream(a, buf, head, flusher);

        if (r == -EBADMSG)
                snprintf(a->unpack_error, sizeof a->unpack_error, "the %s data is corrupt",
                         compression_to_string(a->compression));
        else if (r == -EPIPE)
                snprintf(a->unpack_error, sizeof a->unpack_error, "the %s stream is incomplete (truncated download?)",
                         compression_to_string(a->compression));
finish:
        (void) flusher_stop(flusher);
        free(buf);
        return r;
}

static int unpack_tar(Attempt *a) {
        char buf[4096];
        long n;
        int r;

        r = tar_unpack(a->tmp_path, read_ring, a, a->unpack_error, sizeof a->unpack_error);
        if (r < 0)
                return r;
        /* libarchive stops at the end-of-archive marker; the rest (padding) must still be consumed,
         * or the downloader would wait forever for room. */
        while ((n = read_ring(a, buf, sizeof buf)) > 0)
                ;
        return (int) n;
}

static void *unpack_thread(void *userdata) {
        Attempt *a = userdata;
        int r = a->o->type == IMAGE_TAR ? unpack_tar(a) : unpack_raw(a);

        a->unpack_result = r;
        /* Tell the downloader to stop if we cannot go on. */
        if (r < 0 && !a->ring_error) {
                a->unpack_failed = true;
                ring_buffer_abort(a->ring, r);
        }
        return NULL;
}

/* ---- the network side ---- */

static int check_free_space(Attempt *a, uint64_t needed) {
        _cleanup_free_ char *dir = NULL;
        struct statvfs sv;
        struct statfs sf;
        char need[32], have[32];
        uint64_t avail;

        if (path_extract_directory(a->final_path, &dir) < 0 || statvfs(dir, &sv) < 0)
                return 0; /* cannot tell: the writes will say */
        avail = (uint64_t) sv.f_bavail * sv.f_frsize;
        if (avail >= needed)
                return 0;
        if (statfs(dir, &sf) >= 0 && sf.f_type == TMPFS_MAGIC) {
                char more[32];
                /* In RAM: what is missing is memory (the initrd's /run is a share of it). */
                format_bytes(more, sizeof more, needed - avail);
                return fail(a, -ENOSPC,
                            "Not enough room in %s, which lives in RAM: the download alone is %s, only %s are free. "
                            "Give the machine at least %s more RAM, or raise rd.urlboot.run_size= (default 75%%).",
                            dir, format_bytes(need, sizeof need, needed), format_bytes(have, sizeof have, avail), more);
        }
        return fail(a, -ENOSPC,
                    "Not enough space in %s: the download alone is %s, only %s are free. Free some space, "
                    "give the machine more RAM (for /run), or choose another --image-root.",
                    dir, format_bytes(need, sizeof need, needed), format_bytes(have, sizeof have, avail));
}

static int on_headers(const HttpResponse *resp, void *userdata) {
        Attempt *a = userdata;
        const char *v = resp->etag ?: resp->last_modified;

        if (!a->seen_headers) {
                a->seen_headers = true;
                a->total = resp->total_size;
                if (v) {
                        a->validator = strdup(v);
                        if (!a->validator)
                                return -ENOMEM;
                }
                if (a->total > 0)
                        return check_free_space(a, (uint64_t) a->total);
                return 0;
        }

        /* A later answer must be for the same file, or what we already have is worthless. */
        if (a->validator && v && !streq(a->validator, v))
                return fail(a, -ESTALE, "%s changed during the download.", a->url);
        if (resp->partial) {
                if (a->report->n_resumes < PULL_RESUMES_MAX)
                        a->report->resumed_at[a->report->n_resumes] = a->received;
                a->report->n_resumes++;
        } else if (a->received > 0)
                log_info("The server ignored the byte range; reading %s again from the start.", a->url);
        return 0;
}

static int on_data(const void *data, size_t size, void *userdata) {
        Attempt *a = userdata;
        int r;

        r = sha256_update(a->hash, data, size);
        if (r < 0)
                return r;
        r = ring_buffer_write(a->ring, data, size);
        if (r < 0)
                return r;
        a->received += size;
        progress_update(a->progress, a->received, a->total);
        return 0;
}

/* Waits seconds, waking early on cancellation. */
static bool sleep_unless_cancelled(const PullOptions *o, unsigned seconds) {
        for (unsigned i = 0; i < seconds * 10; i++) {
                if (o->cancel && *o->cancel)
                        return false;
                nanosleep(&(struct timespec) { .tv_nsec = 100 * 1000 * 1000 }, NULL);
        }
        return !(o->cancel && *o->cancel);
}

static int download(Attempt *a) {
        const PullOptions *o = a->o;
        unsigned tries = 0;
        char why[512];

        for (;;) {
                HttpRequest req = {
                        .url = a->url,
                        .offset = a->received,
                        .if_range = a->validator,
                        .stall_timeout = o->stall_timeout,
                        .ca_file = o->ca_file,
                        .cancel = o->cancel,
                        .on_headers = on_headers,
                        .on_data = on_data,
                        .userdata = a,
                };
                HttpResponse resp;
                unsigned delay;
                int r;

                r = http_fetch(&req, &resp, why, sizeof why);
                delay = resp.retry_after;
                http_response_done(&resp);

                if (r == 0)
                        return 0;
                if (a->error[0])
                        return r; /* a callback said why */
                if (r == -EINTR)
                        return fail(a, r, "Interrupted.");
                if (r == -ENOENT)
                        return fail(a, r, "%s does not exist on the server (%s). Check the URL.", a->url, why);
                if (r == -EACCES)
                        return fail(a, r, "The server refused access to %s (%s).", a->url, why);
                if (r != -EAGAIN)
                        return fail(a, r, "Failed to download %s: %s.", a->url, why);
                if (tries >= o->retries)
                        return fail(a, r, "Failed to download %s after %u attempts: %s. Check the network and the server.",
                                    a->url, tries + 1, why);

                /* Exponential backoff, or what the server asked for. */
                if (delay == 0)
                        delay = MIN(1u << MIN(tries, 5u), (unsigned) BACKOFF_MAX_SEC);
                tries++;
                a->report->retries++;
                progress_clear(a->progress);
                log_warning("Download of %s interrupted (%s); retrying in %u s%s.", a->url, why, delay,
                            a->received > 0 ? ", resuming" : "");
                if (!sleep_unless_cancelled(o, delay))
                        return fail(a, -EINTR, "Interrupted.");
        }
}

/* ---- verification data ---- */

typedef struct Buffer {
        char *data;
        size_t size;
} Buffer;

static int buffer_append(const void *data, size_t size, void *userdata) {
        Buffer *b = userdata;
        char *n;

        if (b->size + size > 1024 * 1024)
                return -EFBIG;
        n = realloc(b->data, b->size + size + 1);
        if (!n)
                return -ENOMEM;
        memcpy(n + b->size, data, size);
        b->data = n;
        b->size += size;
        b->data[b->size] = 0;
        return 0;
}

/* Fetches a small file beside the image, with the same retry rules. */
static int fetch_beside(Attempt *a, const char *name, Buffer *ret) {
        _cleanup_free_ char *url = NULL;
        char why[512];
        int r;

        r = url_change_last_component(a->url, name, &url);
        if (r < 0)
                return r;
        for (unsigned tries = 0;; tries++) {
                HttpRequest req = { .url = url, .stall_timeout = a->o->stall_timeout, .ca_file = a->o->ca_file,
                                    .cancel = a->o->cancel, .on_data = buffer_append, .userdata = ret };
                HttpResponse resp;

                free(ret->data);
                *ret = (Buffer) {};
                r = http_fetch(&req, &resp, why, sizeof why);
                http_response_done(&resp);
                if (r != -EAGAIN || tries >= a->o->retries)
                        break;
                if (!sleep_unless_cancelled(a->o, MIN(1u << tries, (unsigned) BACKOFF_MAX_SEC)))
                        return -EINTR;
        }
        if (r < 0 && r != -ENOENT)
                log_debug("Fetching %s failed: %s", url, why);
        return r;
}

static int load_expected_digest(Attempt *a) {
        _cleanup_free_ char *file = NULL;
        Buffer sums = {}, sig = {};
        const char *sums_name = "SHA256SUMS";
        int r;

        if (a->o->sha256) {
                snprintf(a->expected, sizeof a->expected, "%s", a->o->sha256);
                return 0;
        }
        if (a->o->verify == IMPORT_VERIFY_NO)
                return 0;

        r = url_last_component(a->url, &file);
        if (r < 0)
                return fail(a, r, "Cannot tell the file name of %s for its checksum.", a->url);

        r = fetch_beside(a, "SHA256SUMS", &sums);
        if (r == -ENOENT) {
                _cleanup_free_ char *alt = NULL;
                if (asprintf(&alt, "%s.sha256", file) < 0)
                        return -ENOMEM;
                sums_name = "FILE.sha256";
                r = fetch_beside(a, alt, &sums);
                /* FILE.sha256 may hold just the digest. */
                if (r >= 0 && sums.size >= 64 && sha256_hex_is_valid(strndupa(sums.data, 64)) &&
                    (sums.size == 64 || sums.data[64] == '\n' || sums.data[64] == ' ')) {
                        memcpy(a->expected, sums.data, 64);
                        a->expected[64] = 0;
                        for (int i = 0; i < 64; i++)
                                if (a->expected[i] >= 'A' && a->expected[i] <= 'F')
                                        a->expected[i] += 'a' - 'A';
                        goto check_signature;
                }
        }
        if (r < 0) {
                free(sums.data);
                return fail(a, r, "Cannot fetch SHA256SUMS or %s.sha256 beside %s (%s). Publish one, pin the digest "
                            "with sha256=, or use verify=no.", file, a->url, strerror(-r));
        }
        r = checksums_find(sums.data, sums.size, file, a->expected);
        if (r < 0) {
                free(sums.data);
                return fail(a, -EBADMSG, "%s beside %s does not list '%s'.", sums_name, a->url, file);
        }

check_signature:
        if (a->o->verify == IMPORT_VERIFY_SIGNATURE) {
                const char *sig_name = streq(sums_name, "SHA256SUMS") ? "SHA256SUMS.gpg" : NULL;
                _cleanup_free_ char *alt = NULL;

                if (!sig_name) {
                        if (asprintf(&alt, "%s.sha256.gpg", file) < 0) {
                                free(sums.data);
                                return -ENOMEM;
                        }
                        sig_name = alt;
                }
                r = fetch_beside(a, sig_name, &sig);
                if (r == -ENOENT && streq(sig_name, "SHA256SUMS.gpg"))
                        r = fetch_beside(a, sig_name = "SHA256SUMS.asc", &sig);
                if (r < 0) {
                        free(sums.data);
                        return fail(a, r, "Cannot fetch the signature %s beside %s (%s). Use verify=checksum to "
                                    "skip signatures.", sig_name, a->url, strerror(-r));
                }
                r = verify_signature(sums.data, sums.size, sig.data, sig.size, a->o->keyring, a->error, a->error_size);
                free(sig.data);
                if (r < 0) {
                        free(sums.data);
                        return r;
                }
        }
        free(sums.data);
        return 0;
}

/* ---- placing the result ---- */

static int place_result(Attempt *a) {
        unsigned flags = a->o->force ? 0 : RENAME_NOREPLACE;
        struct stat st;

        if (a->o->type == IMAGE_RAW) {
                if (fchmod(a->fd, a->o->read_only ? 0444 : 0644) < 0 || fsync(a->fd) < 0)
                        return fail(a, -errno, "Failed to write %s: %s.", a->tmp_path, strerror(errno));
                if (renameat2(AT_FDCWD, a->tmp_path, AT_FDCWD, a->final_path, flags) < 0)
                        return fail(a, -errno, "Failed to move the image to %s: %s%s.", a->final_path, strerror(errno),
                                    errno == EEXIST ? " (use --force to replace it)" : "");
        } else {
                if (a->o->read_only && chmod(a->tmp_path, 0555) < 0)
                        return fail(a, -errno, "Failed to make %s read-only: %s.", a->tmp_path, strerror(errno));
                if (a->o->force && lstat(a->final_path, &st) >= 0) {
                        /* Swap atomically, then remove the old tree, which now has the temporary name. */
                        if (renameat2(AT_FDCWD, a->tmp_path, AT_FDCWD, a->final_path, RENAME_EXCHANGE) < 0)
                                return fail(a, -errno, "Failed to replace %s: %s.", a->final_path, strerror(errno));
                        (void) rm_rf(a->tmp_path);
                } else if (renameat2(AT_FDCWD, a->tmp_path, AT_FDCWD, a->final_path, RENAME_NOREPLACE) < 0)
                        return fail(a, -errno, "Failed to move the tree to %s: %s%s.", a->final_path, strerror(errno),
                                    errno == EEXIST ? " (use --force to replace it)" : "");
        }
        a->tmp_path = mfree(a->tmp_path);
        (void) fsync_directory_of(a->final_path);
        return 0;
}

static int make_temporary(Attempt *a) {
        if (a->o->type == IMAGE_RAW) {
                a->fd = open_tmpfile_beside(a->final_path, &a->tmp_path);
                if (a->fd < 0)
                        return fail(a, a->fd, "Failed to create a file in %s: %s.", a->o->image_root, strerror(-a->fd));
                return 0;
        }
        if (asprintf(&a->tmp_path, "%s/.#%s.XXXXXX", a->o->image_root, a->o->name) < 0)
                return -ENOMEM;
        if (!mkdtemp(a->tmp_path)) {
                int r = -errno;
                a->tmp_path = mfree(a->tmp_path);
                return fail(a, r, "Failed to create a directory in %s: %s.", a->o->image_root, strerror(-r));
        }
        return 0;
}

static void cleanup_attempt(Attempt *a) {
        if (a->thread_running) {
                ring_buffer_close(a->ring, -ECANCELED);
                pthread_join(a->thread, NULL);
                a->thread_running = false;
        }
        if (a->tmp_path) {
                if (a->o->type == IMAGE_RAW)
                        (void) unlink(a->tmp_path);
                else
                        (void) rm_rf(a->tmp_path);
                a->tmp_path = mfree(a->tmp_path);
        }
        if (a->fd >= 0)
                close(a->fd);
        a->fd = -1;
        sha256_free(a->hash);
        ring_buffer_free(a->ring);
        progress_free(a->progress);
        free(a->validator);
        free(a->final_path);
}

static const char *describe_unpack_error(Attempt *a, int r) {
        if (a->unpack_error[0])
                return a->unpack_error;
        return strerror(-r);
}

static int run_attempt(Attempt *a) {
        char digest[65];
        int r;

        r = load_expected_digest(a);
        if (r < 0)
                return r;
        r = make_temporary(a);
        if (r < 0)
                return r;
        r = sha256_new(&a->hash);
        if (r >= 0)
                r = ring_buffer_new(RING_CAPACITY, &a->ring);
        if (r < 0)
                return fail(a, r, "Out of memory.");

        if (pthread_create(&a->thread, NULL, unpack_thread, a) != 0)
                return fail(a, -EAGAIN, "Cannot start the unpacking thread.");
        a->thread_running = true;

        r = download(a);
        ring_buffer_close(a->ring, r < 0 ? r : 0);
        pthread_join(a->thread, NULL);
        a->thread_running = false;
        progress_clear(a->progress);

        /* The unpacker's error is the cause when it stopped the download. */
        if (a->unpack_failed) {
                a->error[0] = 0;
                r = a->unpack_result;
                if (r == -ENOSPC)
                        return fail(a, r, "No space left in %s while unpacking %s. Free space (or RAM, for /run) or "
                                    "choose another --image-root.", a->o->image_root, a->url);
                return fail(a, r, "Failed to unpack %s: %s.", a->url, describe_unpack_error(a, r));
        }
        if (r < 0)
                return r;
        if (a->unpack_result < 0)
                return fail(a, a->unpack_result, "Failed to unpack %s: %s.", a->url,
                            describe_unpack_error(a, a->unpack_result));

        a->report->size = a->received;
        r = sha256_final_hex(a->hash, digest);
        if (r < 0)
                return fail(a, r, "Cannot compute the digest.");
        memcpy(a->report->sha256, digest, sizeof digest);
        a->report->compression = compression_to_string(a->compression);

        if (a->expected[0] && !streq(a->expected, digest))
                return fail(a, -EBADMSG, "%s has SHA-256 %s, but %s was expected. The image was not installed.",
                            a->url, digest, a->expected);

        return place_result(a);
}

void pull_report_done(PullReport *r) {
        free(r->url);
        free(r->path);
        *r = (PullReport) {};
}

static double now_seconds(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

int pull_run(const PullOptions *o, PullReport *report, char *error, size_t error_size) {
        _cleanup_free_ char *final_path = NULL;
        const char *urls[1 + 32];
        size_t n_urls = 0;
        double start = now_seconds();
        struct stat st;
        int r = -EINVAL;

        *report = (PullReport) {};
        error[0] = 0;

        if (asprintf(&final_path, "%s/%s%s", o->image_root, o->name, o->type == IMAGE_RAW ? ".raw" : "") < 0)
                return -ENOMEM;
        if (!o->force && lstat(final_path, &st) >= 0) {
                snprintf(error, error_size, "%s exists already. Use --force to replace it.", final_path);
                return -EEXIST;
        }

        urls[n_urls++] = o->url;
        STRV_FOREACH(m, o->mirrors)
                if (n_urls < ELEMENTSOF(urls))
                        urls[n_urls++] = *m;

        for (size_t i = 0, stale = 0; i < n_urls; i++) {
                Attempt a = {
                        .o = o,
                        .report = report,
                        .url = urls[i],
                        .fd = -1,
                        .total = -1,
                        .error = error,
                        .error_size = error_size,
                };

                a.final_path = strdup(final_path);
                a.progress = progress_new(o->progress, o->name);
                if (!a.final_path || !a.progress) {
                        cleanup_attempt(&a);
                        return -ENOMEM;
                }
                if (i > 0) {
                        report->restarts++;
                        log_warning("Trying mirror %s.", urls[i]);
                }
                error[0] = 0;
                r = run_attempt(&a);
                report->received += a.received;
                cleanup_attempt(&a);
                if (r >= 0) {
                        report->url = strdup(urls[i]);
                        report->path = TAKE_PTR(final_path);
                        report->seconds = now_seconds() - start;
                        return 0;
                }
                /* The file changed under us: what we have is useless, begin again (once). */
                if (r == -ESTALE && stale++ == 0) {
                        log_warning("%s Starting again.", error);
                        i--;
                        continue;
                }
                /* Only a problem of this URL is worth a mirror; a full disk or a bad signature is not. */
                if (r == -EINTR || r == -ENOSPC || r == -EEXIST || (o->cancel && *o->cancel))
                        break;
                if (i + 1 < n_urls)
                        log_warning("%s", error);
        }
        return r;
}
