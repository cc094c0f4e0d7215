#!/usr/bin/env python3
"""urlboot-import-generator beside systemd 262's systemd-import-generator, on the same input.

Inputs: every golden case that has a pull expression (test/generators/cases) and the generated corpus
(pull_corpus.py). systemd 262 runs in the reference tree (one chroot session for all inputs) with the
command line in $SYSTEMD_PROC_CMDLINE, $SYSTEMD_IN_INITRD, the credential in $CREDENTIALS_DIRECTORY and
a fake efivarfs (a tmpfs on /sys/firmware inside the chroot's mount namespace, where 262 reads
/sys/firmware/efi/efivars/StubDeviceURL-<guid>). urlboot runs as systemd 252's generator would.

Both outputs become a model per job, keyed by the image path: URL, local name, type, class, verify,
read-only, image root, mirrors, blockdev (a loop unit on the same file, wanted and ordered after the
download), ordering, success/failure actions, service kind; plus which inputs were refused and the
exit status. Every difference must be a row of the intended-differences table in
docs/compatibility.md (test "diff-import-generator"), else the input's TAP line fails; a row that no
input shows fails too, so the table stays true.

  import-generator.py BUILDDIR SRCDIR
"""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pull_corpus  # noqa: E402
import reference  # noqa: E402
import units  # noqa: E402

TEST = 'diff-import-generator'


def golden_inputs(src):
    """Golden cases with a pull expression, spelled as systemd spells them for 262 (urlboot.pull is
    ours; the spelling rules are the golden tests' business), run with urlboot acting as on 252."""
    out = []
    cases = os.path.join(src, 'test/generators/cases')
    for name in sorted(os.listdir(cases)):
        case = os.path.join(cases, name)
        with open(os.path.join(case, 'cmdline')) as f:
            cmdline = f.read().strip()
        credentials = {}
        cred_dir = os.path.join(case, 'credentials')
        if os.path.isdir(cred_dir):
            text = ''
            for cred in ('urlboot.pull', 'import.pull'):    # the order urlboot reads them in
                if os.path.exists(os.path.join(cred_dir, cred)):
                    with open(os.path.join(cred_dir, cred)) as f:
                        text += f.read()
            credentials['import.pull'] = text
        if 'pull' not in cmdline and not credentials:
            continue
        efivars = {}
        if os.path.exists(os.path.join(case, 'efivars')):
            with open(os.path.join(case, 'efivars')) as f:
                for line in f:
                    if line.strip() and not line.startswith('#'):
                        k, v = line.rstrip('\n').split('=', 1)
                        efivars[k] = v
        initrd = True
        if os.path.exists(os.path.join(case, 'env')):
            with open(os.path.join(case, 'env')) as f:
                initrd = 'SYSTEMD_IN_INITRD=0' not in f.read()
        cmdline = re.sub(r'\burlboot([._-])pull', r'systemd\1pull', cmdline)
        out.append(dict(name=f'golden {name}', cmdline=cmdline, efivars=efivars, credentials=credentials,
                        initrd=initrd))
    return out


def lay_out(inputs, work):
    """in/<i>/ per input; efi/<k>/ per distinct set of EFI variables, with the inputs that use it
    (262 runs input after input under one efivarfs, refilled only when the set changes)."""
    sets = {}
    for i, inp in enumerate(inputs):
        d = os.path.join(work, 'in', str(i))
        os.makedirs(os.path.join(d, 'credentials'))
        with open(os.path.join(d, 'cmdline'), 'w') as f:
            f.write(inp['cmdline'])
        with open(os.path.join(d, 'initrd'), 'w') as f:
            f.write('1\n' if inp['initrd'] else '0\n')
        reference.write_efivars(os.path.join(d, 'efivars'), inp['efivars'])
        for name, text in inp['credentials'].items():
            with open(os.path.join(d, 'credentials', name), 'w') as f:
                f.write(text)
        for x in ('normal', 'early', 'late'):
            os.makedirs(os.path.join(work, 'theirs', str(i), x))
        key = repr(sorted(inp['efivars'].items()))
        if key not in sets:
            sets[key] = len(sets)
            reference.write_efivars(os.path.join(work, 'efi', str(sets[key]), 'vars'), inp['efivars'])
        with open(os.path.join(work, 'efi', str(sets[key]), 'inputs'), 'a') as f:
            f.write(f'{i}\n')


def run_ours(build, inputs, work):
    gen = os.path.join(build, 'src/generators/urlboot-import-generator')
    for i, inp in enumerate(inputs):
        d = os.path.join(work, 'in', str(i))
        out = os.path.join(work, 'ours', str(i))
        dirs = [os.path.join(out, x) for x in ('normal', 'early', 'late')]
        inp = dict(inp, cmdline=inp['cmdline'])
        for x in dirs:
            os.makedirs(x)
        env = {k: v for k, v in os.environ.items() if not k.startswith(('SYSTEMD_', 'URLBOOT_', 'CREDENTIALS_'))}
        env.update(SYSTEMD_PROC_CMDLINE=inp['cmdline'], SYSTEMD_IN_INITRD='1' if inp['initrd'] else '0',
                   URLBOOT_SYSTEMD_VERSION='252', URLBOOT_EFIVARFS=os.path.join(d, 'efivars'),
                   CREDENTIALS_DIRECTORY=os.path.join(d, 'credentials'), URLBOOT_LOG_LEVEL='info')
        p = subprocess.run([gen] + dirs, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors='replace')
        with open(os.path.join(out, 'log'), 'w') as f:
            f.write(p.stdout)
        with open(os.path.join(out, 'rc'), 'w') as f:
            f.write(str(p.returncode))


# One chroot session for every input: the efivarfs is a tmpfs refilled per input.
SCRIPT_262 = r'''
mount -t tmpfs tmpfs /sys/firmware || exit 1
mkdir -p /sys/firmware/efi/efivars
gen=/usr/lib/systemd/system-generators/systemd-import-generator
export SYSTEMD_LOG_TARGET=console SYSTEMD_LOG_COLOR=0 SYSTEMD_LOG_LEVEL=info
for e in /mnt/efi/*; do
	rm -f /sys/firmware/efi/efivars/*
	cp $e/vars/* /sys/firmware/efi/efivars/ 2>/dev/null
	while read -r i; do
		d=/mnt/in/$i o=/mnt/theirs/$i
		IFS= read -r -d '' cmdline < $d/cmdline     # the whole file, newlines and all
		read -r initrd < $d/initrd
		SYSTEMD_PROC_CMDLINE=$cmdline SYSTEMD_IN_INITRD=$initrd CREDENTIALS_DIRECTORY=$d/credentials \
			$gen $o/normal $o/early $o/late > $o/log 2>&1
		echo $? > $o/rc
	done < $e/inputs
done
'''

ROOTS = {'/run/machines', '/var/lib/machines', '/run/portables', '/var/lib/portables', '/run/extensions',
         '/var/lib/extensions', '/run/confexts', '/var/lib/confexts'}


def normal_unit(name):
    """Both implementations' unit names in one vocabulary."""
    for prefix in ('systemd-import@', 'urlboot-import@', 'urlboot-lazy@'):
        if name.startswith(prefix):
            return 'import@' + name[len(prefix):]
    for prefix in ('systemd-loop@', 'urlboot-loop@'):
        if name.startswith(prefix):
            return 'loop@' + name[len(prefix):]
    return {'urlboot-imports.target': 'imports.target', 'urlboot-imports-pre.target': 'imports-pre.target'}.get(name, name)


def job_262(words):
    """varlinkctl call ... io.systemd.Import.Pull JSON → the job's fields."""
    if len(words) < 2 or words[0] != 'varlinkctl' or words[-2] != 'io.systemd.Import.Pull':
        return {'broken': 'ExecStart= is not a varlinkctl call of io.systemd.Import.Pull: ' + ' '.join(words)}
    try:
        j = json.loads(words[-1])
    except ValueError as e:
        return {'broken': f'the JSON argument does not parse ({e}): {words[-1]!r}'}
    return {'url': j.get('remote'), 'local': j.get('local'), 'type': j.get('type'), 'class': j.get('class'),
            'verify': j.get('verify'), 'read_only': bool(j.get('readOnly')), 'image_root': j.get('imageRoot'),
            'mirrors': []}


def job_ours(words):
    """urlboot-pull TYPE --class= --image-root= --verify= [--read-only] [--mirror=]... [--keep-download=]
    -- URL LOCAL."""
    job = {'read_only': False, 'mirrors': [], 'verify': None}
    if not words or not words[0].endswith('/urlboot-pull') or '--' not in words:
        return {'broken': 'ExecStart= is not urlboot-pull ... -- URL LOCAL: ' + ' '.join(words)}
    sep = words.index('--')
    if len(words) - sep != 3:
        return {'broken': 'not exactly URL and LOCAL after --: ' + ' '.join(words)}
    job['type'] = words[1]
    for w in words[2:sep]:
        k, _, v = w.partition('=')
        if k == '--class':
            job['class'] = v
        elif k == '--image-root':
            job['image_root'] = v
        elif k == '--verify':
            job['verify'] = v
        elif k == '--read-only':
            job['read_only'] = True
        elif k == '--mirror':
            job['mirrors'].append(v)
        elif k == '--keep-download':
            job['keep_download'] = v
        else:
            return {'broken': f'unexpected urlboot-pull option {w}'}
    job['url'], job['local'] = words[sep + 1], words[sep + 2]
    return job


def model(out_dir):
    """{'jobs': {image path: fields}, 'rc': int, 'log': text} of one generator run."""
    tree = units.read_tree(out_dir)
    with open(os.path.join(out_dir, 'log'), errors='replace') as f:
        log = f.read()
    with open(os.path.join(out_dir, 'rc')) as f:
        rc = int(f.read().strip() or -1)
    tree = {k: v for k, v in tree.items() if k not in ('log', 'rc')}
    wants = {normal_unit(l.split('/')[-1]) for l in units.links(tree) if l.split('/')[0] in
             ('imports.target.wants', 'urlboot-imports.target.wants')}
    # urlboot links its target into sysinit.target.wants/ where 262 ships that link statically
    # (checked once, static_sysinit_link()).
    other_links = {l for l in units.links(tree) if l.split('/')[0] not in
                   ('imports.target.wants', 'urlboot-imports.target.wants')} - \
        {'sysinit.target.wants/urlboot-imports.target'}
    jobs = {}
    for rel, (kind, _) in sorted(tree.items()):
        name = rel.split('/')[-1]
        if kind != 'file' or '/' in rel.split('/', 1)[1] or not normal_unit(name).startswith('import@'):
            continue
        items = units.unit_settings(tree, name)
        exec_start = units.last(items, 'Service', 'ExecStart')
        try:
            words, _ = units.exec_words(exec_start or '', name)
            if name.startswith('urlboot-lazy@'):
                # urlboot's "lazy" extension: attached while it downloads; only the URL is compared.
                jobs[normal_unit(name)[len('import@'):-len('.service')]] = \
                    {'lazy': True, 'url': words[words.index('--') + 1] if '--' in words else None}
                continue
            job = job_ours(words) if name.startswith('urlboot-') else job_262(words)
        except units.ExecError as e:
            job = {'broken': f'systemd would refuse ExecStart= ({e}): {exec_start}'}
        instance = normal_unit(name)
        loop = 'loop@' + instance[len('import@'):]
        deps = {re.sub(r'=(.*)', lambda m: '=' + normal_unit(m.group(1)), d) for d in units.dependencies(items)}
        job['blockdev'] = loop in wants and f'Before={loop}' in deps
        deps.discard(f'Before={loop}')
        job['ordering'] = sorted(deps)
        job['wanted'] = instance in wants
        # An empty assignment resets to the default, "none": the same as none at all.
        job['success_action'] = units.last(items, 'Unit', 'SuccessAction') or None
        job['failure_action'] = units.last(items, 'Unit', 'FailureAction') or None
        job['injected'] = sorted(f'[{s}] {k}' for s, k, _ in items if k not in KNOWN_KEYS.get(s, ())) or None
        job['service'] = sorted(f'{k}={v}' for s, k, v in items if s == 'Service' and k != 'ExecStart')
        job['unit_extra'] = sorted(f'{k}={v}' for s, k, v in items if s == 'Unit' and k in
                                   ('OnFailureJobMode', 'DefaultDependencies'))
        jobs[instance[len('import@'):-len('.service')]] = job     # the escaped image path
    return {'jobs': jobs, 'rc': rc, 'log': log.strip(), 'links': sorted(other_links), 'wants': sorted(wants)}


# Every key either generator writes on purpose; anything else was injected by a value.
KNOWN_KEYS = {
    'Unit': {'Description', 'Documentation', 'SourcePath', 'Requires', 'Wants', 'After', 'Before', 'Conflicts',
             'DefaultDependencies', 'SuccessAction', 'FailureAction', 'OnFailure', 'OnFailureJobMode'},
    'Service': {'Type', 'NotifyAccess', 'RemainAfterExit', 'StandardError', 'ExecStart', 'Environment'},
}

FIELDS = ('url', 'local', 'type', 'class', 'verify', 'read_only', 'image_root', 'mirrors', 'blockdev', 'wanted',
          'success_action', 'failure_action', 'injected', 'broken')


def differences(theirs, ours, cmdline):
    """List of (kind, text) between two models of the same input."""
    diffs = []
    # The table tells an action cut at a newline (262 copies the first line) from a dropped action.
    newline = ' (the command line has a newline)' if '\n' in cmdline else ''
    log_ours = ' | '.join(theirs_line for theirs_line in ours['log'].splitlines())
    log_theirs = ' | '.join(theirs['log'].splitlines())
    for path in sorted(set(theirs['jobs']) | set(ours['jobs'])):
        t, o = theirs['jobs'].get(path), ours['jobs'].get(path)
        if t and not o:
            diffs.append(('refused-by-urlboot', f'{path}: urlboot says: {log_ours}'))
            continue
        if o and not t:
            diffs.append(('refused-by-262', f'{path}: systemd 262 says: {log_theirs}'))
            continue
        if o.get('lazy'):
            diffs.append(('lazy', f'{path}: urlboot attaches {o["url"]} while it downloads; 262 downloads {t.get("url")}'))
            continue
        if 'broken' in t or 'broken' in o:
            diffs.append(('field', f'broken: 262={t.get("broken")!r} urlboot={o.get("broken")!r}'))
            continue
        for f in FIELDS:
            if t.get(f) != o.get(f):
                note = newline if f.endswith('_action') else ''
                diffs.append(('field', f'{f}: 262={t.get(f)!r} urlboot={o.get(f)!r}{note}'))
        for d in sorted(set(t['ordering']) - set(o['ordering'])):
            diffs.append(('dependency', f'only 262: {d}'))
        for d in sorted(set(o['ordering']) - set(t['ordering'])):
            diffs.append(('dependency', f'only urlboot: {d}'))
        for d in sorted(set(t['service']) ^ set(o['service'])):
            diffs.append(('service', f'only {"262" if d in t["service"] else "urlboot"}: {d}'))
        for d in sorted(set(t['unit_extra']) ^ set(o['unit_extra'])):
            diffs.append(('dependency', f'only {"262" if d in t["unit_extra"] else "urlboot"}: {d}'))
    if (theirs['rc'] == 0) != (ours['rc'] == 0):
        diffs.append(('exit-status', f'262={theirs["rc"]} urlboot={ours["rc"]}'))
    for l in sorted(set(theirs['links']) ^ set(ours['links'])):
        diffs.append(('link', f'only {"262" if l in theirs["links"] else "urlboot"}: {l}'))
    jobs = set(theirs['jobs']) | set(ours['jobs'])
    for w in sorted(set(theirs['wants']) ^ set(ours['wants'])):
        if w.split('@', 1)[-1][:-len('.service')] not in jobs:
            diffs.append(('link', f'imports.target wants only in {"262" if w in theirs["wants"] else "urlboot"}: {w}'))
    return diffs


def static_loop_units(tree_root, build):
    """systemd-loop@.service (262) against urlboot-loop@.service: the settings that decide behaviour."""
    with open(os.path.join(tree_root, 'usr/lib/systemd/system/systemd-loop@.service')) as f:
        theirs = units.parse_unit(f.read())
    with open(os.path.join(build, 'units/urlboot-loop@.service')) as f:
        ours = units.parse_unit(f.read())
    keep = ('DefaultDependencies', 'RequiresMountsFor', 'IgnoreOnIsolate', 'Type', 'RemainAfterExit', 'TimeoutSec',
            'Conflicts', 'Before', 'After', 'Wants')

    def norm(items):
        return {f'{k}={v}' for s, k, v in items if k in keep}
    return sorted(norm(theirs) - norm(ours)), sorted(norm(ours) - norm(theirs))


def static_sysinit_link(tree_root):
    return os.path.islink(os.path.join(tree_root, 'usr/lib/systemd/system/sysinit.target.wants/imports.target'))


def main():
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    tree_root = reference.reference_tree()
    intended = reference.IntendedDifferences(TEST)
    golden = golden_inputs(src)
    corpus = pull_corpus.inputs()
    inputs = golden + corpus
    tap = reference.Tap()
    work = tempfile.mkdtemp(prefix='urlboot-diff-import.')
    try:
        lay_out(inputs, work)
        # Both sides at once: they only share the input tree.
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            for f in [pool.submit(run_ours, build, inputs, work), pool.submit(reference.run_in_tree, work, SCRIPT_262)]:
                f.result()
        seen, both_refused, both_accepted = {}, 0, 0
        for i, inp in enumerate(inputs):
            theirs = model(os.path.join(work, 'theirs', str(i)))
            ours = model(os.path.join(work, 'ours', str(i)))
            both_refused += not theirs['jobs'] and not ours['jobs']
            both_accepted += bool(theirs['jobs']) and theirs['jobs'].keys() == ours['jobs'].keys()
            unexplained, explained = [], []
            for kind, text in differences(theirs, ours, inp['cmdline']):
                rid = intended.match(kind, text)
                if rid:
                    explained.append(rid)
                    seen[rid] = seen.get(rid, 0) + 1
                else:
                    unexplained.append(f'{kind}: {text}')
            details = []
            if unexplained:
                details = [f'cmdline: {inp["cmdline"]!r}'] + unexplained + \
                          [f'262 log: {theirs["log"]}', f'urlboot log: {ours["log"]}']
            label = inp['name'] + (f' (intended: {", ".join(sorted(set(explained)))})' if explained else '')
            tap.ok(not unexplained, label, details)
        gone, extra = static_loop_units(tree_root, build)
        diffs = [('loop-unit', f'only 262: {d}') for d in gone] + [('loop-unit', f'only urlboot: {d}') for d in extra]
        bad = [f'{k}: {t}' for k, t in diffs if not intended.match(k, t)]
        tap.ok(not bad, 'systemd-loop@.service (262) and urlboot-loop@.service agree on what decides behaviour', bad)
        tap.ok(static_sysinit_link(tree_root), 'systemd 262 pulls imports.target in from sysinit.target, as urlboot '
               'does urlboot-imports.target (its generator makes the link)')
        for rid in intended.unused():
            tap.note(f'intended difference {rid} of docs/compatibility.md is seen by no input (stale row?)')
        tap.note(f'{len(golden)} golden cases, {len(corpus)} generated inputs; {both_accepted} made the same jobs on '
                 f'both sides, {both_refused} were refused by both; intended differences seen: '
                 + ', '.join(f'{k} x{v}' for k, v in sorted(seen.items())))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return tap.finish()


reference.main_guard(main)
