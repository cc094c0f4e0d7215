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
