/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * UEFI device paths: finding the URL a program was loaded from and the GPT partition it was loaded
 * from, and building a Uri() path.
 *
 * A device path is a list of nodes (type, subtype, 16-bit length including the 4-byte header)
 * ending with the End node (0x7f/0xff). Firmware HTTP boot leaves a Uri() node (messaging, 24)
 * in the loaded image's device path; its data is the URL, not NUL-terminated. A program loaded from
 * a disk has a Hard Drive node (media, 1): partition number, start and size, the partition's
 * signature (its GPT UUID at offset 24), the partition format (40: 2 is GPT) and the signature type
 * (41: 2 is a GUID). A network boot's path names the NIC by a MAC Address node (messaging, 11):
 * 32 bytes of address, then the interface type (RFC 1700: 1 is Ethernet, whose address is the
 * first 6 bytes; OVMF and others also write 0 for it).
 */
#pragma once

#include "macro-fundamental.h"

#define DEVICE_PATH_TYPE_MESSAGING 0x03
#define DEVICE_PATH_SUBTYPE_MAC 11
#define DEVICE_PATH_SUBTYPE_IPV4 12
#define DEVICE_PATH_SUBTYPE_URI 24
#define DEVICE_PATH_TYPE_MEDIA 0x04
#define DEVICE_PATH_SUBTYPE_HARD_DRIVE 1
#define DEVICE_PATH_TYPE_END 0x7f
#define DEVICE_PATH_SUBTYPE_END_ENTIRE 0xff

/**
 * The GPT partition UUID of the first Hard Drive node with a GPT signature, within max bytes of dp.
 * @v ret  newly allocated uppercase text, "0FC63DAF-8483-4772-8E79-3D69D8477DE4" (ffree())
 * @ret 0, -ENOENT (no such node), -EBADMSG (a node runs past max or is shorter than it must be), -ENOMEM
 */
int device_path_find_partition_uuid(const void *dp, size_t max, char **ret);

/**
 * Find the first Uri() node within max bytes of dp.
 * @v ret  newly allocated NUL-terminated URL (ffree())
 * @ret 0, -ENOENT (no Uri() node), -EBADMSG (a node runs past max or has a length below 4), -ENOMEM
 */
int device_path_find_url(const void *dp, size_t max, char **ret);

/**
 * The Ethernet address of the first MAC Address node within max bytes of dp.
 * @ret 0, -ENOENT (no such node, or one of another interface type), -EBADMSG (malformed path)
 */
int device_path_find_mac(const void *dp, size_t max, uint8_t ret[6]);

/**
 * The local address and subnet mask of the first IPv4 node within max bytes of dp (firmware HTTP boot
 * writes the address DHCP gave it there: IPv4(10.0.2.15,TCP,DHCP,10.0.2.2,10.0.2.2,255.255.255.0)).
 * @ret 0, -ENOENT (no IPv4 node, or one without an address), -EBADMSG (malformed path)
 */
int device_path_find_ipv4(const void *dp, size_t max, uint8_t ret_local[4], uint8_t ret_mask[4]);

/**
 * dp (within max bytes) with its first Uri() node and everything after it replaced by Uri(url): the
 * path of another file fetched through the same NIC and address. The node holds the URL with a NUL, as
 * firmware HTTP boot writes it (systemd-stub reads it up to the NUL).
 * @ret 0, -ENOENT (no Uri() node), -EBADMSG, -E2BIG (URL too long for a node), -ENOMEM
 */
int device_path_replace_url(const void *dp, size_t max, const char *url, void **ret, size_t *ret_size);

/** Format 6 address bytes as "52:54:00:12:34:56"; buf must hold 18 bytes. */
char *mac_to_string(const uint8_t mac[6], char buf[18]);

/**
 * Build a device path of one Uri(url) node and the End node.
 * @ret 0, -E2BIG for URLs that do not fit a node, -ENOMEM
 */
int device_path_make_url(const char *url, void **ret, size_t *ret_size);
