#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""urlboot-resolve side by side with systemd-resolved 262 (the reference tree); prints TAP.

systemd-resolved 262 runs here without systemd as PID 1: started by hand in a chroot of the reference
tree (tools/reference/systemd-unstable), in this network namespace (test/netns-run.sh), without D-Bus
and without upstream servers (RefuseRecordTypes= is checked before anything is resolved). Setting
the chroot up needs root (mounts), which the network namespace needs anyway.

1. The REFUSED answer: every "refuse" query of test/data/resolve/stub-packets.tsv goes byte for byte
   to resolved 262's stub (127.0.0.53) refusing by itself, and to our front stub (127.0.0.153) in front
   of a resolved 262 that refuses nothing; the answers must be the same bytes (and the resolved behind
   us must answer what we refuse). resolved sees this machine's machine ID, so its NSID is the one we
   compute.
2. The configuration: every case of test/data/resolve/refuse-config-cases.txt is laid out in the
   tree (tmpfs on /etc/systemd and /usr/local/lib, an overlay on /usr/lib/systemd, /run is a tmpfs),
   resolved 262 is started on it and asked for "localhost" with each probe type; the types it refuses
   must be those `urlboot-resolve show-config` reads from the same files.

Usage: beside-resolved.py URLBOOT-RESOLVE SRCDIR TREE  (TREE: tools/reference/systemd-unstable's output)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dnswire  # noqa: E402

binary, src, tree = sys.argv[1], sys.argv[2], sys.argv[3]
RESOLVED, STUB = ('127.0.0.53', 53), ('127.0.0.153', 53)
# Types whose REFUSED can only come from RefuseRecordTypes=: not obsolete, no zone transfer, valid questions.
PROBES = [1, 2, 5, 6, 12, 13, 15, 16, 17, 18, 23, 28, 29, 33, 35, 64, 65, 99, 256, 257, 261, 32769, 65535]
NEVER_PROBED = {0, 3, 4, 7, 8, 9, 10, 11, 14, 30, 38, 41, 46, 249, 250, 251, 252, 253, 254}

n = failed = 0


def check(description, condition, detail=''):
    global n, failed
    n += 1
    print('%s %d - %s' % ('ok' if condition else 'not ok', n, description), flush=True)
    if not condition:
        failed += 1
        for line in str(detail).splitlines():
            print('# ' + line)


# Lays out the case directory $CASE in the tree $TREE (tmpfs on /etc/systemd and /usr/local/lib, an
# overlay on /usr/lib/systemd, /run a tmpfs), gives resolved this machine's ID, and starts it in a
# chroot. Runs in a private mount namespace: all of it goes away with resolved. (Not through
# "systemd-unstable --run", which holds the tree's lock for as long as the command runs.)
IN_NAMESPACE = r'''
set -e
t=$TREE c=$CASE
mount --rbind /dev "$t/dev"
mount -t proc proc "$t/proc"
mount --rbind /sys "$t/sys"
mount -t tmpfs tmpfs "$t/run"
mount -t tmpfs tmpfs "$t/tmp"
mount -t tmpfs tmpfs "$t/etc/systemd"
mount -t tmpfs tmpfs "$t/usr/local/lib"
mkdir -p "$t/run/ovl/upper" "$t/run/ovl/work" "$t/run/systemd"
mount -t overlay overlay -o "lowerdir=$t/usr/lib/systemd,upperdir=$t/run/ovl/upper,workdir=$t/run/ovl/work" "$t/usr/lib/systemd"
rm -rf "$t/usr/lib/systemd/resolved.conf" "$t/usr/lib/systemd/resolved.conf.d"
for d in etc/systemd run/systemd usr/local/lib usr/lib/systemd; do
        if [ -d "$c/$d" ]; then cp -a "$c/$d/." "$t/$d/"; fi
done
if [ -n "$MACHINE_ID" ]; then echo "$MACHINE_ID" >"$t/run/machine-id"; mount --bind "$t/run/machine-id" "$t/etc/machine-id"; fi
exec chroot "$t" /usr/lib/systemd/systemd-resolved
'''


def machine_id():
    try:
        with open('/etc/machine-id') as f:
            return f.read().strip()
    except OSError:
        return ''


def start_resolved(case_dir):
    env = dict(os.environ, TREE=tree, CASE=case_dir, MACHINE_ID=machine_id(), SYSTEMD_LOG_LEVEL='warning')
    p = subprocess.Popen(['unshare', '--mount', '--propagation', 'private', '--', 'sh', '-c', IN_NAMESPACE],
                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for _ in range(100):
        if dnswire.udp(RESOLVED, dnswire.query('localhost', 'A', qid=1), 0.1) is not None:
            return p
        if p.poll() is not None:
            break
    p.kill()
    raise RuntimeError('resolved 262 did not answer: ' + p.stderr.read())


def stop(p):
    p.kill()
    p.wait()


def parse_cases(path):
    """The cases file as test-resolve-config reads it: {name: [(kind, path, content-or-target)]}."""
    cases, name, current = {}, None, None
    with open(path, 'rb') as f:
        for raw in f.read().split(b'\n'):
            line = raw.decode('latin-1')
            if current is None and (line.startswith('#') or not line):
                continue
            if line.startswith('case: '):
                name, current = line[6:], None
                cases[name] = []
            elif line.startswith('== '):
                current = ['file', line[3:], b'']
                cases[name].append(current)
            elif line.startswith('-> '):
                link, target = line[3:].split(' -> ')
                cases[name].append(['link', link, target])
                current = None
            elif line.startswith('=> ') or line == 'stops':
                current = None
            elif current is not None:
                data, eol, i = b'', True, 0
                while i < len(raw):
                    if raw[i:i + 7] == b'<noeol>':
                        eol, i = False, i + 7
                    elif raw[i:i + 3] == b'<0x' and raw[i + 5:i + 6] == b'>':
                        data, i = data + bytes([int(raw[i + 3:i + 5], 16)]), i + 6
                    else:
                        data, i = data + raw[i:i + 1], i + 1
                current[2] += data + (b'\n' if eol else b'')
    return cases


def lay_out(root, entries):
    os.makedirs(root)
    for kind, path, what in entries:
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if kind == 'file':
            with open(full, 'wb') as f:
                f.write(what)
        else:
            os.symlink(what, full)


def refused_by_262(probes):
    got = set()
    for t in probes:
        reply = dnswire.udp(RESOLVED, dnswire.query('localhost', t, qid=t & 0xffff), 3)
        if reply is not None and dnswire.header(reply)['rcode'] == 'REFUSED':
            got.add(t)
    return got


def refused_by_us(root):
    r = subprocess.run([binary, 'show-config', '--json', '--root=' + root], capture_output=True, text=True,
                       env=dict(os.environ, URLBOOT_SYSTEMD_VERSION='252'))
    return {t['type'] for t in json.loads(r.stdout)['refuseRecordTypes']}


def refused_answers(tmp):
    """Part 1: the REFUSED bytes. resolved 262 refusing by itself is the oracle; our stub refuses in front of
    a resolved 262 that refuses nothing, so a stub that refused nothing would pass 262's NOERROR through
    and fail (issue 33: the comparison must not let the oracle do the stub's work)."""
    conf = b'[Resolve]\nRefuseRecordTypes=AAAA TXT HTTPS\nLLMNR=no\nMulticastDNS=no\n'
    # resolved without servers answers REFUSED for these names itself: behind us it gets a test server
    plain = b'[Resolve]\nDNS=127.0.0.1:5300\nLLMNR=no\nMulticastDNS=no\n'
    refusing, open_root, ours_root = (os.path.join(tmp, d) for d in ('refusing', 'open', 'shape'))
    lay_out(refusing, [['file', 'etc/systemd/resolved.conf', conf]])
    lay_out(open_root, [['file', 'etc/systemd/resolved.conf', plain]])
    lay_out(ours_root, [['file', 'etc/systemd/resolved.conf', conf]])
    with open(os.path.join(src, 'test/data/resolve/stub-packets.tsv')) as f:
        rows = [line.rstrip('\n').split('\t') for line in f if not line.startswith('#')]
    rows = [(name, bytes.fromhex(query_hex)) for name, query_hex, verdict, _, _ in rows if verdict == 'refuse']
    tcp = [(name[:12] + ' ' + qtype, dnswire.query(name, qtype, **kw))
           for name, qtype, kw in (('x.test', 'AAAA', {}), ('Long.' + 'a' * 63 + '.' + 'b' * 63 + '.test', 'TXT',
                                                         {'do': True, 'cd': True, 'nsid': True}))]

    # The oracle: what resolved 262 answers when it refuses by itself.
    resolved = start_resolved(refusing)
    try:
        theirs = {name: dnswire.udp(RESOLVED, q, 3) for name, q in rows}
        theirs_tcp = {name: dnswire.tcp(RESOLVED, q) for name, q in tcp}
    finally:
        stop(resolved)

    # Ours: the stub refuses, the resolved behind it does not.
    upstream = subprocess.Popen([sys.executable, os.path.join(src, 'test/resolve/dns-server.py'), '127.0.0.1', '5300',
                                 os.path.join(tmp, 'upstream.log')], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True)
    upstream.stdout.readline()  # "ready"
    resolved = start_resolved(open_root)
    stub = subprocess.Popen([binary, 'stub', '--root=' + ours_root], env=dict(os.environ, URLBOOT_SYSTEMD_VERSION='252'),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if dnswire.udp(STUB, dnswire.query('x.test', 'AAAA'), 0.1):
                break
        behind = dnswire.udp(RESOLVED, dnswire.query('x.test', 'AAAA'), 3)
        check('the resolved 262 behind our stub refuses nothing (AAAA: %s)' %
              (dnswire.header(behind)['rcode'] if behind else 'no answer'),
              behind is not None and dnswire.header(behind)['rcode'] != 'REFUSED')
        for name, q in rows:
            ours = dnswire.udp(STUB, q, 3)
            check('REFUSED for %s: our stub gives the bytes resolved 262 gives by itself (UDP)' % name,
                  theirs[name] is not None and theirs[name] == ours, 'resolved 262: %s\nours:         %s' %
                  (theirs[name].hex() if theirs[name] else None, ours.hex() if ours else None))
        for name, q in tcp:
            ours = dnswire.tcp(STUB, q)
            check('REFUSED for %s: the same bytes as resolved 262 (TCP)' % name,
                  theirs_tcp[name] is not None and theirs_tcp[name] == ours, '%r\n%r' % (theirs_tcp[name], ours))
    finally:
        stop(stub)
        stop(resolved)
        stop(upstream)


def configuration_cases(tmp):
    """Part 2: which types each configuration case refuses."""
    cases = parse_cases(os.path.join(src, 'test/data/resolve/refuse-config-cases.txt'))
    for name, entries in cases.items():
        root = os.path.join(tmp, 'case-' + name)
        lay_out(root, entries)
        ours = refused_by_us(root)
        probes = sorted(set(PROBES) | (ours - NEVER_PROBED))
        resolved = start_resolved(root)
        try:
            theirs = refused_by_262(probes)
        finally:
            stop(resolved)
        check('configuration case %s: resolved 262 refuses what we read' % name,
              theirs == ours & set(probes), 'resolved 262: %s\nours:         %s' % (sorted(theirs), sorted(ours)))


def main():
    tmp = tempfile.mkdtemp(prefix='urlboot-resolve-262.')
    try:
        refused_answers(tmp)
        configuration_cases(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
