#!/usr/bin/env python3
"""nginx serving a directory over TLS, one port per way a certificate can be wrong (tools/e2e/tls-pki).

  8443  good: a certificate from the pinned CA for 10.0.2.2, 127.0.0.1, localhost
  8444  expired: from the pinned CA, valid 2020 to 2021
  8445  wrong host: from the pinned CA, for 10.9.9.9 only
  8446  other CA: a certificate from a CA nobody pins
  8447  downgrade: the good certificate, every answer a 302 to the same path on http://HOST:8080
  8448  reconnects: the good certificate, a connection closed after every 4 requests and answers at
        2 MB/s, so that a client that copies a while opens new connections all along
  8449  http2: the good certificate, HTTP/2 offered (ALPN) beside HTTP/1.1

RSA keys, TLS 1.2 (nginx 1.22's defaults allow it): what Debian 12's OVMF speaks. The access log has
the port, the connection's serial number, the time and the request.
Run it in a private network namespace (test/netns-run.sh): it listens on 127.0.0.1.

  nginx.py --root DIR --pki DIR --run-dir DIR [--redirect-host 10.0.2.2]   (foreground; SIGTERM stops it)
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import time

PORTS = {'good': 8443, 'expired': 8444, 'wronghost': 8445, 'other': 8446, 'downgrade': 8447, 'reconnects': 8448,
         'http2': 8449}


def config(root, pki, run_dir, redirect_host):
    def server(port, cert, extra='', listen=''):
        return (f'  server {{ listen 127.0.0.1:{port} ssl{listen}; ssl_protocols TLSv1.2 TLSv1.3; '
                f'ssl_certificate {pki}/{cert}.pem; ssl_certificate_key {pki}/{cert}.key; {extra}}}\n')
    temp = ' '.join(f'{k}_temp_path {run_dir}/tmp;' for k in ('client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'))
    # one process (no master and workers): killing it leaves nothing behind, and it keeps our user
    return (f'daemon off;\nmaster_process off;\nerror_log {run_dir}/error.log info;\npid {run_dir}/nginx.pid;\n'
            'events { worker_connections 128; }\n'
            'http {\n'
            '  log_format urlboot \'$server_port $connection $msec "$request" $status $body_bytes_sent $ssl_protocol\';\n'
            f'  access_log {run_dir}/access.log urlboot;\n  {temp}\n'
            f'  default_type application/octet-stream;\n  root {root};\n'
            + server(PORTS['good'], 'good')
            + server(PORTS['expired'], 'expired')
            + server(PORTS['wronghost'], 'wronghost')
            + server(PORTS['other'], 'other')
            + server(PORTS['downgrade'], 'good', f'location / {{ return 302 http://{redirect_host}:8080$request_uri; }} ')
            + server(PORTS['reconnects'], 'good', 'keepalive_requests 4; limit_rate 2m; ')
            + server(PORTS['http2'], 'good', listen=' http2')
            + '}\n')


def start(root, pki, run_dir, redirect_host='10.0.2.2'):
    """Start nginx; returns the process once every port accepts connections."""
    os.makedirs(os.path.join(run_dir, 'tmp'), exist_ok=True)
    conf = os.path.join(run_dir, 'nginx.conf')
    with open(conf, 'w') as f:
        f.write(config(os.path.abspath(root), os.path.abspath(pki), os.path.abspath(run_dir), redirect_host))
    proc = subprocess.Popen(['nginx', '-p', run_dir, '-c', conf], stdout=subprocess.DEVNULL,
                            stderr=open(os.path.join(run_dir, 'nginx.stderr'), 'w'))
    for _ in range(200):
        try:
            for port in PORTS.values():
                socket.create_connection(('127.0.0.1', port), timeout=0.2).close()
            return proc
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.05)
    proc.kill()
    with open(os.path.join(run_dir, 'nginx.stderr')) as f:
        raise RuntimeError('nginx did not start: ' + f.read()[-500:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', required=True)
    ap.add_argument('--pki', required=True)
    ap.add_argument('--run-dir', required=True)
    ap.add_argument('--redirect-host', default='10.0.2.2')
    ap.add_argument('--ready-file', help='created once every port accepts connections')
    a = ap.parse_args()
    # SIGTERM only stops nginx; the wait below then returns. (Waiting in the handler as well would
    # deadlock on Popen's lock, held by the interrupted wait, and leave nginx a zombie and us running.)
    stop = []   # a SIGTERM while nginx starts: stopped once it runs
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    proc = start(a.root, a.pki, a.run_dir, a.redirect_host)
    signal.signal(signal.SIGTERM, lambda *_: proc.terminate())
    if stop:
        proc.terminate()
    if a.ready_file:
        open(a.ready_file, 'w').close()
    rc = proc.wait()
    sys.exit(0 if rc in (0, -signal.SIGTERM) else rc)


if __name__ == '__main__':
    main()
