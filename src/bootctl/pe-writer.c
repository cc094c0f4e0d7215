/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Appending sections to a PE32+ image.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error-buf.h"
#include "macro.h"
#include "pe-image.h"
#include "pe-writer.h"

static void put_le16(uint8_t *p, uint16_t v) {
        p[0] = (uint8_t) v;
        p[1] = (uint8_t) (v >> 8);
}

static void put_le32(uint8_t *p, uint32_t v) {
        for (int i = 0; i < 4; i++)
                p[i] = (uint8_t) (v >> (8 * i));
}

static uint64_t align_up(uint64_t x, uint32_t a) {
        return a ? (x + a - 1) / a * a : x;
}

uint32_t pe_checksum(const void *image, size_t size, size_t checksum_offset) {
        const uint8_t *p = image;
        uint64_t sum = 0;

        assert(image || size == 0);

        for (size_t i = 0; i < size; i += 2) {
                uint32_t w;
                if (i >= checksum_offset && i < checksum_offset + 4)
                        continue;
                w = p[i] | (i + 1 < size ? p[i + 1] << 8 : 0);
                sum += w;
                sum = (sum & 0xffff) + (sum >> 16);
        }
        sum = (sum & 0xffff) + (sum >> 16);
        return (uint32_t) (sum + size);
}

int pe_append_sections(const void *image, size_t size, const PeNewSection *sections, size_t n, void **ret,
                       size_t *ret_size, char *error, size_t error_size) {
        const uint8_t *in = image;
        uint64_t va_end = 0, file_end = 0, first_raw = UINT64_MAX, out_size, init_data;
        uint32_t opt, security_size;
        PeHeaders h;
        uint8_t *out;
        int r;

        assert(image || size == 0);
        assert(sections || n == 0);
        assert(ret);
        assert(ret_size);

        r = pe_parse_headers(image, size, &h);
        if (r < 0 || !h.pe32plus)
                return error_setf(error, error_size, -EBADMSG, "not a PE32+ image");
        opt = h.optional_header_offset;
        /* We rewrite fields up to the checksum and SizeOfImage: an optional header shorter than that would
         * have them land in the section table (found by fuzz-pe-writer: a new section lost its name). */
        if (h.size_of_optional_header < PE_OPT_NUMBER_OF_RVA_AND_SIZES + 4)
                return error_setf(error, error_size, -EBADMSG, "the stub's optional header is too short (%u bytes)",
                                  (unsigned) h.size_of_optional_header);
        if (h.size_of_optional_header >= PE_OPT_DATA_DIRECTORY + 8 * (PE_DATA_DIRECTORY_SECURITY + 1) &&
            pe_le32(in + opt + PE_OPT_NUMBER_OF_RVA_AND_SIZES) > PE_DATA_DIRECTORY_SECURITY) {
                security_size = pe_le32(in + opt + PE_OPT_DATA_DIRECTORY + 8 * PE_DATA_DIRECTORY_SECURITY + 4);
                if (security_size)
                        return error_setf(error, error_size, -EPERM,
                                          "the stub is signed; build the UKI from an unsigned stub and sign the UKI");
        }
        if (h.section_alignment == 0 || h.file_alignment == 0)
                return error_setf(error, error_size, -EBADMSG, "the stub has no section or file alignment");
        /* The PE format's bounds: every section's data is padded to FileAlignment, so a stub claiming a
         * gigabyte would make us allocate gigabytes (found by fuzz-pe-writer). */
        if (h.file_alignment < 512 || h.file_alignment > 65536 || (h.file_alignment & (h.file_alignment - 1)))
                return error_setf(error, error_size, -EBADMSG,
                                  "the stub's file alignment %" PRIu32 " is not a power of two from 512 to 64 KiB",
                                  h.file_alignment);

        for (size_t i = 0; i < h.n_sections; i++) {
                PeSection s;
                r = pe_get_section(image, size, &h, i, &s);
                if (r < 0)
                        return error_setf(error, error_size, -EBADMSG, "damaged section table");
                va_end = MAX(va_end, (uint64_t) s.virtual_address + MAX(s.virtual_size, s.raw_size));
                if (s.raw_size > 0) {
                        file_end = MAX(file_end, (uint64_t) s.raw_offset + s.raw_size);
                        first_raw = MIN(first_raw, (uint64_t) s.raw_offset);
                }
        }
        if (file_end > size || h.size_of_headers > size)
                return error_setf(error, error_size, -EBADMSG,
                                  "a section or the headers lie beyond the end of the file");
        /* A stub without section data still has headers, which the new sections must follow. */
        file_end = MAX(file_end, (uint64_t) h.size_of_headers);
        va_end = MAX(va_end, (uint64_t) h.size_of_headers);
        /* The new headers must fit between the section table and the first section's data. */
        if ((uint64_t) h.section_table_offset + (uint64_t) (h.n_sections + n) * PE_SECTION_HEADER_SIZE >
            MIN((uint64_t) h.size_of_headers, first_raw))
                return error_setf(error, error_size, -ENOSPC, "no room for %zu more section headers in the stub", n);

        va_end = align_up(va_end, h.section_alignment);
        file_end = align_up(file_end, h.file_alignment);
        out_size = file_end;
        for (size_t i = 0; i < n; i++)
                out_size += align_up(sections[i].size, h.file_alignment);
        if (out_size > UINT32_MAX)
                return error_setf(error, error_size, -EFBIG, "the image would exceed 4 GiB");

        out = calloc(1, out_size);
        if (!out)
                return -ENOMEM;
        memcpy(out, in, file_end <= size ? file_end : size);

        init_data = pe_le32(out + opt + 8);
        for (size_t i = 0; i < n; i++) {
                uint8_t *sh = out + h.section_table_offset + (h.n_sections + i) * PE_SECTION_HEADER_SIZE;
                size_t nl = strnlen(sections[i].name, PE_SECTION_NAME_MAX);
                uint64_t raw = align_up(sections[i].size, h.file_alignment);

                memset(sh, 0, PE_SECTION_HEADER_SIZE);
                memcpy(sh, sections[i].name, nl);
                put_le32(sh + 8, (uint32_t) sections[i].size);
                put_le32(sh + 12, (uint32_t) va_end);
                put_le32(sh + 16, (uint32_t) raw);
                put_le32(sh + 20, (uint32_t) file_end);
                put_le32(sh + 36, PE_SCN_CNT_INITIALIZED_DATA | PE_SCN_MEM_READ);
                memcpy(out + file_end, sections[i].data, sections[i].size);

                init_data += raw;
                file_end += raw;
                va_end = align_up(va_end + MAX(sections[i].size, (size_t) 1), h.section_alignment);
        }

        put_le16(out + h.pe_offset + 6, (uint16_t) (h.n_sections + n));
        put_le32(out + opt + 8, (uint32_t) MIN(init_data, (uint64_t) UINT32_MAX));
        put_le32(out + opt + PE_OPT_SIZE_OF_IMAGE, (uint32_t) va_end);
        put_le32(out + opt + PE_OPT_CHECKSUM, 0);
        put_le32(out + opt + PE_OPT_CHECKSUM, pe_checksum(out, out_size, opt + PE_OPT_CHECKSUM));

        *ret = out;
        *ret_size = out_size;
        return 0;
}
