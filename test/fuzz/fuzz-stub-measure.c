/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: what the stub measures, on the same bytes read three ways. As load options (UTF-16):
 * the cleaned-up command line has no control character and no blank at either end, and cleaning it
 * again changes nothing. As a UKI file: every PCR 11 event lies inside the input. As file names and
 * contents for the ESP's archives: what cpio_pack writes reads back, name for name, byte for byte. */
#include <stdlib.h>
#include <string.h>

#include "cpio.h"
#include "fuzz.h"
#include "memory-fundamental.h"
#include "stub-cmdline.h"
#include "stub-sidecar.h"
#include "uki-measure.h"

static void check_cmdline(const uint8_t *data, size_t size) {
        size_t n = size / 2, len, again, skip;
        uint16_t *o = malloc((n + 1) * sizeof(uint16_t));
        unsigned profile;

        memcpy(o, data, n * sizeof(uint16_t));
        o[n] = 0;
        (void) stub_options_are_text(o, n);
        skip = stub_options_profile(o, n, &profile);
        if (skip > n || (skip == 0 && profile != 0))
                abort();
        len = stub_cmdline_mangle(o + skip, n - skip);
        if (len > n - skip)
                abort();
        for (size_t i = 0; i < len; i++)
                if (o[skip + i] < 0x20 || o[skip + i] == 0x7f)
                        abort();
        if (len > 0 && (o[skip] == ' ' || o[skip + len - 1] == ' '))
                abort();
        again = stub_cmdline_mangle(o + skip, len);
        if (again != len)
                abort();
        free(o);
}

typedef struct Bounds {
        const uint8_t *start, *end;
} Bounds;

static int check_event(const MeasureEvent *e, void *userdata) {
        const Bounds *b = userdata;
        const uint8_t *p = e->data;

        /* a section's bytes come from the input; only its name is ours */
        if (e->size && e->data != (const void *) e->description &&
            (p < b->start || p > b->end || e->size > (size_t) (b->end - p)))
                abort();
        if (e->pcr != TPM2_PCR_KERNEL_BOOT || e->zeros > UINT32_MAX)
                abort();
        return 0;
}

static uint32_t hex8(const uint8_t *p) {
        uint32_t v = 0;

        for (size_t i = 0; i < 8; i++)
                v = v << 4 | (uint32_t) (p[i] <= '9' ? p[i] - '0' : (p[i] | 0x20) - 'a' + 10);
        return v;
}

/* Reads the archive back: the records after the directories must be the files, in sorted order. */
static void check_archive(const uint8_t *a, size_t size, const CpioFile *files, size_t n, const char *dir) {
        size_t off = 0, file = 0;

        while (off + 110 <= size) {
                uint32_t mode = hex8(a + off + 14), data_size = hex8(a + off + 54), name_size = hex8(a + off + 94);
                const char *name = (const char *) a + off + 110;
                size_t data = (off + 110 + name_size + 3) & ~(size_t) 3;

                if (memcmp(a + off, "070701", 6) != 0 || data + data_size > size)
                        abort();
                if (strcmp(name, "TRAILER!!!") == 0)
                        break;
                if ((mode & 0170000) == 0100000) {
                        if (file >= n || strncmp(name, dir, strlen(dir)) != 0 ||
                            strcmp(name + strlen(dir) + 1, files[file].name) != 0 || data_size != files[file].size ||
                            memcmp(a + data, files[file].data, data_size) != 0)
                                abort();
                        file++;
                }
                off = (data + data_size + 3) & ~(size_t) 3;
        }
        if (file != n || off + 124 != size)
                abort();
}

static void check_sidecar(const uint8_t *data, size_t size) {
        char *text = malloc(size + 1), *save = NULL;
        CpioFile files[16];
        size_t n = 0;
        const StubSidecar *s = stub_sidecar(0);
        void *archive;
        size_t archive_size;
        MeasureEvent e;

        memcpy(text, data, size);
        text[size] = 0;
        /* lines "NAME CONTENT": the names the stub would take, with their contents */
        for (char *l = strtok_r(text, "\n", &save); l && n < 16; l = strtok_r(NULL, "\n", &save)) {
                char *space = strchr(l, ' ');
                if (!space)
                        continue;
                *space = 0;
                if (stub_sidecar_wants(s, l))
                        files[n++] = (CpioFile) { l, space + 1, strlen(space + 1) };
        }
        if (stub_sidecar_pack(s, files, n, &archive, &archive_size, &e) >= 0) {
                if (e.data != archive || e.size != archive_size || e.pcr != TPM2_PCR_KERNEL_CONFIG)
                        abort();
                check_archive(archive, archive_size, files, n, s->target_dir);
                ffree(archive);
        }
        free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        Bounds b = { .start = data, .end = data + size };

        check_cmdline(data, size);
        for (unsigned profile = 0; profile < 3; profile++)
                (void) uki_measure_sections(data, size, false, profile, NULL, check_event, &b);
        check_sidecar(data, size);
        return 0;
}
