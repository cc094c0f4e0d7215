/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The lazy disk: set-up, background copy, switch to the local copy.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <systemd/sd-daemon.h>
#include <time.h>
#include <unistd.h>

#include "copy-pace.h"
#include "dm-device.h"
#include "error-buf.h"
#include "fileio.h"
#include "initrd.h"
#include "keep-unit.h"
#include "lazy-attach.h"
#include "lazy-copy.h"
#include "lazy-state.h"
#include "log.h"
#include "loop-device.h"
#include "macro.h"
#include "mkdir.h"
#include "nbd-device.h"
#include "nbdkit-ca.h"
#include "nbdkit-command.h"
#include "path-util.h"
#include "string-util.h"
#include "verity-check.h"

#define SOCKET_WAIT_USEC (120ULL * 1000 * 1000)
#define STATE_SAVE_USEC (500ULL * 1000)
#define COPY_RETRY_USEC (30ULL * 1000 * 1000)
#define KEPT_UNIT_DIR "/run/systemd/system"

typedef struct Lazy {
        const LazyOptions *o;
        LazyState st;
        int state_dir_fd;               /* the state directory, wherever /run is mounted by the time we write */
        char *state_name;
        char *socket;
        char *reads;                    /* the blocks this boot read, for the next boots' read-ahead */
        char *dm_node;                  /* /dev/dm-N */
        char nbd_devt[32], local_devt[32];      /* "MAJ:MIN": tables must not depend on our root */
        uint64_t sectors;
        pid_t nbdkit;
        int nbd_fd;                     /* held for the disconnect, whatever our root is then */
        char *copy_nbd;                 /* the copy's own nbd device on the same socket */
        int copy_nbd_fd;
        int proc_fd;                    /* /proc, held across the switch: the way to PID 1's new root */
        int mountinfo_fd;
        int local_fd;                   /* the local copy, written by the copy */
        struct stat root_st;
        bool created_image, created_dm;
        bool followed;                  /* we are in PID 1's new root */
        unsigned quarter_logged;
        VerityPartition verity[LAZY_COPY_VERITY_MAX];   /* where the pinned trees are */
        LazyCopy copy;
        bool copy_open;
        unsigned copy_failures, begin_failures;
        uint64_t boot_read_bytes, boot_read_usec, copy_request_usec, saved_usec;
        NbdkitCa ca;                    /* the pinned CA nbdkit reads, https only */
} Lazy;

static uint64_t boottime_usec(void) {
        struct timespec ts;

        clock_gettime(CLOCK_BOOTTIME, &ts);
        return (uint64_t) ts.tv_sec * 1000000ULL + (uint64_t) ts.tv_nsec / 1000;
}

static void format_bytes(uint64_t b, char buf[32]) {
        if (b >= (1ULL << 30))
                snprintf(buf, 32, "%.1f GiB", (double) b / (1ULL << 30));
        else
                snprintf(buf, 32, "%.1f MiB", (double) b / (1ULL << 20));
}

/* After the switch to a root without a journal our stderr may be a dead socket: then the kernel log,
 * which the console shows and any later journal imports. */
static void keep_stderr_alive(void) {
        struct pollfd p = { .fd = STDERR_FILENO, .events = POLLOUT };
        int fd;

        if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLERR | POLLHUP)))
                return;
        fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return;
        (void) dup2(fd, STDERR_FILENO);
        (void) close(fd);
        /* "urlboot-lazy: ..." at the kernel's default level, not an anonymous "<N>..." line. */
        log_set_prefix_mode(0);
}

static void save_state(Lazy *l) {
        l->st.pid = getpid();
        (void) lazy_state_write_at(l->state_dir_fd, l->state_name, &l->st);
}

static int devt_string(const char *device, char buf[32]) {
        struct stat st;

        if (stat(device, &st) < 0)
                return -errno;
        if (!S_ISBLK(st.st_mode))
                return -ENOTBLK;
        snprintf(buf, 32, "%u:%u", major(st.st_rdev), minor(st.st_rdev));
        return 0;
}

static int lazy_init(Lazy *l, const LazyOptions *o) {
        _cleanup_free_ char *file = NULL;
        char *dot;
        int r;

        *l = (Lazy) { .o = o, .nbd_fd = -1, .copy_nbd_fd = -1, .proc_fd = -1, .mountinfo_fd = -1, .state_dir_fd = -1, .nbdkit = -1,
                     .local_fd = -1, .ca.dir_fd = -EBADF };
        r = path_extract_filename(o->image, &file);
        if (r < 0)
                return log_error_errno(r, "Cannot take a name from the image path '%s': %m", o->image);
        dot = endswith(file, ".raw");
        if (dot && dot != file)
                *dot = 0;
        l->st = (LazyState) { .phase = LAZY_STARTING, .started_usec = boottime_usec() };
        l->st.name = strdup(file);
        l->st.url = strdup(o->url);
        l->st.image = strdup(o->image);
        l->st.verity = strdup(o->no_verity                  ? "none" :
                              o->roothash && o->usrhash ? "roothash,usrhash" :
                              o->roothash                ? "roothash" : "usrhash");
        if (!l->st.name || !l->st.url || !l->st.image || !l->st.verity || asprintf(&l->st.mapper, "urlboot-lazy-%s", file) < 0 ||
            asprintf(&l->state_name, "%s.state", file) < 0 ||
            asprintf(&l->socket, "%s/%s.sock", o->state_dir, file) < 0 ||
            asprintf(&l->reads, "%s/%s.reads", o->state_dir, file) < 0)
                return log_oom();

        r = mkdir_p(o->state_dir, 0755);
        if (r < 0)
                return log_error_errno(r, "Failed to create %s: %m", o->state_dir);
        /* At the switch to the real root /run moves into it, and a path written after the move but before we
         * follow PID 1 would land in the old root's empty /run: write through the directory itself. */
        l->state_dir_fd = open(o->state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (l->state_dir_fd < 0)
                return log_error_errno(errno, "Failed to open %s: %m", o->state_dir);
        l->proc_fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        l->mountinfo_fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
        if (l->proc_fd < 0 || l->mountinfo_fd < 0 || stat("/", &l->root_st) < 0)
                return log_error_errno(errno, "Failed to open /proc: %m");
        return 0;
}

/* For https with a pinned CA: read it now, while the initrd's files are there. */
static int prepare_ca(Lazy *l) {
        int r;

        if (!l->o->ca_file || !startswith(l->o->url, "https://"))
                return 0;
        r = nbdkit_ca_prepare(&l->ca, l->o->ca_file, in_initrd(), l->st.name);
        if (r < 0)
                return log_error_errno(r, "Cannot read the CA %s for %s: %m", l->o->ca_file, l->o->url);
        return 0;
}

static int start_nbdkit(Lazy *l) {
        NbdkitSettings s = {
                .url = l->o->url,
                .socket = l->socket,
                .plugin = l->o->plugin,
                .retries = l->o->retries,
                .retry_delay = l->o->retry_delay,
                .timeout = l->o->timeout,
                .record = l->reads,
        };
        _cleanup_strv_free_ char **argv = NULL;
        uint64_t deadline;
        int r;

        r = prepare_ca(l);
        if (r < 0)
                return r;
        s.cainfo = l->ca.file;
        r = nbdkit_command(&s, &argv);
        if (r == -EINVAL)
                return log_error_errno(r, "The URL '%s' has spaces or control characters; it cannot be served.",
                                       l->o->url);
        if (r < 0)
                return log_oom();
        (void) unlink(l->socket);

        l->nbdkit = fork();
        if (l->nbdkit < 0)
                return log_error_errno(errno, "Failed to start nbdkit: %m");
        if (l->nbdkit == 0) {
                /* Its stderr is ours: after the switch a write there must not kill the root's server. */
                signal(SIGPIPE, SIG_IGN);
                execv(l->o->nbdkit, argv);
                log_error_errno(errno, "Cannot run %s: %m", l->o->nbdkit);
                _exit(127);
        }
        l->st.nbdkit_pid = l->nbdkit;

        deadline = boottime_usec() + SOCKET_WAIT_USEC;
        for (;;) {
                struct stat st;
                int status;

                if (stat(l->socket, &st) == 0 && S_ISSOCK(st.st_mode))
                        return 0;
                if (waitpid(l->nbdkit, &status, WNOHANG) == l->nbdkit) {
                        l->nbdkit = -1;
                        log_error("nbdkit could not serve %s (it exited with status %d; its messages are above).",
                                  l->o->url, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
                        return -EIO;
                }
                if (boottime_usec() > deadline) {
                        log_error("nbdkit did not open its socket %s within %llu s.", l->socket,
                                  SOCKET_WAIT_USEC / 1000000);
                        return -ETIMEDOUT;
                }
                nanosleep(&(struct timespec) { .tv_nsec = 20 * 1000 * 1000 }, NULL);
        }
}

static int run_wait(const char *path, char *const argv[]) {
        int status;
        pid_t pid = fork();

        if (pid < 0)
                return -errno;
        if (pid == 0) {
                execv(path, argv);
                log_error_errno(errno, "Cannot run %s: %m", path);
                _exit(127);
        }
        while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR)
                        return -errno;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int write_sysfs(const char *path, const char *value) {
        _cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);

        if (fd < 0)
                return -errno;
        return write_all(fd, value, strlen(value));
}

/* Bigger requests through nbd, each one HTTP request. A kernel without the knob works too, only slower. */
static void tune_requests(Lazy *l, const char *device) {
        const char *name = device + STRLEN("/dev/");
        char path[128], kb[32];

        snprintf(path, sizeof path, "/sys/block/%s/queue/max_sectors_kb", name);
        snprintf(kb, sizeof kb, "%llu", (unsigned long long) (l->o->request_size >> 10));
        if (write_sysfs(path, kb) < 0)
                log_debug("Cannot raise %s to %s KiB.", path, kb);
}

/* A free nbd device on nbdkit's socket (connections: the kernel's, for this device; export: "" for the boot's,
 * "background" for the copy's, which the plugin serves with spare CPU only). @ret the open device */
static int attach_nbd(Lazy *l, unsigned connections, const char *export, char **ret_device) {
        _cleanup_free_ char *device = NULL;
        char count[16];
        /* Without -t the kernel never fails a request that waits on a server that went away; with
         * several connections it needs one (it then requeues), so make it a day. */
        char *argv[] = { (char *) "nbd-client", (char *) "-unix", l->socket, NULL, (char *) "-b", (char *) "4096",
                         (char *) "-N", (char *) "", (char *) "-C", count, (char *) "-t", (char *) "86400", NULL };
        int r, fd;

        r = nbd_find_free(&device);
        if (r < 0)
                return log_error_errno(r, "No free nbd device (is the nbd module loaded?): %m");
        argv[3] = device;
        argv[7] = (char *) export;
        snprintf(count, sizeof count, "%u", connections);
        if (connections <= 1)
                argv[8] = NULL;
        r = run_wait(l->o->nbd_client, argv);
        if (r != 0) {
                log_error("nbd-client could not connect %s to nbdkit (exit status %d; its messages are above).",
                          device, r);
                return -EIO;
        }
        fd = open(device, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "Cannot open %s: %m", device);
        tune_requests(l, device);
        *ret_device = TAKE_PTR(device);
        return fd;
}

static int connect_nbd(Lazy *l) {
        int r, fd;

        fd = attach_nbd(l, l->o->connections, "", &l->st.nbd);
        if (fd < 0)
                return fd;
        l->nbd_fd = fd;
        r = block_device_size(l->st.nbd, &l->st.size);
        if (r < 0)
                return log_error_errno(r, "Cannot read the size of %s: %m", l->st.nbd);
        if (l->st.size < 512 || l->st.size % 512 != 0) {
                log_error("%s has %llu bytes, not a whole number of sectors: not a disk image.", l->o->url,
                          (unsigned long long) l->st.size);
                return -EBADMSG;
        }
        l->sectors = l->st.size / 512;
        r = devt_string(l->st.nbd, l->nbd_devt);
        if (r < 0)
                return log_error_errno(r, "Cannot find %s: %m", l->st.nbd);
        /* The copy's own: its requests never queue in front of the boot's (nor the boot's in front of its). */
        fd = attach_nbd(l, 1, "background", &l->copy_nbd);
        if (fd < 0)
                return fd;
        l->copy_nbd_fd = fd;
        return 0;
}

/* Disconnect an nbd device we attached and wait until the kernel lets it go. */
static void detach_nbd(Lazy *l, const char *device, int *fd) {
        int r;

        if (*fd < 0)
                return;
        r = nbd_disconnect(*fd);
        if (r < 0)
                log_warning_errno(r, "%s: cannot disconnect %s: %m", l->st.name, device);
        *fd = safe_close(*fd);
        if (r >= 0 && nbd_wait_free(device, 10000) < 0)
                log_warning("%s: %s is still configured 10 s after the disconnect.", l->st.name, device);
}

/* Whether the local copy's file system has room for the bytes it still has to hold. */
static int check_room(Lazy *l, uint64_t bytes, int level) {
        _cleanup_free_ char *dir = NULL;
        struct statvfs sv;
        char need[32], have[32];
        struct stat st;
        uint64_t held = 0;

        if (path_extract_directory(l->o->image, &dir) < 0)
                return log_oom();
        if (statvfs(dir, &sv) < 0)
                return log_error_errno(errno, "Cannot see how much room %s has: %m", dir);
        if (fstat(l->local_fd, &st) >= 0)
                held = (uint64_t) st.st_blocks * 512;
        if ((uint64_t) sv.f_bavail * sv.f_frsize + held >= bytes)
                return 0;
        format_bytes(bytes, need);
        format_bytes((uint64_t) sv.f_bavail * sv.f_frsize + held, have);
        log_internal(level, 0, "The local copy of %s needs %s in %s, which has %s: give the machine more memory or raise "
                  "rd.urlboot.run_size=%s.", l->o->url, need, dir, have,
                  in_initrd() ? "" : " (after the switch: mount -o remount,size=... /run)");
        return -ENOSPC;
}

static int create_local(Lazy *l) {
        _cleanup_free_ char *dir = NULL;
        _cleanup_close_ int fd = -1;
        int r;

        r = path_extract_directory(l->o->image, &dir);
        if (r < 0)
                return log_oom();
        r = mkdir_p(dir, 0755);
        if (r < 0)
                return log_error_errno(r, "Cannot create %s: %m", dir);
        fd = open(l->o->image, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0600);
        if (fd < 0)
                return log_error_errno(errno, "Cannot create the local copy %s: %m", l->o->image);
        l->created_image = true;
        /* sparse: only what the copy writes takes memory */
        if (ftruncate(fd, (off_t) l->st.size) < 0)
                return log_error_errno(errno, "Cannot size the local copy %s: %m", l->o->image);
        l->local_fd = TAKE_FD(fd);
        /* Without a verified tree the copy cannot know the zero blocks: it may need the whole size, and
         * that is best said before the root is mounted. With one, the copy checks when it knows. */
        if (!l->o->roothash && !l->o->usrhash)
                return check_room(l, l->st.size, LOG_ERR);
        return 0;
}

/* A read-only table: nothing above writes (the copy writes the local file itself). */
static int create_remote(Lazy *l) {
        _cleanup_free_ char *params = linear_table_params(l->nbd_devt), *uuid = NULL;
        int r;

        if (!params || asprintf(&uuid, "URLBOOT-LAZY-%s", l->st.name) < 0)
                return log_oom();
        r = dm_device_create(l->st.mapper, uuid, l->sectors, "linear", params, true, &l->dm_node);
        if (r == -EEXIST)
                return log_error_errno(r, "A device-mapper device %s exists already; is %s attached twice?",
                                       l->st.mapper, l->o->image);
        if (r < 0)
                return log_error_errno(r, "Failed to create the device-mapper device %s over %s: is dm-mod there?",
                                       l->st.mapper, l->st.nbd);
        l->created_dm = true;
        return 0;
}

static int attach_top(Lazy *l) {
        _cleanup_free_ char *ref = NULL;
        LoopAttachOptions lo = { .read_only = true };
        int r;

        r = path_extract_filename(l->o->image, &ref);
        if (r < 0)
                return log_oom();
        lo.ref = ref;
        r = loop_attach(l->dm_node, &lo, &l->st.device, NULL);
        if (r < 0)
                return log_error_errno(r, "Cannot attach %s to a loop device with reference %s: %m", l->dm_node, ref);
        return 0;
}

static int check_pins(Lazy *l) {
        const VerityPin pins[] = { { "roothash", l->o->roothash }, { "usrhash", l->o->usrhash } };
        char reason[ERROR_BUF_MIN * 2] = "";
        int r;

        if (l->o->no_verity) {
                log_warning("%s is attached WITHOUT verification (verify=no): nothing checks what the server "
                            "sends, a changed or forged image boots as it is.", l->o->url);
                return 0;
        }
        r = verity_check_disk(l->st.device, pins, ELEMENTSOF(pins), l->verity, reason, sizeof reason);
        if (r < 0) {
                log_error("Refusing %s: %s.", l->o->url, reason[0] ? reason : strerror(-r));
                return r;
        }
        log_info("%s carries the verity tree that %s%s%s pins.", l->o->url, l->o->roothash ? "roothash=" : "usrhash=",
                 l->o->roothash ?: l->o->usrhash, r > 1 ? " (and usrhash=)" : "");
        return 0;
}

/* In the initrd: the unit as the real root's systemd must see it, should the copy outlive the switch. */
static void keep_unit(Lazy *l) {
        _cleanup_close_ int dir = -1;
        int r;

        if (!l->o->unit || !in_initrd())
                return;
        r = mkdir_p(KEPT_UNIT_DIR, 0755);
        if (r >= 0) {
                dir = open(KEPT_UNIT_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                r = dir < 0 ? -errno : lazy_keep_unit_at(dir, l->o->unit, l->o->url);
        }
        if (r < 0)
                log_warning_errno(r, "%s: cannot keep %s for the real root (%s/%s): %m; the copy may be stopped at "
                                  "the switch.", l->st.name, l->o->unit, KEPT_UNIT_DIR, l->o->unit);
}

static void teardown(Lazy *l) {
        if (l->st.device)
                (void) loop_detach(l->st.device);
        if (l->created_dm)
                (void) dm_device_remove(l->st.mapper);
        if (l->nbd_fd >= 0)
                (void) nbd_disconnect(l->nbd_fd);
        if (l->copy_nbd_fd >= 0)
                (void) nbd_disconnect(l->copy_nbd_fd);
        l->copy_nbd_fd = safe_close(l->copy_nbd_fd);
        if (l->nbdkit > 0) {
                (void) kill(l->nbdkit, SIGTERM);
                (void) waitpid(l->nbdkit, NULL, 0);
        }
        if (l->st.local_loop)
                (void) loop_detach(l->st.local_loop);
        l->local_fd = safe_close(l->local_fd);
        if (l->created_image)
                (void) unlink(l->o->image);
        (void) unlink(l->socket);
}

/* Once PID 1 has switched to the real root, our /dev, /proc, /sys and /run are empty directories of
 * the old one: go where PID 1 went (we held /proc open for exactly this). */
static void follow_pid1(Lazy *l) {
        _cleanup_close_ int fd = -1;
        struct stat st;

        if (fstatat(l->proc_fd, "1/root", &st, 0) < 0 ||
            (st.st_dev == l->root_st.st_dev && st.st_ino == l->root_st.st_ino))
                return;
        fd = openat(l->proc_fd, "1/root", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0 || fchdir(fd) < 0 || chroot(".") < 0 || chdir("/") < 0) {
                log_warning_errno(errno, "Cannot follow PID 1 into its new root: %m");
                return;
        }
        l->root_st = st;
        l->followed = true;
        keep_stderr_alive();
        log_info("%s: followed the switch to the real root (%s).", l->st.name, lazy_phase_to_string(l->st.phase));
}

/* The moment the initrd mounts the root, for "bytes fetched before the root was mounted". */
static void note_root_mount(Lazy *l) {
        char buf[16384];
        ssize_t n;

        if (l->st.root_usec > 0 || lseek(l->mountinfo_fd, 0, SEEK_SET) < 0)
                return;
        n = read(l->mountinfo_fd, buf, sizeof buf - 1);
        if (n <= 0)
                return;
        buf[n] = 0;
        for (char *line = buf; line && *line;) {
                char *nl = strchr(line, '\n');
                char mp[256];

                if (nl)
                        *nl = 0;
                if (sscanf(line, "%*s %*s %*s %*s %255s", mp) == 1 && streq(mp, "/sysroot")) {
                        l->st.root_usec = boottime_usec();
                        (void) nbd_read_bytes(l->st.nbd, &l->st.fetched_at_root);
                        return;
                }
                line = nl ? nl + 1 : NULL;
        }
}

static void log_progress(Lazy *l) {
        unsigned q = (unsigned) (l->st.copied * 4 / l->st.size);
        char copied[32], total[32];

        if (q <= l->quarter_logged || q >= 4)
                return;
        l->quarter_logged = q;
        format_bytes(l->st.copied, copied);
        format_bytes(l->st.size, total);
        log_info("%s: %u%% copied (%s of %s).", l->st.name, q * 25, copied, total);
}

/* The boot's reads: what the kernel's nbd device read (the copy has a connection of its own). */
static void note_boot_reads(Lazy *l) {
        uint64_t b;

        if (!l->st.nbd || nbd_read_bytes(l->st.nbd, &b) < 0)
                return;
        if (b > l->boot_read_bytes) {
                l->boot_read_bytes = b;
                l->boot_read_usec = boottime_usec();
        }
}

static void update_state(Lazy *l, bool force) {
        uint64_t now = boottime_usec();

        l->st.copied = l->copy_open ? lazy_copy_done_bytes(&l->copy) : 0;
        l->st.skipped = l->copy.skipped;
        l->st.fetched = l->boot_read_bytes + l->copy.fetched;
        if (!force && now - l->saved_usec < STATE_SAVE_USEC)
                return;
        l->saved_usec = now;
        save_state(l);
        if (l->copy_open)
                (void) sd_notifyf(false, "STATUS=%llu%% copied from %s",
                                  (unsigned long long) (l->st.copied * 100 / l->st.size), l->o->url);
}

/* Wait for mount changes (the root mount, the switch) or the pace's time, whichever comes first. */
static void watch(Lazy *l, uint64_t wait_usec) {
        struct pollfd p = { .fd = l->mountinfo_fd, .events = POLLPRI };

        (void) poll(&p, 1, (int) MIN(wait_usec / 1000, 1000));
        follow_pid1(l);
        keep_stderr_alive();
        note_root_mount(l);
        note_boot_reads(l);
}

static void wait_retry(Lazy *l) {
        uint64_t until = boottime_usec() + COPY_RETRY_USEC;

        while (boottime_usec() < until)
                watch(l, until - boottime_usec());
}

static int copy_begin(Lazy *l) {
        char error[ERROR_BUF_MIN * 2] = "", skipped[32];
        /* said once, then every tenth try (every 5 min) */
        int level = l->begin_failures++ % 10 == 0 ? LOG_ERR : LOG_DEBUG;
        uint64_t zero = 0;
        int r;

        r = lazy_copy_open(&l->copy, l->copy_nbd_fd, l->local_fd, l->st.size, l->o->request_size, error, sizeof error);
        for (unsigned i = 0; r >= 0 && i < LAZY_COPY_VERITY_MAX; i++)
                if (l->verity[i].pin)
                        r = lazy_copy_map_verity(&l->copy, &l->verity[i], error, sizeof error);
        if (r < 0)
                return log_internal(level, r, "%s: cannot start the copy: %s; the disk is still served from the network, "
                                       "trying again in %llu s.", l->st.name, error[0] ? error : strerror(-r),
                                       COPY_RETRY_USEC / 1000000);
        for (unsigned i = 0; i < l->copy.n_verity; i++)
                zero += l->copy.verity[i].map.zero_blocks * l->copy.verity[i].map.block_size;
        r = check_room(l, l->st.size - MIN(zero, l->st.size), level);
        if (r < 0)
                return r;
        l->copy_open = true;
        l->st.phase = LAZY_COPYING;
        l->st.copy_usec = boottime_usec();
        l->st.zero = zero;
        format_bytes(l->st.zero, skipped);
        log_info("%s: copying to %s in the background (%s of zero blocks, known from the verified tree, stay holes).",
                 l->st.name, l->o->image, skipped);
        update_state(l, true);
        return 0;
}

/* The copy stopped (the server away for longer than nbdkit retries, a block that does not decode, no room):
 * the disk stays on the network, so the root keeps working, and the copy tries again from where it
 * stopped. Exiting would stop nbdkit. */
static void copy_failed(Lazy *l, int r, const char *error) {
        if (l->copy_failures++ % 10 == 0)
                log_error_errno(r, "%s: the copy stopped at %llu of %llu bytes: %s; the disk is still served from the "
                                "network, trying again in %llu s.", l->st.name,
                                (unsigned long long) lazy_copy_done_bytes(&l->copy), (unsigned long long) l->st.size,
                                error, COPY_RETRY_USEC / 1000000);
        wait_retry(l);
}

static int copy_all(Lazy *l) {
        char error[ERROR_BUF_MIN * 2] = "";
        int r;

        for (;;) {
                uint64_t now = boottime_usec(), wait = lazy_copy_wait_usec(&(LazyPace) {
                        .copy_now = l->o->copy_now,
                        .root_ready = l->st.root_usec > 0 || l->followed,
                        .now_usec = now,
                        .ready_usec = l->st.ready_usec,
                        .boot_read_usec = l->boot_read_usec,
                        .copy_usec = l->copy_request_usec,
                });

                watch(l, wait);
                if (wait > 0) {
                        update_state(l, false);
                        continue;
                }
                if (!l->copy_open && copy_begin(l) < 0) {
                        /* no room, or the tree unreadable while the server is away: the root keeps working */
                        lazy_copy_close(&l->copy);
                        wait_retry(l);
                        continue;
                }
                l->copy_request_usec = boottime_usec();
                r = lazy_copy_step(&l->copy, error, sizeof error);
                if (r < 0) {
                        copy_failed(l, r, error);
                        continue;
                }
                update_state(l, r == 0);
                if (r == 0)
                        return 0;
                log_progress(l);
        }
}

/* The complete local copy on a loop device, for the table. */
static int attach_local(Lazy *l) {
        LoopAttachOptions lo = { .no_partitions = true, .read_only = true };
        int r;

        lazy_copy_close(&l->copy);
        l->local_fd = safe_close(l->local_fd);
        r = loop_attach(l->o->image, &lo, &l->st.local_loop, NULL);
        if (r < 0)
                return log_error_errno(r, "Cannot attach the local copy %s to a loop device: %m", l->o->image);
        r = devt_string(l->st.local_loop, l->local_devt);
        if (r < 0)
                return log_error_errno(r, "Cannot find %s: %m", l->st.local_loop);
        return 0;
}

static int switch_to_local(Lazy *l) {
        _cleanup_free_ char *params = NULL;
        char size[32], fetched[32], stored[32];
        struct stat st;
        uint64_t took;
        int r;

        r = attach_local(l);
        if (r < 0)
                return r;
        params = linear_table_params(l->local_devt);
        if (!params)
                return log_oom();
        r = dm_device_replace_table(l->st.mapper, l->sectors, "linear", params, true);
        if (r < 0)
                return log_error_errno(r, "%s: cannot switch to the local copy (still reading from the network): %m",
                                       l->st.name);
        note_boot_reads(l);
        l->st.fetched = l->boot_read_bytes + l->copy.fetched;
        detach_nbd(l, l->st.nbd, &l->nbd_fd);
        detach_nbd(l, l->copy_nbd, &l->copy_nbd_fd);
        if (l->nbdkit > 0) {
                (void) kill(l->nbdkit, SIGTERM);
                (void) waitpid(l->nbdkit, NULL, 0);
                l->nbdkit = -1;
        }
        (void) unlink(l->socket);
        nbdkit_ca_done(&l->ca);

        l->st.phase = LAZY_LOCAL;
        l->st.local_usec = boottime_usec();
        l->st.copied = l->st.size;
        l->st.nbd = mfree(l->st.nbd);
        l->st.nbdkit_pid = 0;
        if (stat(l->o->image, &st) >= 0)
                l->st.stored = (uint64_t) st.st_blocks * 512;
        save_state(l);

        took = l->st.local_usec - l->st.copy_usec;
        format_bytes(l->st.size, size);
        format_bytes(l->st.fetched, fetched);
        format_bytes(l->st.stored, stored);
        log_notice("%s: copy complete, %s in %.1f s (%s read from the network, %s in memory); now served from %s, "
                   "the network is no longer needed.", l->st.name, size, took / 1e6, fetched, stored, l->o->image);
        (void) sd_notifyf(false, "STATUS=Local: %s (%s), copied from %s", l->o->image, size, l->o->url);
        return 0;
}

int lazy_attach(const LazyOptions *o) {
        Lazy l;
        char size[32];
        int r;

        assert(o);

        r = lazy_init(&l, o);
        if (r >= 0)
                save_state(&l);
        if (r >= 0)
                r = start_nbdkit(&l);
        if (r >= 0)
                r = connect_nbd(&l);
        if (r >= 0)
                r = create_local(&l);
        if (r >= 0)
                r = create_remote(&l);
        if (r >= 0)
                r = attach_top(&l);
        if (r >= 0)
                r = check_pins(&l);
        if (r < 0) {
                teardown(&l);
                nbdkit_ca_done(&l.ca);
                l.st.phase = LAZY_FAILED;
                save_state(&l);
                lazy_state_done(&l.st);
                free(l.copy_nbd);
                return r;
        }

        keep_unit(&l);
        l.st.phase = LAZY_REMOTE;
        l.st.ready_usec = boottime_usec();
        save_state(&l);
        format_bytes(l.st.size, size);
        log_info("%s: %s (%s) is %s, served from the network; it will be copied to %s.", l.st.name, o->url, size,
                 l.st.device, o->image);
        (void) sd_notifyf(false, "READY=1\nSTATUS=Serving %s from the network", o->url);

        r = copy_all(&l);
        if (r >= 0)
                r = switch_to_local(&l);
        if (r < 0) {
                /* the disk stays on the network: the root keeps working as long as the server answers */
                l.st.phase = LAZY_FAILED;
                save_state(&l);
        }
        lazy_copy_close(&l.copy);
        lazy_state_done(&l.st);
        free(l.copy_nbd);
        return r;
}
