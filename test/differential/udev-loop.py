#!/usr/bin/env python3
"""udev on real loop disks: systemd 252 with urlboot's rules beside systemd 262's rules.

Disk images (the reference rootdisk made by tools/image/make-disk-image, and GPT layouts made with
sfdisk: several root versions, the no-auto flag, "_empty", other architectures, an ESP named by
LoaderDevicePartUUID, no partition table, MBR, /usr only) are attached with urlboot-loop under a
reference. No udevd runs on this machine: each side runs `udevadm test` (which runs the rules, the
builtins and IMPORT programs, and writes the udev database of a private /run/udev) on the disk, then
its partitions:
  urlboot  this machine's udevadm 252 with 60-urlboot.rules and urlboot-udev-probe (in a mount
           namespace: the rule under /run/udev/rules.d, the probe laid over /usr/lib/udev);
  262      udevadm 262 in the reference tree (SYSTEMD_IN_INITRD=1, as the gpt-auto root logic of its
           blkid builtin applies in the initrd).
Both see a fake efivarfs (LoaderDevicePartUUID only where a scenario sets it). Compared per device:
the reference, the gpt-auto root properties, the partition's entry and file system properties, and
the /dev links. Every difference must be a row of docs/compatibility.md's table (test "diff-udev-loop").
Every loop device is detached at the end, also on failure.

  udev-loop.py BUILDDIR SRCDIR
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402

TEST = 'diff-udev-loop'
X86 = '4f68bce3-e8cd-4db1-96e7-fbcaf984b709'
ARM64 = 'b921b045-1df0-41c3-af44-4c6f280d3fae'
USR_X86 = '8484680c-9521-48c6-9c11-b0720656f69e'
ESP = 'c12a7328-f81f-11d2-ba4b-00a0c93ec93b'
ESP_UUID = 'd2f2a6b0-1111-4e4e-9c9c-0123456789ab'

# The properties that matter (the rest is the same blkid library underneath, or udev bookkeeping).
PROPERTIES = ('ID_LOOP_BACKING_FILENAME', 'ID_LOOP_BACKING_FILENAME_ENC', 'ID_PART_GPT_AUTO_ROOT_DISK',
              'ID_PART_GPT_AUTO_ROOT_UUID', 'ID_PART_GPT_AUTO_ROOT', 'ID_PART_TABLE_TYPE', 'ID_PART_TABLE_UUID',
              'ID_PART_ENTRY_NAME', 'ID_PART_ENTRY_TYPE', 'ID_PART_ENTRY_UUID', 'ID_PART_ENTRY_NUMBER',
              'ID_PART_ENTRY_FLAGS', 'ID_FS_TYPE', 'ID_FS_LABEL', 'ID_FS_LABEL_ENC', 'ID_FS_UUID', 'URLBOOT_LOOP_REF',
              'URLBOOT_LOOP_REF_ENC', 'ID_LOOP_BACKING_DEVICE', 'ID_LOOP_BACKING_INODE')


def sfdisk(path, size_mb, lines, label='gpt'):
    with open(path, 'wb') as f:
        f.truncate(size_mb << 20)
    subprocess.run(['sfdisk', '-q', path], input=f'label: {label}\n' + '\n'.join(lines) + '\n', text=True,
                   check=True, stdout=subprocess.DEVNULL)


def make_images(src, tmp):
    """List of scenarios: (name, image, reference, efivars)."""
    root = os.path.join(tmp, 'root')
    os.makedirs(os.path.join(root, 'usr/lib'))
    with open(os.path.join(root, 'usr/lib/os-release'), 'w') as f:
        f.write('ID=urlboot-test\n')
    rootdisk = os.path.join(tmp, 'rootdisk.raw')
    subprocess.run([os.path.join(src, 'tools/image/make-disk-image'), '--size=16', root, rootdisk], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    img = lambda n: os.path.join(tmp, n)  # noqa: E731
    sfdisk(img('versions.raw'), 32, [f'size=8M, type={X86}, name="root-1.9"', f'size=8M, type={X86}, name="root-1.10"',
                                     f'size=8M, type={ARM64}, name="root-9.0"'])
    sfdisk(img('noauto.raw'), 32, [f'size=8M, type={X86}, name="root-9", attrs="GUID:63"',
                                   f'size=8M, type={X86}, name="root-1"'])
    sfdisk(img('empty-label.raw'), 32, [f'size=8M, type={X86}', f'size=8M, type={X86}, name="_empty"'])
    sfdisk(img('unlabelled.raw'), 32, [f'size=8M, type={X86}', f'size=8M, type={X86}, name="a"'])
    sfdisk(img('arm.raw'), 16, [f'size=8M, type={ARM64}, name="root-arm64"'])
    sfdisk(img('usr-only.raw'), 16, [f'size=8M, type={USR_X86}, name="usr"'])
    sfdisk(img('netesp.raw'), 32, [f'size=8M, type={ESP}, name="ESP", uuid={ESP_UUID}', f'size=8M, type={X86}, name="root"'])
    sfdisk(img('mbr.raw'), 16, ['size=8M, type=83'], label='dos')
    with open(img('plain.raw'), 'wb') as f:
        f.truncate(8 << 20)
    subprocess.run(['mkfs.ext4', '-q', '-L', 'plainfs', img('plain.raw')], check=True)
    loader = {'LoaderDevicePartUUID': ESP_UUID.upper()}
    return [
        ('rootdisk.raw (reference from the file name)', rootdisk, None, {}),
        ('rootdisk (reference given)', rootdisk, 'rootdisk', {}),
        ('other.raw: not the root disk', rootdisk, 'other.raw', {}),
        ('reference with a space and a slash', rootdisk, 'my disk/1', {}),
        ('newest root version wins, arm64 ignored', img('versions.raw'), 'rootdisk', {}),
        ('no-auto flag skipped', img('noauto.raw'), 'rootdisk', {}),
        ('"_empty" label skipped', img('empty-label.raw'), 'rootdisk', {}),
        ('unlabelled root partitions', img('unlabelled.raw'), 'rootdisk.raw', {}),
        ('arm64 root only', img('arm.raw'), 'rootdisk', {}),
        ('/usr only', img('usr-only.raw'), 'rootdisk', {}),
        ('LoaderDevicePartUUID elsewhere', rootdisk, 'rootdisk.raw', loader),
        ('the ESP named by LoaderDevicePartUUID', img('netesp.raw'), 'anything', loader),
        ('MBR disk', img('mbr.raw'), 'rootdisk', {}),
        ('no partition table', img('plain.raw'), 'rootdisk', {}),
    ]


class Loops:
    def __init__(self, build):
        self.tool = os.path.join(build, 'src/loop/urlboot-loop')
        self.devices = []

    def attach(self, image, ref):
        args = [self.tool, 'attach', '--force'] + (['--ref-auto'] if ref is None else [f'--ref={ref}']) + [image]
        dev = subprocess.run(args, check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
        self.devices.append(dev)
        return dev

    def detach_all(self):
        for d in self.devices:
            subprocess.run([self.tool, 'detach', d], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def partitions(dev):
    name = os.path.basename(dev)
    return sorted((p for p in os.listdir(f'/sys/class/block/{name}') if p.startswith(name + 'p')),
                  key=lambda p: int(p[len(name) + 1:]))


# Runs on both sides: per scenario the efivarfs, then udevadm test on the disk and on each partition
# (the disk first: its database entry is what the partitions' rules read). Output: OUT/<i>/<device>.
SCRIPT = r'''
set -u
mount -t tmpfs tmpfs /sys/firmware || exit 1
mkdir -p /sys/firmware/efi/efivars /run/udev
mount -t tmpfs tmpfs /run/udev && mkdir -p /run/udev/rules.d /run/udev/data || exit 1
SETUP
for s in $WORK/scenarios/*; do
	i=${s##*/}
	mkdir -p $WORK/$SIDE/$i
	rm -f /sys/firmware/efi/efivars/* /run/udev/data/*
	cp $s/efivars/* /sys/firmware/efi/efivars/ 2>/dev/null
	for dev in $(cat $s/devices); do
		udevadm test /sys/class/block/$dev > $WORK/$SIDE/$i/$dev 2>&1
		# udevadm 262 test writes no database: store what udevd would, for the partitions' rules.
		if [ -n "${WRITE_DB:-}" ]; then
			{ echo V:1; sed -n '/^Properties:/,$ s/^  \([A-Za-z_][A-Za-z0-9_]*=.*\)/E:\1/p' $WORK/$SIDE/$i/$dev; } \
				> /run/udev/data/b$(cat /sys/class/block/$dev/dev)
		fi
	done
done
'''

OURS_SETUP = r'''
cp $SRC/src/udev/60-urlboot.rules /run/udev/rules.d/
mkdir -p /run/urlboot-probe && cp $BUILD/src/udev/urlboot-udev-probe /run/urlboot-probe/
mount -t overlay overlay -o lowerdir=/run/urlboot-probe:/usr/lib/udev /usr/lib/udev || exit 1
'''


def parse(path):
    """(properties, links) from udevadm test output (252 and 262 print the properties differently)."""
    props, in_props = {}, False
    with open(path, errors='replace') as f:
        lines = f.read().splitlines()
    for line in lines:
        if line.startswith('Properties:'):
            in_props = True
            continue
        if in_props and line.startswith('  ') and '=' in line:
            k, v = line.strip().split('=', 1)
            props[k] = v
        elif '=' in line and line.split('=', 1)[0].isupper() and ' ' not in line.split('=', 1)[0]:
            k, v = line.split('=', 1)
            props[k] = v
    links = set(props.get('DEVLINKS', '').split())
    return {k: v for k, v in props.items() if k in PROPERTIES}, links


def differences(theirs, ours, dev):
    diffs = []
    tp, tl = theirs
    op, ol = ours
    for k in sorted(set(tp) | set(op)):
        if tp.get(k) != op.get(k):
            if k not in op:
                diffs.append(('property', f'only 262: {k}={tp[k]}'))
            elif k not in tp:
                diffs.append(('property', f'only urlboot: {k}={op[k]}'))
            else:
                diffs.append(('property', f'{k}: 262={tp[k]!r} urlboot={op[k]!r}'))
    for l in sorted(tl - ol):
        diffs.append(('link', f'only 262: {l}'))
    for l in sorted(ol - tl):
        diffs.append(('link', f'only urlboot: {l}'))
    return diffs


def main():
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if os.geteuid() != 0 or not os.path.exists('/dev/loop-control'):
        raise reference.Skip('needs root and /dev/loop-control')
    reference.reference_tree()
    if not shutil.which('udevadm'):
        raise reference.Skip("this machine has no udevadm (systemd 252's side)")
    intended = reference.IntendedDifferences(TEST)
    tap = reference.Tap()
    work = tempfile.mkdtemp(prefix='urlboot-diff-udev.')
    loops = Loops(build)
    try:
        scenarios = make_images(src, os.path.join(work, 'images'))
        devices = []
        for i, (name, image, ref, efivars) in enumerate(scenarios):
            dev = loops.attach(image, ref)
            devs = [os.path.basename(dev)] + partitions(dev)
            devices.append(devs)
            d = os.path.join(work, 'scenarios', f'{i:02}')
            reference.write_efivars(os.path.join(d, 'efivars'), efivars)
            with open(os.path.join(d, 'devices'), 'w') as f:
                f.write('\n'.join(devs) + '\n')
        # Partitions appear asynchronously after BLKPG; urlboot-loop waits for them, but be sure.
        subprocess.run(['udevadm', 'settle'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ours = f'WORK={work} SIDE=ours SRC={src} BUILD={build}\n' + SCRIPT.replace('SETUP', OURS_SETUP)
        p = subprocess.run(['unshare', '--mount', '--propagation', 'private', 'bash', '-c', ours],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            raise RuntimeError('udevadm 252 with urlboot rules failed:\n' + p.stdout)
        reference.run_in_tree(work, 'export SYSTEMD_IN_INITRD=1 WORK=/mnt SIDE=theirs WRITE_DB=1\n' + SCRIPT.replace('SETUP', ''))
        seen = {}
        for i, (name, _, ref, _) in enumerate(scenarios):
            for dev in devices[i]:
                t = parse(os.path.join(work, 'theirs', f'{i:02}', dev))
                o = parse(os.path.join(work, 'ours', f'{i:02}', dev))
                bad, explained = [], set()
                for kind, text in differences(t, o, dev):
                    rid = intended.match(kind, text)
                    if rid:
                        explained.add(rid)
                        seen[rid] = seen.get(rid, 0) + 1
                    else:
                        bad.append(f'{kind}: {text}')
                label = f'{name}: {"disk" if dev == devices[i][0] else "partition " + dev.rsplit("p", 1)[1]}'
                details = bad + [f'262: {sorted(t[0].items())} {sorted(t[1])}',
                                 f'urlboot: {sorted(o[0].items())} {sorted(o[1])}'] if bad else []
                tap.ok(not bad, label + (f' (intended: {", ".join(sorted(explained))})' if explained else ''),
                       details)
        for rid in intended.unused():
            tap.note(f'intended difference {rid} of docs/compatibility.md is seen by no device (stale row?)')
        tap.note('intended differences seen: ' + ', '.join(f'{k} x{v}' for k, v in sorted(seen.items())))
    finally:
        loops.detach_all()
        shutil.rmtree(work, ignore_errors=True)
    return tap.finish()


reference.main_guard(main)
