#!/usr/bin/env python3
"""A boot storm: N machines (urlboot-pull processes, each in a network namespace of its own on a bridge) need
one image at once, from an origin behind a rate-limited uplink (tc tbf on its link, as a real uplink would be),
two ways in the same run:

  origin    every machine pulls from the origin
  peers     a machine that has the image serves it (urlboot-serve, the file as downloaded: --keep-download)
            and the next machines pull from it: the origin serves a few seeds, then each finished machine
            takes up to two more (the handing out a DHCP server with tags would do), the origin staying
            their last mirror

Per way: the time until all N have it, the origin's bytes (nginx's log) and each machine's own time (min,
median, max: fairness), and when the machines finished, for the picture. Run inside a private network namespace
(test/netns-run.sh).

  storm.py BUILDDIR SRCDIR [--clients=N] [--image-mib=M] [--uplink=MBIT] [--seeds=S] [--json=FILE]
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fleet  # noqa: E402  (the namespaces, the bridge, nginx of our own)

ORIGIN_IP = '10.0.8.1'
FANOUT = 2


class Machine(fleet.Client):
    """A client whose first line on stdin is the URL list ('PRIMARY MIRROR...') and which, once the image is
    in, serves it from its namespace with urlboot-serve until killed."""

    def __init__(self, k, build, d):
        os.makedirs(d, exist_ok=True)
        self.dir = d
        self.keep = os.path.join(d, 'download')
        pull = os.path.join(build, 'src/pull/urlboot-pull')
        serve = os.path.join(build, 'src/serve/urlboot-serve')
        n = fleet.Client.made
        self.ip = f'10.0.{10 + n // 250}.{1 + n % 250}'
        script = (f'read primary mirrors; set --; for m in $mirrors; do set -- "$@" --mirror="$m"; done; '
                  f'{pull} --json --progress=none --image-root={d} --verify=sha256:$PIN --keep-download={self.keep} '
                  f'--retries=5 --stall-timeout=20 "$@" raw "$primary" img > {d}/out.json 2> {d}/pull.log || exit 1; '
                  f'touch {d}/done; '
                  f'exec {serve} --listen={self.ip}:8080 --allow=10.0.0.0/8 --no-boot --disk={self.keep}=/image.raw.zst '
                  f'--max-connections=16 2> {d}/serve.log')
        super().__init__(k, ['sh', '-c', script], os.path.join(d, 'out'))

    def go_with(self, primary, mirrors):
        self.start = time.monotonic()
        self.source = primary
        # the first line is fleet.Client's own "go", the second the script's
        self.proc.stdin.write(f'go\n{primary} {" ".join(mirrors)}\n'.encode())
        self.proc.stdin.close()

    def done(self):
        return os.path.exists(os.path.join(self.dir, 'done'))

    def failed(self):
        return self.proc.poll() is not None and not self.done()

    def url(self):
        return f'http://{self.ip}:8080/image.raw.zst'


def origin_server(tmp, name, srv, uplink_mbit):
    """nginx in a namespace of its own on the bridge, its egress shaped to the uplink's rate."""
    conf_dir = os.path.join(tmp, 'server-' + name)
    os.makedirs(conf_dir, exist_ok=True)
    conf = os.path.join(conf_dir, 'nginx.conf')
    with open(conf, 'w') as f:
        f.write(f'''user root;
daemon off;
worker_processes 2;
pid {conf_dir}/nginx.pid;
error_log {conf_dir}/error.log;
events {{ worker_connections 1024; }}
http {{
        access_log {conf_dir}/access.log combined;
        sendfile on;
        default_type application/octet-stream;
        client_body_temp_path {conf_dir}/body;
        proxy_temp_path {conf_dir}/proxy;
        fastcgi_temp_path {conf_dir}/fastcgi;
        uwsgi_temp_path {conf_dir}/uwsgi;
        scgi_temp_path {conf_dir}/scgi;
        server {{ listen {ORIGIN_IP}:8080; root {srv}; }}
}}
''')
    o = fleet.Client(-1, ['nginx', '-p', conf_dir, '-c', conf], os.path.join(conf_dir, 'out'))
    pid = str(o.proc.pid)
    fleet.sh('nsenter', '-t', pid, '-n', 'ip', 'addr', 'flush', 'dev', 'eth0')
    fleet.sh('nsenter', '-t', pid, '-n', 'ip', 'addr', 'add', ORIGIN_IP + '/16', 'dev', 'eth0')
    fleet.sh('nsenter', '-t', pid, '-n', 'tc', 'qdisc', 'add', 'dev', 'eth0', 'root', 'tbf', 'rate', f'{uplink_mbit}mbit',
             'burst', '256kb', 'latency', '100ms')
    o.go()
    for _ in range(100):
        if os.path.exists(os.path.join(conf_dir, 'nginx.pid')):
            break
        time.sleep(0.05)
    o.access_log = os.path.join(conf_dir, 'access.log')
    return o


def origin_bytes(log):
    n = 0
    with open(log) as f:
        for line in f:
            parts = line.split('"')
            if len(parts) > 2:
                n += int(parts[2].split()[1])
    return n


def storm(build, tmp, way, clients, image, seeds):
    """One storm; returns its figures."""
    d = os.path.join(tmp, way)
    os.makedirs(d)
    origin_url = f'http://{ORIGIN_IP}:8080/image.raw.zst'
    machines = [Machine(k, build, os.path.join(d, f'm{k}')) for k in range(clients)]
    slots = {}                  # a serving machine -> downloads it hands out at once
    waiting = list(machines)
    t0 = time.monotonic()
    if way == 'origin':
        for m in waiting:
            m.go_with(origin_url, [])
        waiting = []
    else:
        for m in waiting[:seeds]:
            m.go_with(origin_url, [])
        waiting = waiting[seeds:]
    finished = {}
    while len(finished) + sum(m.failed() for m in machines) < clients:
        if time.monotonic() - t0 > 1800:
            break
        for m in machines:
            if m not in finished and m.done():
                finished[m] = time.monotonic() - t0
                slots[m] = FANOUT
                if m.source != origin_url:
                    for s in slots:
                        if s.url() == m.source:
                            slots[s] += 1
        # hand the waiting machines to peers with room, the newest first (their links are idle)
        for s in sorted(slots, key=lambda x: -finished[x]):
            while slots[s] > 0 and waiting:
                slots[s] -= 1
                w = waiting.pop(0)
                w.go_with(s.url(), [origin_url])
        time.sleep(0.05)
    total = time.monotonic() - t0
    for m in machines:
        if m.failed():
            with open(os.path.join(m.dir, 'pull.log'), errors='replace') as f:
                print(f'storm: {way}: machine {m.k} failed: {f.read().strip()[-500:]}', file=sys.stderr)
            break
    own = [finished[m] - (m.start - t0) for m in finished]
    fig = {'way': way, 'clients': clients, 'finished': len(finished), 'seconds': round(total, 2),
           'done_at': sorted(round(v, 2) for v in finished.values()),
           'own_min': round(min(own), 2) if own else None, 'own_median': round(statistics.median(own), 2) if own else None,
           'own_max': round(max(own), 2) if own else None}
    for m in machines:
        m.proc.kill()
        m.proc.wait()
    return fig


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('build')
    ap.add_argument('src')
    ap.add_argument('--clients', type=int, default=64)
    ap.add_argument('--image-mib', type=int, default=96)
    ap.add_argument('--uplink', type=int, default=200, help='the origin\'s uplink, Mbit/s')
    ap.add_argument('--seeds', type=int, default=2)
    ap.add_argument('--json')
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    tmp = tempfile.mkdtemp(prefix='urlboot-storm.', dir='/var/tmp')
    try:
        fleet.network()
        srv = os.path.join(tmp, 'srv')
        os.makedirs(srv)
        raw, zst = fleet.make_image(os.path.join(srv, 'image.raw'), args.image_mib)
        os.rename(zst, os.path.join(srv, 'image.raw.zst'))
        os.unlink(raw)
        image = os.path.getsize(os.path.join(srv, 'image.raw.zst'))
        os.environ['PIN'] = fleet.sha256(os.path.join(srv, 'image.raw.zst'))
        results = []
        for way in ('origin', 'peers'):
            origin = origin_server(tmp, way, srv, args.uplink)
            fig = storm(build, tmp, way, args.clients, image, args.seeds)
            origin.proc.terminate()
            origin.proc.wait()
            fig['origin_bytes'] = origin_bytes(origin.access_log)
            fig['image_bytes'] = image
            os.unlink(origin.access_log)
            results.append(fig)
            print(f'storm: {way}: {fig["finished"]} of {fig["clients"]} in {fig["seconds"]} s, origin sent '
                  f'{fig["origin_bytes"] / image:.2f}x the image', file=sys.stderr)
        out = {'uplink_mbit': args.uplink, 'image_mib': args.image_mib, 'image_bytes': image, 'seeds': args.seeds,
               'fanout': FANOUT, 'results': results}
        if args.json:
            with open(args.json, 'w') as f:
                json.dump(out, f, indent=1)
        print(json.dumps(out))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
