/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reading PE/COFF images (UEFI programs, UKIs): headers and sections, bounds-checked.
 *
 * The same code reads a file on the host (section data at PointerToRawData) and the stub's own
 * image in memory as the firmware loaded it (section data at VirtualAddress).
 */
#pragma once

#include "macro-fundamental.h"

#define PE_SECTION_NAME_MAX 8

/* Offsets inside the PE32+ optional header */
#define PE_OPT_SECTION_ALIGNMENT 32
#define PE_OPT_FILE_ALIGNMENT 36
#define PE_OPT_SIZE_OF_IMAGE 56
#define PE_OPT_SIZE_OF_HEADERS 60
#define PE_OPT_CHECKSUM 64
#define PE_OPT_NUMBER_OF_RVA_AND_SIZES 108
#define PE_OPT_DATA_DIRECTORY 112
#define PE_DATA_DIRECTORY_SECURITY 4

#define PE_SECTION_HEADER_SIZE 40
#define PE_SCN_CNT_INITIALIZED_DATA 0x00000040U
#define PE_SCN_MEM_READ 0x40000000U
#define PE_SCN_MEM_DISCARDABLE 0x02000000U

typedef struct PeHeaders {
        uint32_t pe_offset;             /* of "PE\0\0" */
        uint16_t machine;
        uint16_t n_sections;
        uint16_t size_of_optional_header;
        uint32_t optional_header_offset;
        uint32_t section_table_offset;
        bool pe32plus;
        uint32_t section_alignment;
        uint32_t file_alignment;
        uint32_t size_of_image;
        uint32_t size_of_headers;
} PeHeaders;

typedef struct PeSection {
        char name[PE_SECTION_NAME_MAX + 1];
        uint32_t virtual_size;
        uint32_t virtual_address;
        uint32_t raw_size;
        uint32_t raw_offset;
        uint32_t characteristics;
} PeSection;

/** Where a section's data is, and how long it is once loaded (VirtualSize). */
typedef struct PeSectionData {
        const uint8_t *data;
        size_t size;            /* bytes available at data */
        size_t memory_size;     /* as loaded; beyond size the firmware fills with zeros */
} PeSectionData;

/** Read little-endian values from unaligned memory. */
uint16_t pe_le16(const uint8_t *p);
uint32_t pe_le32(const uint8_t *p);

/**
 * Parse and check the headers of an image of size bytes.
 * @ret 0, -EBADMSG when it is not a PE image or a header lies outside the buffer
 */
int pe_parse_headers(const void *image, size_t size, PeHeaders *ret);

/** Section i (0-based) of the table. @ret 0 or -EBADMSG / -ERANGE */
int pe_get_section(const void *image, size_t size, const PeHeaders *h, size_t i, PeSection *ret);

/**
 * Find a section by name and return where its data is.
 * @v loaded     true: the image is as the firmware loaded it (data at VirtualAddress, VirtualSize long);
 *               false: a file (data at PointerToRawData, min(VirtualSize, SizeOfRawData) long)
 * @ret 0, -ENOENT when absent, -EBADMSG when the section lies outside the buffer
 */
int pe_find_section(const void *image, size_t size, const char *name, bool loaded, const uint8_t **ret_data,
                    size_t *ret_size);

/**
 * Find a section of profile N of a multi-profile UKI: sections before the first ".profile" are the
 * base, each ".profile" section starts the next profile (0, 1, ...), and a profile's own section of
 * that name wins over the base's. An image without ".profile" sections has just profile 0 (the base).
 * @ret 0, -ENOENT (no such section), -ERANGE (no such profile), -EBADMSG
 */
int pe_find_profile_section(const void *image, size_t size, unsigned profile, const char *name, bool loaded,
                            const uint8_t **ret_data, size_t *ret_size);

/** Profiles past this many are ignored, as systemd-stub and systemd-boot do. */
#define PE_PROFILES_MAX 256

/** "@4294967295": the base sections only, no profile's (systemd-stub boots them so; it is not an error). */
#define PE_PROFILE_BASE UINT32_MAX

/** Whether a profile number can be booted from this UKI: one it has, or PE_PROFILE_BASE. */
bool pe_profile_exists(const void *image, size_t size, unsigned profile);

/** pe_find_profile_section(), with the section's size in memory as well. */
int pe_find_profile_section_data(const void *image, size_t size, unsigned profile, const char *name, bool loaded,
                                 PeSectionData *ret);

/**
 * The sections of one name in one range of the section table, in their order: range PE_PROFILE_BASE is
 * the base (before the first .profile), range N profile N's own (from its .profile to the next). The
 * sections a UKI may have several of (.dtbauto) are chosen among those of one range.
 * @v max    at most this many are returned (those after are left out)
 * @ret 0 (*ret_n may be 0), -EBADMSG
 */
int pe_range_sections(const void *image, size_t size, unsigned range, const char *name, bool loaded,
                      PeSectionData *ret, size_t max, size_t *ret_n);

/** The number of profiles (".profile" sections; 1 when there are none; at most PE_PROFILES_MAX). */
unsigned pe_count_profiles(const void *image, size_t size);

/**
 * Where some named sections are, for every profile at once, from one walk of the section table:
 * what the boot manager needs to list a UKI's profiles in time linear in its sections (a lookup per
 * profile and name would be quadratic, and a UKI may hold 65535 sections).
 */
typedef struct PeProfileSections {
        unsigned n_profiles;            /* 1 to PE_PROFILES_MAX */
        size_t n_names;
        PeSection *sections;            /* rows of n_names: the base's, then one per profile */
        bool *found;                    /* the same layout */
} PeProfileSections;

/** @ret 0, -EBADMSG, -ENOMEM */
int pe_profile_sections_collect(const void *image, size_t size, const char *const *names, size_t n_names,
                                PeProfileSections *ret);

/**
 * The data of names[k] for a profile: its own section, else the base's (never the base's
 * ".profile"). @ret 0, -ENOENT, -ERANGE (no such profile), -EBADMSG
 */
int pe_profile_sections_get(const PeProfileSections *ps, const void *image, size_t size, unsigned profile, size_t k,
                            bool loaded, const uint8_t **ret_data, size_t *ret_size);

void pe_profile_sections_done(PeProfileSections *ps);
