#!/usr/bin/env python3
"""End-to-end boots in QEMU + OVMF over HTTP (scenarios.tsv); one TAP line per scenario.

Runs tools/e2e/build-assets (cached in BUILDDIR/e2e-assets), makes one UKI per scenario and boots it
with tools/e2e/boot.py inside a private network namespace. Serial logs stay in BUILDDIR/e2e-logs.

  run.py BUILDDIR SRCDIR [SCENARIO...]
"""
import hashlib
import json
import os
import re
import subprocess
import sys


def sha256(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def mtools(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, MTOOLS_SKIP_CHECK='1'))


def put_text(img, path, text, tmpdir):
    f = os.path.join(tmpdir, 'text')
    with open(f, 'w') as out:
        out.write(text)
    mtools('mcopy', '-o', '-i', img, f, '::' + path)


ESP_OFFSET, ESP_MB, XBOOTLDR_MB = 1 << 20, 128, 32


def make_esp_disk(path, manager, uki, tmpdir, linux=None):
    """A GPT disk, no mount needed: an ESP (FAT, mtools) with the boot manager as the removable-media
    loader, loader.conf, a Type #2 UKI and Type #1 entries (one counted, two that must be left out),
    and an XBOOTLDR partition with one more Type #1 entry. Returns the ESP's mtools image spec."""
    size = ESP_OFFSET + (ESP_MB + XBOOTLDR_MB) * (1 << 20) + (1 << 20)
    with open(path, 'wb') as f:
        f.truncate(size)
    layout = (f'label: gpt\nstart=2048, size={ESP_MB * 2048}, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n'
              f'size={XBOOTLDR_MB * 2048}, type=BC13C2FF-59E6-4262-A352-B275FD6F7172\n')
    subprocess.run(['sfdisk', '--quiet', path], input=layout, text=True, check=True)
    esp = f'{path}@@{ESP_OFFSET}'
    xbootldr = f'{path}@@{ESP_OFFSET + ESP_MB * (1 << 20)}'
    mtools('mformat', '-i', esp, '-F', '-T', str(ESP_MB * 2048), '-v', 'ESP', '::')
    mtools('mformat', '-i', xbootldr, '-T', str(XBOOTLDR_MB * 2048), '-v', 'XBOOTLDR', '::')
    for d in ('/EFI', '/EFI/BOOT', '/EFI/Linux', '/loader', '/loader/entries'):
        mtools('mmd', '-i', esp, '::' + d)
    mtools('mcopy', '-i', esp, manager, '::/EFI/BOOT/BOOTX64.EFI')
    mtools('mcopy', '-i', esp, uki, '::/EFI/Linux/os.efi')
    default = 'local-uki.conf'
    if linux:
        # kernel, initrd, options: the boot manager hands the initrd over LoadFile2
        kernel, initrd, options = linux
        mtools('mcopy', '-i', esp, kernel, '::/vmlinuz')
        mtools('mcopy', '-i', esp, initrd, '::/initrd.img')
        put_text(esp, '/loader/entries/linux-initrd+2.conf',
                 f'title urlboot linux entry\nlinux /vmlinuz\ninitrd /initrd.img\noptions {options}\n', tmpdir)
        default = 'linux-initrd.conf'
    put_text(esp, '/loader/loader.conf', f'timeout 2\ndefault {default}\nreboot-on-error no\n', tmpdir)
    put_text(esp, '/loader/entries/local-uki+3.conf', 'title urlboot local UKI\nuki /EFI/Linux/os.efi\n', tmpdir)
    put_text(esp, '/loader/entries/missing-kernel.conf', 'title Missing kernel\nlinux /vmlinuz-none\n', tmpdir)
    put_text(esp, '/loader/entries/other-arch.conf', 'title Other arch\narchitecture aa64\nuki /EFI/Linux/os.efi\n',
             tmpdir)
    for d in ('/EFI', '/EFI/tools', '/loader', '/loader/entries'):
        mtools('mmd', '-i', xbootldr, '::' + d)
    mtools('mcopy', '-i', xbootldr, manager, '::/EFI/tools/tool.efi')
    put_text(xbootldr, '/loader/entries/tool.conf', 'title Tool from XBOOTLDR\nefi /EFI/tools/tool.efi\n', tmpdir)
    return esp


def result_ok(p):
    try:
        return json.loads(p.stdout.strip().splitlines()[-1]).get('ok', False)
    except (ValueError, IndexError):
        return False


def main():
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    only = sys.argv[3:]
    with open(os.path.join(src, 'test/e2e/scenarios.tsv')) as f:
        scenarios = [l.rstrip('\n').split('\t') for l in f if l.strip() and not l.startswith('#')]
    if only:
        scenarios = [s for s in scenarios if s[0] in only]
    print(f'1..{len(scenarios)}', flush=True)

    assets = os.path.join(build, 'e2e-assets')
    logs = os.path.join(build, 'e2e-logs')
    os.makedirs(logs, exist_ok=True)
    p = subprocess.run([os.path.join(src, 'tools/e2e/build-assets'), build, assets],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        for i, s in enumerate(scenarios, 1):
            print(f'not ok {i} - {s[0]} # assets could not be built')
        print('# ' + p.stdout.replace('\n', '\n# '))
        return 1

    srv = os.path.join(assets, 'srv')
    failed = 0
    import shutil
    shutil.copy(os.path.join(build, 'src/boot/urlbootx64.efi'), os.path.join(srv, 'urlbootx64.efi'))
    for i, fields in enumerate(scenarios, 1):
        name, cmdline, expect, timeout = fields[:4]
        via = fields[4] if len(fields) > 4 else 'direct'
        cmdline = re.sub(r'\{sha256:([^}]+)\}', lambda m: sha256(os.path.join(srv, m.group(1))), cmdline)
        uki = os.path.join(srv, f'{name}.efi')
        extra = []
        if via.startswith('secureboot'):
            extra = ['--sign']
        elif via == 'manager-profile':
            # Profile 0 keeps the base command line; profile 1 adds a word the booted system shows.
            prof = os.path.join(logs, 'profile')
            with open(prof, 'w') as f:
                f.write('ID=default\n')
            extra = [f'--profile={prof}', f'--profile={prof}',
                     '--profile-cmdline=console=ttyS0 ' + cmdline,
                     '--profile-cmdline=console=ttyS0 ' + cmdline + ' urlboot.profile=1']
        subprocess.run([os.path.join(src, 'tools/e2e/make-uki'), assets, build, uki, 'console=ttyS0 ' + cmdline]
                       + extra, check=True)
        if via == 'secureboot-tampered':
            # One byte of the signed UKI changed: inside the .linux section, far from the headers.
            with open(uki, 'r+b') as f:
                f.seek(os.path.getsize(uki) - 4096)
                b = f.read(1)
                f.seek(-1, 1)
                f.write(bytes([b[0] ^ 0xff]))
        log = os.path.join(logs, f'{name}.log')
        boot = ['--bootfile', f'{name}.efi']
        if via.startswith('secureboot'):
            boot = ['--bootfile', f'{name}.efi', '--secure-boot']
        elif via == 'bootentry':
            # No DHCP boot file: a Boot#### entry Uri(URL) written by urlbootctl into the VARS file.
            vars_file = os.path.join(logs, f'{name}.vars.fd')
            shutil.copy('/usr/share/OVMF/OVMF_VARS_4M.fd', vars_file)
            subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'add-uri', '--next', '--vars-file', vars_file,
                            '--title', name, f'http://10.0.2.2:8080/{name}.efi'], check=True, stdout=subprocess.DEVNULL)
            boot = ['--vars', vars_file]
        elif via == 'esp-disk-linux':
            # The same disk; the default is a Type #1 "linux" entry: EFI-stub kernel, initrd, options.
            disk = os.path.join(logs, f'{name}.disk.img')
            with open(os.path.join(assets, 'kver')) as f:
                kver = f.read().strip()
            esp = make_esp_disk(disk, os.path.join(build, 'src/boot/urlbootx64.efi'), uki, logs,
                                linux=(f'/boot/vmlinuz-{kver}', os.path.join(assets, 'initrd.img'),
                                       'console=ttyS0 ' + cmdline + ' urlboot.linux_entry=yes'))
            boot = ['--disk', disk, '--require', r'^ > urlboot linux entry$', '--fail', 'Missing kernel|Other arch']
        elif via == 'esp-disk-oneshot':
            # The same disk; urlbootctl set-oneshot/set-timeout-oneshot in the VARS file pick the Type #2 UKI
            # for this boot and force the menu for 1 s, over loader.conf's default.
            disk = os.path.join(logs, f'{name}.disk.img')
            esp = make_esp_disk(disk, os.path.join(build, 'src/boot/urlbootx64.efi'), uki, logs)
            vars_file = os.path.join(logs, f'{name}.vars.fd')
            shutil.copy('/usr/share/OVMF/OVMF_VARS_4M.fd', vars_file)
            ctl = os.path.join(build, 'src/bootctl/urlbootctl')
            subprocess.run([ctl, 'set-oneshot', 'os.efi', f'--vars-file={vars_file}'], check=True)
            subprocess.run([ctl, 'set-timeout-oneshot', '1', f'--vars-file={vars_file}'], check=True)
            boot = ['--disk', disk, '--vars', vars_file, '--require', r'^ > Debian GNU/Linux',
                    '--require', r'Booting the selected entry in 1 s']
        elif via == 'esp-disk':
            # Firmware boots the boot manager from a disk ESP; it picks the loader.conf default, a Type #1
            # "uki" entry with a counter, renames it and records LoaderBootCountPath.
            disk = os.path.join(logs, f'{name}.disk.img')
            esp = make_esp_disk(disk, os.path.join(build, 'src/boot/urlbootx64.efi'), uki, logs)
            boot = ['--disk', disk, '--require', r'^ > urlboot local UKI$', '--require', r'Tool from XBOOTLDR',
                    '--require', r'debian|Debian', '--require', r'URLBOOTCTL: +Current Entry: local-uki\.conf$',
                    '--fail', 'Missing kernel|Other arch']
        elif via == 'manager-menu-edit':
            # Two built-in entries; the first (default) cannot be fetched. At the countdown we press Down,
            # then 'e', and type the whole command line plus one word: the edited options reach the kernel.
            entries = []
            for fname, body in ((f'zz-{name}.conf', f'title Broken {name}\nuki-url :{name}-missing.efi\n'),
                                (f'aa-{name}.conf', f'title Good {name}\nuki-url :{name}.efi\n')):
                entries.append(os.path.join(logs, fname))
                with open(entries[-1], 'w') as f:
                    f.write(body)
            conf = os.path.join(logs, f'{name}.loader.conf')
            with open(conf, 'w') as f:
                f.write('timeout 30\neditor yes\n')
            subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'build-manager']
                           + [f'--entry={e}' for e in entries] + [f'--loader-conf={conf}', '--manager',
                           os.path.join(build, 'src/boot/urlbootx64.efi'),
                           f'--output={os.path.join(srv, name + "-manager.efi")}'], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            typed = 'console=ttyS0 ' + cmdline + ' urlboot.edited=yes'
            boot = ['--bootfile', f'{name}-manager.efi', '--send', rf'^ > Broken {name}$=\x1b[Be{typed}\r',
                    '--require', rf'^ > Good {name}$', '--fail', rf'starting http://\S+/{name}-missing\.efi']
        elif via in ('manager-builtin', 'manager-reboot'):
            # The boot manager carries its own menu (.entries) and loader.conf (.loader): no SMBIOS.
            conf = os.path.join(logs, f'{name}.loader.conf')
            entry = os.path.join(logs, f'{name}.conf')
            with open(entry, 'w') as f:
                f.write(f'title Built-in {name}\nuki-url :{name}.efi\n' if via == 'manager-builtin'
                        else f'title Missing {name}\nuki-url :{name}-missing.efi\n')
            with open(conf, 'w') as f:
                f.write('timeout 1\n' if via == 'manager-builtin' else 'timeout 0\nreboot-on-error yes\n')
            subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'build-manager', f'--entry={entry}',
                            f'--loader-conf={conf}', '--manager', os.path.join(build, 'src/boot/urlbootx64.efi'),
                            f'--output={os.path.join(srv, name + "-manager.efi")}'], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            boot = ['--bootfile', f'{name}-manager.efi']
            if via == 'manager-builtin':
                boot += ['--require', rf'^ > Built-in {name}$']
            else:
                boot += ['--require', rf'starting http://10\.0\.2\.2:8080/{name}-missing\.efi', '--expect-exit']
        elif via == 'manager-empty':
            # HTTP-booted with no SMBIOS entries and nothing built in: a message, not a hang or a crash.
            boot = ['--bootfile', 'urlbootx64.efi']
        elif via in ('manager', 'manager-extra', 'manager-profile'):
            profile = 'profile 1\n' if via == 'manager-profile' else ''
            boot = ['--bootfile', 'urlbootx64.efi', '--smbios',
                    f'io.systemd.boot.entries-extra:{name}.conf=title {name}\nuki-url :{name}.efi\n{profile}']
            if via == 'manager-extra':
                boot += ['--smbios', 'io.systemd.stub.kernel-cmdline-extra=urlboot.smbios_extra=yes']
        p = subprocess.run([os.path.join(src, 'test/netns-run.sh'), sys.executable,
                            os.path.join(src, 'tools/e2e/boot.py'), '--srv', srv, '--log', log, '--timeout', timeout,
                            '--expect', expect] + boot,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        os.unlink(uki)
        if via == 'esp-disk' and result_ok(p):
            # The counter file was renamed on the disk itself (read back with mtools, not the guest).
            listing = subprocess.run(['mdir', '-b', '-i', esp, '::/loader/entries'], capture_output=True, text=True,
                                     env=dict(os.environ, MTOOLS_SKIP_CHECK='1')).stdout
            if 'local-uki+2-1.conf' not in listing or 'local-uki+3.conf' in listing:
                p = subprocess.CompletedProcess(p.args, 1, json.dumps({'ok': False, 'error': 'entries on disk: ' + listing}))
        for f in (f'{name}-manager.efi',):
            if os.path.exists(os.path.join(srv, f)):
                os.unlink(os.path.join(srv, f))
        if via.startswith('esp-disk'):
            os.unlink(disk)
        try:
            result = json.loads(p.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            result = {'ok': False, 'error': p.stdout}
        if result.get('ok'):
            print(f'ok {i} - {name} ({result["seconds"]} s: {json.dumps(result["milestones"])})', flush=True)
        else:
            failed += 1
            print(f'not ok {i} - {name}: {result.get("error")} (log: {log})', flush=True)
            try:
                with open(log) as f:
                    tail = f.readlines()[-25:]
                print(''.join('# ' + l for l in tail), end='')
            except OSError:
                pass
    return 1 if failed else 0


sys.exit(main())
