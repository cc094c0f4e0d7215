#!/usr/bin/env python3
"""arm64 end to end (issue 43): urlboot cross-built from this tree (tools/cross/setup-aa64: the UEFI
programs, PE32+ for AArch64, and the userspace tools); AAVMF in qemu-system-aarch64 (TCG) starts the boot
manager from an ESP (alone: it says it has no entries); then an arm64 UKI made by urlbootctl build-uki from
the arm64 stub, Debian's arm64 kernel and a busybox initrd (the x86-64 stub with that kernel is refused),
found by the boot manager in /EFI/Linux: Linux runs its init on aarch64 with the UKI's command line, and
both programs left their EFI variables (LoaderInfo, StubInfo). The UKI carries two .dtbauto devicetrees
(QEMU's own, with a marker, under two compatibles) and a .hwids naming one by the CHID of the machine's
SMBIOS fields (-smbios type=1, type=2): the stub installs that one (AAVMF has ACPI, no devicetree) and
Linux reads it. Then from HTTP: AAVMF's HTTP boot fetches the boot manager (a Uri() boot entry that
urlbootctl add-uri wrote into AAVMF's variable store), whose SMBIOS uki-url entry
fetches a UKI whose initrd dracut made in an arm64 Debian 12 tree (test/e2e/aa64_system.py) with urlboot's
module and the cross build's programs: it pulls image.raw.zst by bootorigin, attaches it, finds the arm64
root partition (make-disk-image --arch=arm64) and switches into it, where urlbootctl status (arm64) shows
both network boot URLs; the boot's timeline is printed as a TAP comment. Skips, saying why, without the
cross tools or the archive. Run it in a private network namespace (it serves on 127.0.0.1:8080) under
flock /tmp/urlboot-qemu.lock (it boots QEMU). TAP.

  aa64-boot.py --fetch-only BUILDDIR SRCDIR   what the boots need from Debian's archive, into its caches (and
                                              the initrd, when BUILDDIR/cross-aa64 is there)
  test/netns-run.sh aa64-boot.py BUILDDIR SRCDIR     the boots (test/e2e/aa64-boot.sh runs both: the private
                                                     network namespace of the boots has no route to the archive)
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aa64_system  # noqa: E402
import importlib.util  # noqa: E402
# the milestones of the x86-64 boots' timeline (tools/e2e/boot.py), to set this one's beside them
_spec = importlib.util.spec_from_file_location('e2e_boot', os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                        '../../tools/e2e/boot.py'))
e2e_boot = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(e2e_boot)

fetch_only = sys.argv[1] == '--fetch-only'
build, src = (os.path.abspath(a) for a in sys.argv[2 if fetch_only else 1:][:2])
GNU_EFI = '/var/cache/urlboot/gnu-efi-arm64'
DEBS = '/var/cache/urlboot/arm64-debs'
AAVMF_CODE, AAVMF_VARS = '/usr/share/AAVMF/AAVMF_CODE.fd', '/usr/share/AAVMF/AAVMF_VARS.fd'
checks = []


def done():
    print(f'1..{len(checks)}')
    for i, (ok, what) in enumerate(checks, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}")
    sys.exit(0 if all(ok for ok, _ in checks) else 1)


def skip_rest(what, why):
    """The checks that cannot run here, each a TAP skip with the reason, then the end."""
    for w in what:
        checks.append((True, f'{w} # SKIP {why}'))
    done()


def skip(why):
    if not fetch_only:      # the boots' run says it
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


def fetch_debs():
    """Debian's arm64 kernel and busybox into DEBS (kept): None, or why they are not there."""
    os.makedirs(DEBS, exist_ok=True)
    kernel_pkg = subprocess.run(['apt-cache', 'depends', 'linux-image-arm64:arm64'], capture_output=True, text=True).stdout
    kernel_pkg = next((l.split()[1] for l in kernel_pkg.splitlines() if l.strip().startswith('Depends: linux-image-6')), None)
    have = {n.split('_')[0] for n in os.listdir(DEBS)}
    want = [p for p in (kernel_pkg, 'busybox-static:arm64') if p and p.split(':')[0] not in have]
    p = subprocess.run(['apt-get', 'download', '-q', '-o', 'APT::Sandbox::User=root'] + want, cwd=DEBS,
                       capture_output=True, text=True) if want else None
    if not kernel_pkg or not deb_files('linux-image-') or not deb_files('busybox-static_'):
        return (f'Debian\'s arm64 kernel or busybox could not be fetched'
                f' ({(p.stderr.strip().splitlines() or ["?"])[-1] if p else "no kernel package known"})')
    return None


def deb_files(prefix):
    return sorted(n for n in os.listdir(DEBS) if n.startswith(prefix) and n.endswith('_arm64.deb'))


p = subprocess.run([os.path.join(src, 'tools/cross/gnu-efi-arm64'), GNU_EFI], capture_output=True, text=True)
if p.returncode != 0:
    skip(f'gnu-efi for arm64 could not be fetched from the archive: {(p.stderr.strip().splitlines() or ["?"])[-1]}')
debs_error = fetch_debs()


def system_tree():
    """The arm64 Debian tree of the network boot's initrd: (path, None) or (None, why not)."""
    if not os.path.exists('/proc/sys/fs/binfmt_misc/qemu-aarch64'):
        return None, 'binfmt_misc does not run arm64 programs (tools/install-deps --arm64: qemu-user-static)'
    if not shutil.which('mmdebstrap') or debs_error:
        return None, debs_error or 'mmdebstrap is missing (tools/install-deps)'
    return aa64_system.tree('/var/cache/urlboot', os.path.join(DEBS, deb_files('linux-image-')[-1]))


tree, tree_error = system_tree()
cross = os.path.join(build, 'cross-aa64')


if fetch_only:
    # tools/test prepares the initrd beside the x86-64 boots, once it has made the cross build
    if tree and os.path.exists(os.path.join(cross, 'build.ninja')):
        aa64_system.initrd(tree, cross, src)
    sys.exit(0)     # the boots (in their network namespace) say what is missing

p = subprocess.run([os.path.join(src, 'tools/cross/setup-aa64'), build], capture_output=True, text=True)
if p.returncode == 77:
    skip(p.stderr.strip())
manager, stub = os.path.join(cross, 'src/boot/urlbootaa64.efi'), os.path.join(cross, 'src/boot/urlboot-stubaa64.efi')
checks.append((p.returncode == 0, 'urlboot cross-built for AArch64 (tools/cross/setup-aa64: aarch64-linux-gnu.ini, gnu-efi:arm64)'
               + ('' if p.returncode == 0 else ': ' + ' '.join((p.stdout + p.stderr).strip().splitlines()[-3:]))))
if p.returncode != 0:
    done()
for path in (manager, stub):
    h = pe_header(path)
    checks.append((h is not None and h[0] == 0xaa64 and h[1] == 10,
                   f'{os.path.basename(path)}: PE32+, machine 0xAA64, EFI application (machine, subsystem, headers: '
                   f'{tuple(hex(x) for x in h) if h else None})'))

# build-manager gives the arm64 boot manager a built-in menu: still an AArch64 PE, with the .entries section.
with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, 'arm64.conf'), 'w') as f:
        f.write('title urlboot arm64\nuki-url :debian-arm64.efi\n')
    built = os.path.join(d, 'urlbootaa64.efi')
    p = subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'build-manager', '--manager=' + manager,
                        '--entry=' + os.path.join(d, 'arm64.conf'), '--output=' + built], capture_output=True, text=True)
    h = pe_header(built) if p.returncode == 0 else None
    with open(built, 'rb') if h else open(os.devnull, 'rb') as f:
        has_entries = b'.entries' in f.read(4096)
    checks.append((h is not None and h[0] == 0xaa64 and has_entries,
                   'urlbootctl build-manager builds the arm64 boot manager with a built-in menu (AArch64 PE, .entries)'
                   + ('' if p.returncode == 0 else ': ' + p.stderr.strip())))

# The machine's SMBIOS fields, whose CHIDs the .hwids names (test/data/chid-cases.py, machine 3: type 3 is
# c4fddaee-8e0c-53ec-8e93-8bcc02d09071)
MACHINE_SMBIOS = ['-smbios', 'type=1,manufacturer=urlboot test,family=urlboot boards,product=urlboot board 1,sku=ub-1',
                  '-smbios', 'type=2,manufacturer=urlboot test,product=ub-base-1']
MACHINE_CHID3 = 'c4fddaee-8e0c-53ec-8e93-8bcc02d09071'
VIRT = ['-machine', 'virt', '-cpu', 'cortex-a57', '-m', '1024']


def devicetrees(d):
    """QEMU's devicetree of this machine (dumpdtb) with a marker property, as two blobs: compatible with
    urlboot,other-board (marker "other") and with urlboot,board-1 (marker "board-1"), and the .hwids
    descriptions naming board-1 by the machine's type 3 CHID. @return (paths, hwids dir) or None (no dtc)"""
    if not shutil.which('dtc'):
        return None
    raw = os.path.join(d, 'virt.dtb')
    # with the firmware, as booted: without it QEMU adds a GPIO controller it leaves out then (whose
    # registers then abort Linux's first read)
    subprocess.run(['qemu-system-aarch64', '-machine', 'virt,dumpdtb=' + raw] + VIRT[2:] +
                   ['-display', 'none', '-nic', 'none', '-drive', f'if=pflash,format=raw,readonly=on,file={AAVMF_CODE}',
                    '-drive', f'if=pflash,format=raw,readonly=on,file={AAVMF_VARS}'],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    source = subprocess.run(['dtc', '-q', '-I', 'dtb', '-O', 'dts', raw], check=True, capture_output=True, text=True).stdout
    paths = []
    for name, compatible in (('other', '"urlboot,other-board"'), ('board-1', '"urlboot,board-1", "linux,dummy-virt"')):
        text = source.replace('compatible = "linux,dummy-virt";',
                              f'compatible = {compatible};\n\turlboot-marker = "{name}";', 1)
        paths.append(os.path.join(d, name + '.dtb'))
        subprocess.run(['dtc', '-q', '-I', 'dts', '-O', 'dtb', '-o', paths[-1]], input=text, check=True, text=True)
    hwids = os.path.join(d, 'hwids')
    os.makedirs(hwids)
    with open(os.path.join(hwids, 'board-1.json'), 'w') as f:
        f.write('{"type": "devicetree", "name": "urlboot board 1", "compatible": "urlboot,board-1", '
                f'"hwids": ["{MACHINE_CHID3}"]}}\n')
    return paths, hwids


def boot(esp_files, until, limit=300, smbios=None, vars_in=None, vars_out=None):
    """Boots AAVMF with an ESP (QEMU's FAT view of a directory) holding esp_files {path: source}, or with
    smbios (an SMBIOS type 11 string) from the network: vars_in then holds the Boot#### entry of the URL
    (the caller serves it on 10.0.2.2, the host's 127.0.0.1). The variable store is a copy of vars_in
    (default AAVMF's blank one), kept as vars_out. @return the serial output once it holds until (or at
    the limit, or when QEMU ends), the seconds, and when each milestone of tools/e2e/boot.py was first seen."""
    with tempfile.TemporaryDirectory() as d:
        for path, source in esp_files.items():
            os.makedirs(os.path.dirname(os.path.join(d, 'esp', path)), exist_ok=True)
            shutil.copy(source, os.path.join(d, 'esp', path))
        shutil.copy(vars_in or AAVMF_VARS, os.path.join(d, 'vars.fd'))
        log = os.path.join(d, 'serial.log')
        cmd = ['qemu-system-aarch64'] + VIRT + MACHINE_SMBIOS + ['-accel', 'tcg', '-display', 'none', '-serial', 'file:' + log, '-monitor', 'none',
               '-drive', f'if=pflash,format=raw,readonly=on,file={AAVMF_CODE}',
               '-drive', f'if=pflash,format=raw,file={os.path.join(d, "vars.fd")}']
        if smbios:
            cmd += ['-netdev', 'user,id=n0,ipv6=off', '-device', 'virtio-net-pci,netdev=n0,romfile=',
                    '-smbios', f'type=11,value={smbios}']
        else:
            cmd = ['unshare', '-n'] + cmd + ['-nic', 'none', '-drive', f'file=fat:rw:{os.path.join(d, "esp")},format=raw,if=virtio']
        start = time.monotonic()
        q = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        text = ''
        seen = {}
        while time.monotonic() - start < limit:
            ended = q.poll() is not None
            time.sleep(0.5)
            with open(log, 'rb') as f:
                text = f.read().decode('utf-8', 'replace').replace('\r', '')
            plain = e2e_boot.ANSI.sub('', text)
            for name, rx in e2e_boot.MILESTONES:
                if name not in seen and rx.search(plain):
                    seen[name] = round(time.monotonic() - start, 1)
            if until in text or ended:
                break
        seconds = time.monotonic() - start
        q.kill()
        q.wait()
        if vars_out:
            shutil.copy(os.path.join(d, 'vars.fd'), vars_out)
    return text, seconds, seen


def serial_tail(text):
    return ' | '.join(l for l in text.splitlines()[-5:] if l.strip())


def report_init(root=False):
    """The init that reports (the busybox initrd's; root: the pulled root's, which also names its device and
    prints urlbootctl status), then powers off."""
    efivar = 'sys/firmware/efi/efivars'
    extra = '' if not root else """$b echo URLBOOT-ROOT-OK
$b echo "URLBOOT-AA64: root $($b awk '$2 == "/" { d = $1 } END { print d }' /proc/mounts)"
/usr/bin/urlbootctl status 2>&1 | $b sed 's/^/URLBOOT-AA64-STATUS: /'
"""
    return f"""#!/bin/busybox sh
b=/bin/busybox
$b mount -t proc proc /proc 2>/dev/null
$b mount -t sysfs sysfs /sys 2>/dev/null
[ -e /efivarfs.ko ] && $b insmod /efivarfs.ko
$b mount -t efivarfs efivarfs /{efivar} 2>/dev/null
v() {{ $b tail -c +5 /{efivar}/$1-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f 2>/dev/null | $b tr -d '\\000'; }}
$b echo "URLBOOT-AA64: machine $($b uname -m); cmdline $($b cat /proc/cmdline)"
$b echo "URLBOOT-AA64: LoaderInfo=$(v LoaderInfo); StubInfo=$(v StubInfo)"
$b echo "URLBOOT-AA64: devicetree $($b cat /sys/firmware/devicetree/base/urlboot-marker 2>/dev/null || echo none)"
{extra}$b echo "URLBOOT-AA64: LoaderDeviceURL=$(v LoaderDeviceURL); StubDeviceURL=$(v StubDeviceURL)"
$b poweroff -f
"""


# The boot manager alone, as the removable-media default of an ESP.
# (its variable store, which AAVMF formats on its first start, is the network boot's: see there)
formatted_vars = os.path.join(cross, 'aavmf-vars-formatted.fd')
text, seconds, _ = boot({'EFI/BOOT/BOOTAA64.EFI': manager}, 'no boot entries', vars_out=formatted_vars)
ran = 'urlboot boot manager' in text and 'no boot entries' in text
checks.append((ran, f'AAVMF started urlbootaa64.efi from the ESP: it ran and said it has no entries ({seconds:.1f} s)'
               + ('' if ran else f'; serial: {serial_tail(text)!r}')))

# An arm64 UKI: Debian's arm64 kernel and a busybox initrd whose init reports and powers off.
if debs_error:
    skip_rest(['build-uki makes an arm64 UKI', 'the boot manager starts it from the ESP', 'LoaderInfo and StubInfo',
               'the .dtbauto for the machine', 'AAVMF HTTP-boots the boot manager', 'its uki-url entry boots the UKI',
               'both network boot URLs recorded'], debs_error)
debs = DEBS
kernel_debs, busybox_debs = deb_files('linux-image-'), deb_files('busybox-static_')

with tempfile.TemporaryDirectory() as d:
    x = os.path.join(d, 'x')
    os.makedirs(x)
    subprocess.run(f'dpkg-deb --fsys-tarfile {debs}/{kernel_debs[-1]} | tar -x -C {x} --wildcards "./boot/vmlinuz-*"'
                   ' "./lib/modules/*/kernel/fs/efivarfs/efivarfs.ko"', shell=True, check=True)
    subprocess.run(['dpkg-deb', '-x', os.path.join(debs, busybox_debs[-1]), x], check=True)
    vmlinuz = os.path.join(x, 'boot', sorted(os.listdir(os.path.join(x, 'boot')))[-1])
    root = os.path.join(d, 'root')
    for sub in ('bin', 'proc', 'sys', 'dev'):
        os.makedirs(os.path.join(root, sub))
    shutil.copy(os.path.join(x, 'bin/busybox'), os.path.join(root, 'bin/busybox'))
    # Debian builds efivarfs as a module: the init loads it to read the variables.
    modules = os.path.join(x, 'lib/modules')
    kver = sorted(os.listdir(modules))[-1]
    shutil.copy(os.path.join(modules, kver, 'kernel/fs/efivarfs/efivarfs.ko'), os.path.join(root, 'efivarfs.ko'))
    with open(os.path.join(root, 'init'), 'w') as f:
        f.write(report_init())
    os.chmod(os.path.join(root, 'init'), 0o755)
    initrd = os.path.join(d, 'initrd.cpio')
    subprocess.run(f'cd {root} && find . | cpio -o -H newc --quiet > {initrd}', shell=True, check=True)
    uki = os.path.join(d, 'debian-arm64.efi')
    cmdline = 'console=ttyAMA0 panic=-1 urlboot.aa64=1'
    trees = devicetrees(d)
    dt_options = ['--devicetree-auto=' + p for p in trees[0]] + ['--hwids=' + trees[1]] if trees else []
    p = subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'build-uki', '--linux=' + vmlinuz,
                        '--initrd=' + initrd, '--cmdline=' + cmdline, '--stub=' + stub, '--output=' + uki] + dt_options,
                       capture_output=True, text=True)
    h = pe_header(uki) if p.returncode == 0 else None
    checks.append((h is not None and h[0] == 0xaa64,
                   f'urlbootctl build-uki made an arm64 UKI from urlboot-stubaa64.efi and {os.path.basename(vmlinuz)}'
                   + ('' if p.returncode == 0 else ': ' + p.stderr.strip())))
    if p.returncode != 0:
        done()
    # The x86-64 stub with the arm64 kernel: refused, one line naming both machines, nothing written.
    mixed = os.path.join(d, 'mixed.efi')
    p = subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'build-uki', '--linux=' + vmlinuz,
                        '--initrd=' + initrd, '--stub=' + os.path.join(build, 'src/boot/urlboot-stubx64.efi'),
                        '--output=' + mixed], capture_output=True, text=True)
    said = p.stderr.strip()
    checks.append((p.returncode == 1 and len(said.splitlines()) == 1 and 'x86-64' in said and 'arm64' in said
                   and not os.path.exists(mixed), f'build-uki refuses the x86-64 stub with the arm64 kernel: {said!r}'))
    text, seconds, _ = boot({'EFI/BOOT/BOOTAA64.EFI': manager, 'EFI/Linux/debian-arm64.efi': uki}, 'DeviceURL=')
    lines = [l for l in text.splitlines() if l.startswith('URLBOOT-AA64:')]
    booted = any('machine aarch64; cmdline ' + cmdline in l for l in lines)
    checks.append((booted, f'the boot manager started the UKI from /EFI/Linux; Linux ran its init on aarch64 with the'
                   f' UKI\'s command line ({seconds:.1f} s)' + ('' if booted else f'; serial: {serial_tail(text)!r}')))
    variables = any('LoaderInfo=urlboot ' in l and 'StubInfo=urlboot-stub ' in l for l in lines)
    checks.append((variables, f'the boot manager and the stub left LoaderInfo and StubInfo: {lines[-3:-2]!r}'))
    if trees:
        chosen = 'devicetree for urlboot,board-1 (.dtbauto)' in text
        marker = next((l for l in lines if 'devicetree ' in l), '')
        checks.append((chosen and marker.endswith('devicetree board-1'),
                       'the stub chose the .dtbauto the .hwids names for the machine\'s CHID (SMBIOS type 1 and 2; no'
                       f' firmware devicetree) and Linux runs on it: {marker!r}' + ('' if chosen else f'; serial: {serial_tail(text)!r}')))
    else:
        checks.append((True, 'the .dtbauto for the machine # SKIP dtc is not installed (package device-tree-compiler)'))

    # From HTTP: the firmware's HTTP boot fetches the boot manager; its only entry, an SMBIOS type 11
    # string, is "uki-url :debian-arm64.efi" (next to itself); the stub boots what it fetched. With the
    # arm64 tree, that UKI's initrd is dracut's with urlboot's module and the cross build's programs: it pulls
    # image.raw.zst from where the UKI came from (bootorigin), attaches it, finds the arm64 root partition
    # and switches into it, where urlbootctl (arm64) reports.
    system_error = None     # a failure of the pieces below (the tree's absence is a skip: tree_error)
    if tree:
        system_initrd_path, system_error = aa64_system.initrd(tree, cross, src)
    if tree and not system_error:
        aa64_system.root_tree(tree, os.path.join(cross, 'e2e-stage'), os.path.join(x, 'bin/busybox'), report_init(root=True), os.path.join(d, 'rootfs'))
        subprocess.run([os.path.join(src, 'tools/image/make-disk-image'), '--arch=arm64', os.path.join(d, 'rootfs'),
                        os.path.join(d, 'image.raw')], check=True, stdout=subprocess.DEVNULL)
        cmdline = ('console=ttyAMA0 panic=-1 urlboot.aa64=1 rd.systemd.pull=raw,machine,verify=no,blockdev,bootorigin:rootdisk:'
                   'image.raw.zst root=gpt-auto rootflags=x-systemd.device-timeout=300')
        p = subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'build-uki', '--linux=' + vmlinuz,
                            '--initrd=' + system_initrd_path, '--cmdline=' + cmdline, '--stub=' + stub,
                            '--output=' + uki + '.new'] + dt_options, capture_output=True, text=True)
        system_error = None if p.returncode == 0 else 'build-uki: ' + p.stderr.strip()
        if p.returncode == 0:
            os.replace(uki + '.new', uki)
    srv = os.path.join(d, 'srv')
    os.makedirs(srv)
    shutil.copy(manager, os.path.join(srv, 'urlbootaa64.efi'))
    shutil.copy(uki, os.path.join(srv, 'debian-arm64.efi'))
    if tree and not system_error:
        subprocess.run(['zstd', '-q', '-o', os.path.join(srv, 'image.raw.zst'), os.path.join(d, 'image.raw')], check=True)
    port_file = os.path.join(d, 'port')
    server = subprocess.Popen([sys.executable, os.path.join(src, 'test/http/server.py'), '--root', srv, '--port', '8080',
                               '--port-file', port_file], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists(port_file):
            break
        time.sleep(0.1)
    entry = 'io.systemd.boot.entries-extra:arm64.conf=title urlboot arm64\nuki-url :debian-arm64.efi\n'
    # The firmware's HTTP boot of the boot manager's URL, a Boot#### Uri() entry (urlbootctl add-uri --next)
    # rather than DHCP's boot file: AAVMF tries PXE over IPv6 first (a minute; unlike OVMF, fw_cfg cannot
    # switch its IPv6 off) and only then HTTP over IPv4.
    vars_file = os.path.join(d, 'http-vars.fd')
    shutil.copy(formatted_vars, vars_file)
    subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'add-uri', '--next', '--vars-file', vars_file,
                    '--title', 'urlboot arm64', 'http://10.0.2.2:8080/urlbootaa64.efi'], check=True, stdout=subprocess.DEVNULL)
    try:
        text, seconds, timeline = boot({}, 'DeviceURL=', limit=600, smbios=entry, vars_in=vars_file)
    finally:
        server.kill()
        server.wait()
    lines = [l for l in text.splitlines() if l.startswith('URLBOOT-AA64:')]
    print('# timeline of the network boot (s from power-on): '
          + ', '.join(f'{name} {t}' for name, t in sorted(timeline.items(), key=lambda kv: kv[1])))
    started = 'urlboot boot manager' in text and 'started over the network' in text
    checks.append((started, 'AAVMF HTTP-booted urlbootaa64.efi: the Boot#### Uri(http://10.0.2.2:8080/urlbootaa64.efi)'
                   ' entry urlbootctl add-uri --next wrote into AAVMF\'s variable store'
                   + ('' if started else f'; serial: {serial_tail(text)!r}')))
    booted = any('machine aarch64; cmdline ' + cmdline in l for l in lines)
    on_its_tree = not trees or any(l.endswith('devicetree board-1') for l in lines)
    checks.append((booted and on_its_tree, f'its uki-url entry fetched the arm64 UKI over HTTP and Linux ran'
                   f'{" on the devicetree chosen for the machine" if trees else ""} ({seconds:.1f} s from power-on)'
                   + ('' if booted else f'; serial: {serial_tail(text)!r}')))
    urls = next((l for l in lines if 'LoaderDeviceURL=' in l), '')
    want = ('LoaderDeviceURL=http://10.0.2.2:8080/urlbootaa64.efi', 'StubDeviceURL=http://10.0.2.2:8080/debian-arm64.efi')
    checks.append((all(w in urls for w in want), f'both network boot URLs recorded (as urlbootctl status reads them): {urls!r}'))
    if not tree:
        skip_rest(['the initrd pulled its root by bootorigin and switched into it', 'urlbootctl status there'], tree_error)
    if system_error:
        checks.append((False, f'the arm64 system of the network boot could not be made: {system_error}'))
        done()
    root = next((l for l in lines if ': root ' in l), '')
    checks.append((root.endswith('root /dev/loop0p1'),
                   'the initrd (dracut, urlboot\'s module, arm64 programs) pulled http://10.0.2.2:8080/image.raw.zst (bootorigin),'
                   f' attached it and switched into its arm64 root partition: {root!r}' + ('' if root else f'; serial: {serial_tail(text)!r}')))
    status = [l.split(': ', 1)[1] for l in text.splitlines() if l.startswith('URLBOOT-AA64-STATUS: ')]
    net = [l.strip() for l in status if 'Net Boot URL:' in l]
    checks.append((len(net) == 2 and any('urlbootaa64.efi' in l for l in net) and any('debian-arm64.efi' in l for l in net),
                   f'urlbootctl status (arm64) in the booted system shows both network boot URLs: {net!r}'
                   + ('' if status else f'; serial: {serial_tail(text)!r}')))
done()
