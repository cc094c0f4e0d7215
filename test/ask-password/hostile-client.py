#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Hostile clients of io.systemd.AskPassword, for test/ask-password/hostile.sh.

  handoff SOCKET DIR   connect, fork; the parent writes its PID to DIR/pid and exits once told
                       (DIR/leave), the child keeps the socket and asks once DIR/go exists; the
                       reply lands in DIR/reply. (Security review 2026-12-05, F1.)
  large SOCKET BYTES   send one message of BYTES bytes; print how many the service took before it
                       hung up, and whether it answered. (F4)
  partial SOCKET       send half a message and wait; print after how many seconds the service hung
                       up. (F4)
  nonreading SOCKET    with a small receive buffer, send calls and never read a reply, until the service
                       takes no more; print how many calls went out, then after how many seconds
                       (counted from then, and from the first call) the service hung up, or "open".
                       (Security review 2026-12-06, G5)
"""
import json
import os
import select
import socket
import sys
import time

ASK = json.dumps({'method': 'io.systemd.AskPassword.Ask',
                  'parameters': {'message': 'answer:the-typed-passphrase', 'acceptCached': False}}).encode()


def wait_for(path, seconds=30):
    for _ in range(seconds * 20):
        if os.path.exists(path):
            return True
        time.sleep(0.05)
    return False


def handoff(path, d):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    if os.fork() == 0:
        if not wait_for(os.path.join(d, 'go'), 60):
            os._exit(1)
        s.sendall(ASK + b'\0')
        reply = b''
        while not reply.endswith(b'\0'):
            chunk = s.recv(4096)
            if not chunk:
                break
            reply += chunk
        with open(os.path.join(d, 'reply.tmp'), 'wb') as f:
            f.write(reply.rstrip(b'\0') or b'(closed)')
        os.rename(os.path.join(d, 'reply.tmp'), os.path.join(d, 'reply'))
        os._exit(0)
    with open(os.path.join(d, 'pid.tmp'), 'w') as f:
        f.write(str(os.getpid()))
    os.rename(os.path.join(d, 'pid.tmp'), os.path.join(d, 'pid'))
    wait_for(os.path.join(d, 'leave'), 60)
    os._exit(0)


def large(path, size):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    head = b'{"method":"io.systemd.AskPassword.Ask","parameters":{"message":"'
    body = head + b'a' * (size - len(head) - 3) + b'"}}'
    sent = 0
    try:
        while sent < len(body):
            sent += s.send(body[sent:sent + 65536])
        s.send(b'\0')
    except OSError:
        pass
    s.settimeout(10)
    try:
        answer = s.recv(4096)
    except OSError:
        answer = b''
    print('%d %s' % (sent, 'answered' if answer else 'closed'))


def partial(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(ASK[:20])
    start = time.monotonic()
    s.settimeout(120)
    try:
        while s.recv(4096):
            pass
    except OSError:
        pass
    print('%.1f' % (time.monotonic() - start))


def send_until_stalled(s, call, stall=0.5):
    """Sends call after call without reading until the socket has taken nothing for stall seconds."""
    calls, pending = 0, call
    while calls < 1000000:
        try:
            pending = pending[s.send(pending):]
        except BlockingIOError:
            if not select.select([], [s], [], stall)[1]:
                break
            continue
        except OSError:
            break  # hung up on already
        if not pending:
            calls, pending = calls + 1, call
    return calls


def nonreading(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(path)
    s.setblocking(False)
    # Needs no polkit: GetInterfaceDescription is open to everyone, and its reply is large.
    call = json.dumps({'method': 'org.varlink.service.GetInterfaceDescription',
                       'parameters': {'interface': 'io.systemd.AskPassword'}}).encode() + b'\0'
    start = time.monotonic()
    calls = send_until_stalled(s, call)
    stalled = time.monotonic()
    p = select.poll()
    p.register(s, 0)  # POLLHUP and POLLERR only: nothing is read
    if p.poll(20000):
        now = time.monotonic()
        print('%d %.1f %.1f' % (calls, now - stalled, now - start))
    else:
        print('%d open open' % calls)


if __name__ == '__main__':
    mode = sys.argv[1]
    if mode == 'handoff':
        handoff(sys.argv[2], sys.argv[3])
    elif mode == 'large':
        large(sys.argv[2], int(sys.argv[3]))
    elif mode == 'partial':
        partial(sys.argv[2])
    elif mode == 'nonreading':
        nonreading(sys.argv[2])
    else:
        sys.exit('unknown mode %s' % mode)
