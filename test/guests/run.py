#!/usr/bin/env python3
"""Real Debian guests booted by urlboot from HTTP, running the cases of test/guests/cases; TAP out.

Every guest some case names (bookworm: Debian 12, systemd 252; sid: Debian unstable, systemd 262) is
built by tools/guest/build-guest (cached) and booted ONCE for all its cases: QEMU + OVMF HTTP-boot
urlboot's boot manager, whose SMBIOS entry fetches a UKI (urlboot stub, Debian kernel, the initrd of
tools/e2e/build-assets) that pulls the guest image from next to itself. Debian 12 boots with the small
network-boot initrd (the dracut module's urlboot_small=yes, tools/e2e/make-initrd --small) and unstable
with the general one, so that both profiles boot a real system; --uki chooses one for all. The cases
travel on a read-only virtio disk (a tar archive with test/guests/run-cases) and report TAP on the
serial console; this turns that into one TAP stream whose lines are named GUEST/CASE. The serial log, the cases disk
and the boot's timeline (JSON) of each guest are in BUILDDIR/guest-logs.

  run.py BUILDDIR SRCDIR [--guest GUEST]... [CASE...]
  run.py BUILDDIR SRCDIR --boot-only [--guest GUEST]...     boot with no case: the timeline alone
  --uki=small|general                                      the initrd profile of every guest's UKI

$URLBOOT_GUESTS and $URLBOOT_GUEST_CASES (comma lists) narrow a run started by `meson test`. It boots
QEMU: run it under `flock /tmp/urlboot-qemu.lock`.
"""
import argparse
import glob
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'e2e'))
from console import loop_tables_read_twice  # noqa: E402  test/e2e/console.py

GUESTS = ['bookworm', 'sid', 'bookworm-lazy']
UKI_PROFILE = {'bookworm': 'small', 'sid': 'general', 'bookworm-lazy': 'small'}   # each guest's UKI's initrd by default
# Guests booted lazily from the verity image of another (build-guest --verity), with the expression the
# documentation gives and nothing else: the root is dm-verity over nbd, its writes in the overlay's tmpfs.
LAZY = {'bookworm-lazy': 'bookworm'}
NEEDS = {'tpm'}
DEFAULT_TIMEOUT = 300
SERVER_URL = 'http://10.0.2.2:8080'   # tools/e2e/boot.py's server, as QEMU's user network shows it to the guest
BOOT_BUDGET = 420          # seconds from QEMU's start to the runner's report, generously (TCG: ~70-90)
HEADER = re.compile(r'^#\s*(guests|timeout|needs):\s*(.*?)\s*$')
LOG_LINE = re.compile(r'^\[\s*[\d.]+\] ?(.*)$')
TAP_TEST = re.compile(r'^(ok|not ok)\b\s*(\d+)?\s*(?:-\s*)?(.*?)(?:\s*#\s*(SKIP|TODO)\b\s*(.*))?$', re.I)
TAP_PLAN = re.compile(r'^1\.\.(\d+)(?:\s*#\s*(?:SKIP\S*)?\s*(.*))?$', re.I)


class Case:
    """One test/guests/cases/NAME.sh and what its header asks for."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)[:-3]
        self.data = path[:-3] + '.d'
        self.error = None
        fields = {}
        with open(path, errors='replace') as f:
            for i, line in enumerate(f):
                if i > 0 and not line.startswith('#'):
                    break
                m = HEADER.match(line)
                if m:
                    fields[m.group(1)] = m.group(2)
        self.guests = fields.get('guests', '').split()
        if 'all' in self.guests:
            self.guests = [g for g in GUESTS if g not in LAZY]   # the systems, not their lazy boots
        self.needs = set(fields.get('needs', '').split())
        self.timeout = DEFAULT_TIMEOUT
        if not re.fullmatch(r'[a-z0-9][a-z0-9-]*', self.name):
            self.error = 'a case name is lower-case letters, digits and dashes'
        elif not self.guests:
            self.error = "its header has no '# guests: bookworm sid' line"
        elif set(self.guests) - set(GUESTS):
            self.error = f"unknown guest in '# guests: {fields['guests']}' (known: {' '.join(GUESTS)} all)"
        elif self.needs - NEEDS:
            self.error = f"unknown need in '# needs: {fields['needs']}' (known: {' '.join(sorted(NEEDS))})"
        elif 'timeout' in fields:
            if not fields['timeout'].isdigit() or int(fields['timeout']) < 1:
                self.error = f"'# timeout: {fields['timeout']}' is not a number of seconds"
            else:
                self.timeout = int(fields['timeout'])
        if not self.error and not os.access(path, os.X_OK):
            self.error = 'it is not executable (chmod +x)'


class Tap:
    """Numbered TAP lines; the plan goes last."""

    def __init__(self):
        self.count = 0
        self.failed = 0

    def test(self, ok, description, directive=''):
        self.count += 1
        if not ok:
            self.failed += 1
        description = description.replace('#', '\u266f')     # a '#' would start a directive
        print(f'{"ok" if ok else "not ok"} {self.count} - {description}' + (f' # {directive}' if directive else ''),
              flush=True)

    def comment(self, text):
        for line in text.splitlines() or ['']:
            print(f'# {line}', flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def parse_console(log_path):
    """What the guest's runner printed: its READY fields, and per case its lines and exit status."""
    ready, done, cases = None, None, {}
    try:
        with open(log_path, errors='replace') as f:
            lines = f.read().splitlines()
    except OSError:
        lines = []
    for raw in lines:
        m = LOG_LINE.match(raw)
        if not m:
            continue
        line = m.group(1)
        if (m := re.search(r'URLBOOT-GUEST-READY (.*)$', line)) and ready is None:
            ready = dict(kv.split('=', 1) for kv in m.group(1).split() if '=' in kv)
        elif m := re.search(r'URLBOOT-GUEST-DONE ?(.*)$', line):
            done = m.group(1)
        elif m := re.search(r'URLBOOT-CASE-BEGIN (\S+)', line):
            cases[m.group(1)] = {'lines': [], 'rc': None, 'seconds': None}
        elif m := re.search(r'URLBOOT-CASE (\S+)\| ?(.*)$', line):
            if m.group(1) in cases:
                cases[m.group(1)]['lines'].append(m.group(2))
        elif m := re.search(r'URLBOOT-CASE-END (\S+) rc=(\d+) seconds=(\d+)', line):
            if m.group(1) in cases:
                cases[m.group(1)].update(rc=int(m.group(2)), seconds=int(m.group(3)))
    return ready, done, cases


def report_case(tap, label, record):
    """One case's TAP, renumbered and named; a case that breaks the protocol fails."""
    tests = failures = 0
    plan = skip_reason = last_text = None
    for line in record['lines']:
        if m := TAP_TEST.match(line):
            tests += 1
            ok = m.group(1).lower() == 'ok'
            failures += not ok
            directive = f'{m.group(4).upper()} {m.group(5)}'.strip() if m.group(4) else ''
            tap.test(ok, f'{label}: {m.group(3) or "test " + (m.group(2) or str(tests))}', directive)
        elif m := TAP_PLAN.match(line):
            plan = int(m.group(1))
            skip_reason = m.group(2)
        else:
            text = line[1:].strip() if line.startswith('#') else line
            tap.comment(f'{label}: {text}')
            last_text = text or last_text
    rc = record['rc']
    if rc is None:
        tap.test(False, f'{label}: did not finish (the guest stopped or the boot timed out)')
    elif rc in (124, 137):
        tap.test(False, f'{label}: killed after its timeout')
    elif tests == 0 and (plan == 0 or rc == 77):
        tap.test(True, label, f'SKIP {skip_reason or last_text or "the case skipped itself"}')
    elif rc != 0 and failures == 0:
        tap.test(False, f'{label}: exited with status {rc}')
    elif tests == 0:
        tap.test(False, f'{label}: printed no TAP line')
    elif plan is not None and plan != tests:
        tap.test(False, f'{label}: planned {plan} tests, printed {tests}')


def make_cases_disk(path, guest, cases, src, environment):
    """The tar archive the guest reads from its virtio disk: run-cases, manifest, environment, the cases
    and their data."""
    manifest = ''.join(f'{c.name} {c.timeout}\n' for c in cases)
    with tarfile.open(path, 'w', format=tarfile.GNU_FORMAT) as tar:
        def add_bytes(name, data, mode):
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), mode
            tar.addfile(info, io.BytesIO(data))
        add_bytes('guest', guest.encode() + b'\n', 0o644)
        add_bytes('manifest', manifest.encode(), 0o644)
        add_bytes('environment', ''.join(f'{k}={v}\n' for k, v in environment.items()).encode(), 0o644)
        tar.add(os.path.join(src, 'test/guests/run-cases'), 'run-cases')
        for c in cases:
            tar.add(c.path, f'cases/{c.name}.sh')
            if os.path.isdir(c.data):
                tar.add(c.data, f'cases/{c.name}.d')


class Run:
    def __init__(self, build, src, uki_profile=None):
        self.build, self.src = build, src
        self.uki_profile = uki_profile
        self.assets = os.path.join(build, 'e2e-assets')
        self.srv = os.path.join(build, 'guest-srv')
        self.logs = os.path.join(build, 'guest-logs')
        self.assets_error = None
        self.assets_built = False

    def build_assets(self):
        """The initrd (and kernel version) the e2e boots use; built once per run."""
        if not self.assets_built:
            self.assets_built = True
            p = run([os.path.join(self.src, 'tools/e2e/build-assets'), self.build, self.assets])
            if p.returncode != 0:
                self.assets_error = p.stdout
        return self.assets_error

    def boot_guest(self, tap, guest, cases):
        label = f'{guest}'
        if err := self.build_assets():
            tap.test(False, f'{label}: the initrd could not be built (tools/e2e/build-assets)')
            tap.comment(err[-3000:])
            return self.not_run(tap, guest, cases, 'the initrd could not be built')
        with open(os.path.join(self.assets, 'kver')) as f:
            kver = f.read().strip()
        base = LAZY.get(guest, guest)
        p = subprocess.run([os.path.join(self.src, 'tools/guest/build-guest'), f'--kver={kver}']
                           + (['--verity'] if guest in LAZY else []) + [base, self.build],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode == 77:
            reason = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else 'the Debian archive cannot be reached'
            tap.test(True, f'{label}: boots', f'SKIP {reason}')
            for c in cases:
                tap.test(True, f'{guest}/{c.name}', f'SKIP {reason}')
            return
        if p.returncode != 0:
            tap.test(False, f'{label}: the image could not be built (tools/guest/build-guest {guest})')
            tap.comment(p.stderr[-3000:])
            return self.not_run(tap, guest, cases, 'the image could not be built')
        image = p.stdout.strip().splitlines()[-1]

        # Served: the boot manager, the UKI and the image next to it (a hard link to the cached one).
        os.makedirs(self.srv, exist_ok=True)
        os.makedirs(self.logs, exist_ok=True)
        image_name = f'{guest}.raw.xz' if guest in LAZY else f'{guest}.raw.zst'
        served = os.path.join(self.srv, image_name)
        if os.path.exists(served):
            os.unlink(served)
        try:
            os.link(image, served)
        except OSError:
            shutil.copy(image, served)
        shutil.copy(os.path.join(self.build, 'src/boot/urlbootx64.efi'), os.path.join(self.srv, 'urlbootx64.efi'))
        if guest in LAZY:
            with open(image[:-len('.raw.xz')] + '.roothash') as f:
                roothash = f.read().strip()
            cmdline = f'console=ttyS0 rd.urlboot.pull=raw,machine,blockdev,lazy,bootorigin:rootdisk:{image_name} {roothash}'
        else:
            cmdline = (f'console=ttyS0 rd.systemd.pull=raw,machine,verify=no,blockdev,bootorigin:rootdisk:{image_name} '
                       'root=gpt-auto rw rootflags=x-systemd.device-timeout=300')
        profile = self.uki_profile or UKI_PROFILE[guest]
        uki_args = []
        if profile == 'small':
            p = run([os.path.join(self.src, 'tools/e2e/make-initrd'), '--small', os.path.join(self.assets, 'stage'),
                     kver, os.path.join(self.assets, 'initrd-small.img')])
            if p.returncode != 0:
                tap.test(False, f'{label}: the small initrd could not be built (tools/e2e/make-initrd --small)')
                tap.comment(p.stdout[-3000:])
                return self.not_run(tap, guest, cases, 'the small initrd could not be built')
            uki_args.append(f'--initrd={p.stdout.strip().splitlines()[-1]}')
        p = run([os.path.join(self.src, 'tools/e2e/make-uki'), self.assets, self.build,
                 os.path.join(self.srv, f'{guest}.efi'), cmdline] + uki_args)
        if p.returncode != 0:
            tap.test(False, f'{label}: the UKI could not be built (tools/e2e/make-uki)')
            tap.comment(p.stdout[-3000:])
            return self.not_run(tap, guest, cases, 'the UKI could not be built')

        disk = os.path.join(self.logs, f'{guest}.cases.tar')
        make_cases_disk(disk, guest, cases, self.src, {
            'URLBOOT_SERVER_URL': SERVER_URL,
            'URLBOOT_LOADER_URL': f'{SERVER_URL}/urlbootx64.efi',
            'URLBOOT_UKI_URL': f'{SERVER_URL}/{guest}.efi',
            'URLBOOT_IMAGE_URL': f'{SERVER_URL}/{image_name}',
        })
        log = os.path.join(self.logs, f'{guest}.log')
        entry = f'io.systemd.boot.entries-extra:{guest}.conf=title urlboot {guest} guest\nuki-url :{guest}.efi\n'
        timeout = BOOT_BUDGET + sum(c.timeout + 15 for c in cases)
        boot = [os.path.join(self.src, 'test/netns-run.sh'), sys.executable, os.path.join(self.src, 'tools/e2e/boot.py'),
                '--srv', self.srv, '--bootfile', 'urlbootx64.efi', '--smbios', entry, '--log', log,
                '--timeout', str(timeout), '--memory', '3072', '--expect', r'URLBOOT-GUEST-DONE',
                '--fail', r'Kernel panic - not syncing|You are in emergency mode|Entering emergency mode',
                '--drive', f'urlboot-cases={disk}']
        if any('tpm' in c.needs for c in cases):
            boot.append('--tpm')
        p = run(boot)
        try:
            result = json.loads(p.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            result = {'ok': False, 'error': p.stdout[-2000:], 'milestones': {}}
        ready, done, records = parse_console(log)
        ms = result.setdefault('milestones', {})
        try:
            # The runner's clock says when multi-user.target was reached: place it on the host's.
            ms['multi_user'] = round(ms['guest_ready'] - float(ready['uptime']) + float(ready['multi_user']), 2)
            with open(log, 'a') as f:
                f.write(f'  {ms["multi_user"]:8.2f}  multi_user (systemd\'s own time of multi-user.target, on this clock)\n')
        except (KeyError, TypeError, ValueError):
            pass

        # The timeline beside the log gets what this boot was.
        result.update(guest=guest, uki=profile, uki_bytes=os.path.getsize(os.path.join(self.srv, f'{guest}.efi')),
                      image=os.path.basename(image), image_bytes=os.path.getsize(image),
                      systemd=(ready or {}).get('systemd'), state=(ready or {}).get('state'),
                      cases={n: r['seconds'] for n, r in records.items()})
        with open(os.path.join(self.logs, f'{guest}.timeline.json'), 'w') as f:
            json.dump(result, f, indent=1)
            f.write('\n')
        os.unlink(served)

        if ready:
            tap.test(True, f'{label}: booted from HTTP by urlboot to multi-user.target in {ms.get("multi_user", "?")} s '
                           f'(systemd {ready.get("systemd")}, {ready.get("state")}, {profile} UKI, image '
                           f'{os.path.getsize(image) / 1e6:.0f} MB)')
        else:
            tap.test(False, f'{label}: the runner never reported: {result.get("failed_line") or result.get("error")} '
                            f'(log: {log})')
            tap.comment(tail(log, 30))
        if ready:
            twice = loop_tables_read_twice(log)
            tap.test(not twice, f'{label}: the kernel read each loop device\'s partition table once per attach'
                                + (f': {twice}' if twice else ''))
        tap.comment(f'{guest} timeline (s since QEMU started): ' +
                    ', '.join(f'{k} {v}' for k, v in sorted(ms.items(), key=lambda kv: kv[1])))
        for c in cases:
            if c.name in records:
                report_case(tap, f'{guest}/{c.name}', records[c.name])
            else:
                tap.test(False, f'{guest}/{c.name}: did not run (log: {log})')
        if ready and done is None:
            tap.comment(tail(log, 15))

    def not_run(self, tap, guest, cases, why):
        for c in cases:
            tap.test(False, f'{guest}/{c.name}: did not run: {why}')


def tail(path, n):
    try:
        with open(path, errors='replace') as f:
            return ''.join(f.readlines()[-n:])
    except OSError:
        return f'(no log at {path})'


def main():
    ap = argparse.ArgumentParser(description='Boot the real Debian guests once each and run their cases.')
    ap.add_argument('build')
    ap.add_argument('src')
    ap.add_argument('--guest', action='append', choices=GUESTS)
    ap.add_argument('--boot-only', action='store_true', help='boot the guests with no case (their timeline only)')
    ap.add_argument('--uki', choices=['small', 'general'],
                    help='the initrd profile of the UKI (default: small for bookworm, general for sid)')
    ap.add_argument('cases', nargs='*', metavar='CASE')
    args = ap.parse_intermixed_args()     # cases may follow --guest
    build, src = os.path.abspath(args.build), os.path.abspath(args.src)
    only_guests = args.guest or [g for g in os.environ.get('URLBOOT_GUESTS', '').split(',') if g]
    only_cases = args.cases or [c for c in os.environ.get('URLBOOT_GUEST_CASES', '').split(',') if c]

    cases = [Case(p) for p in sorted(glob.glob(os.path.join(src, 'test/guests/cases/*.sh')))]
    unknown = set(only_cases) - {c.name for c in cases}
    if unknown:
        print(f'run.py: no such case: {", ".join(sorted(unknown))} (test/guests/cases/NAME.sh)', file=sys.stderr)
        return 2
    if only_cases:
        cases = [c for c in cases if c.name in only_cases]
    tap = Tap()
    if args.boot_only:
        cases = []
    for c in cases:
        if c.error:
            tap.test(False, f'{c.name}: {c.error}')
    runner = Run(build, src, args.uki)
    for guest in GUESTS:
        if only_guests and guest not in only_guests:
            continue
        if args.boot_only:
            runner.boot_guest(tap, guest, [])
        elif mine := [c for c in cases if not c.error and guest in c.guests]:
            runner.boot_guest(tap, guest, mine)
    if tap.count == 0:
        print('1..0 # SKIP no case selected')
        return 0
    print(f'1..{tap.count}')
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
