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


CANARY = b'canary\n'


def canary_path(out, spec):
    return spec if spec.startswith('/') else os.path.join(out, spec)


def make_canary(path):
    """A file (or, for a name ending in "/", a directory) that no pull may touch."""
    if path.endswith('/'):
        os.makedirs(path, exist_ok=True)
        os.chmod(path, 0o750)
    else:
        with open(path, 'wb') as f:
            f.write(CANARY)
        os.chmod(path, 0o600)


def canary_problems(path):
    try:
        st = os.lstat(path.rstrip('/'))
    except FileNotFoundError:
        return [f'canary {path} is gone']
    if path.endswith('/'):
        if not stat.S_ISDIR(st.st_mode) or stat.S_IMODE(st.st_mode) != 0o750 or os.listdir(path):
            return [f'canary directory {path} changed: mode {stat.S_IMODE(st.st_mode):o}, {os.listdir(path)}']
        return []
    with open(path, 'rb') as f:
        data = f.read()
    if not stat.S_ISREG(st.st_mode) or stat.S_IMODE(st.st_mode) != 0o600 or st.st_nlink != 1 or data != CANARY:
        return [f'canary {path} changed: mode {stat.S_IMODE(st.st_mode):o}, links {st.st_nlink}, {data[:20]!r}']
    return []


def remove_canary(path):
    p = path.rstrip('/')
    if os.path.isdir(p) and not os.path.islink(p):
        shutil.rmtree(p, ignore_errors=True)
    elif os.path.lexists(p):
        os.unlink(p)


def run_pull(argv, out, watch_temporaries, kill_after=None, env=None):
    """Runs urlboot-pull; returns (exit status, stdout, stderr, peak RSS in KiB, modes of temporaries seen).
    With kill_after, SIGKILLs it after that many seconds (status -9)."""
    with tempfile.TemporaryFile() as so, tempfile.TemporaryFile() as se:
        p = subprocess.Popen(argv, stdout=so, stderr=se, env=env)
        seen, start = {}, time.monotonic()
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if kill_after is not None and time.monotonic() - start > kill_after:
                p.kill()
            if time.monotonic() - start > 120:
                p.kill()
            if watch_temporaries:
                for n in os.listdir(out):
                    if n.startswith('.#'):
                        try:
                            seen[n] = stat.S_IMODE(os.lstat(os.path.join(out, n)).st_mode)
                        except FileNotFoundError:
                            pass
            time.sleep(0.01)
        p.returncode = os.waitstatus_to_exitcode(status)
        so.seek(0)
        se.seek(0)
        return (p.returncode, so.read().decode(errors='replace'), se.read().decode(errors='replace'),
                usage.ru_maxrss, seen)


def http(method, url):
    req = urllib.request.Request(url, method=method)
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.read()


def run_case(build, fx, base, fields, workdir):
    name, args, want_exit, result, checks = (fields + [''] * 5)[:5]
    srv = os.path.join(fx, 'srv')
    subst = {'{base}': base, '{file}': 'file://' + srv, '{keyring}': os.path.join(fx, 'keyring.gpg'),
             '{out}': os.path.join(workdir, 'out')}
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
    check_list = [c.strip() for c in checks.split(';') if c.strip()]
    canaries = [canary_path(out, c[7:]) for c in check_list if c.startswith('canary:')]
    for c in canaries:
        make_canary(c)

    # "env:KEY=VALUE" words are the environment's, not arguments
    env = dict(os.environ)
    env.update(a[4:].split('=', 1) for a in args.split() if a.startswith('env:'))
    argv = ([os.path.join(build, 'src/pull/urlboot-pull'), f'--image-root={out}', '--json', '--progress=none']
            + [a for a in args.split() if not a.startswith('env:')])
    problems = []
    if 'killed-first' in check_list:
        # A pull killed mid-way leaves its temporary; the next one must clean it up.
        rc, _, _, _, seen = run_pull(argv, out, True, kill_after=0.7)
        if rc != -9 or not seen:
            problems.append(f'the first pull was not killed while it had a temporary (status {rc}, {seen})')
        http('POST', base + '/_reset')
    rc, stdout, stderr, maxrss, temporaries = run_pull(argv, out, 'tmp-private' in check_list, env=env)
    p = subprocess.CompletedProcess(argv, rc, stdout, stderr)
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
    elif kind == 'dir':
        path = os.path.join(out, target)
        if os.path.islink(path) or not os.path.isdir(path):
            problems.append(f'{path} is not a directory')

    left = [n for n in os.listdir(out) if n.startswith('.#')]
    if left:
        problems.append(f'temporaries left behind: {left}')

    stats = json.loads(http('GET', base + '/_stats'))
    url_path = args.split()[1].replace(base, '') if args.split()[1].startswith(base) else None
    for c in canaries:
        problems += canary_problems(c)
        remove_canary(c)
    for check in check_list:
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
        elif check.startswith('mirror-sent'):
            # bytes the server sent for the --mirror= URL, compared with the file's size (<F or >=F)
            mirror = next(a.split('=', 1)[1] for a in args.split() if a.startswith('--mirror='))
            mpath = mirror.replace(base, '')
            served = os.path.getsize(os.path.join(srv, mpath.split('/')[-1]))
            sent = stats.get(mpath, {}).get('bytes', 0)
            op, f = check[len('mirror-sent'):len('mirror-sent') + 2].rstrip('0123456789.'), check[len('mirror-sent') + 1:].lstrip('=')
            limit = float(f) * served
            if (op == '<' and not sent < limit) or (op == '>=' and not sent >= limit):
                problems.append(f'the mirror sent {sent} bytes of a {served}-byte file ({check})')
        elif check.startswith('requests<='):
            n = stats.get(url_path, {}).get('requests', 0)
            if n > int(check[10:]):
                problems.append(f'{n} requests, expected {check}')
        elif check.startswith('canary:') or check == 'killed-first':
            pass
        elif check.startswith('size:') or check.startswith('zeros:'):
            rel, _, n = check.partition(':')[2].partition('=')
            path = os.path.join(out, rel)
            if not os.path.isfile(path) or os.path.getsize(path) != int(n):
                problems.append(f'{rel}: not a file of {n} bytes')
            elif check.startswith('zeros:'):
                with open(path, 'rb') as f:
                    if any(b.count(0) != len(b) for b in iter(lambda: f.read(1 << 22), b'')):
                        problems.append(f'{rel}: not all zeros')
        elif check.startswith('mode:'):
            rel, _, mode = check[5:].partition('=')
            st = os.lstat(os.path.join(out, rel))
            if stat.S_ISLNK(st.st_mode) or stat.S_IMODE(st.st_mode) != int(mode, 8):
                problems.append(f'{rel}: mode {stat.S_IMODE(st.st_mode):o}{" (a symlink)" if stat.S_ISLNK(st.st_mode) else ""}, expected {mode}')
        elif check == 'tmp-private':
            if not temporaries:
                problems.append('no temporary was seen while the pull ran')
            for n, mode in temporaries.items():
                if mode & 0o077:
                    problems.append(f'temporary {n} had mode {mode:o}: group or others could reach it')
        elif check == 'stderr-clean':
            bad = sorted({c for c in p.stderr if (ord(c) < 32 and c not in '\n\t') or ord(c) == 0x7f})
            if bad:
                problems.append(f'control characters reached stderr: {bad!r}')
            if any(l.startswith('<') for l in p.stderr.splitlines()):
                problems.append('a line of stderr starts with a log priority prefix')
        elif check.startswith('maxrss<='):
            limit = int(check[8:].rstrip('M')) * 1024
            # AddressSanitizer's shadow memory and quarantine say nothing about our allocations.
            if SANITIZED:
                print(f'# {name}: {check} not checked in a sanitizer build (peak RSS {maxrss // 1024} MiB)')
            elif maxrss > limit:
                problems.append(f'peak RSS {maxrss // 1024} MiB, expected {check}')
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


SANITIZED = False


def main():
    global SANITIZED
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    SANITIZED = 'libasan' in subprocess.run(['ldd', os.path.join(build, 'src/pull/urlboot-pull')],
                                            stdout=subprocess.PIPE, text=True).stdout
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
