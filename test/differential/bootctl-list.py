#!/usr/bin/env python3
"""urlbootctl beside systemd 262's bootctl: the boot entries (list --json) and the variables set-*
writes.

Entries: every case of test/differential/bootctl-cases/ (an ESP tree, an optional XBOOTLDR tree,
EFI variables, and Type #2 UKIs built by urlbootctl build-uki from the lines of `ukis`: PATH, os-release,
.cmdline, then pairs of .profile and its .cmdline; "\\n" is a newline). bootctl 262 runs in the
reference tree with --esp-path/--boot-path (SYSTEMD_RELAX_ESP_CHECKS: the trees are directories) and
a fake efivarfs. Compared: the entries in order, and for each its ID, title, the title shown (made
unique), version, sort key, default or not, tries left and done, where it was found, its kind and
target, its options.

Variables: bootctl set-default/set-oneshot/set-timeout/set-timeout-oneshot 262 and urlbootctl's, each
into an empty efivarfs, byte for byte (attributes included).

Every difference must be a row of docs/compatibility.md's table (test "diff-bootctl").

  bootctl-list.py BUILDDIR SRCDIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402

TEST = 'diff-bootctl'
HERE = os.path.dirname(os.path.abspath(__file__))
SET_VERBS = [('set-timeout', '4294967280'), ('set-timeout', '4294967296'), ('set-default', 'debian-*'), ('set-default', 'Foo.conf'), ('set-default', '@saved'), ('set-default', ''),
             ('set-oneshot', 'local-uki.conf'), ('set-oneshot', ''), ('set-timeout', '5'), ('set-timeout', '0'),
             ('set-timeout', 'menu-force'), ('set-timeout', 'menu-hidden'), ('set-timeout', 'menu-disabled'),
             ('set-timeout', ''), ('set-timeout', '4294967294'), ('set-timeout', 'soon'),
             ('set-timeout-oneshot', '1'), ('set-timeout-oneshot', 'menu-force'), ('set-timeout-oneshot', '')]


def unescape(s):
    return s.replace('\\n', '\n')


def build_ukis(build, case_dir, tmp):
    spec = os.path.join(case_dir, 'ukis')
    if not os.path.exists(spec):
        return
    kernel = os.path.join(tmp, 'linux')
    with open(kernel, 'wb') as f:
        f.write(b'\0' * 4096)
    with open(spec) as f:
        lines = [l.rstrip('\n') for l in f if l.strip() and not l.startswith('#')]
    for n, line in enumerate(lines):
        fields = line.split('\t')
        out = os.path.join(case_dir, fields[0])
        os.makedirs(os.path.dirname(out), exist_ok=True)
        args = [os.path.join(build, 'src/bootctl/urlbootctl'), 'build-uki',
                f'--stub={os.path.join(build, "src/boot/urlboot-stubx64.efi")}', f'--linux={kernel}',
                f'--cmdline={fields[2]}', f'--output={out}']
        osrel = os.path.join(tmp, f'osrel-{n}')
        with open(osrel, 'w') as f:
            f.write(unescape(fields[1]))
        args.append(f'--os-release={osrel}')        # empty: a UKI without a usable .osrel
        for k in range(3, len(fields) - 1, 2):
            prof = os.path.join(tmp, f'profile-{n}-{k}')
            with open(prof, 'w') as f:
                f.write(unescape(fields[k]))
            args += [f'--profile={prof}', f'--profile-cmdline={fields[k + 1]}']
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def read_efivars(case_dir):
    p = os.path.join(case_dir, 'efivars')
    if not os.path.exists(p):
        return {}
    with open(p) as f:
        return dict(l.rstrip('\n').split('=', 1) for l in f if l.strip() and not l.startswith('#'))


SCRIPT_262 = r'''
mount -t tmpfs tmpfs /sys/firmware || exit 1
mkdir -p /sys/firmware/efi/efivars
export SYSTEMD_RELAX_ESP_CHECKS=1 SYSTEMD_RELAX_XBOOTLDR_CHECKS=1 SYSTEMD_PAGER= SYSTEMD_LOG_COLOR=0 SYSTEMD_COLORS=0
for c in /mnt/cases/*; do
	rm -f /sys/firmware/efi/efivars/*
	cp $c/efivars.d/* /sys/firmware/efi/efivars/ 2>/dev/null
	boot=
	[ -d $c/xbootldr ] && boot=--boot-path=$c/xbootldr
	bootctl --esp-path=$c/esp $boot list --json=short > $c/theirs.json 2> $c/theirs.log
done
mkdir -p /mnt/set/theirs
while IFS='	' read -r n verb value; do
	rm -f /sys/firmware/efi/efivars/*
	cp /mnt/set/features/* /sys/firmware/efi/efivars/
	bootctl $verb "$value" > /mnt/set/theirs/$n.log 2>&1
	echo $? > /mnt/set/theirs/$n.rc
	mkdir -p /mnt/set/theirs/$n
	for v in /sys/firmware/efi/efivars/*; do
		case $v in */LoaderFeatures-*|*/LoaderInfo-*) continue ;; esac
		[ -e "$v" ] && cp $v /mnt/set/theirs/$n/
	done
done < /mnt/set/verbs
'''


def model_262(entries):
    out = []
    for e in entries:
        kind = next((k for k in ('linux', 'efi', 'uki', 'ukiUrl') if k in e), None)
        out.append({
            'id': e.get('id'), 'title': e.get('title'), 'showTitle': e.get('showTitle'),
            'version': e.get('version'), 'sortKey': e.get('sortKey'), 'isDefault': bool(e.get('isDefault')),
            'triesLeft': e.get('triesLeft'), 'triesDone': e.get('triesDone'), 'source': e.get('source'),
            'entryType': e.get('type'), 'kind': {'ukiUrl': 'uki-url'}.get(kind, kind) if e.get('type') == 'type1' else None,
            'target': e.get(kind) if kind else None,
            'options': e.get('options') if isinstance(e.get('options'), str) else
            (' '.join(e['options']) if e.get('options') else None),
        })
    return out


def model_ours(entries):
    out = []
    for e in entries:
        out.append({
            'id': e.get('id'), 'title': e.get('title'), 'showTitle': e.get('showTitle'),
            'version': e.get('version'), 'sortKey': e.get('sortKey'), 'isDefault': bool(e.get('isDefault')),
            'triesLeft': e.get('triesLeft'), 'triesDone': e.get('triesDone'), 'source': e.get('source'),
            'entryType': e.get('entryType'), 'kind': e.get('type') if e.get('entryType') == 'type1' else None,
            'target': e.get('path'),
            'options': e.get('options'),
        })
    return out


def entry_differences(theirs, ours):
    """Entries are matched by ID case-insensitively (as the boot loader matches them); a difference
    in case is a field difference."""
    diffs = []
    tid = [e['id'].lower() for e in theirs]
    oid = [e['id'].lower() for e in ours]
    for i in sorted(set(tid) - set(oid)):
        diffs.append(('entry', f'only 262: {i}'))
    for i in sorted(set(oid) - set(tid)):
        diffs.append(('entry', f'only urlboot: {i}'))
    common_t = [i for i in tid if i in oid]
    common_o = [i for i in oid if i in tid]
    if common_t != common_o:
        diffs.append(('order', f'262={common_t} urlboot={common_o}'))
    by_o = {e['id'].lower(): e for e in ours}
    for t in theirs:
        o = by_o.get(t['id'].lower())
        if not o:
            continue
        for k in t:
            if t[k] != o[k]:
                diffs.append(('field', f'{t["id"]} {k}: 262={t[k]!r} urlboot={o[k]!r}'))
    return diffs


def main():
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    reference.reference_tree()
    ctl = os.path.join(build, 'src/bootctl/urlbootctl')
    if not os.path.exists(os.path.join(build, 'src/boot/urlboot-stubx64.efi')):
        raise reference.Skip('the urlboot stub is not built (gnu-efi missing?); Type #2 cases need it')
    intended = reference.IntendedDifferences(TEST)
    tap = reference.Tap()
    work = tempfile.mkdtemp(prefix='urlboot-diff-bootctl.')
    try:
        cases_src = os.path.join(HERE, 'bootctl-cases')
        names = sorted(os.listdir(cases_src))
        for name in names:
            d = os.path.join(work, 'cases', name)
            shutil.copytree(os.path.join(cases_src, name), d)
            os.makedirs(os.path.join(d, 'esp'), exist_ok=True)
            build_ukis(build, d, work)
            reference.write_efivars(os.path.join(d, 'efivars.d'), read_efivars(d))
        # The variables: an efivarfs with the loader's features (every bit) and nothing else.
        setdir = os.path.join(work, 'set')
        os.makedirs(os.path.join(setdir, 'features'))
        with open(os.path.join(setdir, 'features', f'LoaderFeatures-{reference.LOADER_GUID}'), 'wb') as f:
            f.write((6).to_bytes(4, 'little') + (0xffffffff).to_bytes(8, 'little'))
        reference.write_efivars(os.path.join(setdir, 'features'), {'LoaderInfo': 'urlboot 0.1'})
        with open(os.path.join(setdir, 'verbs'), 'w') as f:
            for n, (verb, value) in enumerate(SET_VERBS):
                f.write(f'{n}\t{verb}\t{value}\n')
        reference.run_in_tree(work, SCRIPT_262)

        seen = {}

        def judge(label, diffs, details):
            bad, explained = [], set()
            for kind, text in diffs:
                rid = intended.match(kind, text)
                if rid:
                    explained.add(rid)
                    seen[rid] = seen.get(rid, 0) + 1
                else:
                    bad.append(f'{kind}: {text}')
            tap.ok(not bad, label + (f' (intended: {", ".join(sorted(explained))})' if explained else ''),
                   bad + details if bad else [])

        for name in names:
            d = os.path.join(work, 'cases', name)
            args = [ctl, 'list', '--json', f'--esp-path={d}/esp']
            if os.path.isdir(os.path.join(d, 'xbootldr')):
                args.append(f'--boot-path={d}/xbootldr')
            env = dict(os.environ, URLBOOT_EFIVARFS=os.path.join(d, 'efivars.d'),
                       URLBOOT_SMBIOS_DIR=os.path.join(work, 'no-smbios'))
            p = subprocess.run(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                ours = model_ours(json.loads(p.stdout))
            except ValueError:
                tap.ok(False, f'entries: {name}', [f'urlbootctl list failed ({p.returncode}): {p.stderr}'])
                continue
            with open(os.path.join(d, 'theirs.json')) as f:
                text = f.read()
            try:
                theirs = model_262(json.loads(text) if text.strip() else [])
            except ValueError:
                with open(os.path.join(d, 'theirs.log')) as f:
                    tap.ok(False, f'entries: {name}', [f'bootctl 262 list failed: {f.read()}'])
                continue
            judge(f'entries: {name} ({len(theirs)} from 262, {len(ours)} from urlboot)', entry_differences(theirs, ours),
                  ['262: ' + json.dumps(theirs), 'urlboot: ' + json.dumps(ours)])

        for n, (verb, value) in enumerate(SET_VERBS):
            ev = os.path.join(work, 'set', 'ours', str(n))
            os.makedirs(ev)
            p = subprocess.run([ctl, verb, value], env=dict(os.environ, URLBOOT_EFIVARFS=ev),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            theirs_dir = os.path.join(work, 'set', 'theirs', str(n))
            with open(os.path.join(work, 'set', 'theirs', f'{n}.rc')) as f:
                rc = int(f.read())
            with open(os.path.join(work, 'set', 'theirs', f'{n}.log')) as f:
                log = f.read().strip()
            diffs = []
            if (rc == 0) != (p.returncode == 0):
                diffs.append(('set-status', f'{verb} {value!r}: 262 exit {rc} ({log}), urlboot exit {p.returncode} '
                                            f'({p.stdout.strip()})'))
            t = {f: open(os.path.join(theirs_dir, f), 'rb').read() for f in os.listdir(theirs_dir)}
            o = {f: open(os.path.join(ev, f), 'rb').read() for f in os.listdir(ev)}
            for f in sorted(set(t) | set(o)):
                if t.get(f) != o.get(f):
                    diffs.append(('variable', f'{verb} {value!r}: {f.split("-")[0]} 262={t.get(f)!r} urlboot={o.get(f)!r}'))
            judge(f'{verb} {value!r}', diffs, [])
        for rid in intended.unused():
            tap.note(f'intended difference {rid} of docs/compatibility.md is seen by no case (stale row?)')
        tap.note('intended differences seen: ' + ', '.join(f'{k} x{v}' for k, v in sorted(seen.items())))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return tap.finish()


reference.main_guard(main)
