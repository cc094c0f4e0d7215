#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""urlboot-resolve's front stub and upstream filter against test DNS servers; prints TAP.

Runs inside a private network namespace (test/netns-run.sh), as root: every 127.0.0.0/8 address is
ours there. This host has no systemd as PID 1 and no systemd-resolved: test/resolve/dns-server.py
stands in for resolved 252 on 127.0.0.53 (and 127.0.0.54, its DNSSEC bypass), and for a real upstream
server on 127.0.0.1:5300.

Usage: integration.py URLBOOT-RESOLVE SRCDIR
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dnswire  # noqa: E402

binary, src = sys.argv[1], sys.argv[2]
server_py = os.path.join(src, 'test/resolve/dns-server.py')
STUB, FILTER, NATIVE = ('127.0.0.153', 53), ('127.0.0.154', 53), ('127.0.0.155', 53)
RESOLVED, BYPASS, UPSTREAM = ('127.0.0.53', 53), ('127.0.0.54', 53), ('127.0.0.1', 5300)

n = 0
failed = 0


def check(description, condition, detail=''):
    global n, failed
    n += 1
    print('%s %d - %s' % ('ok' if condition else 'not ok', n, description), flush=True)
    if not condition:
        failed += 1
        for line in str(detail).splitlines():
            print('# ' + line)


def start(argv, env=None, ready=None):
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
    if ready:
        line = p.stdout.readline()
        if ready not in line:
            raise RuntimeError('%s did not start: %s' % (argv[0], line))
    # Keep reading its output so it never blocks on a full pipe.
    output = []
    threading.Thread(target=lambda: output.extend(p.stdout), daemon=True).start()
    p.output = output
    return p


def dig(*args):
    r = subprocess.run(['dig', '+tries=1', '+time=3'] + list(args), capture_output=True, text=True)
    return r.stdout


def log_lines(path):
    try:
        with open(path) as f:
            return [line.split() for line in f]
    except FileNotFoundError:
        return []


def main():
    tmp = tempfile.mkdtemp(prefix='urlboot-resolve-test.')
    root = os.path.join(tmp, 'root')
    os.makedirs(os.path.join(root, 'etc/systemd/resolved.conf.d'))
    os.makedirs(os.path.join(root, 'usr/lib/systemd'))
    with open(os.path.join(root, 'usr/lib/systemd/resolved.conf'), 'w') as f:
        f.write('[Resolve]\nRefuseRecordTypes=MX\n')  # hidden by /etc's main file
    with open(os.path.join(root, 'etc/systemd/resolved.conf'), 'w') as f:
        f.write('[Resolve]\nDNS=127.0.0.154\nRefuseRecordTypes=AAAA\n')
    dropin = os.path.join(root, 'etc/systemd/resolved.conf.d/50-more.conf')
    with open(dropin, 'w') as f:
        f.write('[Resolve]\nRefuseRecordTypes=SRV TYPE65\n')

    # The filter's resolved.conf: only SRV, so that A and AAAA go upstream.
    filter_root = os.path.join(tmp, 'filter-root')
    os.makedirs(os.path.join(filter_root, 'etc/systemd'))
    with open(os.path.join(filter_root, 'etc/systemd/resolved.conf'), 'w') as f:
        f.write('[Resolve]\nRefuseRecordTypes=SRV\n')

    env = dict(os.environ, URLBOOT_SYSTEMD_VERSION='252')
    procs = []
    try:
        logs = {name: os.path.join(tmp, name + '.log') for name in ('resolved', 'bypass', 'upstream')}
        for name, (addr, port) in (('resolved', RESOLVED), ('bypass', BYPASS), ('upstream', UPSTREAM)):
            procs.append(start([sys.executable, server_py, addr, str(port), logs[name]], ready='ready'))
        stub = start([binary, 'stub', '--root=' + root], env=env)
        filt = start([binary, 'filter', '--root=' + filter_root, '--upstream=127.0.0.1:5300'], env=env)
        native = start([binary, 'stub', '--listen=127.0.0.155', '--root=' + root],
                       env=dict(os.environ, URLBOOT_SYSTEMD_VERSION='258'))
        procs += [stub, filt, native]
        for _ in range(100):
            if dnswire.udp(STUB, dnswire.query('up.test', 'A'), 0.1) and \
               dnswire.udp(FILTER, dnswire.query('up.test', 'A'), 0.1) and \
               dnswire.udp(NATIVE, dnswire.query('up.test', 'A'), 0.1):
                break
        run_stub_checks(root, logs, stub, dropin)
        run_hostile_checks(logs)
        run_filter_checks(logs)
        run_guest_server_checks()
        # SIGTERM ends them cleanly (and sanitizer builds find no leak at exit).
        codes = []
        for p in (stub, filt, native):
            p.send_signal(signal.SIGTERM)
            try:
                codes.append(p.wait(10))
            except subprocess.TimeoutExpired:
                codes.append('still running')
        check('stub, filter and the pass-through stub exit with status 0 on SIGTERM', codes == [0, 0, 0],
              '%s\n%s' % (codes, ''.join(stub.output + filt.output + native.output)))
    finally:
        for p in procs:
            p.kill()
            p.wait()
        subprocess.run(['rm', '-rf', tmp])
    print('1..%d' % n)
    return 1 if failed else 0


def run_stub_checks(root, logs, stub, dropin):
    out = dig('@127.0.0.153', 'x.test', 'AAAA')
    check('dig AAAA through the stub: REFUSED', 'status: REFUSED' in out, out)
    check('... flags qr rd ra, nothing in the answer, authority or additional sections but the OPT',
          'flags: qr rd ra; QUERY: 1, ANSWER: 0, AUTHORITY: 0, ADDITIONAL: 1' in out, out)
    check('... EDNS answered with udp 65494, no DO', 'EDNS: version: 0, flags:; udp: 65494' in out, out)
    check('... the question echoed', ';x.test.\t\t\t\tIN\tAAAA' in out, out)
    out = dig('@127.0.0.153', '+noedns', 'x.test', 'AAAA')
    check('dig +noedns: REFUSED without OPT', 'status: REFUSED' in out and 'OPT PSEUDOSECTION' not in out
          and 'ADDITIONAL: 0' in out, out)
    out = dig('@127.0.0.153', '+dnssec', '+cd', 'x.test', 'SRV')
    check('dig +dnssec +cd SRV (from the drop-in): REFUSED with cd and do',
          'status: REFUSED' in out and 'flags: qr rd ra cd;' in out and 'flags: do; udp: 65494' in out, out)
    out = dig('@127.0.0.153', '+norecurse', 'x.test', 'TYPE65')
    check('dig +norecurse TYPE65: REFUSED, rd clear', 'status: REFUSED' in out and 'flags: qr ra;' in out, out)
    out = dig('@127.0.0.153', '+tcp', 'Mixed.Case.TEST', 'AAAA')
    check('dig +tcp AAAA: REFUSED over TCP, the name as asked', 'status: REFUSED' in out and
          ';Mixed.Case.TEST.\t\tIN\tAAAA' in out, out)
    out = dig('@127.0.0.153', 'x.test', 'MX')
    check('MX (only in the hidden /usr/lib main file) is relayed', 'status: NOERROR' in out, out)
    relayed = [line for line in log_lines(logs['resolved']) + log_lines(logs['bypass']) if line[2] in ('28', '33', '65')]
    check('nothing of a refused type reached resolved', not relayed, relayed)

    # Byte for byte: the same packet straight to "resolved" and through the stub.
    for transport in ('udp', 'tcp'):
        send = getattr(dnswire, transport)
        for name, qtype, kw in (('x.test', 'A', {}), ('x.test', 'TXT', {'edns': False}), ('nx.test', 'A', {}),
                                ('x.test', 'NS', {'qid': 7}), ('big.test', 'TXT', {'payload': 512})):
            q = dnswire.query(name, qtype, **kw)
            direct, through = send(RESOLVED, q), send(STUB, q)
            check('%s %s %s relayed unchanged over %s' % (name, qtype, kw or '', transport),
                  direct is not None and direct == through, '%r\n%r' % (direct, through))
    big = dnswire.udp(STUB, dnswire.query('big.test', 'TXT', payload=512))
    check('a truncated answer stays truncated over UDP', big and dnswire.header(big)['tc'], big)
    big = dnswire.tcp(STUB, dnswire.query('big.test', 'TXT', payload=512))
    check('... and comes whole over TCP', big and not dnswire.header(big)['tc'] and dnswire.header(big)['an'] == 40)

    before = len(log_lines(logs['bypass']))
    out = dig('@127.0.0.153', '+dnssec', 'x.test', 'A')
    check('a query with DO goes to the DNSSEC bypass (127.0.0.54)', 'status: NOERROR' in out and
          len(log_lines(logs['bypass'])) == before + 1, out)

    out = dig('@127.0.0.155', 'x.test', 'AAAA')
    check('with systemd 258 the stub relays everything (resolved refuses by itself)',
          'status: NOERROR' in out and 'ANSWER: 1' in out, out)

    r = subprocess.run([binary, 'show-config', '--json', '--root=' + root], capture_output=True, text=True,
                       env=dict(os.environ, URLBOOT_SYSTEMD_VERSION='252'))
    try:
        j = json.loads(r.stdout)
    except ValueError:
        j = {}
    check('show-config --json lists AAAA SRV HTTPS and both files',
          [t['name'] for t in j.get('refuseRecordTypes', [])] == ['AAAA', 'SRV', 'HTTPS'] and
          j.get('files') == [root + '/etc/systemd/resolved.conf', dropin] and j.get('native') is False, r.stdout)

    with open(dropin, 'w') as f:
        f.write('[Resolve]\nRefuseRecordTypes=\nRefuseRecordTypes=TXT\n')
    stub.send_signal(signal.SIGHUP)
    time.sleep(0.3)
    out_aaaa, out_txt = dig('@127.0.0.153', 'x.test', 'AAAA'), dig('@127.0.0.153', 'x.test', 'TXT')
    check('SIGHUP reads the configuration again (the drop-in now resets and refuses TXT)',
          'status: NOERROR' in out_aaaa and 'status: REFUSED' in out_txt, out_aaaa + out_txt)


def run_hostile_checks(logs):
    """The security review of 2026-12-05 against the real stub (refusing TXT since the SIGHUP above)."""
    import socket
    import struct
    # F6: a refused type followed by a record ldns cannot read but resolved keeps as opaque data
    q = bytearray(dnswire.query('f6.test', 'TXT', edns=False))
    q[10:12] = struct.pack('>H', 1)
    q += b'\0' + struct.pack('>HHIH', 59, 1, 0, 1) + b'\0'  # CDS with one byte of rdata
    before = len(log_lines(logs['resolved']))
    reply = dnswire.udp(STUB, bytes(q))
    check('F6: TXT plus a CDS record ldns cannot read: REFUSED by the stub, not relayed',
          reply and dnswire.header(reply)['rcode'] == 'REFUSED' and len(log_lines(logs['resolved'])) == before,
          reply)
    q[-3:] = struct.pack('>H', 9) + b'\0'  # rdlength past the end: nobody can read it
    reply = dnswire.udp(STUB, bytes(q))
    check('F6: ... also when the record cannot be read at all (decided on the question)',
          reply and dnswire.header(reply)['rcode'] == 'REFUSED' and len(log_lines(logs['resolved'])) == before,
          reply)

    # F5: slowloris. Every connection of the table sends one byte of a message and stops.
    ask = dnswire.query('x.test', 'A')
    check('F5: baseline, a TCP query is answered', dnswire.tcp(STUB, ask, 3) is not None)
    attackers = []
    for _ in range(300):
        c = socket.create_connection(STUB, timeout=3)
        c.sendall(b'\0')
        attackers.append(c)
    check('F5: 300 connections holding half a length each: a TCP query is still answered (the least active go)',
          dnswire.tcp(STUB, ask, 3) is not None)
    time.sleep(6.5)
    closed = 0
    for c in attackers:
        c.settimeout(0.5)
        try:
            closed += c.recv(1) == b''
        except OSError:
            closed += 1
        c.close()
    check('F5: 6.5 s later every half-sent message is hung up on (5 s from its first byte)', closed == 300,
          '%d of 300 closed' % closed)
    idle = [socket.create_connection(STUB, timeout=3) for _ in range(300)]
    check('F5: 300 idle connections: a TCP query is still answered', dnswire.tcp(STUB, ask, 3) is not None)
    for c in idle:
        c.close()


def run_filter_checks(logs):
    out = dig('@127.0.0.154', 'x.test', 'SRV')
    check('filter: a refused type gets NOERROR with no records and no SOA',
          'status: NOERROR' in out and 'ANSWER: 0, AUTHORITY: 0' in out, out)
    check('... and never reaches the upstream server',
          not [line for line in log_lines(logs['upstream']) if line[2] == '33'], log_lines(logs['upstream']))
    for transport in ('udp', 'tcp'):
        send = getattr(dnswire, transport)
        q = dnswire.query('x.test', 'A', qid=99)
        direct, through = send(UPSTREAM, q), send(FILTER, q)
        check('filter: other answers come back unchanged over %s' % transport,
              direct is not None and direct == through, '%r\n%r' % (direct, through))

    # The sibling rule, as resolved 252 meets it: A and AAAA asked together, AAAA never answered.
    results = {}

    def ask(qtype, qid):
        results[qtype] = dnswire.timed_udp(FILTER, dnswire.query('noaaaa.test', qtype, qid=qid), 15)
    threads = [threading.Thread(target=ask, args=(t, i)) for i, t in ((1, 'A'), (2, 'AAAA'))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    a, aaaa = results['A'], results['AAAA']
    check('sibling rule: A answered at once', a[0] and dnswire.header(a[0])['an'] == 1 and a[1] < 2, a)
    ok = aaaa[0] is not None and dnswire.header(aaaa[0])['rcode'] == 'NOERROR' and dnswire.header(aaaa[0])['an'] == 0
    check('sibling rule: AAAA gets NODATA 6 s after A (measured %.2f s, bounds 5-9 s)' % aaaa[1],
          ok and 5.0 <= aaaa[1] <= 9.0, aaaa)

    slow = dnswire.timed_udp(FILTER, dnswire.query('slowaaaa-2.test', 'AAAA'), 10)
    check('an AAAA answer that comes late but on its own is passed on (%.2f s)' % slow[1],
          slow[0] and dnswire.header(slow[0])['an'] == 1, slow)
    nx = dnswire.timed_udp(FILTER, dnswire.query('nx.test', 'AAAA'), 5)
    check('NXDOMAIN passes unchanged', nx[0] and dnswire.header(nx[0])['rcode'] == 'NXDOMAIN', nx)


def run_guest_server_checks():
    """The guest case's own test server (Perl, which every Debian has) behaves as that case needs."""
    script = os.path.join(src, 'test/guests/cases/resolve.d/dns-server.pl')
    p = start(['perl', script, '127.0.0.1', '5301'], ready='ready')
    try:
        server = ('127.0.0.1', 5301)
        a = dnswire.udp(server, dnswire.query('noaaaa.test', 'A'), 2)
        aaaa = dnswire.udp(server, dnswire.query('noaaaa.test', 'AAAA'), 1)
        other = dnswire.udp(server, dnswire.query('x.test', 'AAAA', edns=False), 2)
        check('the guest case\'s DNS server answers A, drops AAAA of noaaaa.*, answers AAAA of others',
              a is not None and dnswire.header(a)['an'] == 1 and aaaa is None and other is not None and
              dnswire.header(other)['an'] == 1 and dnswire.header(other)['ar'] == 0, (a, aaaa, other))
    finally:
        p.kill()
        p.wait()


if __name__ == '__main__':
    sys.exit(main())
