#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A DNS server for the resolver companion's tests (standard library only), on UDP and TCP.

It stands in for resolved's stub (relay target of the front stub) and for a real upstream server (of
the upstream filter). What it answers depends on the name asked for:

  noaaaa.*       A at once (192.0.2.1); AAAA never answered (a server that drops AAAA)
  slowaaaa-N.*   A at once; AAAA after N seconds
  nx.*           NXDOMAIN
  big.*          TXT with 40 strings of 100 bytes: truncated (TC) over UDP, whole over TCP
  anything else  A 192.0.2.1, AAAA 2001:db8::1, TXT "hello"; other types NODATA with an SOA

Every query it receives is appended to the log file as "TRANSPORT NAME TYPE ID" (a line per query),
so tests can tell what reached it. A reply echoes the question and copies ID, RD and CD; it carries
an OPT record (4096, DO copied) when the query had one.

Usage: dns-server.py ADDRESS PORT LOGFILE  (prints "ready" on stdout once listening)
"""
import socket
import struct
import sys
import threading
import time

A, NS, SOA, TXT, AAAA, OPT = 1, 2, 6, 16, 28, 41


def parse_query(data):
    if len(data) < 12:
        return None
    qid, flags, qd, an, ns, ar = struct.unpack('>HHHHHH', data[:12])
    if qd != 1 or flags & 0x8000:
        return None
    pos, labels = 12, []
    while True:
        if pos >= len(data):
            return None
        n = data[pos]
        if n == 0:
            pos += 1
            break
        if n & 0xc0:
            return None
        labels.append(data[pos + 1:pos + 1 + n])
        pos += 1 + n
    if pos + 4 > len(data):
        return None
    qtype, qclass = struct.unpack('>HH', data[pos:pos + 4])
    question = data[12:pos + 4]
    opt, do = False, False
    rest = data[pos + 4:]
    if ar >= 1 and len(rest) >= 11 and rest[0] == 0 and struct.unpack('>H', rest[1:3])[0] == OPT:
        opt = True
        do = bool(struct.unpack('>I', rest[5:9])[0] & 0x8000)
    name = b'.'.join(labels).decode('ascii', 'replace').lower() + '.'
    return dict(id=qid, flags=flags, qtype=qtype, qclass=qclass, question=question, opt=opt, do=do,
                name=name, payload=struct.unpack('>H', rest[3:5])[0] if opt else 512)


def rr(rtype, ttl, rdata):
    # owner: a pointer to the question's name at offset 12
    return b'\xc0\x0c' + struct.pack('>HHIH', rtype, 1, ttl, len(rdata)) + rdata


def soa():
    mname = b'\x02ns\x04test\x00'
    rname = b'\x04host\x04test\x00'
    rdata = mname + rname + struct.pack('>IIIII', 1, 3600, 600, 86400, 60)
    return b'\x04test\x00' + struct.pack('>HHIH', SOA, 1, 60, len(rdata)) + rdata


def answer(q, tcp):
    """Returns (delay or None for no answer, reply bytes)."""
    name, qtype = q['name'], q['qtype']
    rcode, answers, authority, delay = 0, [], [], 0
    if name.startswith('nx.'):
        rcode, authority = 3, [soa()]
    elif name.startswith('noaaaa.') and qtype == AAAA:
        return None, None
    elif name.startswith('slowaaaa-') and qtype == AAAA:
        delay = float(name.split('.')[0].split('-')[1])
        answers = [rr(AAAA, 300, socket.inet_pton(socket.AF_INET6, '2001:db8::1'))]
    elif name.startswith('big.') and qtype == TXT:
        answers = [rr(TXT, 300, bytes([100]) + bytes([0x61 + i % 26]) * 100) for i in range(40)]
    elif qtype == A:
        answers = [rr(A, 300, socket.inet_aton('192.0.2.1'))]
    elif qtype == AAAA:
        answers = [rr(AAAA, 300, socket.inet_pton(socket.AF_INET6, '2001:db8::1'))]
    elif qtype == TXT:
        answers = [rr(TXT, 300, b'\x05hello')]
    else:
        authority = [soa()]

    flags = 0x8000 | 0x0080 | (q['flags'] & 0x0110) | rcode
    opt = b'\x00' + struct.pack('>HHIH', OPT, 4096, 0x8000 if q['do'] else 0, 0) if q['opt'] else b''
    def build(ans, auth, tc):
        return struct.pack('>HHHHHH', q['id'], flags | (0x0200 if tc else 0), 1, len(ans), len(auth),
                           1 if opt else 0) + q['question'] + b''.join(ans) + b''.join(auth) + opt
    reply = build(answers, authority, False)
    if not tcp and len(reply) > q['payload']:
        reply = build([], [], True)
    return delay, reply


def log(logfile, lock, transport, q):
    with lock, open(logfile, 'a') as f:
        f.write('%s %s %d %d\n' % (transport, q['name'], q['qtype'], q['id']))


def serve_udp(sock, logfile, lock):
    while True:
        data, peer = sock.recvfrom(65535)
        q = parse_query(data)
        if not q:
            continue
        log(logfile, lock, 'udp', q)
        delay, reply = answer(q, False)
        if reply is None:
            continue
        if delay:
            threading.Timer(delay, sock.sendto, (reply, peer)).start()
        else:
            sock.sendto(reply, peer)


def serve_tcp_client(conn, logfile, lock):
    buf = b''
    try:
        while True:
            chunk = conn.recv(65535)
            if not chunk:
                return
            buf += chunk
            while len(buf) >= 2 and len(buf) >= 2 + struct.unpack('>H', buf[:2])[0]:
                n = struct.unpack('>H', buf[:2])[0]
                msg, buf = buf[2:2 + n], buf[2 + n:]
                q = parse_query(msg)
                if not q:
                    continue
                log(logfile, lock, 'tcp', q)
                delay, reply = answer(q, True)
                if reply is None:
                    continue
                if delay:
                    time.sleep(delay)
                conn.sendall(struct.pack('>H', len(reply)) + reply)
    except OSError:
        pass
    finally:
        conn.close()


def serve_tcp(sock, logfile, lock):
    while True:
        conn, _ = sock.accept()
        threading.Thread(target=serve_tcp_client, args=(conn, logfile, lock), daemon=True).start()


def main():
    address, port, logfile = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    lock = threading.Lock()
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    udp.bind((address, port))
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    tcp.bind((address, port))
    tcp.listen(16)
    threading.Thread(target=serve_tcp, args=(tcp, logfile, lock), daemon=True).start()
    print('ready', flush=True)
    serve_udp(udp, logfile, lock)


if __name__ == '__main__':
    main()
