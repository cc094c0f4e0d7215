#!/usr/bin/env python3
"""urlboot-pull against a real HTTP server with injected faults; one TAP line per case (cases.tsv).

Must run in a private network namespace (test/netns-run.sh). Usage: run-cases.py BUILDDIR SRCDIR [CASE...]
"""
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request


def sha256(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for b in iter(lambda: f.read(1 << 20), b''):
            h.update(b)
    return h.hexdigest()


def tree_signature(root):
    """Paths with type, mode, owner, extended attributes (ACLs and capabilities among them), content
    digest or link target, and hard-link groups."""
    sig, inodes = {}, {}
    for base, dirs, files in os.walk(root):
        for name in sorted(dirs + files):
            p = os.path.join(base, name)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            meta = (st.st_uid, st.st_gid, tuple(sorted(
                (x, os.getxattr(p, x, follow_symlinks=False)) for x in os.listxattr(p, follow_symlinks=False))))
            if stat.S_ISLNK(st.st_mode):
                sig[rel] = ('link', os.readlink(p), meta)
            elif stat.S_ISDIR(st.st_mode):
                sig[rel] = ('dir', stat.S_IMODE(st.st_mode), meta)
            else:
                inodes.setdefault(st.st_ino, []).append(rel)
                sig[rel] = ('file', stat.S_IMODE(st.st_mode), sha256(p), st.st_nlink, meta)
    return sig


def start_server(src, root, tmp):
    port_file = os.path.join(tmp, 'port')
    proc = subprocess.Popen([sys.executable, os.path.join(src, 'test/http/server.py'), '--root', root,
                             '--port-file', port_file])
    for _ in range(100):
        if os.path.exists(port_file):
            with open(port_file) as f:
                return proc, int(f.read())
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError('test server did not start')


def http(method, url):
    req = urllib.request.Request(url, method=method)
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.read()


def run_case(build, fx, base, fields, workdir):
    name, args, want_exit, result, checks = (fields + [''] * 5)[:5]
    srv = os.path.join(fx, 'srv')
    subst = {'{base}': base, '{file}': 'file://' + srv, '{keyring}': os.path.join(fx, 'keyring.gpg')}
    for a in args.split():
        if a.startswith('--verify=') and '{sha256:' in a:
            fixture = a.split('{sha256:')[1].rstrip('}')
            subst['{sha256:' + fixture + '}'] = sha256(os.path.join(srv, fixture))
    for k, v in subst.items():
        args = args.replace(k, v)

    out = os.path.join(workdir, 'out')
    os.makedirs(out)
    shutil.copy(os.path.join(srv, 'disk.raw.bz2'), os.path.join(out, 'existing.raw'))
    http('POST', base + '/_reset')

    argv = [os.path.join(build, 'src/pull/urlboot-pull'), f'--image-root={out}', '--json', '--progress=none'] + args.split()
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors='replace', timeout=120)
    problems = []
    if want_exit != '*' and p.returncode != int(want_exit):
        problems.append(f'exit status {p.returncode}, expected {want_exit}')
    report = {}
    if p.returncode == 0:
        try:
            report = json.loads(p.stdout)
        except ValueError:
            problems.append(f'--json output is not JSON: {p.stdout!r}')

    kind, _, spec = result.partition(':')
    target, _, fixture = spec.partition('=')
    if kind in ('raw', 'absent-or-equal'):
        path = os.path.join(out, target + '.raw')
        if kind == 'absent-or-equal' and not os.path.exists(path):
            pass
        elif not os.path.isfile(path):
            problems.append(f'{path} missing')
        elif sha256(path) != sha256(os.path.join(srv, fixture)):
            problems.append(f'{path} differs from {fixture}')
    elif kind == 'tree':
        path = os.path.join(out, target)
        if not os.path.isdir(path):
            problems.append(f'{path} missing')
        elif tree_signature(path) != tree_signature(os.path.join(fx, 'root')):
            problems.append(f'{path} differs from the fixture tree')
    elif kind == 'absent':
        for suffix in ('', '.raw'):
            if os.path.lexists(os.path.join(out, target + suffix)):
                problems.append(f'{target}{suffix} exists but should not')

    left = [n for n in os.listdir(out) if n.startswith('.#')]
    if left:
        problems.append(f'temporaries left behind: {left}')

    stats = json.loads(http('GET', base + '/_stats'))
    url_path = args.split()[1].replace(base, '') if args.split()[1].startswith(base) else None
    for check in filter(None, (c.strip() for c in checks.split(';'))):
        if check == 'sparse':
            st = os.stat(os.path.join(out, target + '.raw'))
            if st.st_blocks * 512 > 0.6 * st.st_size:
                problems.append(f'not sparse: {st.st_blocks * 512} bytes used of {st.st_size}')
        elif check == 'resumed':
            if not report.get('resumedAt') or min(report['resumedAt']) <= 0:
                problems.append('no resumed range in the report')
        elif check.startswith('sent<size+'):
            # A restart from zero sends the whole file plus what came before the fault; a resume
            # sends less (bytes in flight when the connection broke are sent again).
            served = os.path.getsize(os.path.join(srv, url_path.split('/')[-1]))
            sent = stats.get(url_path, {}).get('bytes', 0)
            if sent >= served + int(check[10:]):
                problems.append(f'the server sent {sent} bytes for a {served}-byte file: no resume ({check})')
        elif check.startswith('retries>='):
            if report.get('retries', 0) < int(check[9:]) and p.returncode == 0:
                problems.append(f'retries {report.get("retries")}, expected {check}')
        elif check.startswith('sent<='):
            served = os.path.getsize(os.path.join(srv, url_path.split('/')[-1]))
            sent = stats.get(url_path, {}).get('bytes', 0)
            if sent > float(check[6:]) * served:
                problems.append(f'the server sent {sent} bytes for a {served}-byte file ({check})')
        elif check.startswith('requests>='):
            n = stats.get(url_path, {}).get('requests', 0)
            if n < int(check[10:]):
                problems.append(f'{n} requests, expected {check}')
        elif check == 'readonly':
            mode = stat.S_IMODE(os.stat(os.path.join(out, target + '.raw')).st_mode)
            if mode != 0o444:
                problems.append(f'mode {mode:o}, expected 444')
        elif check.startswith('stderr:'):
            if check[7:] not in p.stderr:
                problems.append(f'stderr lacks {check[7:]!r}')
        elif check.startswith('no-escape:'):
            target_path = check[10:]
            escaped = target_path if target_path.startswith('/') else os.path.join(workdir, target_path)
            if os.path.lexists(escaped):
                problems.append(f'{escaped} was written outside the image')
                os.unlink(escaped)
        else:
            problems.append(f'unknown check {check}')
    if problems:
        problems.append('stderr: ' + p.stderr.strip().replace('\n', '\n#   '))
    return problems


def main():
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    only = sys.argv[3:]
    with open(os.path.join(src, 'test/pull/cases.tsv')) as f:
        cases = [l.rstrip('\n').split('\t') for l in f if l.strip() and not l.startswith('#')]
    if only:
        cases = [c for c in cases if c[0] in only]
    print(f'1..{len(cases)}', flush=True)
    failed = 0
    with tempfile.TemporaryDirectory(prefix='urlboot-pull-test.') as tmp:
        fx = os.path.join(tmp, 'fixtures')
        subprocess.run([os.path.join(src, 'test/pull/make-fixtures.sh'), os.path.join(src, 'tools'), fx], check=True)
        server, port = start_server(src, os.path.join(fx, 'srv'), tmp)
        base = f'http://127.0.0.1:{port}'
        try:
            for i, fields in enumerate(cases, 1):
                work = tempfile.mkdtemp(dir=tmp)
                try:
                    problems = run_case(build, fx, base, fields, work)
                except Exception as e:  # a harness error is a failed case, not a crash
                    problems = [f'harness: {e!r}']
                shutil.rmtree(work, ignore_errors=True)
                if problems:
                    failed += 1
                    print(f'not ok {i} - {fields[0]}')
                    for pr in problems:
                        print('# ' + pr)
                else:
                    print(f'ok {i} - {fields[0]}', flush=True)
        finally:
            server.kill()
            server.wait()
    return 1 if failed else 0


sys.exit(main())
