#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Answers the pending password questions with systemd's own tty agent
(systemd-tty-ask-password-agent --query) on a pseudo-terminal: waits for its prompt, types the
password and Enter. Prints what the agent showed. usage: tty-agent.py PASSWORD [AGENT]"""
import os
import pty
import select
import sys
import time

password = sys.argv[1].encode()
agent = sys.argv[2] if len(sys.argv) > 2 else 'systemd-tty-ask-password-agent'
pid, fd = pty.fork()
if pid == 0:
    os.execvp(agent, [agent, '--query'])
shown, typed = b'', False
end = time.monotonic() + 20
while time.monotonic() < end:
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            d = os.read(fd, 4096)
        except OSError:
            break
        if not d:
            break
        shown += d
    if not typed and b':' in shown:
        time.sleep(0.2)
        os.write(fd, password + b'\r')
        typed = True
_, status = os.waitpid(pid, 0)
sys.stdout.write(shown.decode('utf-8', 'replace').replace('\r', ''))
sys.exit(0 if typed and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else 1)
