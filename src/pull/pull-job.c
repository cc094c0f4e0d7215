/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One image download: attempts against each URL in turn, each fetching (with retries and resume)
 * into an unpacking thread, then verifying and placing (pull-unpack.c, pull-verify.c, pull-place.c).
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "digest.h"
#include "http-source.h"
#include "log.h"
#include "macro.h"
#include "memory-fundamental.h"
#include "progress.h"
#include "pull-attempt.h"
#include "error-buf.h"
#include "pull-job.h"
#include "pull-keep.h"
#include "pull-place.h"
#include "pull-unpack.h"
#include "pull-verify.h"
#include "retry-policy.h"
#include "ring-buffer.h"
#include "string-util.h"

#define RING_CAPACITY (256 * 1024)

/* ---- the network side ---- */

/* The first answer of a mirror taking over mid-file: its own validator, but the same size. */
static int on_new_server_headers(Attempt *a, const HttpResponse *resp, const char *validator) {
        a->new_server = false;
        free(a->validator);
        a->validator = validator ? strdup(validator) : NULL;
        if (validator && !a->validator)
                return -ENOMEM;
        if (a->total >= 0 && resp->total_size >= 0 && resp->total_size != a->total)
                return attempt_fail(a, -ESTALE, "The mirror %s serves %lld bytes, not %lld as the first server did.",
                                    a->url, (long long) resp->total_size, (long long) a->total);
        if (resp->partial) {
                if (a->report->n_resumes < PULL_RESUMES_MAX)
                        a->report->resumed_at[a->report->n_resumes] = a->received;
                a->report->n_resumes++;
        }
        return 0;
}

static int on_headers(const HttpResponse *resp, void *userdata) {
        Attempt *a = userdata;
        const char *v = resp->etag ?: resp->last_modified;

        if (a->new_server)
                return on_new_server_headers(a, resp, v);
        if (!a->seen_headers) {
                a->seen_headers = true;
                a->total = resp->total_size;
                if (v) {
                        a->validator = strdup(v);
                        if (!a->validator)
                                return -ENOMEM;
                }
                if (a->total > 0)
                        return pull_check_free_space(a, (uint64_t) a->total);
                return 0;
        }

        /* A later answer must be for the same file, or what we already have is worthless. */
        if (a->validator && v && !streq(a->validator, v))
                return attempt_fail(a, -ESTALE, "%s changed during the download.", a->url);
        if (a->total >= 0 && resp->total_size >= 0 && resp->total_size != a->total)
                return attempt_fail(a, -ESTALE, "%s is now %lld bytes long, not %lld as at first.", a->url,
                                    (long long) resp->total_size, (long long) a->total);
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

        /* Bytes beyond the announced size are not part of the file, whatever they are. */
        if (a->total >= 0 && a->received + size > (uint64_t) a->total)
                return attempt_fail(a, -EPROTO, "%s sent more than the %lld bytes it announced.", a->url,
                                    (long long) a->total);

        r = sha256_update(a->hash, data, size);
        if (r >= 0)
                r = pull_keep_write(a, data, size, a->received);
        if (r < 0)
                return r;
        r = ring_buffer_write(a->ring, data, size);
        if (r < 0)
                return r;
        a->received += size;
        progress_update(a->progress, a->received, a->total);
        return 0;
}

static int download_from_current(Attempt *a) {
        const PullOptions *o = a->o;
        RetryPolicy policy = { .max_retries = o->retries, .max_wait_total = o->retry_wait_total };
        char why[512];

        for (;;) {
                HttpRequest req = {
                        .url = a->url,
                        .offset = a->received,
                        .if_range = a->validator,
                        .limits = o->limits,
                        .ca_file = o->ca_file,
                        .allow_downgrade = o->allow_downgrade,
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

                /* A body that ends early (a partial answer covering less than the rest): go on from there. */
                if (r == 0 && a->total >= 0 && a->received < (uint64_t) a->total) {
                        snprintf(why, sizeof why, "the answer ended after %llu of %lld bytes",
                                 (unsigned long long) a->received, (long long) a->total);
                        r = -EAGAIN;
                }
                if (r == 0)
                        return 0;
                if (a->error[0])
                        return r; /* a callback said why */
                if (r == -EINTR)
                        return attempt_fail(a, r, "Interrupted.");
                if (r == -ENOENT)
                        return attempt_fail(a, r, "%s does not exist on the server (%s). Check the URL.", a->url, why);
                if (r == -EACCES)
                        return attempt_fail(a, r, "The server refused access to %s (%s).", a->url, why);
                if (r != -EAGAIN)
                        return attempt_fail(a, r, "Failed to download %s: %s.", a->url, why);
                if (!retry_policy_next(&policy, delay, &delay))
                        return attempt_fail(a, r, "Failed to download %s after %u attempts (%u s of waiting between "
                                            "them): %s. Check the network and the server.",
                                            a->url, policy.retries + 1, policy.waited, why);
                a->report->retries++;
                progress_clear(a->progress);
                log_warning("Download of %s interrupted (%s); retrying in %u s%s.", a->url, why, delay,
                            a->received > 0 ? ", resuming" : "");
                if (!attempt_sleep(o, delay))
                        return attempt_fail(a, -EINTR, "Interrupted.");
        }
}

/* The URL for attempt i: the image's, then each mirror's. */
static const char *url_of(const PullOptions *o, size_t i) {
        return i == 0 ? o->url : o->mirrors[i - 1];
}

/* Whether a URL that failed for good mid-file can hand over to the next mirror at the same byte:
 * only when the digest is known (pinned or listed), which catches a mirror serving something else. */
static bool can_continue_on_mirror(const Attempt *a, int r) {
        return r != -EINTR && r != -ENOSPC && r != -ESTALE && !(a->o->cancel && *a->o->cancel) && a->received > 0 &&
               a->expected[0] && a->url_index < strv_length(a->o->mirrors);
}

static int download(Attempt *a) {
        for (;;) {
                int r = download_from_current(a);

                if (r >= 0 || !can_continue_on_mirror(a, r))
                        return r;
                a->url = url_of(a->o, ++a->url_index);
                a->new_server = true;
                log_warning("%s Continuing at byte %llu from mirror %s.", a->error, (unsigned long long) a->received,
                            a->url);
                a->error[0] = 0;
        }
}

static void cleanup_attempt(Attempt *a) {
        if (a->thread_running) {
                ring_buffer_close(a->ring, -ECANCELED);
                pthread_join(a->thread, NULL);
                a->thread_running = false;
        }
        pull_remove_temporary(a);
        pull_keep_abandon(a);
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

        r = pull_load_expected_digest(a);
        if (r < 0)
                return r;
        r = pull_make_temporary(a);
        if (r >= 0)
                r = pull_keep_open(a);
        if (r < 0)
                return r;
        r = sha256_new(&a->hash);
        if (r >= 0)
                r = ring_buffer_new(RING_CAPACITY, &a->ring);
        if (r < 0)
                return attempt_fail(a, r, "Out of memory.");

        if (pthread_create(&a->thread, NULL, pull_unpack_thread, a) != 0)
                return attempt_fail(a, -EAGAIN, "Cannot start the unpacking thread.");
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
                        return attempt_fail(a, r, "No space left in %s while unpacking %s. Free space (or RAM, for /run) or "
                                    "choose another --image-root.", a->o->image_root, a->url);
                return attempt_fail(a, r, "Failed to unpack %s: %s.", a->url, describe_unpack_error(a, r));
        }
        if (r < 0)
                return r;
        if (a->unpack_result < 0)
                return attempt_fail(a, a->unpack_result, "Failed to unpack %s: %s.", a->url,
                            describe_unpack_error(a, a->unpack_result));

        a->report->size = a->received;
        r = sha256_final_hex(a->hash, digest);
        if (r < 0)
                return attempt_fail(a, r, "Cannot compute the digest.");
        memcpy(a->report->sha256, digest, sizeof digest);
        a->report->compression = compression_to_string(a->compression);

        if (a->expected[0] && !streq(a->expected, digest))
                return attempt_fail(a, -EBADMSG, "%s has SHA-256 %s, but %s was expected. The image was not installed.",
                            a->url, digest, a->expected);

        r = pull_place_result(a);
        return r < 0 ? r : pull_keep_place(a);
}

void pull_report_done(PullReport *r) {
        assert(r);

        free(r->url);
        free(r->path);
        *r = (PullReport) {};
}

static double now_seconds(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static int run_attempts(const PullOptions *o, int root_fd, const char *final_name, const char *final_path,
                        PullReport *report, char *error, size_t error_size) {
        size_t n_urls = 1 + strv_length(o->mirrors);
        int r = -EINVAL;

        for (size_t i = 0, stale = 0; i < n_urls; i++) {
                Attempt a = {
                        .o = o,
                        .report = report,
                        .url = url_of(o, i),
                        .url_index = i,
                        .root_fd = root_fd,
                        .final_name = final_name,
                        .fd = -1,
                        .keep_fd = -1,
                        .total = -1,
                        .error = error,
                        .error_size = error_size,
                };

                a.final_path = strdup(final_path);
                a.progress = progress_new(o->progress, "Downloading", o->name);
                if (!a.final_path || !a.progress) {
                        cleanup_attempt(&a);
                        return -ENOMEM;
                }
                if (i > 0) {
                        report->restarts++;
                        log_warning("Trying mirror %s.", a.url);
                }
                error[0] = 0;
                r = run_attempt(&a);
                report->received += a.received;
                /* The attempt may have moved on to later mirrors itself. */
                i = a.url_index;
                cleanup_attempt(&a);
                if (r >= 0) {
                        report->url = strdup(url_of(o, i));
                        return report->url ? 0 : -ENOMEM;
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

int pull_run(const PullOptions *o, PullReport *report, char *error, size_t error_size) {
        _cleanup_free_ char *final_name = NULL, *final_path = NULL;
        _cleanup_close_ int root_fd = -1;
        double start = now_seconds();
        struct stat st;
        int r;

        assert(o);
        assert(o->url);
        assert(o->name);
        assert(o->image_root);
        assert(report);
        assert(error && error_size > 0);

        *report = (PullReport) {};
        error[0] = 0;

        if (asprintf(&final_name, "%s%s", o->name, o->type == IMAGE_RAW ? ".raw" : "") < 0 ||
            asprintf(&final_path, "%s/%s", o->image_root, final_name) < 0)
                return -ENOMEM;
        root_fd = open(o->image_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (root_fd < 0)
                return error_setf(error, error_size, -errno, "Cannot open the image root %s: %m.", o->image_root);
        if (!o->force && fstatat(root_fd, final_name, &st, AT_SYMLINK_NOFOLLOW) >= 0)
                return error_setf(error, error_size, -EEXIST, "%s exists already. Use --force to replace it.",
                                  final_path);
        (void) pull_remove_stale_temporaries(root_fd, final_name);

        r = run_attempts(o, root_fd, final_name, final_path, report, error, error_size);
        if (r < 0)
                return r;
        report->path = TAKE_PTR(final_path);
        report->seconds = now_seconds() - start;
        return 0;
}
