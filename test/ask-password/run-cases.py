#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs the io.systemd.AskPassword cases (test/data/ask-password/cases.jsonl) against a service
and prints TAP.

  run-cases.py CASES --ours ADDR ASKDIR LOGDIR             check against the expected results
  run-cases.py CASES --ours ... --ref ADDR ASKDIR LOGDIR   also run systemd's service and
                                                           compare the two, case by case
  run-cases.py CASES --ref ADDR ASKDIR LOGDIR --record     print the reference's results
  (--number-from N --no-plan: TAP numbers from N, no plan line, for a caller adding its own tests;
   $ASK_CASES: only the cases named, separated by "|")

ASKDIR is the agents' directory as seen from here, LOGDIR where the scripted agent (agent.py)
copies each ask file. A case is a list of connections made one after the other; each sends raw
messages (NUL-terminated here), then waits for a number of replies, hangs up once the question
is asked ("hangup"), sends SIGTERM to the process named in the ask file ("sigterm"), or leaves its
question open while the case's next connections run and reads its replies at the end ("later").
Results are normalised where services legitimately differ: GetInfo's vendor/product/version/url,
and in ask files PID=, Socket= (checked for the sck.HEX form) and NotAfter= (seconds from the call).
"""
import json
import os
import re
import signal
import socket
import sys
import time

UINT64_MAX = 18446744073709551615


def now_usec():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000


class Service:
    def __init__(self, address, askdir, logdir, tag):
        self.address, self.askdir, self.logdir, self.tag = address, askdir, logdir, tag
        self.keys = []

    def logged(self):
        return {n for n in os.listdir(self.logdir) if n.startswith('ask.') and not n.endswith('.mode')}

    def wait_new_file(self, before, timeout=5.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            new = self.logged() - before
            if new:
                return sorted(new)[0]
            time.sleep(0.02)
        return None


def normalise_reply(text):
    try:
        o = json.loads(text)
    except ValueError:
        return 'not JSON: ' + text
    p = o.get('parameters') if isinstance(o, dict) else None
    if isinstance(p, dict) and 'vendor' in p and 'interfaces' in p:
        for k in ('vendor', 'product', 'version', 'url'):
            if k in p:
                p[k] = '*'
    # The interface's structure must be systemd's; its comments (documentation) are our own words.
    if isinstance(p, dict) and isinstance(p.get('description'), str):
        p['description'] = '\n'.join(l for l in p['description'].split('\n') if not l.lstrip().startswith('#'))
    return json.dumps(o, ensure_ascii=False, separators=(',', ':'))


def normalise_file(text, sent_at):
    out = []
    for line in text.splitlines():
        k, _, v = line.partition('=')
        if k == 'PID' and v.isdigit():
            line = 'PID=<pid>'
        elif k == 'Socket':
            line = 'Socket=<socket>' if re.search(r'/sck\.[0-9a-f]+$', v) else 'Socket=BAD:' + v
        elif k == 'NotAfter' and v.isdigit():
            n = int(v)
            # Whole seconds after the call was sent: the service takes "now" a little later.
            line = 'NotAfter=' + ('0' if n == 0 else 'infinity' if n == UINT64_MAX else
                                  '+%ds' % ((n - sent_at) // 1000000))
        out.append(line)
    return '|'.join(out)


def read_replies(sock, count, timeout):
    """Replies until `count` came and 0.15 s passed quietly, or EOF, or the timeout."""
    buf, replies, eof = b'', [], False
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        quiet = 0.15 if len(replies) >= count else end - time.monotonic()
        sock.settimeout(max(0.01, min(quiet, end - time.monotonic())))
        try:
            d = sock.recv(65536)
        except socket.timeout:
            if len(replies) >= count:
                break
            continue
        except ConnectionResetError:
            d = b''
        if not d:
            eof = True
            break
        buf += d
        while b'\0' in buf:
            m, buf = buf.split(b'\0', 1)
            replies.append(normalise_reply(m.decode('utf-8', 'replace')))
    out = replies
    if buf:
        out = out + ['partial: %r' % buf]
    if eof:
        out = out + ['<EOF>']
    return out


def substitute(text, service, case_index):
    key = 'urlboot-test-%d-%s-%d' % (os.getpid(), service.tag, case_index)
    if '@KEY@' in text and key not in service.keys:
        service.keys.append(key)
    return text.replace('@KEY@', key)


def send_all(service, conn, case_index):
    """A connection with the case's messages sent, as far as the service lets them: a service closes the
    connection on a protocol error, and whether the messages after it are still written or meet the
    closed socket depends only on timing. @return the socket and how many messages were sent."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(service.address)
    for n, m in enumerate(conn['send']):
        try:
            s.sendall(substitute(m, service, case_index).encode() + b'\0')
        except (BrokenPipeError, ConnectionResetError):
            return s, n
    return s, len(conn['send'])


def run_connection(service, conn, case_index, pending):
    before = service.logged()
    sent_at = now_usec()
    s, sent = send_all(service, conn, case_index)
    if sent == 0 and service.tag == 'ref':
        # Closed before the first message (one write) was read: the reference is systemd-socket-activate
        # starting systemd-ask-password for each connection, and once, on a loaded machine, that process
        # ended at once. The activator, not the protocol: ask again once, and say so.
        print('# %s: the reference closed the connection before reading; asked again' % conn['send'][0][:60])
        s.close()
        time.sleep(0.5)
        s, sent = send_all(service, conn, case_index)
    action = conn.get('action', 'reply')
    result = {}
    if action == 'later':
        # The question stays open while the next connections run; its replies are read at the end.
        service.wait_new_file(before)
        pending.append((s, conn, result))
        result['files'] = [normalise_file(open(os.path.join(service.logdir, n)).read(), sent_at) for n in
                           sorted(service.logged() - before)]
        return result
    if action == 'reply':
        result['replies'] = read_replies(s, conn.get('replies', 1), conn.get('timeout', 10))
    elif action == 'hangup':
        name = service.wait_new_file(before)
        s.close()
        time.sleep(0.5)
        left = [n for n in os.listdir(service.askdir) if n.startswith(('ask.', 'sck.'))]
        result['hangup'] = 'no question' if not name else 'withdrawn' if not left else 'left behind: ' + ' '.join(sorted(left))
    elif action == 'sigterm':
        name = service.wait_new_file(before)
        pid = None
        if name:
            for line in open(os.path.join(service.logdir, name)).read().splitlines():
                if line.startswith('PID='):
                    pid = int(line[4:])
        if pid:
            os.kill(pid, signal.SIGTERM)
        result['replies'] = read_replies(s, 1, 10)
    if action != 'hangup':
        s.close()
    files = sorted(service.logged() - before,
                   key=lambda n: os.stat(os.path.join(service.logdir, n)).st_mtime_ns)
    result['files'] = [normalise_file(open(os.path.join(service.logdir, n)).read(), sent_at) +
                       '|mode=' + open(os.path.join(service.logdir, n + '.mode')).read().strip()
                       for n in files]
    return result


def run_case(service, case, index):
    pending = []
    results = [run_connection(service, conn, index, pending) for conn in case['connections']]
    for s, conn, result in pending:
        result['replies'] = read_replies(s, conn.get('replies', 1), conn.get('timeout', 10))
        s.close()
    return results


def purge_keys(service):
    for k in service.keys:
        os.system('keyctl purge user %s >/dev/null 2>&1' % k)


def main():
    args = sys.argv[1:]
    cases = [json.loads(l) for l in open(args[0]) if l.strip() and not l.startswith('#')]
    ours = ref = None
    if '--ours' in args:
        i = args.index('--ours')
        ours = Service(*args[i + 1:i + 4], tag='ours')
    if '--ref' in args:
        i = args.index('--ref')
        ref = Service(*args[i + 1:i + 4], tag='ref')
    only = os.environ.get('ASK_CASES')
    if only:
        cases = [c for c in cases if c['name'] in only.split('|')]

    if '--record' in args:
        for n, case in enumerate(cases):
            case['expect'] = run_case(ref, case, n)
            print(json.dumps(case, ensure_ascii=False))
        purge_keys(ref)
        return 0

    first = int(args[args.index('--number-from') + 1]) if '--number-from' in args else 1
    if '--no-plan' not in args:
        print('1..%d' % len(cases))
    failed = 0
    for n, case in enumerate(cases, first):
        got = run_case(ours, case, n)
        want = case['expect']
        note = ''
        if ref is not None:
            theirs = run_case(ref, case, n)
            if case.get('differs'):
                # An intended difference (docs/companions.md): ours must give what the case
                # expects, and systemd must still give what the case says it gives.
                ok = got == want and theirs == case['reference']
                note = ' (intended difference: %s)' % case['differs']
            else:
                ok = got == theirs
                want = theirs
        else:
            ok = got == want
        print('%s %d - %s%s' % ('ok' if ok else 'not ok', n, case['name'], note))
        if not ok:
            failed += 1
            print('#   want: %s' % json.dumps(want, ensure_ascii=False))
            print('#   got:  %s' % json.dumps(got, ensure_ascii=False))
    purge_keys(ours)
    if ref:
        purge_keys(ref)
    return 1 if failed else 0


sys.exit(main())
