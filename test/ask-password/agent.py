#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A scripted password agent speaking the classic protocol of systemd 252's agents.

It watches DIR for ask.* files, copies each one it sees to LOGDIR (with its mode in
LOGDIR/NAME.mode), and answers by the Message= key, so tests choose the answer in the call:

  answer:PW        "+PW"                 multi:A,B     "+A\\0B\\0"
  empty            "+" (the empty password)
  cancel           "-"                   ignore        no answer (the question stays)
  junk:PW          an unsigned junk datagram, an oversized one, then "+PW"
  (no Message=)    "+default"

The answer goes to the Socket= of the file, looked up by its name in DIR (so the agent also
works when DIR is the same directory seen from outside a chroot). Stops on SIGTERM.
"""
import os
import signal
import socket
import sys
import time

directory, logdir = sys.argv[1], sys.argv[2]
seen = set()
running = True


def stop(*_):
    global running
    running = False


signal.signal(signal.SIGTERM, stop)


def parse(text):
    keys = {}
    for line in text.splitlines():
        if '=' in line:
            k, v = line.split('=', 1)
            keys[k] = v
    return keys


def send(sock_path, payload):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        s.sendto(payload, sock_path)
    except OSError as e:
        print('agent: cannot answer %s: %s' % (sock_path, e), file=sys.stderr)
    finally:
        s.close()


def answer(name, keys):
    sock_path = os.path.join(directory, os.path.basename(keys.get('Socket', '')))
    message = keys.get('Message')
    if message is None:
        send(sock_path, b'+default')
    elif message.startswith('answer:'):
        send(sock_path, b'+' + message[7:].encode())
    elif message.startswith('multi:'):
        send(sock_path, b'+' + b'\0'.join(p.encode() for p in message[6:].split(',')) + b'\0')
    elif message == 'empty':
        send(sock_path, b'+')
    elif message == 'cancel':
        send(sock_path, b'-')
    elif message.startswith('junk:'):
        send(sock_path, b'x')
        send(sock_path, b'+' + b'y' * 3000)
        send(sock_path, b'+' + message[5:].encode())
    # "ignore" and anything else: no answer


while running:
    try:
        names = sorted(n for n in os.listdir(directory) if n.startswith('ask.'))
    except FileNotFoundError:
        names = []
    for name in names:
        if name in seen:
            continue
        path = os.path.join(directory, name)
        try:
            st = os.stat(path)
            with open(path) as f:
                text = f.read()
        except FileNotFoundError:
            continue
        seen.add(name)
        with open(os.path.join(logdir, name), 'w') as f:
            f.write(text)
        with open(os.path.join(logdir, name + '.mode'), 'w') as f:
            f.write('%o\n' % (st.st_mode & 0o7777))
        answer(name, parse(text))
    time.sleep(0.02)
