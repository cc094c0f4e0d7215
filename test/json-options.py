#!/usr/bin/env python3
"""--json=pretty|short|off on every command that prints data (TAP): where a command can print here without
a booted system (an empty state directory, a scratch root), pretty and short print the same JSON value,
pretty on several lines and short on one, off prints no JSON, and a bare --json is short; every command
refuses --json=bogus as a usage error (exit 2).

  json-options.py BUILDDIR
"""
import json
import os
import subprocess
import sys
import tempfile

build = sys.argv[1]
checks = []


def exe(path):
    return os.path.join(build, 'src', path)


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


with tempfile.TemporaryDirectory() as tmp:
    os.makedirs(os.path.join(tmp, 'root/etc/default'))
    with open(os.path.join(tmp, 'root/etc/default/keyboard'), 'w') as f:
        f.write('XKBLAYOUT="de"\nXKBMODEL="pc105"\n')
    os.makedirs(os.path.join(tmp, 'state'))
    root = os.path.join(tmp, 'root')
    with open(os.path.join(tmp, 'image.raw'), 'wb') as f:
        f.write(os.urandom(8192) + bytes(65536))
    printing = {
        'urlboot-lazy status': [exe('lazy/urlboot-lazy'), 'status', '--state-dir=' + os.path.join(tmp, 'state')],
        'urlboot-lazy compress': [exe('lazy/urlboot-lazy'), 'compress', '--level=1', '--frame-size=16K',
                                  os.path.join(tmp, 'image.raw'), os.path.join(tmp, 'image.raw.zst')],
        'urlboot-loop list': [exe('loop/urlboot-loop'), 'list'],
        'urlboot-xkb show': [exe('xkb/urlboot-xkb'), '--root=' + root, 'show'],
        'urlboot-resolve show-config': [exe('resolve/urlboot-resolve'), '--root=' + root, 'show-config'],
        'urlbootctl list': [exe('bootctl/urlbootctl'), 'list', '--esp-path=' + root],
    }
    for name, argv in printing.items():
        out = {f: run(argv + ([f'--json={f}'] if f else ['--json'])) for f in ('pretty', 'short', 'off', None)}
        try:
            pretty, short, bare = (json.loads(out[f].stdout) for f in ('pretty', 'short', None))
            same = pretty == short == bare
        except ValueError as e:
            same = False
            pretty = short = str(e)
        lines = lambda f: len(out[f].stdout.strip().split('\n'))
        checks.append((all(p.returncode == 0 for p in out.values()) and same and lines('short') == 1
                       and lines(None) == 1 and (lines('pretty') > 1 or pretty in ([], {})),
                       f'{name}: --json=pretty and --json=short (and a bare --json) print the same JSON, '
                       f'pretty on {lines("pretty")} lines, short on one'))
        off = out['off'].stdout.strip()
        checks.append((not off.startswith(('{', '[')), f'{name}: --json=off prints text ({off[:30]!r})'))
    # urlboot-pull's report: the same keys either way (the seconds differ between two pulls)
    with open(os.path.join(tmp, 'disk.raw'), 'wb') as f:
        f.write(os.urandom(65536))
    os.makedirs(os.path.join(tmp, 'images'))
    reports = {}
    for f in ('pretty', 'short'):
        p = run([exe('pull/urlboot-pull'), f'--json={f}', '--verify=no', '--force', '--progress=none',
                 '--image-root=' + os.path.join(tmp, 'images'), 'raw', 'file://' + os.path.join(tmp, 'disk.raw'),
                 'disk'])
        try:
            reports[f] = (json.loads(p.stdout), len(p.stdout.strip().split('\n')))
        except ValueError:
            reports[f] = ({}, 0)
    checks.append((reports['pretty'][0].keys() == reports['short'][0].keys() != set() and reports['short'][1] == 1
                   and reports['pretty'][1] > 1 and reports['pretty'][0].get('sha256') == reports['short'][0].get('sha256'),
                   f'urlboot-pull: the report with --json=pretty ({reports["pretty"][1]} lines) and short (one) has the '
                   f'same keys and digest'))
    refusing = {
        'urlboot-pull': [exe('pull/urlboot-pull'), '--json=bogus', 'raw', 'http://127.0.0.1:9/x.raw'],
        'urlboot-lazy': [exe('lazy/urlboot-lazy'), 'status', '--json=bogus'],
        'urlboot-lazy compress': [exe('lazy/urlboot-lazy'), 'compress', '--json=bogus', 'IMAGE', 'OUTPUT'],
        'urlboot-loop': [exe('loop/urlboot-loop'), 'list', '--json=bogus'],
        'urlboot-xkb': [exe('xkb/urlboot-xkb'), 'show', '--json=bogus'],
        'urlboot-resolve': [exe('resolve/urlboot-resolve'), 'show-config', '--json=bogus'],
        'urlboot-dirquota': [exe('dirquota/urlboot-dirquota'), 'status', '--json=bogus', 'x.service'],
        'urlboot-boot-nic': [exe('boot-nic/urlboot-boot-nic'), '--print', '--json=bogus'],
        'urlboot-ask-password': [exe('ask-password/urlboot-ask-password'), '--json=bogus', 'x'],
        'urlboot-sysext-measure': [exe('sysext/urlboot-sysext-measure'), '--json=bogus'],
        'urlbootctl': [exe('bootctl/urlbootctl'), 'list', '--json=bogus'],
    }
    for name, argv in refusing.items():
        p = run(argv)
        checks.append((p.returncode == 2 and 'bogus' in p.stderr,
                       f'{name}: --json=bogus is a usage error (exit {p.returncode}: {p.stderr.strip()[:70]!r})'))

print(f'1..{len(checks)}')
for i, (ok, text) in enumerate(checks, 1):
    print(f'{"ok" if ok else "not ok"} {i} - {text}')
