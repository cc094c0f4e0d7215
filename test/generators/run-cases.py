#!/usr/bin/env python3
"""Golden tests for urlboot's generators: one directory per case, one TAP line per case.

A case directory holds:
  cmdline          the kernel command line (one line)
  env              optional KEY=VALUE lines; defaults SYSTEMD_IN_INITRD=1, URLBOOT_SYSTEMD_VERSION=252
  efivars          optional NAME=VALUE lines, stored as Boot Loader Interface string variables
  rollout-efivars  optional NAME=VALUE lines, the boot manager's rollout variables (urlboot's vendor GUID,
                   8-bit text; VALUE with Python escapes such as \n)
  credentials/     optional credential files ($CREDENTIALS_DIRECTORY)
  expected/        the output tree: normal/, early/, late/ (files and symlinks), exit-status, log
The three generators run into fresh normal/early/late directories; the tree, the exit statuses and the log
must match exactly, and every generated unit must pass systemd-analyze verify (systemd 252).

  run-cases.py BUILDDIR SRCDIR [--update] [CASE...]
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import generator_golden as golden  # noqa: E402
from generator_golden import read_lines  # noqa: E402

LOADER_GUID = '4a67b082-0a4c-41cf-b6c7-440b29bb8c4f'
URLBOOT_GUID = '3c0a4d1e-8b7f-4c55-9a1e-75726c626f6f'
GENERATORS = ['urlboot-import-generator', 'urlboot-root-generator', 'urlboot-rollout-generator']


def make_efivars(case, tmp):
    d = os.path.join(tmp, 'efivars')
    os.makedirs(d)
    for line in read_lines(os.path.join(case, 'efivars')):
        name, value = line.split('=', 1)
        with open(os.path.join(d, f'{name}-{LOADER_GUID}'), 'wb') as f:
            f.write(b'\x06\x00\x00\x00' + value.encode('utf-16-le') + b'\x00\x00')
    for line in read_lines(os.path.join(case, 'rollout-efivars')):
        name, value = line.split('=', 1)
        with open(os.path.join(d, f'{name}-{URLBOOT_GUID}'), 'wb') as f:
            f.write(b'\x07\x00\x00\x00' + value.encode('latin-1').decode('unicode_escape').encode('latin-1'))
    return d


def run_generators(build, case, tmp):
    env = dict(os.environ)
    for k in [k for k in env if k.startswith(('SYSTEMD_', 'URLBOOT_', 'CREDENTIALS_'))]:
        del env[k]
    env.update(SYSTEMD_IN_INITRD='1', URLBOOT_SYSTEMD_VERSION='252', URLBOOT_LOG_LEVEL='info')
    for line in read_lines(os.path.join(case, 'env')):
        k, v = line.split('=', 1)
        env[k] = v
    with open(os.path.join(case, 'cmdline')) as f:
        env['SYSTEMD_PROC_CMDLINE'] = f.read().rstrip('\n')
    env['URLBOOT_EFIVARFS'] = make_efivars(case, tmp)
    creds = os.path.join(case, 'credentials')
    env['CREDENTIALS_DIRECTORY'] = creds if os.path.isdir(creds) else os.path.join(tmp, 'no-credentials')

    out = os.path.join(tmp, 'out')
    dirs = [os.path.join(out, d) for d in ('normal', 'early', 'late')]
    for d in dirs:
        os.makedirs(d)
    statuses, log = [], ''
    for g in GENERATORS:
        p = subprocess.run([os.path.join(build, 'src/generators', g)] + dirs, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        statuses.append(f'{g} {p.returncode}')
        log += p.stdout
    return out, '\n'.join(statuses) + '\n', log


def verify_units(out, build, src, tmp):
    """systemd-analyze verify every generated unit, with our static units beside them."""
    v = os.path.join(tmp, 'verify')
    os.makedirs(v)
    units = []
    for sub in ('early', 'normal', 'late'):
        for name in sorted(os.listdir(os.path.join(out, sub))):
            p = os.path.join(out, sub, name)
            if os.path.isfile(p) and not os.path.islink(p) and name not in units:
                with open(p) as f:
                    text = f.read().replace('/usr/bin/urlboot-pull', '/usr/bin/true').replace('/usr/bin/urlboot-lazy', '/usr/bin/true').replace('/usr/bin/urlbootctl', '/usr/bin/true')
                # systemd-analyze verify (252) cannot load any unit whose name has a ":" ("Couldn't
                # process aliases"), though systemd itself accepts such names; check a renamed copy.
                name = name.replace(':', '_')
                with open(os.path.join(v, name), 'w') as f:
                    f.write(text)
                units.append(name)
    for name in ('urlboot-imports.target', 'urlboot-imports-pre.target'):
        shutil.copy(os.path.join(src, 'units', name), v)
    with open(os.path.join(build, 'units', 'urlboot-loop@.service')) as f:
        text = f.read().replace('/usr/bin/urlboot-loop', '/usr/bin/true')
    with open(os.path.join(v, 'urlboot-loop@.service'), 'w') as f:
        f.write(text)
    if not units:
        return ''
    env = dict(os.environ, SYSTEMD_UNIT_PATH=v + ':')
    p = subprocess.run(['systemd-analyze', 'verify', '--man=no'] + [os.path.join(v, u) for u in units],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0 or p.stdout.strip():
        return p.stdout or f'systemd-analyze verify exited {p.returncode}'
    return ''


def run_case(build, src, case, tmp):
    out, statuses, log = run_generators(build, case, tmp)
    bad = verify_units(out, build, src, tmp)
    return out, statuses, log, ['systemd-analyze verify:\n' + bad] if bad else []


sys.exit(golden.main('test/generators/cases', run_case))
