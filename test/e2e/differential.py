"""End-to-end boots beside systemd 262 (the reference tree, tools/reference/systemd-unstable).

Used by run.py:
- reference_file(): a file of the reference tree (systemd-stub, systemd-boot), or None and why;
- make_netesp(): a GPT disk image holding only an ESP with a boot loader, loader.conf and entries,
  which the firmware HTTP-boots as a RAM disk ("netesp", the way systemd-boot is booted from a URL);
- fetched(): the paths an HTTP server log (tools/e2e/boot.py --server-log) shows were requested;
- compare_efivars(): the Boot Loader Interface variables two boots printed (EFIVAR lines of the demo
  root, tools/e2e/build-assets), compared under docs/compatibility.md's intended differences (test
  "diff-stub-variables");
- comparisons(): the pairs of test/e2e/compare.tsv.
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'test/differential'))
import reference  # noqa: E402


def reference_file(path):
    """(absolute path in the reference tree, None) or (None, the reason it is missing)."""
    try:
        tree = reference.reference_tree()
    except reference.Skip as e:
        return None, str(e)
    except RuntimeError as e:
        return None, f'the reference tree could not be built: {e}'
    full = os.path.join(tree, path.lstrip('/'))
    return (full, None) if os.path.exists(full) else (None, f'the reference tree has no {path}')


def _mtools(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, MTOOLS_SKIP_CHECK='1'))


def make_netesp(path, loader, files, size_mb=16):
    """A GPT disk image with one ESP: LOADER as \\EFI\\BOOT\\BOOTX64.EFI and FILES ({ESP path: text}).
    Served as NAME.img, OVMF's HTTP boot makes it a RAM disk and starts the loader from it."""
    offset = 1 << 20
    with open(path, 'wb') as f:
        f.truncate(offset + size_mb * (1 << 20) + (1 << 20))
    subprocess.run(['sfdisk', '--quiet', path], check=True, text=True,
                   input=f'label: gpt\nstart=2048, size={size_mb * 2048}, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n')
    esp = f'{path}@@{offset}'
    _mtools('mformat', '-i', esp, '-T', str(size_mb * 2048), '-v', 'NETESP', '::')   # FAT16: a small download
    for d in ('/EFI', '/EFI/BOOT', '/loader', '/loader/entries'):
        _mtools('mmd', '-i', esp, '::' + d)
    _mtools('mcopy', '-i', esp, loader, '::/EFI/BOOT/BOOTX64.EFI')
    tmp = path + '.text'
    for where, text in files.items():
        with open(tmp, 'w') as f:
            f.write(text)
        _mtools('mcopy', '-o', '-i', esp, tmp, '::' + where)
    os.unlink(tmp)


def fetched(server_log):
    """The request paths, in order, with their status: [(path, status)]."""
    out = []
    with open(server_log, errors='replace') as f:
        for line in f:
            m = re.search(r'"GET (\S+) HTTP/[\d.]+" (\d{3})', line)
            if m:
                out.append((m.group(1), int(m.group(2))))
    return out


def efivars_from_log(log):
    """{variable name: bytes (attributes, then value)} from the EFIVAR lines of a serial log."""
    out = {}
    with open(log, errors='replace') as f:
        for line in f:
            m = re.search(r'EFIVAR (\w+) ([0-9a-f]*)\s*$', line)
            if m:
                out[m.group(1)] = bytes.fromhex(m.group(2))
    return out


def _show(name, raw):
    """A variable for people and patterns: UTF-16 strings as text, the rest as hex."""
    attrs, value = raw[:4], raw[4:]
    text = None
    if len(value) >= 2 and len(value) % 2 == 0 and value.endswith(b'\0\0'):
        try:
            s = value[:-2].decode('utf-16-le')
            if s.isprintable():
                text = repr(s)
        except UnicodeDecodeError:
            pass
    return f'attrs={attrs.hex()} ' + (text if text is not None else f'hex={value.hex()}')


# Values that differ from boot to boot whoever writes them: times (the boot manager's clock) and the
# random LoaderSystemToken each VARS file gets (urlbootctl random-seed). Their attributes still compare.
PER_BOOT_VALUES = {'LoaderTimeInitUSec', 'LoaderTimeExecUSec', 'LoaderTimeMenuUSec', 'LoaderSystemToken'}


def compare_efivars(ours_log, theirs_log, ours_name, theirs_name):
    """(kind, text) differences between what urlboot's stub (ours_log) and systemd-stub 262
    (theirs_log) left; each boot's scenario name in a URL is replaced by NAME first, and the values
    of PER_BOOT_VALUES by their attributes alone."""
    ours, theirs = efivars_from_log(ours_log), efivars_from_log(theirs_log)
    if not ours or not theirs:
        return [('missing', f'no EFIVAR lines in {ours_log if not ours else theirs_log}')]
    for v in (ours, theirs):
        for name in PER_BOOT_VALUES & set(v):
            v[name] = v[name][:4]

    def norm(raw, scenario):
        return raw.replace(scenario.encode('utf-16-le'), 'NAME'.encode('utf-16-le'))
    diffs = []
    for name in sorted(set(ours) | set(theirs)):
        o = norm(ours[name], ours_name) if name in ours else None
        t = norm(theirs[name], theirs_name) if name in theirs else None
        if o == t:
            continue
        if o is None:
            diffs.append(('variable', f'only 262: {name} {_show(name, t)}'))
        elif t is None:
            diffs.append(('variable', f'only urlboot: {name} {_show(name, o)}'))
        else:
            diffs.append(('value', f'{name}: 262 {_show(name, t)} urlboot {_show(name, o)}'))
    return diffs


def comparisons(src):
    """[(name, ours scenario, 262 scenario)] from test/e2e/compare.tsv."""
    with open(os.path.join(src, 'test/e2e/compare.tsv')) as f:
        return [tuple(l.rstrip('\n').split('\t')[:3]) for l in f if l.strip() and not l.startswith('#')]


def judge_comparison(name, ours_log, theirs_log, ours_name, theirs_name):
    """(ok, label, details) for a TAP line."""
    intended = reference.IntendedDifferences('diff-stub-variables')
    bad, seen = [], set()
    for kind, text in compare_efivars(ours_log, theirs_log, ours_name, theirs_name):
        rid = intended.match(kind, text)
        if rid:
            seen.add(rid)
        else:
            bad.append(f'{kind}: {text}')
    label = name + (f' (intended: {", ".join(sorted(seen))})' if seen else '')
    return not bad, label, bad


NETESP_ENTRIES = 'title Relative uki-url\nuki-url :{uki}\n', 'title Absolute uki-url\nuki-url http://10.0.2.2:8080/{uki}\n'


def _netesp(path, loader, uki, default):
    rel, absolute = NETESP_ENTRIES
    make_netesp(path, loader, {'/loader/loader.conf': f'timeout 1\ndefault {default}.conf\n',
                               '/loader/entries/relative.conf': rel.format(uki=uki),
                               '/loader/entries/absolute.conf': absolute.format(uki=uki)})


def _expect_fetches(wanted):
    """A check: the server log must show these (path, status) requests in this order (others between)."""
    def check(http_log):
        got = fetched(http_log)
        it = iter(got)
        missing = [w for w in wanted if not any(g == w for g in it)]
        return f'the server saw {got}, not {wanted} in order' if missing else None
    return check


def prepare(via, name, build, srv, logs):
    """What run.py needs for the VIAs of this file, or None for other VIAs:
    {'skip': reason} or {'extra': make-uki options, 'boot': boot.py options, 'check': f(http log) → error,
    'files': what to remove afterwards}.

    stub262            the UKI made around systemd-stub 262, HTTP-booted by the firmware
    netesp-systemd-boot  systemd-boot 262 in an ESP image HTTP-booted as a RAM disk (netesp), twice: first
                       NAME-relative.img (BootNext, a Uri() entry) whose default entry is "uki-url :NAME.efi",
                       then, when that fails, the DHCP boot file NAME.img whose default is the absolute URL
    netesp-manager     urlboot's boot manager in the same image as NAME.img, default "uki-url :NAME.efi"
    """
    if via == 'stub262':
        stub, why = reference_file('/usr/lib/systemd/boot/efi/linuxx64.efi.stub')
        if not stub:
            return {'skip': why}
        return {'extra': [f'--stub={stub}'], 'boot': ['--bootfile', f'{name}.efi'], 'check': None, 'files': []}
    if via == 'netesp-systemd-boot':
        sdboot, why = reference_file('/usr/lib/systemd/boot/efi/systemd-bootx64.efi')
        if not sdboot:
            return {'skip': why}
        first, second = os.path.join(srv, f'{name}-relative.img'), os.path.join(srv, f'{name}.img')
        _netesp(first, sdboot, f'{name}.efi', 'relative')
        _netesp(second, sdboot, f'{name}.efi', 'absolute')
        vars_file = os.path.join(logs, f'{name}.vars.fd')
        subprocess.run(['cp', '/usr/share/OVMF/OVMF_VARS_4M.fd', vars_file], check=True)
        subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'add-uri', '--next', f'--vars-file={vars_file}',
                        '--title', 'netesp relative', f'http://10.0.2.2:8080/{name}-relative.img'],
                       check=True, stdout=subprocess.DEVNULL)
        # v258..262 make ":NAME" "everything up to the last '/', another '/', then the value with its colon".
        return {'extra': [], 'files': [first, second],
                'boot': ['--bootfile', f'{name}.img', '--vars', vars_file,
                         '--require', r'Unable to boot remote UKI http://10\.0\.2\.2:8080//:' + re.escape(name)],
                'check': _expect_fetches([(f'/{name}-relative.img', 200), (f'//:{name}.efi', 404),
                                          (f'/{name}.img', 200), (f'/{name}.efi', 200)])}
    if via == 'netesp-manager':
        img = os.path.join(srv, f'{name}.img')
        _netesp(img, os.path.join(build, 'src/boot/urlbootx64.efi'), f'{name}.efi', 'relative')
        return {'extra': [], 'files': [img], 'boot': ['--bootfile', f'{name}.img'],
                'check': _expect_fetches([(f'/{name}.img', 200), (f'/{name}.efi', 200)])}
    return None
