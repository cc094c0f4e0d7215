# SPDX-License-Identifier: LGPL-2.1-or-later
"""DNS packets for the resolver companion's tests, standard library only: build queries, send them
over UDP or TCP, read the header of the answer."""
import socket
import struct
import time

TYPES = {'A': 1, 'NS': 2, 'SOA': 6, 'PTR': 12, 'MX': 15, 'TXT': 16, 'AAAA': 28, 'SRV': 33, 'NSAP-PTR': 23,
         'HTTPS': 65, 'SVCB': 64, 'CAA': 257, 'RESINFO': 261, 'DLV': 32769, 'URI': 256, 'TLSA': 52, 'NAPTR': 35,
         'LOC': 29, 'CNAME': 5, 'HINFO': 13, 'RP': 17, 'SSHFP': 44, 'DNAME': 39, 'APL': 42, 'EUI48': 108}
RCODES = {0: 'NOERROR', 1: 'FORMERR', 2: 'SERVFAIL', 3: 'NXDOMAIN', 4: 'NOTIMP', 5: 'REFUSED'}


def encode_name(name):
    out = b''
    for label in name.rstrip('.').split('.'):
        if label:
            out += bytes([len(label)]) + label.encode()
    return out + b'\0'


def query(name, qtype, qid=0x4242, rd=True, cd=False, edns=True, do=False, payload=1232, nsid=False, qclass=1):
    flags = (0x0100 if rd else 0) | (0x0010 if cd else 0)
    t = TYPES[qtype] if isinstance(qtype, str) else qtype
    opt = b''
    if edns:
        rdata = struct.pack('>HH', 3, 0) if nsid else b''
        opt = b'\0' + struct.pack('>HHIH', 41, payload, 0x8000 if do else 0, len(rdata)) + rdata
    return struct.pack('>HHHHHH', qid, flags, 1, 0, 0, 1 if edns else 0) + encode_name(name) + \
        struct.pack('>HH', t, qclass) + opt


def udp(server, packet, timeout=5.0):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(timeout)
    try:
        s.sendto(packet, server)
        return s.recvfrom(65535)[0]
    except socket.timeout:
        return None
    finally:
        s.close()


def tcp(server, packet, timeout=5.0):
    s = socket.create_connection(server, timeout=timeout)
    try:
        s.sendall(struct.pack('>H', len(packet)) + packet)
        buf = b''
        while len(buf) < 2 or len(buf) < 2 + struct.unpack('>H', buf[:2])[0]:
            chunk = s.recv(65535)
            if not chunk:
                return None
            buf += chunk
        return buf[2:2 + struct.unpack('>H', buf[:2])[0]]
    except socket.timeout:
        return None
    finally:
        s.close()


def header(reply):
    qid, flags, qd, an, ns, ar = struct.unpack('>HHHHHH', reply[:12])
    return dict(id=qid, qr=bool(flags & 0x8000), aa=bool(flags & 0x0400), tc=bool(flags & 0x0200),
                rd=bool(flags & 0x0100), ra=bool(flags & 0x0080), ad=bool(flags & 0x0020), cd=bool(flags & 0x0010),
                rcode=RCODES.get(flags & 0xf, str(flags & 0xf)), qd=qd, an=an, ns=ns, ar=ar)


def timed_udp(server, packet, timeout):
    start = time.monotonic()
    reply = udp(server, packet, timeout)
    return reply, time.monotonic() - start
