#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""G4 of the security review of 2026-12-06: the program urlboot-unit-shell runs in a service's namespaces
must not get the caller's terminal, or the service's user can push keystrokes into root's shell with
ioctl(TIOCSTI).

The service is a process of uid 65534 in a user and mount namespace of its own (unshare -Urm), as a
service may make itself; the program run in it (as that user, seen from outside) tries TIOCSTI and
reports what it has. The caller's session is a pseudo terminal this test makes: a bash, the session
leader with the terminal as its controlling terminal, runs unit-shell-at-pid (urlboot-unit-shell after
the MainPID lookup) and then reads what is left in its terminal's input, as root's shell would. Needs
root. Prints TAP.

Usage: tiocsti.py UNIT-SHELL-AT-PID
"""
import fcntl
import os
import select
import struct
import subprocess
import sys
import tempfile
import termios
import time

AT_PID = sys.argv[1]
# The program runs in the service's root, as the service's user: the system's python, not one below /root.
INNER_PYTHON = '/usr/bin/python3'
INJECTED = 'echo INJECTED-G4'
ROWS, COLS = 33, 101

# The joined program: tries TIOCSTI on the descriptor it is given, then says what it has as key=value lines.
INNER = r'''
import errno, fcntl, os, stat, struct, sys, termios

# argv: the descriptor to try TIOCSTI on ('-': none), the exit status, 'read' to read a line or 'wait'.
fd, code, read_line = sys.argv[1], int(sys.argv[2]), sys.argv[3] == 'read'

def attempt(f):
    try:
        return f()
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))

def inject():
    for c in os.environ['INJECTED'].encode() + b'\n':
        fcntl.ioctl(int(fd), termios.TIOCSTI, bytes([c]))
    return 'injected'

def device(n):
    st = os.fstat(n)
    return str(st.st_rdev) if stat.S_ISCHR(st.st_mode) else 'none'

def controlling():
    tty = os.open('/dev/tty', os.O_RDWR | os.O_NOCTTY)
    rows, cols = struct.unpack('HHHH', fcntl.ioctl(tty, termios.TIOCGWINSZ, bytes(8)))[:2]
    foreground = os.tcgetpgrp(tty) == os.getpgrp()
    os.close(tty)
    return 'yes foreground=%s winsize=%dx%d' % ('yes' if foreground else 'no', rows, cols)

if fd != '-':
    print('tiocsti=' + attempt(inject))
for n in (0, 1, 2):
    print('dev%d=%s' % (n, device(n)))
print('leader=' + ('yes' if os.getsid(0) == os.getpid() else 'no'))
print('ctty=' + attempt(controlling).replace(' ', '\n'))
if read_line:
    print('ready', flush=True)
    print('got=' + sys.stdin.readline().strip())
if sys.argv[3] == 'wait':
    os.execv('/bin/sleep', ['sleep', '60'])
sys.exit(code)
'''

# The caller's shell: its terminal mode before and after, and what it reads once the tool has ended.
OUTER = r'''
before=$(stty -g)
"$AT_PID" "$TARGET" t.service "$INNER_PYTHON" -c "$INNER" $ARGS %s
echo "tool-rc=$?"
[ "$before" = "$(stty -g)" ] && echo mode-kept=yes || echo mode-kept=no
if IFS= read -r -t 2 line; then echo "outer-read=[$line]"; else echo "outer-read=none"; fi
'''

# The caller's shell sends the tool SIGTERM while the program runs (sleep): the tool dies of it as it did
# without a terminal of the program's own, our terminal has its mode back, the program is gone.
OUTER_TERM = r'''
before=$(stty -g)
"$AT_PID" "$TARGET" t.service "$INNER_PYTHON" -c "$INNER" $ARGS <&0 &
tool=$!
for _ in $(seq 100); do
	middle=$(pgrep -P $tool) && program=$(pgrep -P "$middle" -x sleep) && break
	sleep 0.1
done
echo "tool=$tool middle=$middle program=$program"
kill -TERM $tool
wait $tool
echo "tool-rc=$?"
[ "$before" = "$(stty -g)" ] && echo mode-kept=yes || echo mode-kept=no
# Ended: gone, or a zombie nobody has reaped yet (its parent, the middle child, is gone).
ended() { [ -n "$program" ] && { ! kill -0 "$program" 2>/dev/null || grep -q '^State:.*Z' "/proc/$program/status"; }; }
for _ in $(seq 50); do ended && break; sleep 0.1; done
ended && echo program-gone=yes || echo program-gone=no
if IFS= read -r -t 2 line; then echo "outer-read=[$line]"; else echo "outer-read=none"; fi
'''

n = 0
failed = 0


def check(description, condition, detail=''):
    global n, failed
    n += 1
    print('%s %d - %s' % ('ok' if condition else 'not ok', n, description), flush=True)
    if not condition:
        failed += 1
        for line in str(detail).splitlines():
            print('# ' + line)


def skip_all(reason):
    print('1..0 # SKIP ' + reason)
    sys.exit(0)


def is_pty(rdev):
    """A pseudo terminal's slave: majors 136 to 143 (UNIX98_PTY_SLAVE_MAJOR)."""
    return 136 <= os.major(rdev) <= 143


def start_service():
    """uid 65534 in a user and mount namespace of its own; returns the process once it is in them."""
    p = subprocess.Popen(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--',
                          'unshare', '-Urm', 'sleep', '600'],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ours = os.readlink('/proc/self/ns/user')
    for _ in range(100):
        try:
            if (open('/proc/%d/comm' % p.pid).read().strip() == 'sleep'
                    and os.readlink('/proc/%d/ns/user' % p.pid) != ours):
                return p
        except OSError:
            pass
        if p.poll() is not None:
            break
        time.sleep(0.1)
    p.kill()
    p.wait()
    return None


def read_until(master, output, deadline, ready=None):
    """Appends what the terminal shows to output until EOF, the deadline, or ready() is true."""
    while time.time() < deadline:
        if ready and ready():
            return True
        readable, _, _ = select.select([master], [], [], 0.2)
        if not readable:
            continue
        try:
            data = os.read(master, 4096)
        except OSError:
            return False
        if not data:
            return False
        output.extend(data)
    return False


def parse(text, facts):
    for line in text.splitlines():
        key, sep, value = line.partition('=')
        if sep and key and all(c.isalnum() or c == '-' for c in key):
            facts.setdefault(key, value)


class Session:
    """The caller's shell run on a new pseudo terminal: what it showed, the facts in it and in the file
    stdout went to (if redirected to $OUT), the terminal's device number."""

    def __init__(self, target, args, redirect='', typed=None, outer=OUTER):
        master, slave = os.openpty()
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack('HHHH', ROWS, COLS, 0, 0))
        self.rdev = str(os.fstat(slave).st_rdev)
        out = tempfile.NamedTemporaryFile(prefix='unit-shell-tiocsti.')
        env = dict(os.environ, AT_PID=AT_PID, TARGET=str(target), INNER_PYTHON=INNER_PYTHON, INNER=INNER,
                   ARGS=' '.join(args), INJECTED=INJECTED, OUT=out.name, TERM='xterm')
        pid = os.fork()
        if pid == 0:
            os.close(master)
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            os.close(slave)
            os.execve('/bin/bash', ['bash', '--norc', '--noprofile', '-c', outer.replace('%s', redirect)], env)
        os.close(slave)
        output = bytearray()
        deadline = time.time() + 60
        # The program says "ready" on the terminal, or in the file when its stdout is redirected there.
        if typed is not None and read_until(master, output, deadline,
                                            lambda: b'ready' in output or b'ready' in open(out.name, 'rb').read()):
            os.write(master, typed)
        read_until(master, output, deadline)
        os.close(master)
        os.waitpid(pid, 0)
        self.shown = output.decode(errors='replace')
        self.file = out.read().decode(errors='replace')
        out.close()
        self.facts = {}
        parse(self.shown.replace('\r', ''), self.facts)
        parse(self.file, self.facts)
        self.detail = 'terminal:\n' + self.shown.replace('\r', '') + ('file:\n' + self.file if self.file else '')

    def get(self, key):
        return self.facts.get(key)

    def own_pty(self, n):
        """The program's descriptor n is a pseudo terminal, not the caller's."""
        dev = self.get('dev%d' % n)
        return dev not in (None, 'none', self.rdev) and is_pty(int(dev))

    def clean(self, rc='0'):
        """The tool exited with rc, left the caller's terminal in its mode and nothing in its input."""
        return self.get('tool-rc') == rc and self.get('mode-kept') == 'yes' and self.get('outer-read') == 'none'


def main():
    if os.geteuid() != 0:
        skip_all('needs root')
    if not os.access(INNER_PYTHON, os.X_OK):
        skip_all(INNER_PYTHON + ' is missing: the program run in the service')
    service = start_service()
    if not service:
        skip_all('no unprivileged user namespace (setpriv --reuid=65534 unshare -Urm failed)')
    try:
        run_cases(service.pid)
    finally:
        service.kill()
        service.wait()
    sys.exit(1 if failed else 0)


def run_cases(target):
    print('1..19', flush=True)
    # The arguments: the descriptor to try TIOCSTI on ('-': none), the exit status, 'read' to read a line.
    s = Session(target, ['0', '0', 'no'])
    check('a terminal on stdio: nothing the program pushes with TIOCSTI reaches the caller\'s terminal, '
          'whose mode is restored', s.clean(), s.detail)
    check('a terminal on stdio: TIOCSTI fails, or pushes into the program\'s own terminal',
          s.get('tiocsti') in ('injected', 'EIO', 'EPERM', 'ENOTTY'), s.detail)
    check('a terminal on stdio: stdin, stdout and stderr are one pseudo terminal of the program\'s own',
          s.own_pty(0) and s.get('dev0') == s.get('dev1') == s.get('dev2'), s.detail)
    check('a terminal on stdio: the program leads a session of its own, with that terminal as its '
          'controlling one, in the foreground',
          s.get('leader') == 'yes' and s.get('ctty') == 'yes' and s.get('foreground') == 'yes', s.detail)
    check('a terminal on stdio: its window size is the caller\'s (%dx%d)' % (ROWS, COLS),
          s.get('winsize') == '%dx%d' % (ROWS, COLS), s.detail)

    s = Session(target, ['-', '0', 'read'], typed=b'hello\n')
    check('a terminal on stdio: what is typed on the caller\'s terminal reaches the program',
          s.get('got') == 'hello' and s.clean(), s.detail)

    s = Session(target, ['-', '7', 'no'])
    check('a terminal on stdio: the exit status is the program\'s (7), with v258\'s message',
          s.clean('7') and "'(unit-shell)' failed with exit status 7." in s.shown, s.detail)

    s = Session(target, ['-', '0', 'wait'], outer=OUTER_TERM)
    check('a terminal on stdio: SIGTERM for the tool ends it with SIGTERM (143) as before, our terminal\'s mode '
          'restored, the program gone', s.clean('143') and s.get('program-gone') == 'yes', s.detail)

    # stdin not a terminal: the program reads it as it is, stdout and stderr become its own terminal.
    s = Session(target, ['1', '0', 'no'], redirect='</dev/null')
    check('stdin not a terminal: nothing the program pushes with TIOCSTI on stdout reaches the caller\'s terminal',
          s.clean() and s.get('tiocsti') in ('injected', 'EIO', 'EPERM', 'ENOTTY'), s.detail)
    check('stdin not a terminal: stdout and stderr are a pseudo terminal of the program\'s own, stdin is ours',
          s.own_pty(1) and s.own_pty(2) and s.get('dev0') not in (None, s.rdev), s.detail)
    check('stdin not a terminal: the program leads a session of its own', s.get('leader') == 'yes', s.detail)
    s = Session(target, ['-', '0', 'read'], redirect='<<<piped')
    check('stdin not a terminal: the program reads our stdin itself', s.get('got') == 'piped' and s.clean(),
          s.detail)

    # stdout redirected: the file gets the program's bytes as they are, not the terminal's.
    s = Session(target, ['0', '0', 'no'], redirect='>"$OUT"')
    check('stdout redirected: TIOCSTI on stdin reaches nothing of the caller\'s', s.clean(), s.detail)
    check('stdout redirected: the file is the program\'s stdout, unchanged (no CR, no echo)',
          s.get('dev1') == 'none' and 'dev1=none\n' in s.file and '\r' not in s.file
          and 'INJECTED' not in s.file, s.detail)
    check('stdout redirected: stdin and stderr are a pseudo terminal of the program\'s own, sized like ours',
          s.own_pty(0) and s.own_pty(2) and s.get('winsize') == '%dx%d' % (ROWS, COLS), s.detail)
    s = Session(target, ['-', '0', 'read'], redirect='>"$OUT" 2>&1', typed=b'typed\n')
    check('only stdin a terminal: what is typed reaches the program and is echoed on the caller\'s terminal',
          s.get('got') == 'typed' and 'typed' in s.shown and s.clean(), s.detail)

    # No terminal at all: a new session without a controlling terminal.
    s = Session(target, ['0', '0', 'no'], redirect='</dev/null >"$OUT" 2>&1')
    check('no terminal on stdio: TIOCSTI on stdin (/dev/null) fails, nothing reaches the caller\'s terminal',
          s.clean() and s.get('tiocsti') == 'ENOTTY', s.detail)
    check('no terminal on stdio: the program leads a new session without a controlling terminal',
          s.get('leader') == 'yes' and s.get('ctty') == 'ENXIO', s.detail)
    check('no terminal on stdio: stdin, stdout and stderr are ours, as they are',
          all(s.get('dev%d' % n) == 'none' or n == 0 for n in (0, 1, 2)) and s.get('dev0') != s.rdev, s.detail)


if __name__ == '__main__':
    main()
