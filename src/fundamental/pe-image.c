/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reading PE/COFF images, bounds-checked.
 */
#include "assert-fundamental.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "pe-image.h"
#include "string-fundamental.h"

uint16_t pe_le16(const uint8_t *p) {
        fassert(p);

        return (uint16_t) (p[0] | p[1] << 8);
}

uint32_t pe_le32(const uint8_t *p) {
        fassert(p);

        return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

/* Is [offset, offset + len) inside a buffer of size bytes? Without overflow. */
static bool within(size_t size, uint64_t offset, uint64_t len) {
        return offset <= size && len <= size - offset;
}

int pe_parse_headers(const void *image, size_t size, PeHeaders *ret) {
        const uint8_t *p = image;
        PeHeaders h = {};
        uint16_t magic;

        fassert(image);
        fassert(ret);

        if (!within(size, 0, 0x40) || p[0] != 'M' || p[1] != 'Z')
                return -EBADMSG;
        h.pe_offset = pe_le32(p + 0x3c);
        if (!within(size, h.pe_offset, 24) || fmemcmp(p + h.pe_offset, "PE\0\0", 4) != 0)
                return -EBADMSG;

        h.machine = pe_le16(p + h.pe_offset + 4);
        h.n_sections = pe_le16(p + h.pe_offset + 6);
        h.size_of_optional_header = pe_le16(p + h.pe_offset + 20);
        h.optional_header_offset = h.pe_offset + 24;
        h.section_table_offset = h.optional_header_offset + h.size_of_optional_header;

        if (h.size_of_optional_header < 2 || !within(size, h.optional_header_offset, h.size_of_optional_header))
                return -EBADMSG;
        magic = pe_le16(p + h.optional_header_offset);
        if (magic != 0x20b && magic != 0x10b)
                return -EBADMSG;
        h.pe32plus = magic == 0x20b;
        /* Both layouts have these fields at the same offsets. */
        if (h.size_of_optional_header < PE_OPT_SIZE_OF_HEADERS + 4)
                return -EBADMSG;
        h.section_alignment = pe_le32(p + h.optional_header_offset + PE_OPT_SECTION_ALIGNMENT);
        h.file_alignment = pe_le32(p + h.optional_header_offset + PE_OPT_FILE_ALIGNMENT);
        h.size_of_image = pe_le32(p + h.optional_header_offset + PE_OPT_SIZE_OF_IMAGE);
        h.size_of_headers = pe_le32(p + h.optional_header_offset + PE_OPT_SIZE_OF_HEADERS);

        if (!within(size, h.section_table_offset, (uint64_t) h.n_sections * PE_SECTION_HEADER_SIZE))
                return -EBADMSG;

        *ret = h;
        return 0;
}

int pe_get_section(const void *image, size_t size, const PeHeaders *h, size_t i, PeSection *ret) {
        const uint8_t *s;

        fassert(image);
        fassert(h);
        fassert(ret);

        if (i >= h->n_sections)
                return -ERANGE;
        s = (const uint8_t *) image + h->section_table_offset + i * PE_SECTION_HEADER_SIZE;
        if (!within(size, h->section_table_offset + (uint64_t) i * PE_SECTION_HEADER_SIZE, PE_SECTION_HEADER_SIZE))
                return -EBADMSG;

        fmemset(ret, 0, sizeof *ret);
        fmemcpy(ret->name, s, PE_SECTION_NAME_MAX);
        ret->name[PE_SECTION_NAME_MAX] = 0;
        ret->virtual_size = pe_le32(s + 8);
        ret->virtual_address = pe_le32(s + 12);
        ret->raw_size = pe_le32(s + 16);
        ret->raw_offset = pe_le32(s + 20);
        ret->characteristics = pe_le32(s + 36);
        return 0;
}

static int section_data(const void *image, size_t size, const PeSection *s, bool loaded, PeSectionData *ret) {
        uint64_t offset, len, memory;

        if (loaded) {
                offset = s->virtual_address;
                len = memory = s->virtual_size;
        } else {
                offset = s->raw_offset;
                /* Raw data is padded to FileAlignment; the virtual size is the real length. A virtual
                 * size beyond the raw data is zeros in memory (older kernels' .linux, as ukify sets it).
                 * A section with VirtualSize 0 is empty, whatever raw data the file has: nothing of it is
                 * loaded, and both stubs skip it (systemd's PE_SECTION_VECTOR_IS_SET). */
                len = s->virtual_size < s->raw_size ? s->virtual_size : s->raw_size;
                memory = s->virtual_size;
        }
        if (!within(size, offset, len))
                return -EBADMSG;
        *ret = (PeSectionData) { .data = (const uint8_t *) image + offset, .size = (size_t) len,
                                 .memory_size = (size_t) memory };
        return 0;
}

static int section_pointer(const void *image, size_t size, const PeSection *s, bool loaded, const uint8_t **ret_data,
                           size_t *ret_size) {
        PeSectionData d;
        int r = section_data(image, size, s, loaded, &d);

        if (r < 0)
                return r;
        *ret_data = d.data;
        *ret_size = d.size;
        return 0;
}

/* Walks the section table: 1 and the next section, 0 at the end, negative for a damaged table. */
typedef struct PeWalk {
        PeHeaders h;
        size_t next;
} PeWalk;

static int walk_start(const void *image, size_t size, PeWalk *w) {
        w->next = 0;
        return pe_parse_headers(image, size, &w->h);
}

static int walk_next(const void *image, size_t size, PeWalk *w, PeSection *ret) {
        int r;

        if (w->next >= w->h.n_sections)
                return 0;
        r = pe_get_section(image, size, &w->h, w->next++, ret);
        return r < 0 ? r : 1;
}

int pe_find_profile_section(const void *image, size_t size, unsigned profile, const char *name, bool loaded,
                            const uint8_t **ret_data, size_t *ret_size) {
        PeSectionData d;
        int r = pe_find_profile_section_data(image, size, profile, name, loaded, &d);

        fassert(image || size == 0);
        fassert(name);
        fassert(ret_data);
        fassert(ret_size);

        if (r < 0)
                return r;
        *ret_data = d.data;
        *ret_size = d.size;
        return 0;
}

int pe_find_profile_section_data(const void *image, size_t size, unsigned profile, const char *name, bool loaded,
                                 PeSectionData *ret) {
        /* -1 stands for the base sections: those before the first .profile */
        long want = profile == PE_PROFILE_BASE ? -1 : (long) profile, current = -1;
        PeSection base = {}, s;
        bool have_base = false;
        PeWalk w;
        int r;

        fassert(image);
        fassert(name);
        fassert(ret);

        if (profile >= PE_PROFILES_MAX && profile != PE_PROFILE_BASE)
                return -ERANGE;
        r = walk_start(image, size, &w);
        if (r < 0)
                return r;
        while ((r = walk_next(image, size, &w, &s)) > 0) {
                if (fstreq(s.name, ".profile")) {
                        current++;
                        if (current > want)
                                break;
                        /* a profile's own .profile section says its ID and TITLE */
                        if (current == want && fstreq(name, ".profile"))
                                return section_data(image, size, &s, loaded, ret);
                        continue;
                }
                if (!fstreq(s.name, name))
                        continue;
                if (current == want)
                        return section_data(image, size, &s, loaded, ret);
                if (current < 0 && !have_base) {
                        base = s;
                        have_base = true;
                }
        }
        if (r < 0)
                return r;
        /* Without .profile sections there is only profile 0. */
        if ((current < 0 && want > 0) || (current >= 0 && current < want))
                return -ERANGE;
        if (!have_base)
                return -ENOENT;
        return section_data(image, size, &base, loaded, ret);
}

bool pe_profile_exists(const void *image, size_t size, unsigned profile) {
        fassert(image || size == 0);

        return profile == PE_PROFILE_BASE || profile < pe_count_profiles(image, size);
}

unsigned pe_count_profiles(const void *image, size_t size) {
        unsigned n = 0;
        PeSection s;
        PeWalk w;

        fassert(image || size == 0);

        if (walk_start(image, size, &w) < 0)
                return 1;
        while (n < PE_PROFILES_MAX && walk_next(image, size, &w, &s) > 0)
                if (fstreq(s.name, ".profile"))
                        n++;
        return n ? n : 1;
}

void pe_profile_sections_done(PeProfileSections *ps) {
        fassert(ps);

        ffree(ps->sections);
        ffree(ps->found);
        fmemset(ps, 0, sizeof *ps);
}

/* Row 0 is the base, row p + 1 profile p. */
static size_t slot_of(const PeProfileSections *ps, int current, size_t k) {
        return (size_t) (current + 1) * ps->n_names + k;
}

int pe_profile_sections_collect(const void *image, size_t size, const char *const *names, size_t n_names,
                                PeProfileSections *ret) {
        PeProfileSections ps = { .n_profiles = pe_count_profiles(image, size), .n_names = n_names };
        size_t n_slots = (size_t) (ps.n_profiles + 1) * n_names;
        int current = -1, r;
        PeSection s;
        PeWalk w;

        fassert(names || n_names == 0);
        fassert(ret);
        fassert(image || size == 0);

        r = walk_start(image, size, &w);
        if (r < 0)
                return r;
        ps.sections = fmalloc(n_slots * sizeof *ps.sections + 1);
        ps.found = fmalloc(n_slots * sizeof *ps.found + 1);
        if (!ps.sections || !ps.found) {
                pe_profile_sections_done(&ps);
                return -ENOMEM;
        }
        fmemset(ps.found, 0, n_slots * sizeof *ps.found);
        while ((r = walk_next(image, size, &w, &s)) > 0) {
                if (fstreq(s.name, ".profile") && ++current >= (int) ps.n_profiles)
                        break; /* past PE_PROFILES_MAX */
                for (size_t k = 0; k < n_names; k++) {
                        size_t i = slot_of(&ps, current, k);

                        /* The first of a name counts, in the base and in each profile. */
                        if (fstreq(s.name, names[k]) && !ps.found[i]) {
                                ps.sections[i] = s;
                                ps.found[i] = true;
                        }
                }
        }
        if (r < 0) {
                pe_profile_sections_done(&ps);
                return r;
        }
        *ret = ps;
        return 0;
}

int pe_profile_sections_get(const PeProfileSections *ps, const void *image, size_t size, unsigned profile, size_t k,
                            bool loaded, const uint8_t **ret_data, size_t *ret_size) {
        size_t own, base;

        fassert(ps);
        fassert(ret_data);
        fassert(ret_size);
        fassert(image || size == 0);

        if (profile >= ps->n_profiles || k >= ps->n_names)
                return -ERANGE;
        own = slot_of(ps, (int) profile, k);
        base = slot_of(ps, -1, k);
        if (ps->found[own])
                return section_pointer(image, size, &ps->sections[own], loaded, ret_data, ret_size);
        if (ps->found[base])
                return section_pointer(image, size, &ps->sections[base], loaded, ret_data, ret_size);
        return -ENOENT;
}

int pe_find_section(const void *image, size_t size, const char *name, bool loaded, const uint8_t **ret_data,
                    size_t *ret_size) {
        PeSection s;
        PeWalk w;
        int r;

        fassert(name);
        fassert(ret_data);
        fassert(ret_size);
        fassert(image || size == 0);

        r = walk_start(image, size, &w);
        if (r < 0)
                return r;
        while ((r = walk_next(image, size, &w, &s)) > 0)
                if (fstreq(s.name, name))
                        return section_pointer(image, size, &s, loaded, ret_data, ret_size);
        return r < 0 ? r : -ENOENT;
}

int pe_range_sections(const void *image, size_t size, unsigned range, const char *name, bool loaded,
                      PeSectionData *ret, size_t max, size_t *ret_n) {
        /* -1 stands for the base sections: those before the first .profile */
        long want = range == PE_PROFILE_BASE ? -1 : (long) range, current = -1;
        size_t n = 0;
        PeSection s;
        PeWalk w;
        int r;

        fassert(name);
        fassert(ret || max == 0);
        fassert(ret_n);

        r = walk_start(image, size, &w);
        if (r < 0)
                return r;
        while ((r = walk_next(image, size, &w, &s)) > 0) {
                if (fstreq(s.name, ".profile") && ++current > want)
                        break;
                if (current != want || !fstreq(s.name, name) || n == max)
                        continue;
                r = section_data(image, size, &s, loaded, &ret[n]);
                if (r < 0)
                        return r;
                n++;
        }
        if (r < 0)
                return r;
        *ret_n = n;
        return 0;
}
