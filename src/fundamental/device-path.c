/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * UEFI device paths: the URL and the partition a program was loaded from.
 */
#include "assert-fundamental.h"
#include "device-path.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "pe-image.h"
#include "string-fundamental.h"

#define HARD_DRIVE_NODE_SIZE 42
#define HARD_DRIVE_SIGNATURE 24
#define HARD_DRIVE_FORMAT 40
#define HARD_DRIVE_SIGNATURE_TYPE 41
#define HARD_DRIVE_FORMAT_GPT 2
#define HARD_DRIVE_SIGNATURE_GUID 2
#define MAC_NODE_DATA_SIZE 33           /* 32 bytes of address, 1 byte of interface type */
#define MAC_IF_TYPE_ETHERNET 1
/* IPv4 node data: local address, remote address, local port, remote port, protocol, static flag,
 * gateway, subnet mask. */
#define IPV4_NODE_DATA_SIZE 23
#define IPV4_NODE_LOCAL 0
#define IPV4_NODE_MASK 19

/* A node of a device path, checked to lie inside it. */
typedef struct Node {
        uint8_t type;
        uint8_t subtype;
        const uint8_t *data;    /* after the 4-byte header */
        size_t data_size;
} Node;

/* The node at *off, moving *off past it: 1, 0 at the End node, -EBADMSG when it does not fit. */
static int next_node(const uint8_t *p, size_t max, size_t *off, Node *ret) {
        uint16_t len;

        if (max - *off < 4)
                return -EBADMSG;
        len = pe_le16(p + *off + 2);
        if (len < 4 || len > max - *off)
                return -EBADMSG;
        *ret = (Node) { .type = p[*off], .subtype = p[*off + 1], .data = p + *off + 4, .data_size = len - 4U };
        *off += len;
        return ret->type == DEVICE_PATH_TYPE_END && ret->subtype == DEVICE_PATH_SUBTYPE_END_ENTIRE ? 0 : 1;
}

/* GUIDs are stored mixed-endian: the first three fields little-endian, the rest as bytes. */
static void format_guid(const uint8_t *g, char *buf) {
        static const char hex[] = "0123456789ABCDEF";
        static const uint8_t order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };

        for (size_t k = 0; k < 16; k++) {
                if (k == 4 || k == 6 || k == 8 || k == 10)
                        *buf++ = '-';
                *buf++ = hex[g[order[k]] >> 4];
                *buf++ = hex[g[order[k]] & 15];
        }
        *buf = 0;
}

int device_path_find_partition_uuid(const void *dp, size_t max, char **ret) {
        size_t off = 0;
        Node n;
        int r;

        fassert(dp || max == 0);
        fassert(ret);

        while ((r = next_node(dp, max, &off, &n)) > 0) {
                char *u;

                if (n.type != DEVICE_PATH_TYPE_MEDIA || n.subtype != DEVICE_PATH_SUBTYPE_HARD_DRIVE)
                        continue;
                if (n.data_size + 4 < HARD_DRIVE_NODE_SIZE)
                        return -EBADMSG;
                /* an MBR partition has a 32-bit signature, not a UUID: look further */
                if (n.data[HARD_DRIVE_FORMAT - 4] != HARD_DRIVE_FORMAT_GPT ||
                    n.data[HARD_DRIVE_SIGNATURE_TYPE - 4] != HARD_DRIVE_SIGNATURE_GUID)
                        continue;
                u = fmalloc(37);
                if (!u)
                        return -ENOMEM;
                format_guid(n.data + HARD_DRIVE_SIGNATURE - 4, u);
                *ret = u;
                return 0;
        }
        return r == 0 ? -ENOENT : r;
}

int device_path_find_url(const void *dp, size_t max, char **ret) {
        size_t off = 0;
        Node n;
        int r;

        fassert(dp || max == 0);
        fassert(ret);

        while ((r = next_node(dp, max, &off, &n)) > 0) {
                char *u;

                if (n.type != DEVICE_PATH_TYPE_MESSAGING || n.subtype != DEVICE_PATH_SUBTYPE_URI)
                        continue;
                /* The data is Length-4 bytes; an embedded NUL ends the URL early. */
                u = fstrndup((const char *) n.data, n.data_size);
                if (!u)
                        return -ENOMEM;
                if (!*u) {
                        ffree(u);
                        return -ENOENT;
                }
                *ret = u;
                return 0;
        }
        return r == 0 ? -ENOENT : r;
}

int device_path_find_mac(const void *dp, size_t max, uint8_t ret[6]) {
        size_t off = 0;
        Node n;
        int r;

        fassert(dp || max == 0);
        fassert(ret);

        while ((r = next_node(dp, max, &off, &n)) > 0) {
                uint8_t if_type;

                if (n.type != DEVICE_PATH_TYPE_MESSAGING || n.subtype != DEVICE_PATH_SUBTYPE_MAC)
                        continue;
                if (n.data_size < MAC_NODE_DATA_SIZE)
                        return -EBADMSG;
                if_type = n.data[MAC_NODE_DATA_SIZE - 1];
                /* Only Ethernet is a link networkd can match by this address. */
                if (if_type != 0 && if_type != MAC_IF_TYPE_ETHERNET)
                        return -ENOENT;
                fmemcpy(ret, n.data, 6);
                return 0;
        }
        return r == 0 ? -ENOENT : r;
}

int device_path_find_ipv4(const void *dp, size_t max, uint8_t ret_local[4], uint8_t ret_mask[4]) {
        size_t off = 0;
        Node n;
        int r;

        fassert(dp || max == 0);
        fassert(ret_local);
        fassert(ret_mask);

        while ((r = next_node(dp, max, &off, &n)) > 0) {
                const uint8_t *a;

                if (n.type != DEVICE_PATH_TYPE_MESSAGING || n.subtype != DEVICE_PATH_SUBTYPE_IPV4)
                        continue;
                if (n.data_size < IPV4_NODE_DATA_SIZE)
                        return -EBADMSG;
                a = n.data + IPV4_NODE_LOCAL;
                /* The boot option's own path says 0.0.0.0 until DHCP ran. */
                if ((a[0] | a[1] | a[2] | a[3]) == 0)
                        return -ENOENT;
                fmemcpy(ret_local, a, 4);
                fmemcpy(ret_mask, n.data + IPV4_NODE_MASK, 4);
                return 0;
        }
        return r == 0 ? -ENOENT : r;
}

/* prefix (prefix_size bytes of nodes), then Uri(url) (with a NUL when nul), then End. */
static int build_url_path(const void *prefix, size_t prefix_size, const char *url, bool nul, void **ret,
                          size_t *ret_size) {
        size_t n = fstrlen(url), uri_size = 4 + n + (nul ? 1 : 0);
        uint8_t *p, *u;

        if (uri_size > 0xffff)
                return -E2BIG;
        p = fmalloc(prefix_size + uri_size + 4);
        if (!p)
                return -ENOMEM;
        if (prefix_size > 0)
                fmemcpy(p, prefix, prefix_size);
        u = p + prefix_size;
        u[0] = DEVICE_PATH_TYPE_MESSAGING;
        u[1] = DEVICE_PATH_SUBTYPE_URI;
        u[2] = (uint8_t) (uri_size & 0xff);
        u[3] = (uint8_t) (uri_size >> 8);
        fmemcpy(u + 4, url, n);
        if (nul)
                u[4 + n] = 0;
        fmemcpy(u + uri_size, "\x7f\xff\x04\x00", 4);
        *ret = p;
        *ret_size = prefix_size + uri_size + 4;
        return 0;
}

int device_path_replace_url(const void *dp, size_t max, const char *url, void **ret, size_t *ret_size) {
        size_t off = 0, prefix;
        Node node;
        int r;

        fassert(dp || max == 0);
        fassert(url);
        fassert(ret);
        fassert(ret_size);

        for (;;) {
                prefix = off;
                r = next_node(dp, max, &off, &node);
                if (r < 0)
                        return r;
                if (r == 0)
                        return -ENOENT;
                if (node.type == DEVICE_PATH_TYPE_MESSAGING && node.subtype == DEVICE_PATH_SUBTYPE_URI)
                        break;
        }
        /* With a NUL, as firmware HTTP boot writes it: systemd-stub reads the URL up to a NUL. */
        return build_url_path(dp, prefix, url, true, ret, ret_size);
}

char *mac_to_string(const uint8_t mac[6], char buf[18]) {
        static const char hex[] = "0123456789abcdef";

        fassert(mac);
        fassert(buf);

        for (size_t k = 0; k < 6; k++) {
                buf[3 * k] = hex[mac[k] >> 4];
                buf[3 * k + 1] = hex[mac[k] & 15];
                buf[3 * k + 2] = k < 5 ? ':' : 0;
        }
        return buf;
}

int device_path_make_url(const char *url, void **ret, size_t *ret_size) {
        fassert(url);
        fassert(ret);
        fassert(ret_size);

        return build_url_path(NULL, 0, url, false, ret, ret_size);
}
