#!/usr/bin/env python3
"""A test HTTP server for urlboot with fault injection. Never for production; binds 127.0.0.1 only.

Files are served from --root. A first path component starting with "f=" selects faults for the
rest of the path, so every test case is just a URL:

  /f=reset:1000000/disk.raw.zst     the first response resets the connection after 1000000 body bytes
  /f=reset-always:1000/x            every response resets after 1000 bytes
  /f=truncate:1000/x                the first response ends (cleanly) after 1000 bytes
  /f=truncate-always:1000/x         every response ends (cleanly) after 1000 bytes
  /f=stall:1000:5/x                 the first response stops for 5 s after 1000 bytes
  /f=status:503:2:1/x               the first 2 requests get 503 with Retry-After: 1 (":0" = no header)
  /f=norange/x                      Range and If-Range are ignored (always 200)
  /f=lie:+1000/x                    Content-Length claims 1000 bytes more than are sent
  /f=redirect:3/x                   3 redirects (302) before the file
  /f=slow:2000000/x                 at most 2000000 bytes per second
  /f=changed/x                      every response has a new ETag (the file "changes")
  /f=crstart/x                      a range request gets 206 with the whole file ("bytes 0-…")
  /f=crtotal:+1000/x                206 answers claim a total 1000 bytes larger than the file
  /f=shortrange:100000/x            206 answers cover at most 100000 bytes of what was asked
  /f=overlong:1000/x                206 answers are chunked and send 1000 bytes past the end
  /f=bigheader:300000/x             every answer carries a 300000-byte header
  /f=redirect-http:PORT/x           302 to http://127.0.0.1:PORT/x (from an https server: a downgrade)
  /f=redirect-ftp:PORT/x            302 to ftp://127.0.0.1:PORT/x (another protocol)
  /f=fw-redirect:PORT/x             urlboot's boot manager (User-Agent "urlboot") gets x chunked, which its own
                                    fetch does not take, so it falls back to the firmware's HTTP boot; every
                                    other client (the firmware) gets a 302 to http://10.0.2.2:PORT/x
  /f=noclamp/x                      a range reaching past the end is not clamped: the answer claims the range as
                                    asked (Content-Length, Content-Range) and sends only the bytes there are, so the
                                    client waits for the rest (a server nginx is not)
  /f=pause:20000000:20/x            once 20000000 body bytes of this URL were sent (all requests together),
                                    every answer stops for 20 s (the server "goes away" and comes back)
  /f=keepalive/x                    the connection stays open after the answer even when the client asked
                                    to close it, and the answer does not say "Connection: close" (without
                                    this fault the server says so: RFC 9112 9.6)
Faults combine with ",": /f=reset:1000,norange/x. Counters are per URL.

With --tls-cert and --tls-key it speaks HTTPS instead (for --ca tests).

Range requests: "bytes=N-" and "bytes=A-B" (one range; nbdkit's curl plugin asks for closed ranges).

GET /_stats returns JSON: per URL the number of requests and body bytes sent. POST /_reset clears it.
"""
import argparse
import email.utils
import http.server
import json
import os
import re
import socket
import socketserver
import struct
import sys
import threading
import time
import urllib.parse

STATS = {}
LOCK = threading.Lock()
PAUSES = {}     # URL path -> monotonic time until which its answers wait (pause fault)


def parse_faults(path):
    parts = path.lstrip('/').split('/', 1)
    if len(parts) == 2 and parts[0].startswith('f='):
        faults = {}
        for item in parts[0][2:].split(','):
            name, _, arg = item.partition(':')
            faults[name] = arg
        return faults, '/' + parts[1]
    return {}, path


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    server_version = 'urlboot-test/1'

    def log_message(self, fmt, *args):
        if self.server.verbose:
            sys.stderr.write('server: ' + fmt % args + '\n')

    def count(self, key, nbytes=0, request=False):
        with LOCK:
            s = STATS.setdefault(key, {'requests': 0, 'bytes': 0})
            if request:
                s['requests'] += 1
            s['bytes'] += nbytes
            return s['requests']

    def send_response(self, code, message=None):
        super().send_response(code, message)
        # A client's "close" is honoured (http.server closes after this response); RFC 9112 9.6 asks
        # the server to say so, and urlboot-pull reads ahead over TLS only when it does.
        options = [o.strip().lower() for o in self.headers.get('Connection', '').split(',')]
        if 'close' in options and not getattr(self, 'keep_open', False):
            self.send_header('Connection', 'close')

    def do_POST(self):
        if self.path == '/_reset':
            with LOCK:
                STATS.clear()
                PAUSES.clear()
            self.reply_simple(200, b'ok\n')
        else:
            self.reply_simple(404, b'no\n')

    def do_HEAD(self):
        self.do_GET(head=True)

    def reply_simple(self, code, body, headers=()):
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self, head=False):
        url = urllib.parse.urlsplit(self.path)
        if url.path == '/_stats':
            with LOCK:
                body = json.dumps(STATS).encode()
            return self.reply_simple(200, body, [('Content-Type', 'application/json')])

        faults, path = parse_faults(urllib.parse.unquote(url.path))
        nth = self.count(url.path, request=True)
        self.keep_open = 'keepalive' in faults
        if self.keep_open:
            # a server that keeps the connection whatever the client asked, and does not say "close"
            self.close_connection = False

        if 'redirect' in faults:
            hops = int(faults['redirect'])
            done = int(urllib.parse.parse_qs(url.query).get('hop', ['0'])[0])
            if done < hops:
                rest = dict(faults)
                loc = self.path.split('?')[0] + f'?hop={done + 1}'
                return self.reply_simple(302, b'', [('Location', loc)])

        ours = self.headers.get('User-Agent', '') == 'urlboot'
        if 'fw-redirect' in faults and not ours:
            return self.reply_simple(302, b'', [('Location', f'http://10.0.2.2:{faults["fw-redirect"]}{path}')])
        if 'redirect-http' in faults:
            return self.reply_simple(302, b'', [('Location', f'http://127.0.0.1:{faults["redirect-http"]}{path}')])
        if 'redirect-ftp' in faults:
            return self.reply_simple(302, b'', [('Location', f'ftp://127.0.0.1:{faults["redirect-ftp"]}{path}')])

        if 'status' in faults:
            code, times, *ra = faults['status'].split(':')
            if nth <= int(times):
                headers = [('Retry-After', ra[0])] if ra and ra[0] != '0' else []
                return self.reply_simple(int(code), b'busy\n', headers)

        full = os.path.realpath(os.path.join(self.server.root, path.lstrip('/')))
        if not full.startswith(self.server.root + '/') or not os.path.isfile(full):
            return self.reply_simple(404, b'not found\n')

        st = os.stat(full)
        size = st.st_size
        etag = f'"{st.st_ino:x}-{st.st_mtime_ns:x}-{size:x}"'
        if 'changed' in faults:
            etag = f'"changed-{nth}"'
        last_modified = email.utils.formatdate(st.st_mtime, usegmt=True)

        start, end, code = 0, size, 200
        rng = self.headers.get('Range')
        m = re.fullmatch(r'bytes=(\d+)-(\d*)', rng) if rng and 'norange' not in faults else None
        if m:
            if_range = self.headers.get('If-Range')
            if if_range is None or if_range in (etag, last_modified):
                start = int(m.group(1))
                if start >= size:
                    return self.reply_simple(416, b'', [('Content-Range', f'bytes */{size}')])
                if m.group(2):
                    if int(m.group(2)) < start:
                        return self.reply_simple(416, b'', [('Content-Range', f'bytes */{size}')])
                    end = min(size, int(m.group(2)) + 1)
                    if 'noclamp' in faults and int(m.group(2)) + 1 > size:
                        return self.reply_unclamped(full, start, int(m.group(2)) + 1, size, etag)
                code = 206

        length = end - start
        claimed = length
        if 'lie' in faults and nth == 1:
            claimed = length + int(faults['lie'])
        # Content-Range as sent: (first, last, total); what is read from the file: start, length.
        cr = (start, end - 1, size)
        if code == 206 and 'crstart' in faults:
            start, length, claimed, cr = 0, size, size, (0, size - 1, size)
        if code == 206 and 'crtotal' in faults:
            cr = (start, size - 1, size + int(faults['crtotal']))
        if code == 206 and 'shortrange' in faults:
            length = claimed = min(length, int(faults['shortrange']))
            cr = (start, start + length - 1, size)
        chunked = (code == 206 and 'overlong' in faults) or ('fw-redirect' in faults and ours)

        self.send_response(code)
        if chunked:
            self.send_header('Transfer-Encoding', 'chunked')
        else:
            self.send_header('Content-Length', str(claimed))
        self.send_header('ETag', etag)
        self.send_header('Last-Modified', last_modified)
        self.send_header('Accept-Ranges', 'none' if 'norange' in faults else 'bytes')
        if 'bigheader' in faults:
            self.send_header('X-Big', 'x' * int(faults['bigheader']))
        if code == 206:
            self.send_header('Content-Range', f'bytes {cr[0]}-{cr[1]}/{cr[2]}')
        self.end_headers()
        if head:
            return
        if chunked:
            return self.send_chunked(full, start, length, int(faults.get('overlong') or 0))

        cut = None       # (offset, how)
        first = nth == 1
        if 'reset' in faults and first:
            cut = (int(faults['reset']), 'reset')
        if 'reset-always' in faults:
            cut = (int(faults['reset-always']), 'reset')
        if 'truncate' in faults and first:
            cut = (int(faults['truncate']), 'close')
        if 'truncate-always' in faults:
            cut = (int(faults['truncate-always']), 'close')
        if 'lie' in faults and first:
            cut = (length, 'close')
        stall = None
        if 'stall' in faults and first:
            at, secs = faults['stall'].split(':')
            stall = (int(at), float(secs))
        rate = int(faults['slow']) if 'slow' in faults else None
        pause = None
        if 'pause' in faults:
            at, secs = faults['pause'].split(':')
            pause = (int(at), float(secs))

        sent = 0
        t0 = time.monotonic()
        with open(full, 'rb') as f:
            f.seek(start)
            while sent < length:
                chunk = 65536 if not rate else max(1, min(65536, rate // 4))  # a slow server drips
                limits = [length - sent]
                # cut and stall positions are counted in bytes of this response
                if cut and cut[0] > sent:
                    limits.append(cut[0] - sent)
                if stall and stall[0] > sent:
                    limits.append(stall[0] - sent)
                if pause:
                    self.wait_for_pause(url.path, *pause)
                data = f.read(min([chunk] + limits))
                if not data:
                    break
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    break
                sent += len(data)
                self.count(url.path, len(data))
                if stall and sent == stall[0]:
                    self.wfile.flush()
                    time.sleep(stall[1])
                    stall = None
                if cut and sent >= cut[0]:
                    self.abort(cut[1])
                    return
                if rate:
                    ahead = sent / rate - (time.monotonic() - t0)
                    if ahead > 0:
                        time.sleep(ahead)
        if cut and cut[1] == 'close':
            self.abort('close')

    def wait_for_pause(self, key, at, secs):
        """The pause fault: the first time this URL has sent `at` bytes, every answer waits `secs` s."""
        with LOCK:
            until = PAUSES.get(key)
            if until is None and STATS.get(key, {}).get('bytes', 0) >= at:
                until = PAUSES[key] = time.monotonic() + secs
                if self.server.verbose:
                    sys.stderr.write(f'server: pausing {key} for {secs} s\n')
        if until is not None and time.monotonic() < until:
            self.wfile.flush()
            time.sleep(until - time.monotonic())

    def reply_unclamped(self, full, start, end, size, etag):
        """A 206 that claims bytes start..end-1 although the file ends at size: what is there, then silence."""
        sys.stderr.write(f'server: noclamp: a range past the end ({start}-{end - 1} of {size}): not clamped\n')
        sys.stderr.flush()
        self.send_response(206)
        self.send_header('Content-Length', str(end - start))
        self.send_header('Content-Range', f'bytes {start}-{end - 1}/{size}')
        self.send_header('ETag', etag)
        self.end_headers()
        with open(full, 'rb') as f:
            f.seek(start)
            self.wfile.write(f.read(size - start))
        self.wfile.flush()
        time.sleep(30)
        self.close_connection = True

    def send_chunked(self, full, start, length, extra):
        """The range, then extra bytes that are not part of the file, as chunks."""
        with open(full, 'rb') as f:
            f.seek(start)
            data = f.read(length) + b'\0' * extra
        self.count(self.path.split('?')[0], len(data))
        for i in range(0, len(data), 65536):
            piece = data[i:i + 65536]
            self.wfile.write(b'%x\r\n' % len(piece) + piece + b'\r\n')
        self.wfile.write(b'0\r\n\r\n')

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass

    def abort(self, how):
        self.wfile.flush()
        if how == 'reset':
            # SO_LINGER 0: close sends RST, as a crashed peer or a broken middlebox would
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR) if how == 'close' else None
        except OSError:
            pass
        self.connection.close()


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        # Broken connections are what this server is for; stay quiet about them.
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', required=True)
    ap.add_argument('--port', type=int, default=0)
    ap.add_argument('--port-file')
    ap.add_argument('--verbose', action='store_true')
    ap.add_argument('--tls-cert')
    ap.add_argument('--tls-key')
    args = ap.parse_args()
    srv = Server(('127.0.0.1', args.port), Handler)
    if args.tls_cert:
        import ssl
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.tls_cert, args.tls_key)
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    srv.root = os.path.realpath(args.root)
    srv.verbose = args.verbose
    port = srv.server_address[1]
    if args.port_file:
        with open(args.port_file + '.tmp', 'w') as f:
            f.write(f'{port}\n')
        os.rename(args.port_file + '.tmp', args.port_file)
    else:
        print(port, flush=True)
    srv.serve_forever()


if __name__ == '__main__':
    main()
