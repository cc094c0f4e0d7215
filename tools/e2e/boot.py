#!/usr/bin/env python3
"""Boot a VM (QEMU + OVMF, TCG) from HTTP and watch its serial console.

Runs the test HTTP server on 127.0.0.1 and QEMU with user-mode networking; call it inside a private
network namespace (test/netns-run.sh). Prints a JSON result: whether the marker appeared, the
milestones' times in seconds since QEMU started, and where the serial log is. The same JSON goes
beside the log (LOG without .log, plus .timeline.json) and the timeline to the end of the log.

  boot.py --srv DIR --bootfile PATH --log FILE [--timeout SEC] [--expect REGEX] [--fail REGEX]
          [--vars FILE] [--smbios STRING]... [--memory MiB] [--drive SERIAL=FILE]... [--tpm]
          [--server-log FILE] [--nginx PKI-DIR] [--fw-cacerts FILE] [--vars-in-place] [--ms-keys] [--watchdog]
          [--no-server] [--hostfwd HOSTPORT:GUESTPORT]...

--bootfile may be a whole URL (https://10.0.2.2:8443/... with --nginx, test/http/nginx.py's ports).
"""
import argparse
import json
import os
import re
import select
import socket
import shutil
import signal
import subprocess
import sys
import tempfile
import time

MILESTONES = [
    ('firmware', re.compile(r'BdsDxe|Start HTTP Boot|UEFI HTTP')),
    ('http_boot', re.compile(r'Start HTTP Boot over')),
    ('program', re.compile(r'BdsDxe: starting')),
    ('boot_manager', re.compile(r'urlboot boot manager')),
    ('uki', re.compile(r'urlboot: starting http')),
    ('kernel', re.compile(r'Linux version|\[\s*0\.0+\]')),
    ('initrd', re.compile(r'Running in initrd|Welcome to .*[Ii]nitrd|initrd-release')),
    ('network_online', re.compile(r'Reached target .*Network is Online')),
    ('download_done', re.compile(r'Finished urlboot-import@|Downloaded http')),
    ('root_mounted', re.compile(r'Mounted .*/sysroot|Reached target .*Initrd Root File System')),
    ('switch_root', re.compile(r'Switching root')),
    ('marker', re.compile(r'URLBOOT-ROOT-OK')),
    # real guests (tools/guest): systemd's own target, then the runner's report
    ('multi_user', re.compile(r'Reached target .*Multi-User System')),
    ('guest_ready', re.compile(r'URLBOOT-GUEST-READY')),
    ('guest_done', re.compile(r'URLBOOT-GUEST-DONE')),
]
ANSI = re.compile(r'\x1b\[[0-9;=?]*[A-Za-z]')


def start_server(top, srv, tmp, log=None):
    """The test HTTP server on port 8080; with LOG, every request it answers is written there."""
    port_file = os.path.join(tmp, 'port')
    proc = subprocess.Popen([sys.executable, os.path.join(top, 'test/http/server.py'), '--root', srv,
                             '--port', '8080', '--port-file', port_file] + (['--verbose'] if log else []),
                            stdout=subprocess.DEVNULL, stderr=open(log, 'w') if log else subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists(port_file):
            return proc
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError('HTTP server did not start')


def start_swtpm(tmp):
    """A TPM 2.0 emulator on a socket in tmp; returns the process and QEMU's arguments for it."""
    state = os.path.join(tmp, 'tpm')
    os.makedirs(state)
    sock = os.path.join(tmp, 'swtpm.sock')
    proc = subprocess.Popen(['swtpm', 'socket', '--tpm2', '--tpmstate', f'dir={state}',
                             '--ctrl', f'type=unixio,path={sock}'],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists(sock):
            return proc, ['-chardev', f'socket,id=chrtpm,path={sock}', '-tpmdev', 'emulator,id=tpm0,chardev=chrtpm',
                          '-device', 'tpm-tis,tpmdev=tpm0']
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError('swtpm did not start (package swtpm)')


def read_until_prompt(s):
    """What QEMU's human monitor says up to its next prompt (or until it hangs up)."""
    data = b''
    while not data.endswith(b'(qemu) '):
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def hmp(sock_path, command):
    """One command on QEMU's human monitor (its unix socket); its answer, prompts and echo removed."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(sock_path)
        read_until_prompt(s)
        s.sendall(command.encode() + b'\n')
        data = read_until_prompt(s)
    text = ANSI.sub('', data.decode('utf-8', 'replace')).replace('\r', '')
    return text.rsplit('(qemu) ', 1)[0].split('\n', 1)[-1].strip()


def probe_silence(sock_path, log, now):
    """The console went silent: note where the CPUs are (halted or running), the UART's registers, and
    send an NMI (a living kernel logs it), so that a stalled boot's log says which of guest hang, serial
    stall or a waiting guest it was."""
    log.write(f'[{now:8.3f}] (the console has been silent: probing the VM)\n')
    try:
        regs = hmp(sock_path, 'info registers -a')
        for line in regs.splitlines():
            if line.startswith(('CPU#', 'RIP=', 'EFL=')) or 'HLT=' in line:
                log.write(f'[{now:8.3f}] (probe) {line.strip()}\n')
        uart = ', '.join(f'{name} {hmp(sock_path, "i/b " + port).split("=")[-1].strip()}'
                         for port, name in (('0x3fd', 'LSR'), ('0x3f9', 'IER'), ('0x3fc', 'MCR'), ('0x3fe', 'MSR')))
        log.write(f'[{now:8.3f}] (probe) UART {uart}\n')
        hmp(sock_path, 'nmi')
        log.write(f'[{now:8.3f}] (probe) NMI sent\n')
    except OSError as e:
        log.write(f'[{now:8.3f}] (probe failed: {e})\n')
    log.flush()


def write_timeline(log_path, result):
    """The milestones at the end of the serial log and, as JSON, beside it."""
    with open(log_path, 'a') as log:
        log.write('timeline (seconds since QEMU started):\n')
        for name, t in sorted(result['milestones'].items(), key=lambda kv: kv[1]):
            log.write(f'  {t:8.2f}  {name}\n')
    base = log_path[:-4] if log_path.endswith('.log') else log_path
    with open(base + '.timeline.json', 'w') as f:
        json.dump(result, f, indent=1)
        f.write('\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--srv', required=True)
    ap.add_argument('--bootfile', help='path on the server given to the firmware by DHCP')
    ap.add_argument('--log', required=True)
    ap.add_argument('--timeout', type=float, default=240)
    ap.add_argument('--expect', default=r'URLBOOT-ROOT-OK')
    ap.add_argument('--fail', action='append', default=[])
    ap.add_argument('--vars', help='OVMF variable store to use (copied)')
    ap.add_argument('--smbios', action='append', default=[])
    ap.add_argument('--memory', type=int, default=2048)
    ap.add_argument('--disk', help='raw disk image attached as the first boot device (used in place, writable)')
    ap.add_argument('--require', action='append', default=[],
                    help='regex that some line must match before the marker counts')
    ap.add_argument('--send', action='append', default=[], metavar='REGEX=KEYS',
                    help='when a line matches REGEX, type KEYS on the serial console (Python escapes: \\x1b[B is Down)')
    ap.add_argument('--send-screen', action='append', default=[], metavar='REGEX=KEYS',
                    help='in order: when the screen output since the previous one (escape sequences removed, '
                         'no line needed: full-screen programs such as MokManager draw without newlines) matches '
                         'REGEX, type KEYS')
    ap.add_argument('--expect-stop', action='store_true',
                    help='no marker: the boot succeeds when the VM stops by itself (a reset, with -no-reboot) after '
                         'every --require was seen and every --send-screen typed')
    ap.add_argument('--silence-probe', type=float, default=90, metavar='SECONDS',
                    help='when the console says nothing for this long, log what the VM is doing (its CPUs, '
                         'the serial port, whether the kernel still prints after an NMI), once')
    ap.add_argument('--expect-exit', action='store_true',
                    help='after the marker, the VM must stop by itself (a reset, with -no-reboot) within 30 s')
    ap.add_argument('--secure-boot', action='store_true',
                    help='OVMF with Secure Boot and Debian\'s snakeoil keys enrolled')
    ap.add_argument('--drive', action='append', default=[], metavar='SERIAL=FILE',
                    help='a read-only virtio disk (in the guest /dev/disk/by-id/virtio-SERIAL)')
    ap.add_argument('--tpm', action='store_true', help='a TPM 2.0 (swtpm, fresh state) on tpm-tis')
    ap.add_argument('--server-log', help="the HTTP server's log of the requests it answered")
    ap.add_argument('--nginx', metavar='PKI', help='also serve SRV over TLS (test/http/nginx.py, tools/e2e/tls-pki)')
    ap.add_argument('--fw-cacerts', metavar='ESL', help="the firmware's HTTPS CA list (fw_cfg etc/edk2/https/cacerts)")
    ap.add_argument('--vars-in-place', action='store_true',
                    help='use --vars itself, not a copy: what the firmware and the OS write stays for the next boot')
    ap.add_argument('--watchdog', action='store_true',
                    help='an Intel 6300ESB watchdog (i6300esb, as libvirt gives VMs): when it expires the VM resets')
    ap.add_argument('--no-server', action='store_true',
                    help='start no HTTP server: one is running on port 8080 already, or another VM serves')
    ap.add_argument('--hostfwd', action='append', default=[], metavar='HOSTPORT:GUESTPORT',
                    help="127.0.0.1:HOSTPORT on the host reaches the VM's GUESTPORT (QEMU's user network)")
    ap.add_argument('--ms-keys', action='store_true',
                    help="with --secure-boot: Microsoft's keys (OVMF_VARS_4M.ms.fd), as a stock machine has")
    args = ap.parse_args()
    # SIGTERM (a harness stopping a VM it keeps running, e.g. a peer that serves) ends like a timeout: the
    # finally below stops QEMU and the rest
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    tmp = tempfile.mkdtemp(prefix='urlboot-boot.')
    server = qemu = swtpm = nginx = None
    result = {'ok': False, 'milestones': {}, 'log': args.log}
    try:
        if not args.no_server:
            server = start_server(top, args.srv, tmp, args.server_log)
        if args.nginx:
            sys.path.insert(0, os.path.join(top, 'test/http'))
            import nginx as nginx_server
            nginx = nginx_server.start(args.srv, args.nginx, os.path.join(tmp, 'nginx'))
        code = '/usr/share/OVMF/OVMF_CODE_4M.secboot.fd' if args.secure_boot else '/usr/share/OVMF/OVMF_CODE_4M.fd'
        default_vars = ('/usr/share/OVMF/OVMF_VARS_4M.ms.fd' if args.ms_keys else
                        '/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd' if args.secure_boot else
                        '/usr/share/OVMF/OVMF_VARS_4M.fd')
        if args.vars_in_place:
            vars_file = args.vars
        else:
            vars_file = os.path.join(tmp, 'vars.fd')
            shutil.copy(args.vars or default_vars, vars_file)
        netdev = 'user,id=n0,ipv6=off'
        for f in args.hostfwd:
            host_port, guest_port = f.split(':')
            netdev += f',hostfwd=tcp:127.0.0.1:{host_port}-:{guest_port}'
        if args.bootfile and re.match(r'^https?://', args.bootfile):
            netdev += f',bootfile={args.bootfile}'
        elif args.bootfile:
            netdev += f',bootfile=http://10.0.2.2:8080/{args.bootfile.lstrip("/")}'
        machine = 'q35,smm=on' if args.secure_boot else 'q35'
        cmd = ['qemu-system-x86_64', '-machine', machine, '-accel', 'tcg', '-m', str(args.memory), '-smp', '2',
               '-nographic', '-nodefaults', '-serial', 'stdio', '-no-reboot',
               '-monitor', f'unix:{os.path.join(tmp, "hmp.sock")},server=on,wait=off',
               '-drive', f'if=pflash,format=raw,readonly=on,file={code}',
               '-drive', f'if=pflash,format=raw,file={vars_file}',
               '-fw_cfg', 'name=opt/org.tianocore/IPv4PXESupport,string=no',
               '-fw_cfg', 'name=opt/org.tianocore/IPv6PXESupport,string=no',
               '-fw_cfg', 'name=opt/org.tianocore/IPv6Support,string=no',
               '-netdev', netdev, '-device', 'virtio-net-pci,netdev=n0,romfile=',
               # An entropy source, as VMs are given one (real machines have RDRAND, which TCG's default CPU
               # lacks): OVMF offers it as EFI_RNG_PROTOCOL, whose seed the kernel's EFI stub hands on, so
               # the kernel's pool is ready at once instead of after a getrandom() waited ~2 s for jitter.
               '-object', 'rng-random,id=rng0,filename=/dev/urandom', '-device', 'virtio-rng-pci,rng=rng0']
        if args.secure_boot:
            cmd += ['-global', 'driver=cfi.pflash01,property=secure,value=on']
        if args.watchdog:
            cmd += ['-device', 'i6300esb']
        if args.fw_cacerts:
            cmd += ['-fw_cfg', f'name=etc/edk2/https/cacerts,file={args.fw_cacerts}']
        if args.disk:
            cmd += ['-drive', f'if=none,id=disk0,format=raw,file={args.disk}',
                    '-device', 'virtio-blk-pci,drive=disk0,bootindex=0']
        for i, d in enumerate(args.drive):
            serial, path = d.split('=', 1)
            cmd += ['-drive', f'if=none,id=data{i},format=raw,readonly=on,file={path}',
                    '-device', f'virtio-blk-pci,drive=data{i},serial={serial}']
        if args.tpm:
            swtpm, tpm_args = start_swtpm(tmp)
            cmd += tpm_args
        for s in args.smbios:
            cmd += ['-smbios', f'type=11,value={s}']
        t0 = time.monotonic()
        result['epoch_start'] = round(time.time(), 3)     # the log's times are seconds since this
        sends = [(re.compile(k), v.encode().decode('unicode_escape')) for k, v in (x.split('=', 1) for x in args.send)]
        screen_sends = [(re.compile(k), v.encode().decode('unicode_escape'))
                        for k, v in (x.split('=', 1) for x in args.send_screen)]
        screen = ''
        qemu = subprocess.Popen(cmd, stdin=subprocess.PIPE if sends or screen_sends else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

        def type_keys(keys, now):
            log.write(f'[{now:8.3f}] (typing {keys!r})\n')
            time.sleep(1)
            for ch in keys.encode():
                # one key at a time: the firmware polls a 16-byte UART FIFO
                qemu.stdin.write(bytes([ch]))
                qemu.stdin.flush()
                time.sleep(0.03)
        expect = re.compile(args.expect)
        fails = [re.compile(f) for f in args.fail]
        required = {r: re.compile(r) for r in args.require}
        buf = b''
        last_output = time.monotonic()
        probed = False
        with open(args.log, 'w', buffering=1) as log:   # line by line: a stalled boot's log is whole
            while True:
                if not probed and time.monotonic() - last_output > args.silence_probe:
                    probed = True
                    probe_silence(os.path.join(tmp, 'hmp.sock'), log, time.monotonic() - t0)
                left = args.timeout - (time.monotonic() - t0)
                if left <= 0:
                    result['error'] = f'timeout after {args.timeout:.0f} s'
                    break
                r, _, _ = select.select([qemu.stdout], [], [], min(left, 1.0))
                chunk = os.read(qemu.stdout.fileno(), 65536) if r else None
                if (r and not chunk) or (not r and qemu.poll() is not None):
                    if args.expect_stop and not required and not screen_sends and 'failed_line' not in result:
                        result['ok'] = True
                        result['milestones']['reset'] = round(time.monotonic() - t0, 2)
                    elif args.expect_stop:
                        result['error'] = 'the VM stopped, but never: ' + ', '.join(
                            list(required) + [rx.pattern for rx, _ in screen_sends]) if required or screen_sends else \
                            'the VM stopped after a --fail line'
                    else:
                        result.setdefault('error', 'the VM stopped before the marker')
                    break
                if not r:
                    continue
                last_output = time.monotonic()
                buf += chunk
                if screen_sends:
                    screen += ANSI.sub('', chunk.decode('latin-1'))
                    rx, keys = screen_sends[0]
                    if rx.search(screen):
                        type_keys(keys, time.monotonic() - t0)
                        screen_sends.pop(0)
                        screen = ''
                    screen = screen[-8192:]
                while b'\n' in buf:
                    raw, buf = buf.split(b'\n', 1)
                    line = ANSI.sub('', raw.decode('utf-8', 'replace')).replace('\r', '')
                    now = time.monotonic() - t0
                    log.write(f'[{now:8.3f}] {line}\n')
                    for name, rx in MILESTONES:
                        if name not in result['milestones'] and rx.search(line):
                            result['milestones'][name] = round(now, 2)
                    for k, (rx, keys) in enumerate(sends):
                        if rx and rx.search(line):
                            sends[k] = (None, keys)
                            type_keys(keys, now)
                    for r, rx in list(required.items()):
                        if rx.search(line):
                            del required[r]
                    if expect.search(line):
                        if required:
                            result['error'] = 'marker seen, but never: ' + ', '.join(required)
                            result['failed_line'] = line.strip()
                        else:
                            result['ok'] = True
                            result['marker_line'] = line.strip()
                    for f in fails:
                        if f.search(line):
                            result['failed_line'] = line.strip()
                if result['ok'] and args.expect_exit:
                    try:
                        qemu.wait(timeout=30)
                        log.write(f'[{time.monotonic() - t0:8.3f}] (the VM reset itself and QEMU exited)\n')
                        result['milestones']['reset'] = round(time.monotonic() - t0, 2)
                    except subprocess.TimeoutExpired:
                        result['ok'] = False
                        result['error'] = 'marker seen, but the VM did not reset within 30 s'
                    break
                if result['ok'] or 'failed_line' in result:
                    # Give the VM a moment to print the rest, then stop it.
                    time.sleep(0.5)
                    break
        result['seconds'] = round(time.monotonic() - t0, 2)
    finally:
        for p in (qemu, server, swtpm, nginx):
            if p and p.poll() is None:
                p.kill()
                p.wait()
        if nginx and args.server_log:
            # what nginx answered, beside the test server's log
            try:
                shutil.copy(os.path.join(tmp, 'nginx', 'access.log'), args.server_log + '.nginx')
                shutil.copy(os.path.join(tmp, 'nginx', 'error.log'), args.server_log + '.nginx-error')
            except OSError:
                pass
        shutil.rmtree(tmp, ignore_errors=True)
    write_timeline(args.log, result)
    print(json.dumps(result))
    return 0 if result['ok'] else 1


if __name__ == '__main__':      # test/e2e/aa64-boot.py imports its milestones
    sys.exit(main())
