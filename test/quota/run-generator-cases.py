#!/usr/bin/env python3
"""Golden tests for urlboot-dirquota-generator: one directory per case, one TAP line per case.

A case directory (test/quota/generator-cases/NAME/) holds:
  units/DIR/...    unit search directories, highest priority first in the order of units/ORDER
                   (one directory name per line; default: etc run lib); symlinks are kept as such
  env              optional KEY=VALUE lines; defaults URLBOOT_SYSTEMD_VERSION=252, SYSTEMD_IN_INITRD=0
  verify-allow     optional regular expressions (one a line) of further systemd-analyze messages the case
                   expects, for the unit file and the drop-in alike
  expected/        the output tree (normal/, early/, late/), exit-status and log
The generator runs into fresh normal/early/late directories with $URLBOOT_UNIT_PATH pointing at the case's
units; the tree, the exit status and the log must match exactly. Every unit that got a drop-in is then
loaded with all its drop-ins by systemd-analyze verify (systemd 252), which must report nothing but its
own "Unknown key name" for v258's keys.

  run-generator-cases.py BUILDDIR SRCDIR [--update] [CASE...]
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import generator_golden as golden  # noqa: E402
from generator_golden import read_lines  # noqa: E402

GENERATOR = 'src/dirquota/urlboot-dirquota-generator'
HELPER = '/usr/bin/urlboot-dirquota'
# systemd 252 does not know v258's keys: that warning is expected, everything else is a finding.
EXPECTED_WARNING = re.compile(r"Unknown key '(State|Cache|Logs)Directory(Quota|Accounting)' in section \[Service\]")


def search_path(case):
    units = os.path.join(case, 'units')
    order = read_lines(os.path.join(units, 'ORDER')) or ['etc', 'run', 'lib']
    return [os.path.join(units, d) for d in order]


def run_generator(build, case, tmp):
    env = {k: v for k, v in os.environ.items() if not k.startswith(('SYSTEMD_', 'URLBOOT_'))}
    env.update(URLBOOT_SYSTEMD_VERSION='252', SYSTEMD_IN_INITRD='0', URLBOOT_LOG_LEVEL='info',
               URLBOOT_UNIT_PATH=':'.join(search_path(case)))
    for line in read_lines(os.path.join(case, 'env')):
        k, v = line.split('=', 1)
        env[k] = v
    out = os.path.join(tmp, 'out')
    dirs = [os.path.join(out, d) for d in ('normal', 'early', 'late')]
    for d in dirs:
        os.makedirs(d)
    p = subprocess.run([os.path.join(build, GENERATOR)] + dirs, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    # the case's temporary paths vary from run to run
    log = p.stdout.replace(case + '/', '')
    return out, f'{p.returncode}\n', log


def verify_units(case, out, tmp):
    """Each unit with a generated drop-in, loaded by systemd-analyze verify with all its drop-ins."""
    problems = []
    normal = os.path.join(out, 'normal')
    for dropin_dir in sorted(os.listdir(normal)):
        if not dropin_dir.endswith('.d'):
            continue
        unit = dropin_dir[:-2]
        v = os.path.join(tmp, 'verify-' + unit)
        os.makedirs(v)
        # the unit as systemd would find it (an instance loads its template's file)
        name = unit
        src = next((os.path.join(d, unit) for d in search_path(case) if os.path.lexists(os.path.join(d, unit))), None)
        if src is None and '@' in unit:
            template = re.sub(r'@[^.]*\.', '@.', unit)
            src = next((os.path.join(d, template) for d in search_path(case)
                        if os.path.exists(os.path.join(d, template))), None)
            name = template
        if src is None:
            problems.append(f'{unit}: got a drop-in but has no unit file')
            continue
        shutil.copy(src, os.path.join(v, name))
        # every drop-in directory of every search directory, and ours, merged into one (names are unique)
        merged = os.path.join(v, unit + '.d')
        os.makedirs(merged, exist_ok=True)
        for d in reversed(search_path(case)):
            for dd in (unit + '.d', name + '.d'):
                p = os.path.join(d, dd)
                if os.path.isdir(p):
                    for f in os.listdir(p):
                        shutil.copy(os.path.join(p, f), os.path.join(merged, f))
        for f in os.listdir(os.path.join(normal, dropin_dir)):
            with open(os.path.join(normal, dropin_dir, f)) as fi, open(os.path.join(merged, f), 'w') as fo:
                fo.write(fi.read().replace(HELPER, '/usr/bin/true'))
        env = dict(os.environ, SYSTEMD_UNIT_PATH=v + ':')
        p = subprocess.run(['systemd-analyze', 'verify', '--man=no', os.path.join(v, unit)], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        allowed = [EXPECTED_WARNING] + [re.compile(r) for r in read_lines(os.path.join(case, 'verify-allow'))]
        bad = [l for l in p.stdout.splitlines() if l.strip() and not any(a.search(l) for a in allowed)]
        if p.returncode != 0 or bad:
            problems.append(f'systemd-analyze verify {unit} (exit {p.returncode}):\n' + '\n'.join(bad))
    return problems


def run_case(build, src, case, tmp):
    out, status, log = run_generator(build, case, tmp)
    return out, status, log, verify_units(case, out, tmp)


sys.exit(golden.main('test/quota/generator-cases', run_case))
