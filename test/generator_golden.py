# SPDX-License-Identifier: LGPL-2.1-or-later
"""The golden-case runner shared by the generators' tests (test/generators/run-cases.py,
test/quota/run-generator-cases.py): one directory per case with expected/ (the output tree normal/,
early/, late/, exit-status and log), one TAP line per case, --update to rewrite expected/.

A runner calls main(CASES_SUBDIR, run_case), where run_case(build, src, case, tmp) runs the generator(s)
and returns (out, status, log, problems): the output directory, the exit status text, the log, and the
problems of its own checks (systemd-analyze verify)."""
import os
import shutil
import sys
import tempfile

# the output tree read as the differential tests read it (test/differential/units.py)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'differential'))
from units import read_tree as tree  # noqa: E402


def read_lines(path):
    """The non-empty lines of a file that are not comments; none for a missing file."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [l.rstrip('\n') for l in f if l.strip() and not l.startswith('#')]


def compare(expected_dir, out, status, log):
    problems = []
    want = tree(expected_dir) if os.path.isdir(expected_dir) else {}
    want_status = want.pop('exit-status', ('file', ''))[1]
    want_log = want.pop('log', ('file', ''))[1]
    got = tree(out)
    for k in sorted(set(want) | set(got)):
        if want.get(k) != got.get(k):
            problems.append(f'{k}: expected {want.get(k)!r}\n#   got {got.get(k)!r}')
    if want_status != status:
        problems.append(f'exit status: expected {want_status!r}, got {status!r}')
    if want_log != log:
        problems.append(f'log: expected {want_log!r}\n#   got {log!r}')
    return problems


def update(expected_dir, out, status, log):
    shutil.rmtree(expected_dir, ignore_errors=True)
    shutil.copytree(out, expected_dir, symlinks=True)
    for sub in ('normal', 'early', 'late'):
        d = os.path.join(expected_dir, sub)
        if os.path.isdir(d) and not os.listdir(d):
            os.rmdir(d)     # git keeps no empty directory; an absent one means "empty"
    with open(os.path.join(expected_dir, 'exit-status'), 'w') as f:
        f.write(status)
    with open(os.path.join(expected_dir, 'log'), 'w') as f:
        f.write(log)


def main(cases_subdir, run_case):
    """run-cases BUILDDIR SRCDIR [--update] [CASE...]; @return the exit status"""
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    do_update = '--update' in sys.argv
    build, src = os.path.abspath(args[0]), os.path.abspath(args[1])
    cases_dir = os.path.join(src, cases_subdir)
    names = args[2:] or sorted(os.listdir(cases_dir))
    print(f'1..{len(names)}')
    failed = 0
    for i, name in enumerate(names, 1):
        case = os.path.join(cases_dir, name)
        with tempfile.TemporaryDirectory(prefix='urlboot-golden.') as tmp:
            out, status, log, own = run_case(build, src, case, tmp)
            expected = os.path.join(case, 'expected')
            if do_update:
                update(expected, out, status, log)
            problems = compare(expected, out, status, log) + own
        if problems:
            failed += 1
            print(f'not ok {i} - {name}')
            for p in problems:
                print('# ' + p.replace('\n', '\n# '))
        else:
            print(f'ok {i} - {name}')
    return 1 if failed else 0
