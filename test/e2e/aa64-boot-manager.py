#!/usr/bin/env python3
"""The arm64 UEFI programs (issue 43, first step): cross-built from this tree with Debian's cross
compiler and gnu-efi:arm64 (tools/cross/aarch64-linux-gnu.ini), both PE32+ images for AArch64 (machine
0xAA64, EFI application), and the boot manager started by AAVMF in qemu-system-aarch64 (TCG) from an
ESP: it runs and says it has no entries. Skips, saying why, without the cross tools or the archive.
Run it under flock /tmp/urlboot-qemu.lock (it boots QEMU). TAP.

  aa64-boot-manager.py BUILDDIR SRCDIR
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
GNU_EFI = '/var/cache/urlboot/gnu-efi-arm64'
AAVMF_CODE, AAVMF_VARS = '/usr/share/AAVMF/AAVMF_CODE.fd', '/usr/share/AAVMF/AAVMF_VARS.fd'
checks = []


def done():
    print(f'1..{len(checks)}')
    for i, (ok, what) in enumerate(checks, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}")
    sys.exit(0 if all(ok for ok, _ in checks) else 1)


def skip(why):
    print(f'1..0 # SKIP {why}')
    sys.exit(0)


def pe_header(path):
    """(machine, subsystem, SizeOfHeaders) of a PE32+ image, or None."""
    with open(path, 'rb') as f:
        d = f.read(4096)
    if d[:2] != b'MZ':
        return None
    pe = struct.unpack_from('<I', d, 0x3c)[0]
    if d[pe:pe + 4] != b'PE\0\0' or struct.unpack_from('<H', d, pe + 24)[0] != 0x20b:
        return None
    return (struct.unpack_from('<H', d, pe + 4)[0], struct.unpack_from('<H', d, pe + 24 + 68)[0],
            struct.unpack_from('<I', d, pe + 24 + 60)[0])


for tool in ('aarch64-linux-gnu-gcc', 'qemu-system-aarch64'):
    if not shutil.which(tool):
        skip(f'{tool} is not installed (tools/install-deps --e2e installs it)')
if not os.path.exists(AAVMF_CODE):
    skip('AAVMF is not installed (package qemu-efi-aarch64)')
p = subprocess.run([os.path.join(src, 'tools/cross/gnu-efi-arm64'), GNU_EFI], capture_output=True, text=True)
if p.returncode != 0:
    skip(f'gnu-efi for arm64 could not be fetched from the archive: {(p.stderr.strip().splitlines() or ["?"])[-1]}')

cross = os.path.join(build, 'cross-aa64')
setup = ['meson', 'setup', cross, src, '--cross-file', os.path.join(src, 'tools/cross/aarch64-linux-gnu.ini'),
         '-Duserspace=false', '-Defi=enabled', '-Dgnu-efi-prefix=' + GNU_EFI + '/usr']
if os.path.exists(os.path.join(cross, 'build.ninja')):
    setup = ['meson', 'configure', cross, '-Dgnu-efi-prefix=' + GNU_EFI + '/usr']
p = subprocess.run(setup, capture_output=True, text=True)
if p.returncode == 0:
    p = subprocess.run(['ninja', '-C', cross], capture_output=True, text=True)
manager, stub = os.path.join(cross, 'src/boot/urlbootaa64.efi'), os.path.join(cross, 'src/boot/urlboot-stubaa64.efi')
checks.append((p.returncode == 0, 'the UEFI programs cross-built for AArch64 (tools/cross/aarch64-linux-gnu.ini, -Duserspace=false)'
               + ('' if p.returncode == 0 else ': ' + ' '.join((p.stdout + p.stderr).strip().splitlines()[-3:]))))
if p.returncode != 0:
    done()
for path in (manager, stub):
    h = pe_header(path)
    checks.append((h is not None and h[0] == 0xaa64 and h[1] == 10,
                   f'{os.path.basename(path)}: PE32+, machine 0xAA64, EFI application (machine, subsystem, headers: '
                   f'{tuple(hex(x) for x in h) if h else None})'))

# The boot manager as the removable-media default of an ESP (QEMU's FAT view of a directory).
with tempfile.TemporaryDirectory() as d:
    boot = os.path.join(d, 'esp/EFI/BOOT')
    os.makedirs(boot)
    shutil.copy(manager, os.path.join(boot, 'BOOTAA64.EFI'))
    shutil.copy(AAVMF_VARS, os.path.join(d, 'vars.fd'))
    log = os.path.join(d, 'serial.log')
    cmd = ['unshare', '-n', 'qemu-system-aarch64', '-machine', 'virt', '-cpu', 'cortex-a57', '-m', '1024',
           '-accel', 'tcg', '-display', 'none', '-serial', 'file:' + log, '-monitor', 'none', '-nic', 'none',
           '-drive', f'if=pflash,format=raw,readonly=on,file={AAVMF_CODE}',
           '-drive', f'if=pflash,format=raw,file={os.path.join(d, "vars.fd")}',
           '-drive', f'file=fat:rw:{os.path.join(d, "esp")},format=raw,if=virtio']
    start = time.monotonic()
    q = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    text = ''
    while time.monotonic() - start < 300 and q.poll() is None:
        time.sleep(1)
        with open(log, 'rb') as f:
            text = f.read().decode('utf-8', 'replace').replace('\r', '')
        if 'no boot entries' in text:
            break
    seconds = time.monotonic() - start
    q.kill()
    q.wait()
    ran = 'urlboot boot manager' in text and 'no boot entries' in text
    tail = ' | '.join(l for l in text.splitlines()[-4:] if l.strip())
    checks.append((ran, f'AAVMF started urlbootaa64.efi from the ESP: it ran and said it has no entries ({seconds:.1f} s)'
                   + ('' if ran else f'; serial: {tail!r}')))
done()
