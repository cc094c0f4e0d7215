#!/usr/bin/env python3
"""A machine boots from a booted peer alone (issue 40): QEMU + OVMF (TCG), two VMs; TAP out.

VM A HTTP-boots urlboot's boot manager from the origin (the test HTTP server on port 8080); its SMBIOS entry
fetches peer.efi, whose command line attaches the root lazily (roothash=, lazy.raw) and pulls a second image
with a pinned digest and 'serve' (image.raw.zst, kept as downloaded). Once its lazy copy is local, A runs
urlboot-serve on its port 8080 (the e2e root's /etc/urlboot-e2e-peer), which QEMU forwards to the host's
127.0.0.1:8081. Then the origin is stopped, and VM B HTTP-boots from http://10.0.2.2:8081/ - through A alone:
the boot manager A was given, the UKI A booted (kept only with the digest its boot manager recorded), and
through bootorigin the lazy root from A's local copy and the pinned image from A's kept download. Then B asks A
(the host's port 9001) to change one byte of its kept download and pulls it from A again: refused by its pin.

  peer-boot.py BUILDDIR SRCDIR        (run it under flock /tmp/urlboot-qemu.lock)
"""
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

ENTRY = 'io.systemd.boot.entries-extra:peer.conf=title urlboot peer\nuki-url :peer.efi\n'


class Tap:
    def __init__(self):
        self.n = self.failed = 0

    def check(self, ok, text, detail=None):
        self.n += 1
        self.failed += not ok
        print(f'{"ok" if ok else "not ok"} {self.n} - {text}')
        if detail and not ok:
            for line in str(detail).splitlines()[-25:]:
                print(f'# {line}')
        sys.stdout.flush()


def wait_for(path, rx, timeout, proc=None):
    """The first line of the (growing) log at path matching rx, or None after timeout or when proc ended."""
    t0 = time.monotonic()
    rx = re.compile(rx)
    while time.monotonic() - t0 < timeout:
        try:
            with open(path, errors='replace') as f:
                for line in f:
                    if rx.search(line):
                        return line.strip()
        except OSError:
            pass
        if proc and proc.poll() is not None:
            return None
        time.sleep(1)
    return None


def tail(path, n=30):
    try:
        with open(path, errors='replace') as f:
            return ''.join(f.readlines()[-n:])
    except OSError:
        return f'(no log at {path})'


def boot(src, srv, log, bootfile, role, expect, timeout, extra=()):
    return [sys.executable, os.path.join(src, 'tools/e2e/boot.py'), '--no-server', '--srv', srv, '--bootfile', bootfile,
            '--smbios', ENTRY, '--smbios', f'io.urlboot.e2e.role={role}', '--log', log, '--expect', expect,
            '--timeout', str(timeout)] + list(extra)


def main():
    build, src = (os.path.abspath(a) for a in sys.argv[1:3])
    assets = os.path.join(build, 'e2e-assets')
    logs = os.path.join(build, 'e2e-logs')
    srv = os.path.join(build, 'peer-srv')
    tap = Tap()
    p = subprocess.run([os.path.join(src, 'tools/e2e/build-assets'), build, assets], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        tap.check(False, 'the assets could not be built (tools/e2e/build-assets)', p.stdout[-3000:])
        print(f'1..{tap.n}')
        return 1
    if not os.path.exists(os.path.join(assets, 'root/etc/urlboot-e2e-peer')):
        print('1..0 # SKIP urlboot-serve was not built (libmicrohttpd missing)')
        return 0
    os.makedirs(logs, exist_ok=True)
    # an earlier run's logs would answer wait_for() before this run's VMs wrote a line
    for name in ('peer-a.log', 'peer-b.log', 'peer-origin.http'):
        if os.path.exists(os.path.join(logs, name)):
            os.unlink(os.path.join(logs, name))
    shutil.rmtree(srv, ignore_errors=True)
    os.makedirs(srv)
    for f in ('urlbootx64.efi', 'lazy.raw', 'image.raw.zst'):
        shutil.copy(os.path.join(assets, 'srv', f), srv)
    with open(os.path.join(assets, 'srv', 'lazy.raw.roothash')) as f:
        roothash = f.read().strip()
    with open(os.path.join(srv, 'image.raw.zst'), 'rb') as f:
        pin = hashlib.sha256(f.read()).hexdigest()
    raw_sha = hashlib.sha256(subprocess.run(['zstd', '-dc', os.path.join(srv, 'image.raw.zst')], check=True,
                                            stdout=subprocess.PIPE).stdout).hexdigest()
    cmdline = (f'console=ttyS0 rd.urlboot.pull=raw,machine,blockdev,lazy,bootorigin:rootdisk:lazy.raw roothash={roothash} '
               f'rd.systemd.pull=raw,machine,serve,sha256={pin},bootorigin:datadisk:image.raw.zst urlboot.e2e_peer=1')
    p = subprocess.run([os.path.join(src, 'tools/e2e/make-uki'), assets, build, os.path.join(srv, 'peer.efi'), cmdline],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        tap.check(False, 'the UKI could not be built (tools/e2e/make-uki)', p.stdout)
        print(f'1..{tap.n}')
        return 1

    origin_log = os.path.join(logs, 'peer-origin.http')
    origin = subprocess.Popen([sys.executable, os.path.join(src, 'test/http/server.py'), '--root', srv, '--port', '8080',
                               '--verbose'], stdout=subprocess.DEVNULL, stderr=open(origin_log, 'w'))
    a_log = os.path.join(logs, 'peer-a.log')
    a = subprocess.Popen(boot(src, srv, a_log, 'urlbootx64.efi', 'server', 'URLBOOT-NEVER', 1500,
                              ['--hostfwd', '8081:8080', '--hostfwd', '9001:9000']),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        ready = wait_for(a_log, r'URLBOOT-SERVE-READY|URLBOOT-PEER-FAILED', 600, a)
        tap.check(ready and 'READY' in ready,
                  'A booted from the origin (lazy root, pinned image kept with serve) and serves its boot',
                  tail(a_log))
        if not ready or 'READY' not in ready:
            print(f'1..{tap.n}')
            return 1
        with open(a_log, errors='replace') as f:
            a_text = f.read()
        tap.check(re.search(r'Serving the booted UKI at /peer\.efi', a_text) and
                  re.search(r'Serving the boot manager at /urlbootx64\.efi', a_text) and
                  re.search(r'Serving the image rootdisk at /lazy\.raw', a_text) and
                  re.search(r'Serving the image datadisk at /image\.raw\.zst', a_text),
                  "A's urlboot-serve: the UKI (its digest what booted), the boot manager, the lazy root's copy and the "
                  'kept download, each at its path', re.findall(r'URLBOOT-SERVE-LOG: .*', a_text))
        origin.send_signal(signal.SIGTERM)
        origin.wait()

        b_log = os.path.join(logs, 'peer-b.log')
        p = subprocess.run(boot(src, srv, b_log, 'http://10.0.2.2:8081/urlbootx64.efi', 'client', 'URLBOOT-PEER-CLIENT-OK',
                                600, ['--fail', r'Kernel panic|emergency mode']),
                           stdout=subprocess.PIPE, text=True)
        try:
            result = json.loads(p.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            result = {'ok': False}
        with open(b_log, errors='replace') as f:
            b_text = f.read()
        tap.check(result.get('ok'), f'B booted through A alone, the origin stopped ({result.get("seconds")} s)', tail(b_log))
        tap.check(re.search(r'Net Boot URL: http://10\.0\.2\.2:8081/urlbootx64\.efi', b_text) and
                  re.search(r'Net Boot URL: http://10\.0\.2\.2:8081/peer\.efi', b_text),
                  "B's boot manager and UKI came from A (urlbootctl status: both network boot URLs on A's port)",
                  re.findall(r'URLBOOTCTL: .*URL.*', b_text))
        tap.check(re.search(r'URLBOOT-PEER-LAZY: +URL: http://10\.0\.2\.2:8081/lazy\.raw', b_text) and
                  re.search(r'URLBOOT-PEER-LAZY: .*local', b_text),
                  "B's lazy root came from A's copy, verified by roothash=, and its own copy completed",
                  re.findall(r'URLBOOT-PEER-LAZY: .*', b_text))
        tap.check(f'URLBOOT-PEER-IMAGE datadisk.raw {raw_sha}' in b_text,
                  "B's pinned image came from A's kept download: its digest held, the image is the origin's",
                  re.findall(r'URLBOOT-PEER-IMAGE .*', b_text))

        # B itself asked A (port 9001) to change one byte of its kept download and pulled it again: refused
        tap.check(wait_for(a_log, r'URLBOOT-SERVE-TAMPERED', 30) and 'URLBOOT-PEER-TAMPER-REFUSED' in b_text and
                  re.search(r'URLBOOT-PEER-TAMPER: .*image\.raw\.zst( has SHA-256 [0-9a-f]+, but [0-9a-f]+ was expected|'
                            r': the zstd data is corrupt)', b_text),
                  'one byte of the download A kept changed: B refuses it (the zstd frame\'s checksum or the pin), '
                  'nothing installed', re.findall(r'URLBOOT-PEER-TAMPER.*', b_text) or tail(b_log))
    finally:
        if a.poll() is None:
            a.send_signal(signal.SIGTERM)
            try:
                a.wait(timeout=30)
            except subprocess.TimeoutExpired:
                a.kill()
        if origin.poll() is None:
            origin.kill()
    print(f'1..{tap.n}')
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
