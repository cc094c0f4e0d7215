/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A raw disk image written as a seekable zstd file: read a batch of frames, compress them on every CPU
 * (one ZSTD_CCtx per thread), write them in order, repeat; then the seek table.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "error-buf.h"
#include "fileio.h"
#include "lazy-compress.h"
#include "macro.h"
#include "path-util.h"
#include "zstd-image.h"

#define FRAMES_PER_THREAD 4             /* a batch: enough frames that no thread idles long at its end */
#define BATCH_BYTES_MAX (256ULL << 20)  /* a batch's image bytes, at most (with 64 MiB frames: fewer frames) */
#define TABLE_ENTRY_SIZE 8              /* a frame's compressed and decompressed size, u32 LE each */

typedef struct Frame {
        uint8_t *in, *out;
        size_t size;                    /* its image bytes */
        size_t compressed;              /* its compressed bytes, once done */
        int r;                          /* <0: reading it (-ENODATA: the image ended early) or compressing failed */
        size_t zstd_code;               /* libzstd's error, when compressing failed */
} Frame;

typedef struct Compressor Compressor;

typedef struct Worker {
        Compressor *c;
        ZSTD_CCtx *cctx;
        pthread_t thread;
} Worker;

struct Compressor {
        int image_fd;
        uint64_t image_size, frame_size;
        uint32_t frames;                /* in all */
        size_t out_capacity;            /* ZSTD_compressBound(frame_size) */
        Frame *batch;
        unsigned batch_capacity;
        unsigned batch_frames;          /* in the current batch */
        uint64_t batch_first;           /* the number of its first frame */
        atomic_uint next;               /* the batch's next frame a worker takes */
        Worker *workers;
        unsigned threads;
        uint8_t *table;                 /* the seek table's skippable frame, filled as frames are written */
        size_t table_size;
};

bool lazy_compress_frame_size_valid(uint64_t size) {
        return size > 0 && size <= ZSTD_IMAGE_FRAME_MAX && size % 4096 == 0;
}

int lazy_compress_level_max(void) {
        return ZSTD_maxCLevel();
}

static void put_le32(uint8_t *p, uint32_t v) {
        p[0] = (uint8_t) v;
        p[1] = (uint8_t) (v >> 8);
        p[2] = (uint8_t) (v >> 16);
        p[3] = (uint8_t) (v >> 24);
}

/* The CPUs this process may run on (taskset, a cgroup's cpuset), not all the machine has. */
static unsigned cpus_available(void) {
        cpu_set_t set;

        if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
                return (unsigned) CPU_COUNT(&set);
        return (unsigned) MAX(sysconf(_SC_NPROCESSORS_ONLN), 1L);
}

static int image_open(const char *path, int *ret_fd, uint64_t *ret_size, uint64_t *ret_allocated, char *error,
                      size_t error_size) {
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        struct stat st;

        if (fd < 0 || fstat(fd, &st) < 0)
                return error_setf(error, error_size, -errno, "cannot open it: %s", strerror(errno));
        if (S_ISREG(st.st_mode)) {
                *ret_size = (uint64_t) st.st_size;
                *ret_allocated = (uint64_t) st.st_blocks * 512;
        } else if (S_ISBLK(st.st_mode)) {
                if (ioctl(fd, BLKGETSIZE64, ret_size) < 0)
                        return error_setf(error, error_size, -errno, "cannot read the device's size: %s",
                                          strerror(errno));
                *ret_allocated = *ret_size;
        } else
                return error_setf(error, error_size, -EBADFD, "it is neither a file nor a block device");
        if (*ret_size == 0)
                return error_setf(error, error_size, -ENODATA, "it is empty, there is nothing to compress");
        (void) posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
        *ret_fd = TAKE_FD(fd);
        return 0;
}

static ZSTD_CCtx *cctx_new(int level) {
        ZSTD_CCtx *cctx = ZSTD_createCCtx();

        /* every frame carries its content checksum: the reader refuses frames without one */
        if (!cctx || ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level)) ||
            ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)) ||
            ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1))) {
                ZSTD_freeCCtx(cctx);
                return NULL;
        }
        return cctx;
}

static void compressor_done(Compressor *c) {
        if (c->workers)
                for (unsigned i = 0; i < c->threads; i++)
                        ZSTD_freeCCtx(c->workers[i].cctx);
        if (c->batch)
                for (unsigned i = 0; i < c->batch_capacity; i++) {
                        free(c->batch[i].in);
                        free(c->batch[i].out);
                }
        free(c->workers);
        free(c->batch);
        free(c->table);
        c->image_fd = safe_close(c->image_fd);
}

/* Buffers for one batch, a compression context per thread, the table. -ENOMEM */
static int compressor_init(Compressor *c, const LazyCompressSettings *s) {
        uint64_t batch;

        c->frames = (uint32_t) ((c->image_size + c->frame_size - 1) / c->frame_size);
        c->out_capacity = ZSTD_compressBound((size_t) c->frame_size);
        c->threads = MIN(s->threads ?: cpus_available(), c->frames);
        batch = MAX(MIN((uint64_t) c->threads * FRAMES_PER_THREAD, BATCH_BYTES_MAX / c->frame_size), c->threads);
        c->batch_capacity = (unsigned) MIN(batch, (uint64_t) c->frames);

        c->workers = calloc(c->threads, sizeof *c->workers);
        c->batch = calloc(c->batch_capacity, sizeof *c->batch);
        c->table_size = ZSTD_IMAGE_TABLE_HEADER_SIZE + (size_t) c->frames * TABLE_ENTRY_SIZE + ZSTD_IMAGE_FOOTER_SIZE;
        c->table = malloc(c->table_size);
        if (!c->workers || !c->batch || !c->table)
                return -ENOMEM;
        for (unsigned i = 0; i < c->threads; i++) {
                c->workers[i] = (Worker) { .c = c, .cctx = cctx_new(s->level) };
                if (!c->workers[i].cctx)
                        return -ENOMEM;
        }
        for (unsigned i = 0; i < c->batch_capacity; i++) {
                c->batch[i].in = malloc((size_t) c->frame_size);
                c->batch[i].out = malloc(c->out_capacity);
                if (!c->batch[i].in || !c->batch[i].out)
                        return -ENOMEM;
        }
        return 0;
}

/* Whether [offset, offset + size) lies in a hole of the file (never for a block device: all of it is data). */
static bool frame_in_hole(int fd, uint64_t offset, size_t size) {
        off_t data = lseek(fd, (off_t) offset, SEEK_DATA), end;

        if (data >= 0)
                return (uint64_t) data >= offset + size;
        if (errno != ENXIO)
                return false;
        /* no data from offset on: a hole up to the end, if the file did not shrink below the frame */
        end = lseek(fd, 0, SEEK_END);
        return end >= 0 && (uint64_t) end >= offset + size;
}

/* All size bytes at offset; -ENODATA when the image ends before them (it shrank since it was opened). */
static int frame_read(int fd, uint8_t *buf, size_t size, uint64_t offset) {
        /* a sparse image's holes as zeros without the kernel copying them: its GBs of free space cost little */
        if (frame_in_hole(fd, offset, size)) {
                memset(buf, 0, size);
                return 0;
        }
        for (size_t done = 0; done < size;) {
                ssize_t n = pread(fd, buf + done, size - done, (off_t) (offset + done));

                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return -errno;
                if (n == 0)
                        return -ENODATA;
                done += (size_t) n;
        }
        return 0;
}

static void frame_compress(Compressor *c, ZSTD_CCtx *cctx, Frame *f, uint64_t number) {
        uint64_t offset = number * c->frame_size;
        size_t z;

        f->size = (size_t) MIN(c->frame_size, c->image_size - offset);
        f->r = frame_read(c->image_fd, f->in, f->size, offset);
        if (f->r < 0)
                return;
        /* one frame per call, its content size in its header (the parameters stay across calls) */
        z = ZSTD_compress2(cctx, f->out, c->out_capacity, f->in, f->size);
        if (ZSTD_isError(z)) {
                f->r = -EIO;
                f->zstd_code = z;
                return;
        }
        f->compressed = z;
}

static void *worker_run(void *userdata) {
        Worker *w = userdata;
        Compressor *c = w->c;

        for (unsigned i; (i = atomic_fetch_add(&c->next, 1)) < c->batch_frames;)
                frame_compress(c, w->cctx, c->batch + i, c->batch_first + i);
        return NULL;
}

/* The batch's frames on every thread, this one included: a thread that cannot start leaves its share to the others. */
static void batch_compress(Compressor *c) {
        unsigned started = 0;

        atomic_store(&c->next, 0);
        for (unsigned i = 1; i < MIN(c->threads, c->batch_frames); i++) {
                if (pthread_create(&c->workers[i].thread, NULL, worker_run, c->workers + i) != 0)
                        break;
                started = i;
        }
        (void) worker_run(c->workers);
        for (unsigned i = 1; i <= started; i++)
                (void) pthread_join(c->workers[i].thread, NULL);
}

/* The batch's frames to fd in their order, each one's sizes into the table. */
static int batch_write(Compressor *c, int fd, uint64_t *compressed, char *error, size_t error_size) {
        for (unsigned i = 0; i < c->batch_frames; i++) {
                const Frame *f = c->batch + i;
                uint64_t number = c->batch_first + i, offset = number * c->frame_size;
                uint8_t *entry = c->table + ZSTD_IMAGE_TABLE_HEADER_SIZE + number * TABLE_ENTRY_SIZE;
                int r;

                if (f->r == -ENODATA)
                        return error_setf(error, error_size, -EIO,
                                          "it ended before byte %llu while it was read (it had %llu bytes): "
                                          "compress an image nothing writes to", (unsigned long long) (offset + f->size),
                                          (unsigned long long) c->image_size);
                if (f->r < 0 && f->zstd_code)
                        return error_setf(error, error_size, f->r, "libzstd failed on frame %llu: %s",
                                          (unsigned long long) number, ZSTD_getErrorName(f->zstd_code));
                if (f->r < 0)
                        return error_setf(error, error_size, f->r, "cannot read it at byte %llu: %s",
                                          (unsigned long long) offset, strerror(-f->r));
                r = write_all(fd, f->out, f->compressed);
                if (r < 0)
                        return error_setf(error, error_size, r, "cannot write the output's temporary file: %s",
                                          strerror(-r));
                put_le32(entry, (uint32_t) f->compressed);
                put_le32(entry + 4, (uint32_t) f->size);
                *compressed += f->compressed;
        }
        return 0;
}

static int table_write(Compressor *c, int fd, char *error, size_t error_size) {
        uint8_t *footer = c->table + c->table_size - ZSTD_IMAGE_FOOTER_SIZE;
        int r;

        put_le32(c->table, ZSTD_IMAGE_TABLE_MAGIC);
        put_le32(c->table + 4, (uint32_t) (c->table_size - ZSTD_IMAGE_TABLE_HEADER_SIZE));
        put_le32(footer, c->frames);
        footer[4] = 0;          /* no checksums in the table: each frame carries zstd's own */
        put_le32(footer + 5, ZSTD_IMAGE_FOOTER_MAGIC);
        r = write_all(fd, c->table, c->table_size);
        if (r < 0)
                return error_setf(error, error_size, r, "cannot write the output's temporary file: %s", strerror(-r));
        return 0;
}

/* An unnamed file in path's directory (O_TMPFILE: an interrupted run leaves nothing), else a hidden one (*ret_tmp). */
static int output_open(const char *path, char **ret_tmp) {
        _cleanup_free_ char *dir = NULL;
        int fd, r;

        r = path_extract_directory(path, &dir);
        if (r < 0)
                return r;
        *ret_tmp = NULL;
        fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
        if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
                return fd >= 0 ? fd : -errno;
        return open_tmpfile_beside(path, ret_tmp);
}

/* Give the file written to fd the name path, replacing what was there; synced before and after. */
static int output_link(int fd, const char *tmp, const char *path, mode_t mode) {
        _cleanup_free_ char *dir = NULL, *base = NULL, *name = NULL, *linked = NULL;
        char proc[64];
        int r;

        if (tmp)
                return link_tmpfile(fd, tmp, path, mode);
        /* linkat() cannot replace a file: a hidden name first, then rename() over path */
        r = path_extract_directory(path, &dir);
        if (r >= 0)
                r = path_extract_filename(path, &base);
        if (r >= 0)
                r = tmp_name_random(base, &name);
        if (r < 0)
                return r;
        linked = path_join(dir, name);
        if (!linked)
                return -ENOMEM;
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        if (linkat(AT_FDCWD, proc, AT_FDCWD, linked, AT_SYMLINK_FOLLOW) < 0)
                return -errno;
        return link_tmpfile(fd, linked, path, mode);
}

static int compress_all(Compressor *c, int fd, const LazyCompressSettings *s, uint64_t *compressed, char *error,
                        size_t error_size) {
        for (uint64_t first = 0; first < c->frames; first += c->batch_frames) {
                int r;

                c->batch_first = first;
                c->batch_frames = (unsigned) MIN((uint64_t) c->batch_capacity, c->frames - first);
                batch_compress(c);
                r = batch_write(c, fd, compressed, error, error_size);
                if (r < 0)
                        return r;
                if (s->progress)
                        s->progress(MIN((first + c->batch_frames) * c->frame_size, c->image_size), c->image_size,
                                    s->userdata);
        }
        return table_write(c, fd, error, error_size);
}

int lazy_compress(const char *image, const char *output, const LazyCompressSettings *s, LazyCompressResult *ret,
                  char *error, size_t error_size) {
        Compressor c = { .image_fd = -1, .frame_size = s->frame_size };
        _cleanup_free_ char *tmp = NULL;
        _cleanup_close_ int fd = -1;
        uint64_t allocated = 0, compressed = 0;
        mode_t mask;
        int r;

        assert(image);
        assert(output);
        assert(s);
        assert(lazy_compress_frame_size_valid(s->frame_size));

        r = image_open(image, &c.image_fd, &c.image_size, &allocated, error, error_size);
        if (r < 0)
                return r;
        if ((c.image_size + c.frame_size - 1) / c.frame_size > ZSTD_IMAGE_FRAMES_MAX) {
                compressor_done(&c);
                return error_setf(error, error_size, -EFBIG,
                                  "its %llu bytes make more than %u frames, the most a seek table holds: "
                                  "pass a larger --frame-size=", (unsigned long long) c.image_size, ZSTD_IMAGE_FRAMES_MAX);
        }
        r = compressor_init(&c, s);
        if (r < 0) {
                compressor_done(&c);
                return error_setf(error, error_size, r, "out of memory for %u threads' frames of %llu bytes",
                                  c.threads, (unsigned long long) c.frame_size);
        }

        fd = output_open(output, &tmp);
        if (fd < 0) {
                compressor_done(&c);
                return error_setf(error, error_size, fd, "cannot create a file beside %s: %s", output,
                                  strerror(-fd));
        }
        r = compress_all(&c, fd, s, &compressed, error, error_size);
        compressor_done(&c);
        if (r < 0) {
                if (tmp)
                        (void) unlink(tmp);
                return r;
        }

        mask = umask(0);
        (void) umask(mask);
        r = output_link(fd, tmp, output, 0666 & ~mask);
        if (r < 0)
                return error_setf(error, error_size, r, "cannot write %s: %s", output, strerror(-r));

        *ret = (LazyCompressResult) {
                .frames = c.frames,
                .image_bytes = c.image_size,
                .allocated_bytes = allocated,
                .compressed_bytes = compressed + c.table_size,
        };
        return 0;
}
