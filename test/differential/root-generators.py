#!/usr/bin/env python3
"""The root mounts a systemd 252 initrd with urlboot gets, beside those of systemd 262.

"urlboot" here is what a 252 initrd runs: systemd 252's own fstab- and gpt-auto-generator (this
machine's) plus urlboot-root-generator, into the same directories; the unit that counts is the one
systemd would load (early before normal before late, drop-ins of all three). "262" is systemd 262's
fstab- and gpt-auto-generator in the reference tree. Both see the same command line and a fake
efivarfs (no LoaderDevicePartUUID unless the input sets one) in a mount namespace of their own.

Inputs: every golden case (test/generators/cases) and generated root=bind:, mount.usr=bind: and
root=gpt-auto command lines. Model per mount unit (sysroot.mount, sysusr-usr.mount,
sysroot-usr.mount): What, Where, Type, Options, dependencies, the targets that pull it in, the device
time-out and initrd-root-device.target hookup; plus the other units each side writes. Every difference
must be a row of docs/compatibility.md's table (test "diff-root-generators").

  root-generators.py BUILDDIR SRCDIR
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402
import units  # noqa: E402

TEST = 'diff-root-generators'
MOUNTS = ('sysroot.mount', 'sysusr-usr.mount', 'sysroot-usr.mount')
PULL = 'rd.systemd.pull=tar,machine,verify=no::http://h/root.tar.xz'


def generated_inputs():
    out = []

    def add(name, cmdline, efivars=None):
        out.append(dict(name=name, cmdline=cmdline, efivars=efivars or {}))

    for path in ('/run/machines/root', '/run/machines/root/', '/run/machines//root', '/run/machines/../root',
                 'run/machines/root', '/', '/run/machines/a b', '/run/machines/a%b', '/run/machines/a-b',
                 '/run/machines/ü', ''):
        add(f'root=bind:{path}', f'"root=bind:{path}"' if ' ' in path else f'root=bind:{path}')
    for extra in ('ro', 'rw', 'ro rw', 'rootflags=ro', 'rootflags=rw', 'rootflags=nosuid', 'rootflags=nodev,noexec',
                  'rootflags=suid', 'rootflags=x-systemd.device-timeout=10s', 'rootfstype=ext4',
                  'rootflags=noatime rootflags=nodiratime', 'rootflags=', PULL, 'rd.root=bind:/x',
                  'root=/dev/sda1', 'mount.usr=bind:/run/machines/usr'):
        add(f'root=bind: with {extra}', f'root=bind:/run/machines/root {extra}')
    for cmdline in ('root=tmpfs mount.usr=bind:/run/machines/usr', 'root=tmpfs mount.usr=bind:/run/machines/usr rw',
                    'root=tmpfs mount.usr=bind:/run/machines/usr mount.usrflags=nosuid',
                    'root=tmpfs mount.usr=bind:/run/machines/usr mount.usrflags=rw',
                    'root=tmpfs mount.usr=bind:/run/machines/usr rootflags=noatime',
                    'root=tmpfs mount.usr=bind:/run/machines/usr mount.usrfstype=ext4',
                    'root=tmpfs mount.usr=bind:run/machines/usr', 'root=tmpfs mount.usr=bind:',
                    'root=bind:/run/machines/root mount.usr=bind:/run/machines/usr ' + PULL,
                    'mount.usr=bind:/run/machines/usr', 'root=/dev/sda1 mount.usr=bind:/run/machines/usr'):
        add(cmdline, cmdline)
    for extra in ('', 'rw', 'ro', 'rootfstype=ext4', 'rootfstype=xfs', 'rootfstype=btrfs', 'rootfstype=vfat',
                  'rootflags=noatime', 'rootflags=x-systemd.device-timeout=infinity',
                  'rootflags=x-systemd.device-timeout=300', 'rootflags=x-systemd.device-timeout=5min,noatime',
                  'rootflags=rw', 'rootfstype=ext4 rootflags=noatime rw', PULL, 'roothash=abcd', 'root=gpt-auto-force',
                  'mount.usr=bind:/run/machines/usr'):
        add(f'root=gpt-auto {extra}'.strip(), f'root=gpt-auto {extra}'.strip())
    add('root=gpt-auto-force', 'root=gpt-auto-force')
    add('root=dissect', 'root=dissect')
    add('no root=', PULL)
    add('root=/dev/sda1 with a pull', 'root=/dev/sda1 ' + PULL)
    add('root=/dev/disk/by-loop-ref/image.raw-part2', 'root=/dev/disk/by-loop-ref/image.raw-part2 '
        'rootflags=x-systemd.device-timeout=infinity ' + PULL)
    return out


def golden_inputs(src):
    out = []
    cases = os.path.join(src, 'test/generators/cases')
    for name in sorted(os.listdir(cases)):
        case = os.path.join(cases, name)
        with open(os.path.join(case, 'cmdline')) as f:
            cmdline = f.read().strip()
        if os.path.isdir(os.path.join(case, 'credentials')) and 'pull' not in cmdline:
            cmdline += ' ' + PULL       # the credential's expressions order the root mount after them
        efivars = {}
        if os.path.exists(os.path.join(case, 'efivars')):
            with open(os.path.join(case, 'efivars')) as f:
                efivars = dict(l.rstrip('\n').split('=', 1) for l in f if l.strip() and not l.startswith('#'))
        if 'LoaderDevicePartUUID' in efivars:
            continue    # systemd's own gpt-auto generator's business, which needs the real partition
        cmdline = re.sub(r'\burlboot([._-])pull', r'systemd\1pull', cmdline)
        out.append(dict(name=f'golden {name}', cmdline=cmdline, efivars=efivars))
    return out


# Both sides: one session, a tmpfs efivarfs refilled per input, every generator of the side per input.
SCRIPT = r'''
set -u
mount -t tmpfs tmpfs /sys/firmware || exit 1
mkdir -p /sys/firmware/efi/efivars
export SYSTEMD_LOG_TARGET=console SYSTEMD_LOG_COLOR=0 SYSTEMD_LOG_LEVEL=info SYSTEMD_IN_INITRD=1 \
	SYSTEMD_FSTAB=/dev/null SYSTEMD_SYSROOT_FSTAB=/dev/null SYSTEMD_SYSFS_CHECK=no URLBOOT_SYSTEMD_VERSION=252
for d in $WORK/in/*; do
	i=${d##*/} o=$WORK/$SIDE/${d##*/}
	rm -f /sys/firmware/efi/efivars/*
	cp $d/efivars/* /sys/firmware/efi/efivars/ 2>/dev/null
	IFS= read -r -d '' cmdline < $d/cmdline
	rc=
	for g in $GENERATORS; do
		SYSTEMD_PROC_CMDLINE=$cmdline URLBOOT_EFIVARFS=/sys/firmware/efi/efivars $g $o/normal $o/early $o/late >> $o/log 2>&1
		rc="$rc${rc:+ }$?"
	done
	echo "$rc" > $o/rc
done
'''


def lay_out(inputs, work):
    for i, inp in enumerate(inputs):
        d = os.path.join(work, 'in', str(i))
        os.makedirs(d)
        with open(os.path.join(d, 'cmdline'), 'w') as f:
            f.write(inp['cmdline'])
        reference.write_efivars(os.path.join(d, 'efivars'), inp['efivars'])
        for side in ('ours', 'theirs'):
            for x in ('normal', 'early', 'late'):
                os.makedirs(os.path.join(work, side, str(i), x))


def run_ours(build, work):
    gens = ' '.join(['/lib/systemd/system-generators/systemd-fstab-generator',
                     '/lib/systemd/system-generators/systemd-gpt-auto-generator',
                     os.path.join(build, 'src/generators/urlboot-root-generator')])
    script = f'WORK={work} SIDE=ours GENERATORS="{gens}"\n' + SCRIPT
    p = subprocess.run(['unshare', '--mount', '--propagation', 'private', 'bash', '-c', script],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise RuntimeError('running the 252 generators and ours failed:\n' + p.stdout)


def run_theirs(work):
    gens = ('/usr/lib/systemd/system-generators/systemd-fstab-generator '
            '/usr/lib/systemd/system-generators/systemd-gpt-auto-generator')
    reference.run_in_tree(work, f'WORK=/mnt SIDE=theirs GENERATORS="{gens}"\n' + SCRIPT)


NAMES = {'urlboot-imports.target': 'imports.target'}


def norm(name):
    return NAMES.get(name, name)


def device_unit(path):
    """systemd-escape --path --suffix=device, enough for the device paths the inputs use."""
    p = path.strip('/')
    out = ''
    for i, c in enumerate(p):
        if c == '/':
            out += '-'
        elif (c.isascii() and c.isalnum()) or c in ':_' or (c == '.' and i > 0):
            out += c
        else:
            out += ''.join(f'\\x{b:02x}' for b in c.encode())
    return out + '.device'


def model(out_dir):
    tree = {k: v for k, v in units.read_tree(out_dir).items() if k not in ('log', 'rc')}
    links = units.links(tree)
    mounts = {}
    for unit in MOUNTS:
        items = units.unit_settings(tree, unit)
        if not any(s == 'Mount' for s, _, _ in items) and not any(s == 'Unit' for s, _, _ in items):
            continue
        m = {k.lower(): units.last(items, 'Mount', k) for k in ('What', 'Where', 'Type', 'Options')}
        m['exists'] = any(s == 'Mount' for s, _, _ in items)
        m['dependencies'] = sorted({re.sub(r'=(.*)', lambda x: '=' + norm(x.group(1)), d)
                                    for d in units.dependencies(items)})
        m['pulled_in_by'] = sorted(l.split('/')[0] for l in links if l.split('/')[-1] == unit)
        what = m['what'] or ''
        if what.startswith('/dev/'):
            dev = device_unit(what)
            m['device_timeout'] = units.last(units.unit_settings(tree, dev), 'Unit', 'JobRunningTimeoutSec')
            root_dev = units.dependencies(units.unit_settings(tree, 'initrd-root-device.target'))
            m['root_device'] = sorted(d for d in root_dev if dev in d) if unit == 'sysroot.mount' else None
        mounts[unit] = m
    others = set()
    for rel, (kind, _) in tree.items():
        top = rel.split('/')[1]
        if top.endswith('.d') and top[:-2] in MOUNTS + ('initrd-root-device.target',):
            continue
        if top.endswith('.device.d') or top in MOUNTS or top == 'initrd-root-device.target.d':
            continue
        if kind == 'link' and rel.split('/')[-1] in MOUNTS:
            continue
        if kind == 'file' or kind == 'link':
            others.add(rel.split('/', 1)[1])
    with open(os.path.join(out_dir, 'rc')) as f:
        rcs = f.read().split()
    with open(os.path.join(out_dir, 'log'), errors='replace') as f:
        log = f.read().strip()
    return {'mounts': mounts, 'others': others, 'rc': rcs, 'log': log}


def differences(theirs, ours, cmdline):
    diffs = []
    # The table tells ordering after downloads that do not exist from ordering that is missing.
    no_pull = '' if 'pull' in cmdline else ' (no pull expression)'
    for unit in MOUNTS:
        t, o = theirs['mounts'].get(unit), ours['mounts'].get(unit)
        t_exists, o_exists = bool(t and t['exists']), bool(o and o['exists'])
        if not t_exists and not o_exists:
            continue    # at most a drop-in for a unit nobody wrote: it does nothing
        if not o_exists:
            diffs.append(('mount', f'{unit} only from 262: What={t["what"]} Options={t["options"]}'))
            continue
        if not t_exists:
            diffs.append(('mount', f'{unit} only from urlboot+252: What={o["what"]} Options={o["options"]}'))
            continue
        for f in ('what', 'where', 'type', 'options', 'device_timeout', 'root_device'):
            if t.get(f) != o.get(f):
                diffs.append(('field', f'{unit} {f}: 262={t.get(f)!r} urlboot={o.get(f)!r}'))
        for d in sorted(set(t['dependencies']) ^ set(o['dependencies'])):
            diffs.append(('dependency', f'{unit} only {"262" if d in t["dependencies"] else "urlboot"}: {d}{no_pull}'))
        for d in sorted(set(t['pulled_in_by']) ^ set(o['pulled_in_by'])):
            diffs.append(('link', f'{unit} pulled in only by {"262" if d in t["pulled_in_by"] else "urlboot"}: {d}'))
    for u in sorted(theirs['others'] - ours['others']):
        diffs.append(('other-unit', f'only 262: {u}'))
    for u in sorted(ours['others'] - theirs['others']):
        diffs.append(('other-unit', f'only urlboot+252: {u}'))
    return diffs


def main():
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    reference.reference_tree()
    if not os.path.exists('/lib/systemd/system-generators/systemd-fstab-generator'):
        raise reference.Skip("this machine has no systemd fstab-generator (the 252 side)")
    intended = reference.IntendedDifferences(TEST)
    golden, generated = golden_inputs(src), generated_inputs()
    inputs = golden + generated
    tap = reference.Tap()
    work = tempfile.mkdtemp(prefix='urlboot-diff-root.')
    try:
        lay_out(inputs, work)
        # Both sides at once: they only share the input tree.
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            for f in [pool.submit(run_ours, build, work), pool.submit(run_theirs, work)]:
                f.result()
        seen = {}
        for i, inp in enumerate(inputs):
            theirs = model(os.path.join(work, 'theirs', str(i)))
            ours = model(os.path.join(work, 'ours', str(i)))
            bad, explained = [], set()
            for kind, text in differences(theirs, ours, inp['cmdline']):
                rid = intended.match(kind, text)
                if rid:
                    explained.add(rid)
                    seen[rid] = seen.get(rid, 0) + 1
                else:
                    bad.append(f'{kind}: {text}')
            details = [f'cmdline: {inp["cmdline"]!r}'] + bad + [f'262 log: {theirs["log"]}',
                                                                f'urlboot+252 log: {ours["log"]}'] if bad else []
            tap.ok(not bad, inp['name'] + (f' (intended: {", ".join(sorted(explained))})' if explained else ''),
                   details)
        for rid in intended.unused():
            tap.note(f'intended difference {rid} of docs/compatibility.md is seen by no input (stale row?)')
        tap.note(f'{len(golden)} golden cases, {len(generated)} generated inputs; intended differences seen: '
                 + ', '.join(f'{k} x{v}' for k, v in sorted(seen.items())))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return tap.finish()


reference.main_guard(main)
