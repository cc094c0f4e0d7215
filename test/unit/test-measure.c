/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for the measurement rules (src/fundamental: uki-measure, stub-measure, stub-cmdline, cpio,
 * stub-sidecar, measure-event, sha256, random-seed) and their prediction (src/bootctl/pcr-predict.c):
 * UKIs built from the stub this build made, predicted and compared with test/data/measure-cases.tsv,
 * whose values measure-cases.py computed with Python's hashlib. */
#include <openssl/evp.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "fileio.h"
#include "macro.h"
#include "measure-event.h"
#include "memory-fundamental.h"
#include "pcr-predict.h"
#include "stub-measure.h"
#include "pe-image.h"
#include "pe-writer.h"
#include "random-seed.h"
#include "sha1.h"
#include "sha256.h"
#include "stub-cmdline.h"
#include "tests.h"
#include "tpm-event-log.h"
#include "uki-measure.h"

#define SECTIONS_MAX 16
#define FILES_MAX 16

static const char *stub_image(char **image, size_t *size) {
        const char *stub = getenv("URLBOOT_TEST_STUB");

        if (!stub || access(stub, F_OK) < 0)
                return NULL;
        ASSERT_OK(read_full_file(stub, 16 << 20, image, size));
        return stub;
}

/* "@pattern:N" or escaped text, as measure-cases.py reads it; *ret_size its length. */
static char *case_text(const char *t, size_t *ret_size) {
        char *d;

        if (strncmp(t, "@hex:", 5) == 0) {
                size_t n = strlen(t + 5) / 2;
                d = malloc(n + 1);
                for (size_t i = 0; i < n; i++)
                        ASSERT_TRUE(sscanf(t + 5 + 2 * i, "%2hhx", (unsigned char *) &d[i]) == 1);
                *ret_size = n;
                return d;
        }
        if (strncmp(t, "@pattern:", 9) == 0) {
                size_t n = strtoul(t + 9, NULL, 10);
                d = malloc(n + 1);
                for (size_t i = 0; i < n; i++)
                        d[i] = (char) ((i * 7 + 3) & 0xff);
                *ret_size = n;
                return d;
        }
        d = test_unescape(t);
        *ret_size = strlen(d);
        return d;
}

typedef struct Case {
        PeNewSection sections[SECTIONS_MAX];
        char *section_data[SECTIONS_MAX];
        size_t n_sections;
        PredictFile files[FILES_MAX];
        char *file_names[FILES_MAX], *file_data[FILES_MAX];
        size_t n_files;
        char *options, *smbios;
        PredictInput in;
        DtbautoMachine machine;
        Chid chids[CHID_TYPES];
        char *fdt;
} Case;

static void case_done(Case *c) {
        for (size_t i = 0; i < c->n_sections; i++) {
                free((char *) c->sections[i].name);
                free(c->section_data[i]);
        }
        for (size_t i = 0; i < c->n_files; i++) {
                free(c->file_names[i]);
                free(c->file_data[i]);
        }
        free(c->options);
        free(c->smbios);
        free(c->fdt);
}

static void parse_sections(char *s, Case *c) {
        for (char *save = NULL, *item = strtok_r(s, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
                char *eq = strchr(item, '=');
                size_t n;
                ASSERT_TRUE(eq && c->n_sections < SECTIONS_MAX);
                *eq = 0;
                c->section_data[c->n_sections] = case_text(eq + 1, &n);
                c->sections[c->n_sections] = (PeNewSection) { strdup(item), c->section_data[c->n_sections], n };
                c->n_sections++;
        }
}

static void add_file(Case *c, const char *dir, char *spec) {
        char *colon = strchr(spec, ':');
        size_t n;

        ASSERT_TRUE(colon && c->n_files < FILES_MAX);
        *colon = 0;
        c->file_names[c->n_files] = strdup(spec);
        c->file_data[c->n_files] = case_text(colon + 1, &n);
        c->files[c->n_files] = (PredictFile) { dir, c->file_names[c->n_files], c->file_data[c->n_files], n };
        c->n_files++;
}

static void parse_args(char *s, Case *c) {
        c->in.profile = -1;
        if (strcmp(s, "-") == 0)
                return;
        for (char *save = NULL, *item = strtok_r(s, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
                char *eq = strchr(item, '='), *v = eq + 1;
                ASSERT_TRUE(eq);
                *eq = 0;
                if (strcmp(item, "profile") == 0)
                        c->in.profile = atoi(v);
                else if (strcmp(item, "options") == 0)
                        c->in.options = c->options = test_unescape(v);
                else if (strcmp(item, "smbios") == 0)
                        c->in.smbios_extra = c->smbios = test_unescape(v);
                else if (strcmp(item, "boot_manager") == 0)
                        c->in.boot_manager = true;
                else if (strcmp(item, "secure_boot") == 0)
                        c->in.secure_boot = true;
                else if (strcmp(item, "cvm") == 0)
                        c->in.confidential_vm = true;
                else if (strcmp(item, "phases") == 0)
                        c->in.phases = v;
                else if (strcmp(item, "cred") == 0 || strcmp(item, "ext") == 0)
                        add_file(c, NULL, v);
                else if (strcmp(item, "gcred") == 0)
                        add_file(c, "\\loader\\credentials", v);
                else if (strcmp(item, "gext") == 0)
                        add_file(c, "\\loader\\extensions", v);
                else if (strcmp(item, "fdt") == 0) {
                        c->machine.firmware_devicetree = true;
                        c->machine.firmware_compatible = c->fdt = strdup(v);
                        c->in.machine = &c->machine;
                } else if (strcmp(item, "chid") == 0) {
                        unsigned t = (unsigned) atoi(v);
                        ASSERT_TRUE(t < CHID_TYPES && strchr(v, ':'));
                        ASSERT_OK(chid_from_string(strchr(v, ':') + 1, &c->chids[t]));
                        c->machine.chids = c->chids;
                        c->in.machine = &c->machine;
                }
                else
                        test_fail(__FILE__, __LINE__, "unknown argument %s", item);
        }
        c->in.files = c->files;
        c->in.n_files = c->n_files;
}

/* The image as a firmware loads it: headers and sections at their virtual addresses, zeros between. */
static void *load_like_firmware(const void *file, size_t size, size_t *ret_size) {
        PeHeaders h;
        uint8_t *m;

        ASSERT_OK(pe_parse_headers(file, size, &h));
        m = calloc(1, h.size_of_image);
        memcpy(m, file, h.size_of_headers);
        for (size_t i = 0; i < h.n_sections; i++) {
                PeSection s;
                ASSERT_OK(pe_get_section(file, size, &h, i, &s));
                memcpy(m + s.virtual_address, (const uint8_t *) file + s.raw_offset,
                       s.raw_size < s.virtual_size || !s.virtual_size ? s.raw_size : s.virtual_size);
        }
        *ret_size = h.size_of_image;
        return m;
}

static int extend_cb(const MeasureEvent *e, void *userdata) {
        ASSERT_OK(pcr_extend_event(userdata, e));
        return 0;
}

typedef struct Run {
        const char *stub_image;
        size_t stub_size;
        int n;
} Run;

static void case_line(char *line, int lineno, void *userdata) {
        Run *run = userdata;
        char *f[6], hex[2 * PCR_DIGEST_MAX + 1], error[256];
        static const unsigned pcrs[3] = { 11, 12, 13 };
        _cleanup_(prediction_done) Prediction p = {};
        _cleanup_(case_done) Case c = {};
        _cleanup_free_ void *uki = NULL, *loaded = NULL;
        size_t uki_size, loaded_size;
        PcrSet from_memory = {};
        PeSectionData dtbauto;
        unsigned profile;
        bool chosen;

        ASSERT_EQ(test_split_fields(line, f, 6), 6);
        parse_sections(f[1], &c);
        parse_args(f[2], &c);
        ASSERT_OK(pe_append_sections(run->stub_image, run->stub_size, c.sections, c.n_sections, &uki, &uki_size, error,
                                     sizeof error));
        c.in.uki = uki;
        c.in.uki_size = uki_size;
        ASSERT_OK(pcr_predict(&c.in, &p));
        for (size_t i = 0; i < 3; i++)
                if (strcmp(pcr_hex(&p.pcrs, pcrs[i], PCR_BANK_SHA256, hex), f[3 + i]) != 0)
                        test_fail(__FILE__, __LINE__, "line %d (%s): PCR %u is %s, hashlib says %s", lineno, f[0], pcrs[i],
                                  hex, f[3 + i]);

        /* the stub reads the sections from memory: the same events */
        loaded = load_like_firmware(uki, uki_size, &loaded_size);
        profile = p.n_events && c.in.profile > 0 ? (unsigned) c.in.profile : 0;
        chosen = c.in.machine && uki_dtbauto_select(loaded, loaded_size, true, profile, &c.machine, &dtbauto, NULL) == 0;
        ASSERT_OK(uki_measure_sections(loaded, loaded_size, true, profile, chosen ? &dtbauto : NULL, extend_cb,
                                       &from_memory));
        if (!c.in.phases && !(c.in.options && c.in.options[0] == '@') &&
            strcmp(pcr_hex(&from_memory, 11, PCR_BANK_SHA256, hex), f[3]) != 0)
                test_fail(__FILE__, __LINE__, "line %d (%s): PCR 11 from the loaded image is %s", lineno, f[0], hex);
        run->n++;
}

TEST(cases_against_hashlib) {
        _cleanup_free_ char *image = NULL;
        Run run = {};
        size_t size;

        if (!stub_image(&image, &size)) {
                test_note("no stub built (gnu-efi missing): skipped");
                return;
        }
        run.stub_image = image;
        run.stub_size = size;
        test_foreach_line("measure-cases.tsv", case_line, &run);
        test_note("%d boots predicted", run.n);
        ASSERT_TRUE(run.n >= 20);
}

/* One buffer hashed in two pieces (to cross blocks) by src/fundamental's SHA-1 and SHA-256. */
static void fundamental_sha1(const uint8_t *data, size_t first, size_t n, uint8_t *ret) {
        Sha1 c;

        sha1_init(&c);
        sha1_update(&c, data, first);
        sha1_update(&c, data + first, n - first);
        sha1_finish(&c, ret);
}

static void fundamental_sha256(const uint8_t *data, size_t first, size_t n, uint8_t *ret) {
        Sha256 c;

        sha256_init(&c);
        sha256_update(&c, data, first);
        sha256_update(&c, data + first, n - first);
        sha256_finish(&c, ret);
}

TEST(digests_against_openssl) {
        static const struct {
                const char *name;
                void (*ours)(const uint8_t *data, size_t first, size_t n, uint8_t *ret);
                const EVP_MD *(*theirs)(void);
        } hashes[] = {
                { "SHA-1", fundamental_sha1, EVP_sha1 },
                { "SHA-256", fundamental_sha256, EVP_sha256 },
        };
        static uint8_t data[3000];
        uint8_t ours[EVP_MAX_MD_SIZE], theirs[EVP_MAX_MD_SIZE];
        unsigned size;

        for (size_t i = 0; i < sizeof data; i++)
                data[i] = (uint8_t) (i * 131 + 7);
        /* every length around the block and padding boundaries, and some beyond */
        for (size_t h = 0; h < ELEMENTSOF(hashes); h++)
                for (size_t n = 0; n < sizeof data; n += n < 200 ? 1 : 97) {
                        hashes[h].ours(data, n / 3, n, ours);
                        ASSERT_TRUE(EVP_Digest(data, n, theirs, &size, hashes[h].theirs(), NULL) == 1);
                        if (memcmp(ours, theirs, size) != 0)
                                test_fail(__FILE__, __LINE__, "%s of %zu bytes differs from OpenSSL's", hashes[h].name, n);
                }
}

TEST(random_seed_mix) {
        /* values from Python: sha256(label || (le64 length || bytes) for each source), then || 1 / || 0 */
        static const char label_kernel[] = "711256b63c8256439265ea7767fc10b680ec3513dfb66ebec04ba040c5fc8adf";
        static const char label_file[] = "1ffe681bfb834f20bde7821be031a45dbfa221d140b887024a21b5e27a41f056";
        uint8_t prev[40], rng[32], token[32], file[64], kernel[32], next[32];
        char hex[65];
        RandomSeedSources s = {
                .previous_table = { prev, sizeof prev }, .rng = { rng, sizeof rng }, .system_token = { token, sizeof token },
                .file = { file, sizeof file }, .monotonic_count = 7, .time = { "time-bytes", 10 },
        };

        memset(prev, 'P', sizeof prev);
        for (size_t i = 0; i < sizeof rng; i++)
                rng[i] = (uint8_t) i;
        memset(token, 'T', sizeof token);
        memset(file, 'F', sizeof file);
        random_seed_mix(&s, kernel, next);
        for (size_t i = 0; i < 32; i++)
                snprintf(hex + 2 * i, 3, "%02x", kernel[i]);
        ASSERT_STREQ(hex, label_kernel);
        for (size_t i = 0; i < 32; i++)
                snprintf(hex + 2 * i, 3, "%02x", next[i]);
        ASSERT_STREQ(hex, label_file);

        /* what is enough: the RNG, an earlier table, a token but not under Secure Boot, never the file alone */
        ASSERT_TRUE(random_seed_enough(&s));
        s = (RandomSeedSources) { .file = { file, sizeof file } };
        ASSERT_FALSE(random_seed_enough(&s));
        s.system_token = (RandomSeedSource) { token, sizeof token };
        ASSERT_TRUE(random_seed_enough(&s));
        s.secure_boot = true;
        ASSERT_FALSE(random_seed_enough(&s));
        s.previous_table = (RandomSeedSource) { prev, 31 };
        ASSERT_FALSE(random_seed_enough(&s));
        s.previous_table.size = 32;
        ASSERT_TRUE(random_seed_enough(&s));
}

static size_t u16(const char *s, uint16_t *buf) {
        size_t n = 0;

        for (; s[n]; n++)
                buf[n] = (uint8_t) s[n];
        buf[n] = 0;
        return n;
}

TEST(stub_cmdline_rules) {
        uint16_t b[64];
        unsigned profile;
        size_t n;

        n = u16("@12 rest", b);
        ASSERT_EQ(stub_options_profile(b, n, &profile), 4);
        ASSERT_EQ(profile, 12);
        n = u16("@3", b);
        ASSERT_EQ(stub_options_profile(b, n, &profile), 2);
        ASSERT_EQ(profile, 3);
        n = u16("@3x", b);
        ASSERT_EQ(stub_options_profile(b, n, &profile), 0);
        ASSERT_EQ(profile, 0);
        n = u16("@99999999999", b);     /* beyond 32 bits: not a selector */
        ASSERT_EQ(stub_options_profile(b, n, &profile), 0);
        n = u16("@", b);
        ASSERT_EQ(stub_options_profile(b, n, &profile), 0);

        n = u16(" \t a\x01" "b  c \x7f ", b);
        n = stub_cmdline_mangle(b, n);
        /* leading blanks gone, each inner control character a space (not merged), trailing ones cut */
        ASSERT_EQ(n, 6);
        for (size_t i = 0; i < n; i++)
                ASSERT_EQ(b[i], (uint8_t) "a b  c"[i]);
        n = u16("   ", b);
        ASSERT_EQ(stub_cmdline_mangle(b, n), 0);

        n = u16("root=x", b);
        ASSERT_TRUE(stub_options_are_text(b, n));
        b[2] = '\n';
        ASSERT_FALSE(stub_options_are_text(b, n));
        b[2] = 0;       /* what follows a NUL does not count */
        ASSERT_TRUE(stub_options_are_text(b, n));
}

/* Issue 33, item 6: systemd-stub 262's rules in a confidential VM (stub.c settle_command_line(),
 * cmdline_append_and_measure_smbios()): with Secure Boot no load options even without .cmdline, and
 * never the SMBIOS text. */
TEST(confidential_vm_rules) {
        uint16_t o[8], x[8];
        StubParameters p = { .options = o, .options_len = u16("quiet", o), .smbios_extra = x,
                             .smbios_extra_len = u16("extra", x) };

        ASSERT_TRUE(stub_options_used(&p) && stub_smbios_extra_used(&p));
        p.confidential_vm = true;
        ASSERT_TRUE(stub_options_used(&p));     /* without Secure Boot the options stay */
        ASSERT_FALSE(stub_smbios_extra_used(&p));
        p.secure_boot = true;
        ASSERT_FALSE(stub_options_used(&p));    /* no .cmdline, yet dropped */
        p.confidential_vm = false;
        ASSERT_TRUE(stub_options_used(&p));
        p.uki_has_cmdline = true;
        ASSERT_FALSE(stub_options_used(&p));
}

TEST(tcg2_event_layout) {
        uint16_t text[2] = { '1', 0 };
        MeasureEvent e = {
                .pcr = 12, .type = TCG_EV_EVENT_TAG, .tag = TCG_TAG_UKI_PROFILE, .data = text, .size = sizeof text,
                .description_utf16 = text, .description_utf16_size = sizeof text,
        };
        static const uint8_t want[] = {
                30, 0, 0, 0,                    /* Size: 4 + 14 + 8 + 4 */
                14, 0, 0, 0, 1, 0,              /* HeaderSize, HeaderVersion */
                12, 0, 0, 0, 6, 0, 0, 0,        /* PCRIndex, EventType EV_EVENT_TAG */
                0xdb, 0xd6, 0xae, 0x13,         /* the profile tag */
                4, 0, 0, 0, '1', 0, 0, 0,       /* size, "1" in UTF-16 with NUL */
        };
        void *event;
        size_t size;

        ASSERT_OK(measure_event_tcg2(&e, &event, &size));
        ASSERT_EQ(size, sizeof want);
        ASSERT_TRUE(memcmp(event, want, size) == 0);
        ffree(event);

        /* EV_IPL: the data is the description in UTF-16, no tag */
        e = (MeasureEvent) { .pcr = 11, .type = TCG_EV_IPL, .data = ".linux", .size = 7, .description = ".linux" };
        ASSERT_OK(measure_event_log_data(&e, &event, &size));
        ASSERT_EQ(size, 14);
        ASSERT_TRUE(memcmp(event, ".\0l\0i\0n\0u\0x\0\0", 14) == 0);
        ffree(event);
}

TEST(cpio_unpacks_with_gnu_cpio) {
        CpioFile files[] = { { "b.cred", "second", 6 }, { "a.cred", "first\n", 6 }, { "c.cred", "", 0 } };
        const char *dir = test_tmpdir();
        char cmd[512], path[512], *data;
        void *archive;
        size_t size, n;
        struct stat st;
        int fd;

        cpio_sort(files, 3);
        ASSERT_STREQ(files[0].name, "a.cred");
        ASSERT_OK(cpio_pack(".extra/credentials", 0500, 0400, files, 3, &archive, &size));
        ASSERT_EQ(size % 4, 0);
        ASSERT_TRUE(memcmp((const char *) archive + size - 14, "TRAILER!!!\0\0\0\0", 14) == 0);
        if (access("/usr/bin/cpio", X_OK) < 0) {
                test_note("GNU cpio not installed: the archive is not unpacked");
                ffree(archive);
                return;
        }
        fd = test_new_file("archive.cpio");
        ASSERT_EQ(write(fd, archive, size), (ssize_t) size);
        close(fd);
        ffree(archive);
        snprintf(cmd, sizeof cmd, "cd %s && cpio -idm --quiet < archive.cpio", dir);
        ASSERT_EQ(system(cmd), 0);
        snprintf(path, sizeof path, "%s/.extra/credentials/b.cred", dir);
        ASSERT_OK(read_full_file(path, 100, &data, &n));
        ASSERT_TRUE(n == 6 && memcmp(data, "second", 6) == 0);
        free(data);
        ASSERT_EQ(stat(path, &st), 0);
        ASSERT_EQ(st.st_mode & 07777, 0400);
        ASSERT_EQ(st.st_mtime, 0);
        snprintf(path, sizeof path, "%s/.extra/credentials", dir);
        ASSERT_EQ(stat(path, &st), 0);
        ASSERT_EQ(st.st_mode & 07777, 0500);
        snprintf(cmd, sizeof cmd, "chmod -R u+rwx %s/.extra", dir);
        ASSERT_EQ(system(cmd), 0);
}

TEST(event_log_describes_tagged_events) {
        /* systemd's tags carry UTF-16 text; the Linux EFI stub's (initrd, load options) ASCII */
        static const uint8_t profile[] = { 0xdb, 0xd6, 0xae, 0x13, 4, 0, 0, 0, '1', 0, 0, 0 };
        static const uint8_t initrd[] = { 0xec, 0x22, 0x3b, 0x8f, 13, 0, 0, 0, 'L', 'i', 'n', 'u', 'x', ' ',
                                          'i', 'n', 'i', 't', 'r', 'd', 0 };
        TpmLogEvent e = { .type = TCG_EV_EVENT_TAG, .data = profile, .data_size = sizeof profile };
        _cleanup_free_ char *a = tpm_log_event_describe(&e), *b = NULL;

        ASSERT_STREQ(a, "tag 0x13aed6db: 1");
        e.data = initrd;
        e.data_size = sizeof initrd;
        b = tpm_log_event_describe(&e);
        ASSERT_STREQ(b, "tag 0x8f3b22ec: Linux initrd");
}

TEST(event_log_text_escaped) {
        /* load options come from boot entries: an escape sequence in them must not reach the terminal */
        static const uint8_t options[] = { 0xed, 0x22, 0x3b, 0x8f, 8, 0, 0, 0, 'a', 0x1b, '[', '2', 'J', '\n', 'b', 0 };
        static const uint8_t ipl[] = { 'x', 0, 0x07, 0, 'y', 0, 0, 0 };
        TpmLogEvent e = { .type = TCG_EV_EVENT_TAG, .data = options, .data_size = sizeof options };
        _cleanup_free_ char *a = tpm_log_event_describe(&e), *b = NULL;

        ASSERT_STREQ(a, "tag 0x8f3b22ed: a\\x1b[2J\\x0ab");
        e = (TpmLogEvent) { .type = TCG_EV_IPL, .data = ipl, .data_size = sizeof ipl };
        b = tpm_log_event_describe(&e);
        ASSERT_STREQ(b, "x\\x07y");
}

TEST(event_log_replay_like_tpm2_eventlog) {
        /* A real log: OVMF and swtpm, urlboot's manager starting profile 1 of a UKI with an SMBIOS extra
         * (test/e2e tpm-manager-profile-smbios). The values are tpm2-tools' tpm2_eventlog's. */
        static const struct {
                unsigned pcr;
                const char *sha256;
        } want[] = {
                { 0, "1119fe2cc2550e9294b01a6355bfeb7ac1507139f07c0afec49f6644002acca9" },
                { 4, "e057df14993457b1fbd2e45233867d4c8298b333f35dc29906d41371dda3555f" },
                { 5, "a5ceb755d043f32431d63e39f5161464620a3437280494b5850dc1b47cc074e0" },
                { 7, "65caf8dd1e0ea7a6347b635d2b379c93b9a1351edc2afc3ecda700e534eb3068" },
                { 11, "63b2a1373a542e8044a22835648cc905c5a3f846cffe649d1d2d15524620fac3" },
                { 12, "ad1a4e570d1ecad93270cc46db10e874877fa8ced13ca8c01d350d39a5d9cc3a" },
        };
        _cleanup_free_ char *log = NULL;
        char hex[2 * PCR_DIGEST_MAX + 1];
        unsigned banks;
        size_t size;
        PcrSet s;

        ASSERT_OK(read_full_file(test_data_path("event-log-ovmf-swtpm.bin"), 1 << 20, &log, &size));
        ASSERT_OK(tpm_log_replay(log, size, &s, &banks));
        ASSERT_EQ(banks, 0xf);          /* swtpm's four banks */
        for (size_t i = 0; i < ELEMENTSOF(want); i++)
                ASSERT_STREQ(pcr_hex(&s, want[i].pcr, PCR_BANK_SHA256, hex), want[i].sha256);
        /* cut inside its header: refused; cut anywhere: never read beyond (the sanitizer build watches) */
        ASSERT_EQ(tpm_log_replay(log, 40, &s, &banks), -EBADMSG);
        for (size_t cut = 1; cut < size; cut += 97)
                (void) tpm_log_replay(log, cut, &s, &banks);
}

typedef struct Described {
        char text[2048];
} Described;

static int describe_pcr_7_and_14(const TpmLogEvent *e, void *userdata) {
        Described *d = userdata;
        _cleanup_free_ char *t = NULL;

        if (e->pcr != 7 && e->pcr != 14)
                return 0;
        t = tpm_log_event_describe(e);
        if (t)
                snprintf(d->text + strlen(d->text), sizeof d->text - strlen(d->text), "%u %s\n", e->pcr, t);
        return 0;
}

TEST(event_log_through_shim) {
        /* A real log: OVMF with Microsoft's keys, Debian's shim 16.1, a MOK, urlboot's manager and UKI (test/e2e
         * shim-mok-chain-tpm). PCRs as tpm2-tools' tpm2_eventlog replays them; shim's events described: its
         * ASCII EV_IPL names and the certificates that verified (EV_EFI_VARIABLE_AUTHORITY). */
        _cleanup_free_ char *log = NULL;
        char hex[2 * PCR_DIGEST_MAX + 1];
        Described d = {};
        unsigned banks;
        size_t size;
        PcrSet s;

        ASSERT_OK(read_full_file(test_data_path("event-log-shim-mok.bin"), 1 << 20, &log, &size));
        ASSERT_OK(tpm_log_replay(log, size, &s, &banks));
        ASSERT_STREQ(pcr_hex(&s, 7, PCR_BANK_SHA256, hex), "6e506d95537821c598921716768f4d277fe38bc06839871ccdcfafaf5b70f7ba");
        ASSERT_STREQ(pcr_hex(&s, 14, PCR_BANK_SHA256, hex), "ba36a7dd25947db6198a22c1fb07dc14e29d580442c7da0004b4d65a6621d864");
        ASSERT_OK(tpm_log_parse(log, size, describe_pcr_7_and_14, &d));
        ASSERT_TRUE(strstr(d.text, "7 authority db: /C=US/ST=Washington/L=Redmond/O=Microsoft Corporation/CN=Microsoft "
                                   "Corporation UEFI CA 2011\n"));
        ASSERT_TRUE(strstr(d.text, "14 MokList\n14 MokListX\n7 authority SbatLevel: sbat,1,2025021800\n14 MokListTrusted\n"
                                   "7 authority MokListRT: /CN=urlboot test MOK\n"));
}
