/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * DNS record type names as systemd v258's resolved knows them.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dns-record-type.h"
#include "macro.h"

/* The mnemonics of v258's src/resolve/dns-type.h (IANA's registry as systemd copied it), with "_"
 * written as "-" as its name table does. Types outside this list are only reachable as TYPEnnn. */
static const struct {
        uint16_t type;
        const char *name;
} record_types[] = {
        { 1, "A" },           { 2, "NS" },          { 3, "MD" },          { 4, "MF" },
        { 5, "CNAME" },       { 6, "SOA" },         { 7, "MB" },          { 8, "MG" },
        { 9, "MR" },          { 10, "NULL" },       { 11, "WKS" },        { 12, "PTR" },
        { 13, "HINFO" },      { 14, "MINFO" },      { 15, "MX" },         { 16, "TXT" },
        { 17, "RP" },         { 18, "AFSDB" },      { 19, "X25" },        { 20, "ISDN" },
        { 21, "RT" },         { 22, "NSAP" },       { 23, "NSAP-PTR" },   { 24, "SIG" },
        { 25, "KEY" },        { 26, "PX" },         { 27, "GPOS" },       { 28, "AAAA" },
        { 29, "LOC" },        { 30, "NXT" },        { 31, "EID" },        { 32, "NIMLOC" },
        { 33, "SRV" },        { 34, "ATMA" },       { 35, "NAPTR" },      { 36, "KX" },
        { 37, "CERT" },       { 38, "A6" },         { 39, "DNAME" },      { 40, "SINK" },
        { 41, "OPT" },        { 42, "APL" },        { 43, "DS" },         { 44, "SSHFP" },
        { 45, "IPSECKEY" },   { 46, "RRSIG" },      { 47, "NSEC" },       { 48, "DNSKEY" },
        { 49, "DHCID" },      { 50, "NSEC3" },      { 51, "NSEC3PARAM" }, { 52, "TLSA" },
        { 53, "SMIMEA" },     { 55, "HIP" },        { 56, "NINFO" },      { 57, "RKEY" },
        { 58, "TALINK" },     { 59, "CDS" },        { 60, "CDNSKEY" },    { 61, "OPENPGPKEY" },
        { 62, "CSYNC" },      { 63, "ZONEMD" },     { 64, "SVCB" },       { 65, "HTTPS" },
        { 99, "SPF" },        { 100, "UINFO" },     { 101, "UID" },       { 102, "GID" },
        { 103, "UNSPEC" },    { 104, "NID" },       { 105, "L32" },       { 106, "L64" },
        { 107, "LP" },        { 108, "EUI48" },     { 109, "EUI64" },     { 249, "TKEY" },
        { 250, "TSIG" },      { 251, "IXFR" },      { 252, "AXFR" },      { 253, "MAILB" },
        { 254, "MAILA" },     { 255, "ANY" },       { 256, "URI" },       { 257, "CAA" },
        { 258, "AVC" },       { 259, "DOA" },       { 260, "AMTRELAY" },  { 261, "RESINFO" },
        { 32768, "TA" },      { 32769, "DLV" },
};

static bool is_whitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* systemd's safe_atou() with base 0: whitespace skipped, Python-style "0b"/"0o" prefixes, then
 * strtoul()'s own rules (so "0x" hex and a leading zero for octal), "-0" allowed, other negatives
 * refused. */
static int parse_unsigned(const char *s, unsigned long *ret) {
        int base = 0;
        char *end;
        unsigned long v;

        while (is_whitespace(*s))
                s++;
        if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
                base = 2;
                s += 2;
        } else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
                base = 8;
                s += 2;
        }

        errno = 0;
        v = strtoul(s, &end, base);
        if (errno > 0)
                return -errno;
        if (end == s || *end != 0)
                return -EINVAL;
        if (v != 0 && s[0] == '-')
                return -ERANGE;
        if ((unsigned long) (unsigned) v != v)
                return -ERANGE;
        *ret = v;
        return 0;
}

int dns_record_type_from_string(const char *s) {
        unsigned long v;

        assert(s);

        for (size_t i = 0; i < ELEMENTSOF(record_types); i++)
                if (strcasecmp(s, record_types[i].name) == 0)
                        return record_types[i].type;

        if (strncasecmp(s, "TYPE", 4) != 0)
                return -EINVAL;
        if (parse_unsigned(s + 4, &v) < 0 || v > UINT16_MAX)
                return -EINVAL;
        return (int) v;
}

const char *dns_record_type_to_string(uint16_t type) {
        for (size_t i = 0; i < ELEMENTSOF(record_types); i++)
                if (record_types[i].type == type)
                        return record_types[i].name;
        return NULL;
}
