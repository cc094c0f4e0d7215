#!/usr/bin/env python3
"""Many machines pulling from nginx at once: each urlboot-pull in a network namespace of its own on a
bridge, nginx (Debian's) serving, failing, limited or caching in front. Run inside a private network
namespace (test/netns-run.sh).

  fleet.py test BUILDDIR SRCDIR              the checks, small (TAP)
  fleet.py bench BUILDDIR SRCDIR [N...]      N clients (default 16 64) on a 1 GiB image; a table
"""
import hashlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

BRIDGE = 'br-fleet'
ORIGIN, MIRROR, CACHE = '10.0.9.1', '10.0.9.2', '10.0.9.3'


def sh(*cmd, check=True):
    return subprocess.run(cmd, check=check, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def sha256(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for b in iter(lambda: f.read(1 << 22), b''):
            h.update(b)
    return h.hexdigest()


def make_image(path, mib, data_fraction=0.25):
    """A raw image of mib MiB whose first part is incompressible, the rest zeros (as OS images are);
    served zstd-compressed. Returns (raw path, compressed path)."""
    with open(path, 'wb') as f:
        f.write(os.urandom(int(mib * data_fraction) << 20))
        f.truncate(mib << 20)
    sh('zstd', '-q', '-T0', '-3', '-f', path, '-o', path + '.zst')
    return path, path + '.zst'


class Nginx:
    """One nginx of our own (not the system's): its own prefix, config and logs."""

    def __init__(self, tmp, name, listen, body):
        self.dir = os.path.join(tmp, 'nginx-' + name)
        os.makedirs(os.path.join(self.dir, 'cache'), exist_ok=True)
        conf = os.path.join(self.dir, 'nginx.conf')
        with open(conf, 'w') as f:
            # user root: the files are in the test's private directory
            f.write(f'''user root;
worker_processes 2;
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log;
events {{ worker_connections 1024; }}
http {{
        access_log {self.dir}/access.log combined;
        sendfile on;
        tcp_nopush on;
        default_type application/octet-stream;
        client_body_temp_path {self.dir}/body;
        proxy_temp_path {self.dir}/proxy;
        fastcgi_temp_path {self.dir}/fastcgi;
        uwsgi_temp_path {self.dir}/uwsgi;
        scgi_temp_path {self.dir}/scgi;
        proxy_cache_path {self.dir}/cache levels=1:2 keys_zone=fleet:10m max_size=10g inactive=1d;
        server {{
                listen {listen}:8080;
{body}
        }}
}}
''')
        sh('nginx', '-p', self.dir, '-c', conf)
        for _ in range(50):
            if os.path.exists(os.path.join(self.dir, 'nginx.pid')):
                break
            time.sleep(0.1)
        with open(os.path.join(self.dir, 'nginx.pid')) as f:
            self.pid = int(f.read())

    def pids(self):
        out = sh('pgrep', '-P', str(self.pid), check=False).stdout.split()
        return [self.pid] + [int(p) for p in out]

    def cpu_seconds(self):
        total = 0
        for p in self.pids():
            try:
                with open(f'/proc/{p}/stat') as f:
                    fields = f.read().rsplit(')', 1)[1].split()
                total += int(fields[11]) + int(fields[12])
            except OSError:
                pass
        return total / os.sysconf('SC_CLK_TCK')

    def bytes_sent(self, path_suffix):
        """Body bytes nginx logged for requests whose path ends in path_suffix."""
        n = 0
        with open(os.path.join(self.dir, 'access.log')) as f:
            for line in f:
                parts = line.split('"')
                if len(parts) > 2 and parts[1].split(' ')[1:2] and parts[1].split(' ')[1].endswith(path_suffix):
                    n += int(parts[2].split()[1])
        return n

    def stop(self, sig=signal.SIGTERM):
        for p in self.pids():
            try:
                os.kill(p, sig)
            except ProcessLookupError:
                pass


def network():
    sh('ip', 'link', 'add', BRIDGE, 'type', 'bridge')
    for ip in (ORIGIN, MIRROR, CACHE, '10.0.9.4', '10.0.9.5', '10.0.9.6'):
        sh('ip', 'addr', 'add', ip + '/16', 'dev', BRIDGE)
    sh('ip', 'link', 'set', BRIDGE, 'up')


class Client:
    """One machine: a process in its own network namespace, on the bridge, started with go()."""
    made = 0

    def __init__(self, k, argv, out):
        self.k, self.out = k, out
        # Names and addresses never reused: a namespace that just ended may still hold its end.
        n = Client.made
        Client.made += 1
        self.log = open(out + '.log', 'w')
        self.proc = subprocess.Popen(['unshare', '-n', 'sh', '-c', 'read go && exec "$@"', 'client'] + argv,
                                     stdin=subprocess.PIPE, stdout=open(out + '.json', 'w'), stderr=self.log)
        veth, ip = f'vf{n}', f'10.0.{10 + n // 250}.{1 + n % 250}'
        # The veth end must land in the client's namespace, so wait until unshare has made it.
        ours = os.readlink('/proc/self/ns/net')
        deadline = time.monotonic() + 30
        while os.readlink(f'/proc/{self.proc.pid}/ns/net') == ours:
            if time.monotonic() > deadline:
                raise RuntimeError(f'client {k}: no network namespace after 30 s')
            time.sleep(0.01)
        sh('ip', 'link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', str(self.proc.pid))
        sh('ip', 'link', 'set', veth, 'master', BRIDGE, 'up')
        for cmd in (['ip', 'link', 'set', 'lo', 'up'], ['ip', 'addr', 'add', ip + '/16', 'dev', 'eth0'],
                    ['ip', 'link', 'set', 'eth0', 'up']):
            sh('nsenter', '-t', str(self.proc.pid), '-n', *cmd)

    def go(self):
        self.start = time.monotonic()
        self.proc.stdin.write(b'go\n')
        self.proc.stdin.close()

    def wait(self, timeout):
        self.proc.wait(timeout=timeout)
        self.seconds = time.monotonic() - self.start
        self.log.close()
        return self.proc.returncode

    def report(self):
        try:
            with open(self.out + '.json') as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}

    def stderr(self):
        with open(self.out + '.log', errors='replace') as f:
            return f.read()


def run_fleet(tmp, n, argv_of, timeout=1800, during=None):
    """Start n clients at once; argv_of(k, outdir) gives each one's command. Returns the clients."""
    clients = []
    for k in range(n):
        d = os.path.join(tmp, f'client{k}')
        os.makedirs(d, exist_ok=True)
        clients.append(Client(k, argv_of(k, d), os.path.join(d, 'out')))
    start = time.monotonic()
    for c in clients:
        c.go()
    if during:
        during()
    for c in clients:
        c.wait(timeout)
    return clients, time.monotonic() - start


def pull_argv(build, url, d, *extra):
    return [os.path.join(build, 'src/pull/urlboot-pull'), '--json', '--progress=none', f'--image-root={d}', *extra,
            'raw', url, 'img']


# ---- the checks (CI) ----

def test(build, src):
    print('1..6', flush=True)
    tmp = tempfile.mkdtemp(prefix='urlboot-fleet.', dir='/var/tmp')
    servers = []
    n_failed = 0

    def check(i, ok, what, detail=''):
        nonlocal n_failed
        print(f'{"ok" if ok else "not ok"} {i} - {what}', flush=True)
        if not ok:
            n_failed += 1
            for line in detail.strip().splitlines()[-15:]:
                print('# ' + line)

    try:
        network()
        srv = os.path.join(tmp, 'srv')
        os.makedirs(srv)
        raw, zst = make_image(os.path.join(srv, 'disk.raw'), 64)
        want = sha256(raw)
        pin = '--verify=sha256:' + sha256(zst)
        size = os.path.getsize(zst)
        origin = Nginx(tmp, 'origin', ORIGIN, f'                root {srv};')
        servers.append(origin)

        # 1. Eight at once, byte-identical.
        clients, _ = run_fleet(tmp, 8, lambda k, d: pull_argv(build, f'http://{ORIGIN}:8080/disk.raw.zst', d, pin))
        bad = [c.k for c in clients if c.proc.returncode != 0 or sha256(os.path.join(os.path.dirname(c.out), 'img.raw')) != want]
        check(1, not bad, 'eight clients at once from nginx: every image byte-identical', '\n'.join(clients[b].stderr() for b in bad))
        shutil.rmtree(os.path.join(tmp, 'client0'), ignore_errors=True)
        for c in clients:
            shutil.rmtree(os.path.dirname(c.out), ignore_errors=True)

        # 2. Two servers; the first is killed mid-run: each client goes on from the second at its byte.
        slow = Nginx(tmp, 'slow', MIRROR, f'                root {srv};\n                limit_rate 2m;')
        servers.append(slow)
        backup_dir = os.path.join(tmp, 'nginx-backup-root')
        os.makedirs(backup_dir)
        os.link(zst, os.path.join(backup_dir, 'disk.raw.zst'))
        backup = Nginx(tmp, 'backup', CACHE, f'                root {backup_dir};')
        servers.append(backup)
        clients, _ = run_fleet(tmp, 4, lambda k, d: pull_argv(build, f'http://{MIRROR}:8080/disk.raw.zst', d, pin,
                                                                  f'--mirror=http://{CACHE}:8080/disk.raw.zst'),
                               during=lambda: (time.sleep(2), slow.stop(signal.SIGKILL)))
        reports = [c.report() for c in clients]
        ok = all(c.proc.returncode == 0 for c in clients) and all(
            sha256(os.path.join(os.path.dirname(c.out), 'img.raw')) == want for c in clients)
        moved = all('Continuing at byte' in c.stderr() for c in clients)
        no_restart = all(r.get('restarts', 1) == 0 and r.get('bytesReceived', 1 << 62) < 1.2 * size for r in reports)
        check(2, ok and moved and no_restart, 'the first server killed mid-download: every client finished from the '
              'second, none started over (bytes received < 1.2 × the file)',
              json.dumps(reports) + '\n' + '\n'.join(c.stderr() for c in clients))
        for c in clients:
            shutil.rmtree(os.path.dirname(c.out), ignore_errors=True)

        # 3. A server limited to 1 MB/s per connection: slow is not stalled.
        limited = Nginx(tmp, 'limited', '10.0.9.4', f'                root {srv};\n                limit_rate 1m;')
        servers.append(limited)
        clients, _ = run_fleet(tmp, 2, lambda k, d: pull_argv(build, f'http://10.0.9.4:8080/disk.raw.zst', d, pin,
                                                                  '--stall-timeout=5'))
        reports = [c.report() for c in clients]
        check(3, all(c.proc.returncode == 0 for c in clients) and all(r.get('retries', 1) == 0 for r in reports),
              'nginx limit_rate 1m with --stall-timeout=5: no retry, no stall', json.dumps(reports))
        for c in clients:
            shutil.rmtree(os.path.dirname(c.out), ignore_errors=True)

        # 4-5. A caching nginx in front (docs/howto-netboot.md's configuration): the clients get the image
        # through it, and the origin sends it about once.
        proxy_origin = Nginx(tmp, 'origin2', '10.0.9.5', f'                root {srv};')
        servers.append(proxy_origin)
        cache = Nginx(tmp, 'cache', '10.0.9.6', '''                location / {
                        proxy_pass http://10.0.9.5:8080;
                        proxy_cache fleet;
                        proxy_cache_valid 200 206 1d;
                        proxy_cache_lock on;
                        slice 8m;
                        proxy_cache_key $uri$slice_range;
                        proxy_set_header Range $slice_range;
                }''')
        servers.append(cache)
        clients, _ = run_fleet(tmp, 6, lambda k, d: pull_argv(build, 'http://10.0.9.6:8080/disk.raw.zst', d, pin))
        check(4, all(c.proc.returncode == 0 for c in clients) and all(
            sha256(os.path.join(os.path.dirname(c.out), 'img.raw')) == want for c in clients),
            'six clients through a caching nginx (slices, cache lock): every image byte-identical',
            '\n'.join(c.stderr() for c in clients))
        sent = proxy_origin.bytes_sent('disk.raw.zst')
        check(5, sent <= 1.5 * size, f'the origin behind the cache sent {sent} bytes for a {size}-byte file (at most 1.5×)')
        # 6. A resume through the cache: the cache answers ranges too.
        for c in clients:
            shutil.rmtree(os.path.dirname(c.out), ignore_errors=True)
        head = subprocess.run(['curl', '-s', '-r', '1000000-1000099', '-o', '-', 'http://10.0.9.6:8080/disk.raw.zst'],
                              stdout=subprocess.PIPE)
        with open(zst, 'rb') as f:
            f.seek(1000000)
            check(6, head.stdout == f.read(100), 'the cache answers byte ranges with the right bytes (resumes work through it)')
    finally:
        for s in servers:
            s.stop(signal.SIGKILL)
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if n_failed else 0


# ---- the benchmark ----

def bench(build, src, counts):
    tmp = tempfile.mkdtemp(prefix='urlboot-fleet-bench.', dir='/var/tmp')
    rows = []
    try:
        network()
        srv = os.path.join(tmp, 'srv')
        os.makedirs(srv)
        raw, zst = make_image(os.path.join(srv, 'disk.raw'), 1024)
        want, size = sha256(raw), os.path.getsize(zst)
        pin = '--verify=sha256:' + sha256(zst)
        origin = Nginx(tmp, 'origin', ORIGIN, f'                root {srv};')
        url = f'http://{ORIGIN}:8080/disk.raw.zst'
        for n in [1] + counts:
            for tool in ('urlboot-pull', 'curl'):
                cpu0 = origin.cpu_seconds()
                if tool == 'curl':
                    argv = lambda k, d: ['curl', '-s', '-f', '-o', os.path.join(d, 'img.raw.zst'), url]
                else:
                    argv = lambda k, d: pull_argv(build, url, d, pin)
                clients, wall = run_fleet(tmp, n, argv)
                cpu = origin.cpu_seconds() - cpu0
                times = [c.seconds for c in clients]
                ok = all(c.proc.returncode == 0 for c in clients)
                if tool == 'urlboot-pull':
                    ok = ok and all(sha256(os.path.join(os.path.dirname(c.out), 'img.raw')) == want for c in clients)
                rows.append({'tool': tool, 'clients': n, 'ok': ok, 'wall': wall, 'fastest': min(times),
                             'slowest': max(times), 'median': statistics.median(times),
                             'aggregate_MBps': n * size / wall / 1e6, 'server_cpu_s': cpu})
                print(json.dumps(rows[-1]), flush=True)
                for c in clients:
                    shutil.rmtree(os.path.dirname(c.out), ignore_errors=True)
        origin.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    one = next(r for r in rows if r['tool'] == 'urlboot-pull' and r['clients'] == 1)
    print(f'\nImage: 1 GiB raw (256 MiB of data), served zstd-compressed ({size / 1e6:.0f} MB) by nginx 1.22 over '
          'veth on a bridge; each client in its own network namespace, writing to the same disk.\n')
    print('| clients | tool | all OK | aggregate MB/s | vs 1 urlboot-pull | vs curl ×N | fastest s | slowest s | slowest/fastest | nginx CPU s |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        curl = next(x for x in rows if x['tool'] == 'curl' and x['clients'] == r['clients'])
        print(f"| {r['clients']} | {r['tool']} | {'yes' if r['ok'] else 'NO'} | {r['aggregate_MBps']:.0f} | "
              f"{r['aggregate_MBps'] / one['aggregate_MBps']:.2f} | {r['aggregate_MBps'] / curl['aggregate_MBps']:.2f} | "
              f"{r['fastest']:.1f} | {r['slowest']:.1f} | {r['slowest'] / r['fastest']:.2f} | {r['server_cpu_s']:.1f} |")
    return 0


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ('test', 'bench'):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    build, src = os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    if not shutil.which('nginx'):
        print('1..0 # SKIP nginx is missing (tools/install-deps installs nginx-light)')
        return 0
    if sys.argv[1] == 'test':
        return test(build, src)
    return bench(build, src, [int(n) for n in sys.argv[4:]] or [16, 64])


if __name__ == '__main__':     # storm.py imports the namespaces and nginx from here
    sys.exit(main())
