/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * nbdkit-urlboot-http-plugin.so: a remote disk image over HTTP range requests, for nbdkit.
 *
 * nbdkit serves the NBD protocol; this plugin reads the bytes. nbdkit's own curl plugin (1.32, and its
 * source to this day) asks for one byte more than it reads ("Range: bytes=OFF-(OFF+COUNT)", an inclusive end
 * one past the block), so the last block of an image reaches one byte past its end, which a server that does
 * not clamp ranges answers with a length it never sends (a 60 s stall per block), and it takes whatever a
 * 206 answer says. This plugin asks for exactly the block and takes only the answer that covers exactly it:
 * status 206, Content-Range "bytes OFF-(OFF+COUNT-1)/SIZE" with the image's size, COUNT bytes. Requests run
 * in parallel, each on a libcurl handle of a pool (keep-alive), so the boot's reads on one NBD connection
 * never wait behind the background copy's on another.
 *
 * A connection asking for the export "background" (urlboot-lazy's copy) is served at SCHED_IDLE: it takes
 * the CPU only when the boot leaves some.
 *
 * A failed request is tried again (retries=, retry-delay=): a server away for a while only delays reads.
 * This is what nbdkit's retry filter did, but here it covers the network alone: a multi-block .xz or a
 * seekable .zst (told by its first bytes, with format=auto, whatever its name: a peer serves its
 * decompressed copy under the compressed name) is served decompressed, a block at a time
 * (compressed-image.h), and a block that does not decode fails its read at once rather than after every
 * retry (and does not abort nbdkit, as its xz filter does).
 *
 * With readahead=URL (urlboot-lazy gives IMAGE-URL.readahead), a list of the blocks an earlier boot read
 * (boot-reads.h) is fetched at the start and those blocks, a few at a time, into the compressed blocks
 * kept, before the boot asks for them; a list that is not there costs one 404. With record=FILE, the
 * blocks this boot reads are written there, each once, in the order first read: that file, served as
 * IMAGE.readahead, is the next boots' list.
 *
 *   nbdkit /usr/lib/urlboot/nbdkit-urlboot-http-plugin.so url=URL [format=auto|raw|xz|zstd] [cainfo=PEM]
 *          [protocols=http,https|https] [timeout=SECONDS] [retries=N] [retry-delay=SECONDS]
 *          [readahead=URL] [record=FILE]
 */
#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "block-cache.h"
#include "boot-reads.h"
#include "error-buf.h"
#include "http-headers.h"
#include "macro.h"
#include "compressed-image.h"

#define THREAD_MODEL NBDKIT_THREAD_MODEL_PARALLEL
#define POOL_MAX 16
#define REDIRECTS_MAX 5
#define DECODED_BYTES (32ULL << 20)     /* decoded blocks kept, at most (the last one always) */
#define COMPRESSED_BYTES (64ULL << 20)  /* compressed ones: a block the boot read is not fetched again for the copy */
#define RETRY_LOG_EVERY 60              /* of a request's failed tries, the first and every 60th are logged */
#define PREFETCH_THREADS 4              /* requests of the read-ahead list in flight */
#define PREFETCH_BYTES (48ULL << 20)    /* compressed bytes fetched ahead at most, within COMPRESSED_BYTES */

static char *url, *cainfo, *protocols, *readahead_url, *record_path;
static long timeout = 60;
static uint32_t retries, retry_delay = 1;
static int format_config = IMAGE_FORMAT_AUTO;  /* format=: auto tells it by the file's first bytes */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static CURL *pool[POOL_MAX];
static size_t pool_n;
static int64_t file_size = -1;  /* the file's size, once known */
static CompressedImage image;   /* its format and where its blocks are, once the file's size is known */
static BlockCache decoded = { .budget = DECODED_BYTES };         /* by the image's offsets */
static BlockCache compressed = { .budget = COMPRESSED_BYTES };   /* by the file's offsets */
static int record_fd = -1;
static BootReads recorded;                      /* the blocks this boot read (record=) */

/* What one request answered. */
typedef struct Answer {
        char *buf;                      /* where the body goes; NULL: nowhere */
        size_t want, got;
        bool overflow;                  /* more body than asked for */
        uint64_t first, last;
        int64_t total;
        bool have_range;
} Answer;

static void readahead_end(void);

static void http_plugin_unload(void) {
        readahead_end();
        block_cache_done(&decoded);
        block_cache_done(&compressed);
        compressed_image_done(&image);
        for (size_t i = 0; i < pool_n; i++)
                curl_easy_cleanup(pool[i]);
        pool_n = 0;
        free(url);
        free(cainfo);
        free(protocols);
        curl_global_cleanup();
}

static int http_plugin_config(const char *key, const char *value) {
        char **slot = strcmp(key, "url") == 0       ? &url :
                      strcmp(key, "cainfo") == 0    ? &cainfo :
                      strcmp(key, "protocols") == 0 ? &protocols :
                      strcmp(key, "readahead") == 0 ? &readahead_url :
                      strcmp(key, "record") == 0    ? &record_path : NULL;

        if (strcmp(key, "timeout") == 0) {
                uint32_t t;

                if (nbdkit_parse_uint32_t("timeout", value, &t) < 0 || t == 0)
                        return -1;
                timeout = t;
                return 0;
        }
        if (strcmp(key, "retries") == 0)
                return nbdkit_parse_uint32_t("retries", value, &retries);
        if (strcmp(key, "retry-delay") == 0)
                return nbdkit_parse_uint32_t("retry-delay", value, &retry_delay);
        if (strcmp(key, "format") == 0) {
                format_config = image_format_from_string(value);
                if (format_config == -EINVAL) {
                        nbdkit_error("format=%s: use auto, raw, xz or zstd", value);
                        return -1;
                }
                return 0;
        }
        if (!slot) {
                nbdkit_error("unknown parameter '%s'", key);
                return -1;
        }
        free(*slot);
        *slot = strdup(value);
        return *slot ? 0 : -1;
}

static int http_plugin_config_complete(void) {
        if (!url) {
                nbdkit_error("the url parameter is required");
                return -1;
        }
        if (!protocols)
                protocols = strdup(strncmp(url, "https://", 8) == 0 ? "https" : "http,https");
        if (!protocols || curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
                nbdkit_error("cannot set up libcurl");
                return -1;
        }
        /* a list that cannot be written costs the next boots their read-ahead, not this one its disk */
        if (record_path) {
                record_fd = open(record_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
                if (record_fd < 0)
                        nbdkit_error("record=%s: %m; the blocks this boot reads are not recorded", record_path);
        }
        return 0;
}

static size_t on_header(char *line, size_t one, size_t n, void *userdata) {
        Answer *a = userdata;
        char *value = http_header_value(line, one * n, "Content-Range");

        /* every answer's headers come through here, redirects' too: the last one counts */
        if (value) {
                a->have_range = http_content_range_parse(value, &a->first, &a->last, &a->total) == 0;
                free(value);
        }
        return one * n;
}

static size_t on_body(char *data, size_t one, size_t n, void *userdata) {
        Answer *a = userdata;
        size_t len = one * n;

        if (len > a->want - a->got) {
                a->overflow = true;
                return 0;       /* more than asked for: stop */
        }
        if (a->buf)
                memcpy(a->buf + a->got, data, len);
        a->got += len;
        return len;
}

/* A handle for u with the settings every request shares. */
static CURL *handle_new(const char *u) {
        CURL *c = curl_easy_init();

        if (!c)
                return NULL;
        curl_easy_setopt(c, CURLOPT_URL, u);
        curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, protocols);
        /* redirects only within the URL's protocols: never https to http (security review F7) */
        curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, protocols);
        curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
        curl_easy_setopt(c, CURLOPT_MAXREDIRS, (long) REDIRECTS_MAX);
        curl_easy_setopt(c, CURLOPT_TIMEOUT, timeout);
        curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(c, CURLOPT_USERAGENT, "urlboot-lazy/" URLBOOT_VERSION);
        curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
        if (cainfo) {
                /* the pinned CA alone, not the system's store beside it */
                curl_easy_setopt(c, CURLOPT_CAINFO, cainfo);
                curl_easy_setopt(c, CURLOPT_CAPATH, NULL);
        }
        return c;
}

/* A handle for the image from the pool, or a new one. */
static CURL *handle_get(void) {
        CURL *c = NULL;

        pthread_mutex_lock(&lock);
        if (pool_n > 0)
                c = pool[--pool_n];
        pthread_mutex_unlock(&lock);
        return c ?: handle_new(url);
}

static void handle_put(CURL *c) {
        pthread_mutex_lock(&lock);
        if (pool_n < POOL_MAX) {
                pool[pool_n++] = c;
                c = NULL;
        }
        pthread_mutex_unlock(&lock);
        if (c)
                curl_easy_cleanup(c);
}

/* GET bytes [offset, offset + count) into buf (NULL: count bytes, thrown away), checked: 206 with a
 * Content-Range. @ret 0, or -1 with the reason in error */
static int get_range(void *buf, uint32_t count, uint64_t offset, Answer *ret, char *error, size_t error_size) {
        char range[64];
        long code = 0;
        CURLcode r;
        CURL *c = handle_get();

        if (!c) {
                error_setf(error, error_size, -ENOMEM, "cannot make a libcurl handle");
                return -1;
        }
        *ret = (Answer) { .buf = buf, .want = count };
        /* inclusive end: exactly the block, never a byte past it */
        snprintf(range, sizeof range, "%" PRIu64 "-%" PRIu64, offset, offset + count - 1);
        curl_easy_setopt(c, CURLOPT_RANGE, range);
        curl_easy_setopt(c, CURLOPT_HEADERDATA, ret);
        curl_easy_setopt(c, CURLOPT_WRITEDATA, ret);
        r = curl_easy_perform(c);
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
        handle_put(c);
        if (r != CURLE_OK && !ret->overflow) {
                error_setf(error, error_size, -EIO, "%s: bytes %s: %s", url, range, curl_easy_strerror(r));
                return -1;
        }
        if (code != 206 || !ret->have_range) {
                error_setf(error, error_size, -EIO, "%s: bytes %s: the server answered %ld%s, not the range asked for "
                           "(206 with Content-Range)", url, range, code,
                           code == 200 ? " (the whole file: no range requests)" : "");
                return -1;
        }
        return 0;
}

/* Exactly the file's bytes [offset, offset + count), once. @ret 0, -1 with the reason in error */
static int fetch_once(void *buf, uint32_t count, uint64_t offset, int64_t total, char *error, size_t error_size) {
        Answer a;

        if (get_range(buf, count, offset, &a, error, error_size) < 0)
                return -1;
        if (total >= 0 && (a.overflow || a.got != count || a.first != offset || a.last != offset + count - 1 ||
                           a.total != total)) {
                error_setf(error, error_size, -EIO, "%s: asked for bytes %" PRIu64 "-%" PRIu64 " of %" PRIi64
                           ", the server answered bytes %" PRIu64 "-%" PRIu64 " of %" PRIi64 " with %s%zu bytes", url,
                           offset, offset + count - 1, total, a.first, a.last, a.total, a.overflow ? "more than " : "",
                           a.got);
                return -1;
        }
        return 0;
}

/* fetch_once() until it works or the retries are spent (the server may be away for a while); total is the
 * file's size every answer must name. */
static int fetch_from(void *buf, uint32_t count, uint64_t offset, int64_t total) {
        for (uint32_t attempt = 0;; attempt++) {
                char error[ERROR_BUF_MIN * 2];

                if (fetch_once(buf, count, offset, total, error, sizeof error) == 0) {
                        if (attempt > 0)
                                nbdkit_debug("bytes %" PRIu64 "-%" PRIu64 " arrived at try %" PRIu32, offset,
                                             offset + count - 1, attempt + 1);
                        return 0;
                }
                if (attempt >= retries) {
                        nbdkit_error("%s%s", error, retries > 0 ? " (no more tries)" : "");
                        errno = EIO;
                        return -1;
                }
                if (attempt % RETRY_LOG_EVERY == 0)
                        nbdkit_error("%s; trying again every %" PRIu32 " s (%" PRIu32 " tries left)", error,
                                     retry_delay, retries - attempt);
                nanosleep(&(struct timespec) { .tv_sec = retry_delay }, NULL);
        }
}

static int fetch(void *buf, uint32_t count, uint64_t offset) {
        int64_t total;

        pthread_mutex_lock(&lock);
        total = file_size;
        pthread_mutex_unlock(&lock);
        return fetch_from(buf, count, offset, total);
}

/* The file's size: the total of a 206 for its first bytes (which also shows that ranges work), and
 * the format their magic says. */
static int probe_file(int64_t *ret, ImageFormat *ret_format) {

        for (uint32_t attempt = 0;; attempt++) {
                char error[ERROR_BUF_MIN * 2];
                uint8_t head[IMAGE_FORMAT_HEAD_SIZE];
                Answer a;

                if (get_range(head, sizeof head, 0, &a, error, sizeof error) == 0) {
                        /* a file shorter than the magic is answered with all it has */
                        if (a.first != 0 || a.total < 1 || a.got != (size_t) MIN(a.total, (int64_t) sizeof head) ||
                            a.last != a.got - 1) {
                                nbdkit_error("%s: the first byte's answer claims bytes %" PRIu64 "-%" PRIu64 " of %"
                                             PRIi64 " with %zu bytes: not a usable range answer", url, a.first, a.last,
                                             a.total, a.got);
                                errno = EIO;
                                return -1;
                        }
                        *ret = a.total;
                        *ret_format = image_format_of(head, a.got);
                        return 0;
                }
                if (attempt >= retries) {
                        nbdkit_error("%s", error);
                        errno = EIO;
                        return -1;
                }
                if (attempt % RETRY_LOG_EVERY == 0)
                        nbdkit_error("%s; trying again every %" PRIu32 " s", error, retry_delay);
                nanosleep(&(struct timespec) { .tv_sec = retry_delay }, NULL);
        }
}

/* With xz=yes: the stream's header, footer and index, checked (three range requests). */
static int open_xz(int64_t fsize, XzImage *ret) {
        uint8_t header[XZ_IMAGE_HEADER_SIZE], footer[XZ_IMAGE_FOOTER_SIZE];
        char error[ERROR_BUF_MIN * 2];
        uint8_t *index = NULL;
        uint64_t index_size;
        int r = -1;

        if (fsize < XZ_IMAGE_HEADER_SIZE + XZ_IMAGE_FOOTER_SIZE) {
                nbdkit_error("%s: %" PRIi64 " bytes are too few for an .xz file", url, fsize);
                errno = EIO;
                return -1;
        }
        if (fetch_from(header, sizeof header, 0, fsize) < 0 ||
            fetch_from(footer, sizeof footer, (uint64_t) fsize - sizeof footer, fsize) < 0)
                return -1;
        if (xz_image_index_size(footer, (uint64_t) fsize, &index_size, error, sizeof error) >= 0) {
                index = malloc(index_size ?: 1);
                if (!index)
                        error_setf(error, sizeof error, -ENOMEM, "out of memory");
                else if (fetch_from(index, (uint32_t) index_size, (uint64_t) fsize - sizeof footer - index_size,
                                    fsize) < 0) {
                        free(index);
                        return -1;
                } else if (xz_image_open(ret, header, footer, index, index_size, (uint64_t) fsize, error,
                                         sizeof error) >= 0)
                        r = 0;
        }
        free(index);
        if (r < 0) {
                nbdkit_error("%s: not a multi-block .xz this plugin reads in place: %s", url, error);
                errno = EIO;
        }
        return r;
}

/* With format=zstd: the seek table at the file's end, checked (two range requests). */
static int open_zstd(int64_t fsize, ZstdImage *ret) {
        uint8_t footer[ZSTD_IMAGE_FOOTER_SIZE];
        char error[ERROR_BUF_MIN * 2];
        uint8_t *table = NULL;
        uint64_t table_size;
        int r = -1;

        if (fsize < ZSTD_IMAGE_FOOTER_SIZE) {
                nbdkit_error("%s: %" PRIi64 " bytes are too few for a seekable .zst file", url, fsize);
                errno = EIO;
                return -1;
        }
        if (fetch_from(footer, sizeof footer, (uint64_t) fsize - sizeof footer, fsize) < 0)
                return -1;
        if (zstd_image_table_size(footer, (uint64_t) fsize, &table_size, error, sizeof error) >= 0) {
                table = malloc(table_size);
                if (!table)
                        error_setf(error, sizeof error, -ENOMEM, "out of memory");
                else if (fetch_from(table, (uint32_t) table_size, (uint64_t) fsize - table_size, fsize) < 0) {
                        free(table);
                        return -1;
                } else if (zstd_image_open(ret, table, table_size, (uint64_t) fsize, error, sizeof error) >= 0)
                        r = 0;
        }
        free(table);
        if (r < 0) {
                nbdkit_error("%s: not a seekable .zst this plugin reads in place: %s", url, error);
                errno = EIO;
        }
        return r;
}

/* The read-ahead list (readahead=): fetched and worked through by the read-ahead threads, which put the
 * blocks it names, compressed, where decode_block() looks first. Under lock. */
static BootReads readahead_list;
static size_t readahead_next;
static uint64_t readahead_bytes;
static bool readahead_stop;
static uint64_t prefetching[PREFETCH_THREADS];  /* the file offset each thread fetches, UINT64_MAX: none */
static pthread_cond_t prefetch_done = PTHREAD_COND_INITIALIZER;
static pthread_t readahead_thread;
static bool readahead_started;

static bool is_prefetching(uint64_t file_offset) {
        for (size_t i = 0; i < PREFETCH_THREADS; i++)
                if (prefetching[i] == file_offset)
                        return true;
        return false;
}

/* The next block of the list worth fetching: not kept, not being fetched, within the budget. Under lock.
 * @ret true with *ret, false when the list is done */
static bool readahead_take(ImageBlock *ret) {
        while (!readahead_stop && readahead_next < readahead_list.n && readahead_bytes < PREFETCH_BYTES) {
                uint64_t o = readahead_list.offset[readahead_next++];

                if (compressed_image_locate(&image, o, ret) < 0 || block_cache_holds(&decoded, ret->offset) ||
                    block_cache_holds(&compressed, ret->file_offset) || is_prefetching(ret->file_offset))
                        continue;
                readahead_bytes += ret->total;
                return true;
        }
        return false;
}

static void *prefetch_worker(void *arg) {
        size_t slot = (size_t) (uintptr_t) arg;
        ImageBlock b;

        pthread_mutex_lock(&lock);
        while (readahead_take(&b)) {
                char error[ERROR_BUF_MIN * 2];
                uint8_t *in;
                bool ok;

                prefetching[slot] = b.file_offset;
                pthread_mutex_unlock(&lock);
                in = malloc(b.total);
                /* once: a block that does not come is read when the boot asks for it, with retries */
                ok = in && fetch_once(in, (uint32_t) b.total, b.file_offset, file_size, error, sizeof error) == 0;
                if (in && !ok)
                        nbdkit_debug("read-ahead: %s", error);
                pthread_mutex_lock(&lock);
                prefetching[slot] = UINT64_MAX;
                if (ok)
                        block_cache_put(&compressed, b.file_offset, b.total, TAKE_PTR(in));
                pthread_cond_broadcast(&prefetch_done);
                free(in);
        }
        pthread_mutex_unlock(&lock);
        return NULL;
}

/* GET the list at readahead_url (200, at most BOOT_READS_FILE_MAX bytes). A 404 is no list, silently. */
static int readahead_fetch(BootReads *ret) {
        char error[ERROR_BUF_MIN * 2];
        Answer a = { .want = BOOT_READS_FILE_MAX };
        CURL *c = handle_new(readahead_url);
        long code = 0;
        CURLcode r;
        int k = -1;

        a.buf = malloc(BOOT_READS_FILE_MAX);
        if (!c || !a.buf) {
                nbdkit_error("%s: out of memory; the boot reads without a read-ahead list", readahead_url);
                goto out;
        }
        curl_easy_setopt(c, CURLOPT_HEADERDATA, &a);
        curl_easy_setopt(c, CURLOPT_WRITEDATA, &a);
        r = curl_easy_perform(c);
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
        if (r == CURLE_OK && code == 404)
                goto out;
        if (r != CURLE_OK || code != 200 || a.overflow) {
                const char *why = a.overflow ? "larger than 1 MiB" :
                                  r != CURLE_OK ? curl_easy_strerror(r) : "not answered with 200";

                nbdkit_error("%s: %s; the boot reads without a read-ahead list", readahead_url, why);
                goto out;
        }
        k = boot_reads_parse(a.buf, a.got, ret, error, sizeof error);
        if (k < 0)
                nbdkit_error("%s: %s; the boot reads without a read-ahead list", readahead_url, error);
out:
        if (c)
                curl_easy_cleanup(c);
        free(a.buf);
        return k;
}

/* Fetch the list, then its blocks on PREFETCH_THREADS threads (this one among them). */
static void *readahead_main(void *arg) {
        pthread_t t[PREFETCH_THREADS];
        size_t started = 1;
        BootReads list;

        if (readahead_fetch(&list) < 0)
                return NULL;
        pthread_mutex_lock(&lock);
        readahead_list = list;
        pthread_mutex_unlock(&lock);
        nbdkit_debug("read-ahead: %zu blocks listed", list.n);
        for (; started < PREFETCH_THREADS; started++)
                if (pthread_create(&t[started], NULL, prefetch_worker, (void *) (uintptr_t) started) != 0)
                        break;
        prefetch_worker((void *) (uintptr_t) 0);
        for (size_t i = 1; i < started; i++)
                pthread_join(t[i], NULL);
        return NULL;
}

/* Once the image is known: start the read-ahead, if a list is to be asked for. Under lock. */
static void readahead_start(void) {
        if (readahead_started || !readahead_url || image.format == IMAGE_FORMAT_RAW)
                return;
        for (size_t i = 0; i < PREFETCH_THREADS; i++)
                prefetching[i] = UINT64_MAX;
        readahead_started = pthread_create(&readahead_thread, NULL, readahead_main, NULL) == 0;
}

/* Stop the read-ahead (at most its requests in flight finish) and let go of its list. */
static void readahead_end(void) {
        pthread_mutex_lock(&lock);
        readahead_stop = true;
        pthread_mutex_unlock(&lock);
        if (readahead_started)
                pthread_join(readahead_thread, NULL);
        readahead_started = false;
        boot_reads_done(&readahead_list);
        boot_reads_done(&recorded);
        if (record_fd >= 0)
                close(record_fd);
        record_fd = -1;
}

/* The first read of each block for the boot, to record= (the next boots' read-ahead list). Under lock. */
static void record_boot_read(uint64_t offset) {
        ImageBlock b;
        char line[32];
        int n;

        if (record_fd < 0 || compressed_image_locate(&image, offset, &b) < 0 ||
            boot_reads_add(&recorded, b.offset) <= 0)
                return;
        n = snprintf(line, sizeof line, "%" PRIu64 "\n", b.offset);
        if (write(record_fd, line, (size_t) n) != n) {
                nbdkit_error("record=%s: %m; the blocks this boot reads are no longer recorded", record_path);
                close(record_fd);
                record_fd = -1;
        }
}

/* The handle of a connection whose reads only take spare CPU: export name BACKGROUND_EXPORT (urlboot-lazy's
 * copy). Decoding blocks is what the copy costs; at full speed it took the 2 CPUs a booting system
 * needed, so the boot's start queued behind it while it read nothing from the network. */
#define BACKGROUND_EXPORT "background"
static char background_handle;

static void *connection_handle(void) {
        const char *name = nbdkit_export_name();

        return name && strcmp(name, BACKGROUND_EXPORT) == 0 ? (void *) &background_handle : NBDKIT_HANDLE_NOT_NEEDED;
}

static void *http_plugin_open(int readonly) {
        CompressedImage c = {};
        ImageFormat f;
        int64_t s;

        pthread_mutex_lock(&lock);
        s = file_size;
        pthread_mutex_unlock(&lock);
        /* each connection until one succeeds */
        if (s >= 0)
                return connection_handle();
        if (probe_file(&s, &f) < 0)
                return NULL;
        if (format_config != IMAGE_FORMAT_AUTO)
                f = format_config;
        c.format = f;
        if ((f == IMAGE_FORMAT_XZ && open_xz(s, &c.xz) < 0) || (f == IMAGE_FORMAT_ZSTD && open_zstd(s, &c.zstd) < 0))
                return NULL;
        pthread_mutex_lock(&lock);
        if (file_size < 0) {
                file_size = s;
                image = c;
                c = (CompressedImage) {};
        }
        readahead_start();
        pthread_mutex_unlock(&lock);
        compressed_image_done(&c);
        return connection_handle();
}

static int64_t http_plugin_get_size(void *handle) {
        int64_t s;

        pthread_mutex_lock(&lock);
        s = image.format != IMAGE_FORMAT_RAW ? (int64_t) compressed_image_size(&image) : file_size;
        pthread_mutex_unlock(&lock);
        return s;
}

static int http_plugin_can_multi_conn(void *handle) {
        return 1;       /* read-only: every connection sees the same bytes */
}

/* Fetch (unless kept) and decode the block b. The copy's blocks are not kept compressed: it reads each
 * once, and keeping them would push out the boot's, which the copy is about to need. @ret the decoded
 * bytes (b->size), NULL with errno */
static uint8_t *decode_block(const ImageBlock *b, bool background) {
        char error[ERROR_BUF_MIN * 2];
        uint8_t *in = malloc(b->total), *out = malloc(b->size);
        size_t kept;

        if (!in || !out) {
                nbdkit_error("out of memory for a block of %" PRIu64 " bytes", b->size);
                free(in);
                free(out);
                errno = ENOMEM;
                return NULL;
        }
        pthread_mutex_lock(&lock);
        while (is_prefetching(b->file_offset))         /* the read-ahead is fetching it: not twice */
                pthread_cond_wait(&prefetch_done, &lock);
        kept = block_cache_copy(&compressed, in, b->total, b->file_offset);
        pthread_mutex_unlock(&lock);
        if ((kept != b->total && fetch(in, (uint32_t) b->total, b->file_offset) < 0) ||
            (compressed_image_decode(&image, b, in, out, error, sizeof error) < 0 &&
             (nbdkit_error("%s: %s", url, error), errno = EIO))) {
                free(in);
                free(out);
                return NULL;
        }
        pthread_mutex_lock(&lock);
        if (kept != b->total && !background)
                block_cache_put(&compressed, b->file_offset, b->total, TAKE_PTR(in));
        pthread_mutex_unlock(&lock);
        free(in);
        return out;
}

/* The blocks being fetched and decoded, so that a read needing one waits for it instead of fetching and
 * decoding it again (the kernel and nbdcopy keep several reads of one block in flight). A boot read waits
 * only for another boot read: the copy's run at SCHED_IDLE and could keep it waiting behind the boot's own
 * work. Under lock. */
#define IN_FLIGHT_MAX 32
static struct { uint64_t offset; bool background; } in_flight[IN_FLIGHT_MAX];
static size_t in_flight_n;
static pthread_cond_t in_flight_done = PTHREAD_COND_INITIALIZER;

static bool in_flight_wait_for(uint64_t offset, bool background) {
        for (size_t i = 0; i < in_flight_n; i++)
                if (in_flight[i].offset == offset && (background || !in_flight[i].background))
                        return true;
        return false;
}

/* false when the table is full: the block is then decoded without others waiting for it */
static bool in_flight_add(uint64_t offset, bool background) {
        if (in_flight_n == IN_FLIGHT_MAX)
                return false;
        in_flight[in_flight_n].offset = offset;
        in_flight[in_flight_n++].background = background;
        return true;
}

static void in_flight_remove(uint64_t offset, bool background) {
        for (size_t i = 0; i < in_flight_n; i++)
                if (in_flight[i].offset == offset && in_flight[i].background == background) {
                        in_flight[i] = in_flight[--in_flight_n];
                        break;
                }
        pthread_cond_broadcast(&in_flight_done);
}

/* Copy from the decoded block holding offset; when none is kept, claim the block (ret_b) unless another
 * read is decoding it, whose end is waited for. Under lock. @ret bytes copied, 0: decode *ret_b, -1: errno */
static int64_t decoded_or_claim(void *buf, uint32_t count, uint64_t offset, bool background, ImageBlock *ret_b,
                                bool *ret_claimed) {
        for (;;) {
                size_t n = block_cache_copy(&decoded, buf, count, offset);

                if (n > 0)
                        return (int64_t) n;
                if (compressed_image_locate(&image, offset, ret_b) < 0) {
                        nbdkit_error("%s: byte %" PRIu64 " is past the image's end", url, offset);
                        errno = EIO;
                        return -1;
                }
                if (!in_flight_wait_for(ret_b->offset, background)) {
                        *ret_claimed = in_flight_add(ret_b->offset, background);
                        return 0;
                }
                pthread_cond_wait(&in_flight_done, &lock);
        }
}

static int pread_blocks(void *buf, uint32_t count, uint64_t offset, bool background) {
        while (count > 0) {
                bool claimed = false;
                uint8_t *data;
                int64_t n;
                ImageBlock b;

                pthread_mutex_lock(&lock);
                if (!background)
                        record_boot_read(offset);
                n = decoded_or_claim(buf, count, offset, background, &b, &claimed);
                pthread_mutex_unlock(&lock);
                if (n < 0)
                        return -1;
                if (n == 0) {
                        data = decode_block(&b, background);
                        pthread_mutex_lock(&lock);
                        if (claimed)
                                in_flight_remove(b.offset, background);
                        if (data)
                                block_cache_put(&decoded, b.offset, b.size, data);
                        n = data ? (int64_t) block_cache_copy(&decoded, buf, count, offset) : 0;
                        pthread_mutex_unlock(&lock);
                        if (!data)
                                return -1;
                        if (n == 0) {   /* a block that does not hold its own offset: a broken index */
                                nbdkit_error("%s: the index's block for byte %" PRIu64 " does not hold it", url, offset);
                                errno = EIO;
                                return -1;
                        }
                }
                buf = (uint8_t *) buf + n;
                count -= (uint32_t) n;
                offset += (uint64_t) n;
        }
        return 0;
}

/* SCHED_IDLE for this thread while it serves the background connection, back to normal after. */
static void thread_background(bool on) {
        struct sched_param p = {};

        (void) pthread_setschedparam(pthread_self(), on ? SCHED_IDLE : SCHED_OTHER, &p);
}

static int http_plugin_pread(void *handle, void *buf, uint32_t count, uint64_t offset, uint32_t flags) {
        bool background = handle == &background_handle;
        int r;

        if (count == 0)
                return 0;
        if (background)
                thread_background(true);
        r = image.format != IMAGE_FORMAT_RAW ? pread_blocks(buf, count, offset, background) : fetch(buf, count, offset);
        if (background)
                thread_background(false);
        return r;
}

static struct nbdkit_plugin plugin = {
        .name = "urlboot-http",
        .longname = "urlboot's HTTP range plugin",
        .version = URLBOOT_VERSION,
        .description = "A remote disk image over HTTP range requests, each answer checked.",
        .unload = http_plugin_unload,
        .config = http_plugin_config,
        .config_complete = http_plugin_config_complete,
        .config_help = "url=<URL>            (required) the image\n"
                       "cainfo=<FILE>        the only CA trusted for https\n"
                       "protocols=<LIST>     http,https or https (redirects too)\n"
                       "timeout=<SECONDS>    for one request (default 60)\n"
                       "retries=<N>          tries after a failed request (default 0)\n"
                       "retry-delay=<SEC>    between tries (default 1)\n"
                       "format=auto|raw|xz|zstd  a multi-block .xz or a seekable .zst is served\n"
                       "                     decompressed (auto: told by its first bytes; the default)\n"
                       "readahead=<URL>      a list of blocks an earlier boot read, fetched ahead\n"
                       "record=<FILE>        where to list the blocks this boot reads",
        .open = http_plugin_open,
        .get_size = http_plugin_get_size,
        .can_multi_conn = http_plugin_can_multi_conn,
        .pread = http_plugin_pread,
        .errno_is_preserved = 1,
};

NBDKIT_REGISTER_PLUGIN(plugin)
