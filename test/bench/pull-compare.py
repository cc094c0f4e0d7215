#!/usr/bin/env python3
"""tools/bench/pull-compare on two made-up bench results: the ratios it prints, the rows it marks
slower or faster (ratio to the pipeline changed by more than 10 %), a failed run, bad input (TAP)."""
import json
import os
import subprocess
import sys
import tempfile

top = sys.argv[1]
tool = os.path.join(top, 'tools/bench/pull-compare')
checks = []


def check(ok, what):
    checks.append((ok, what))


def result(commit, rows):
    return {'date': '2026-12-06', 'commit': commit, 'runs': 3, 'cpus': 2, 'rows': rows}


old = result('aaaa', [
    {'tool': 'pipeline', 'format': 'xz', 'wall': 4.0, 'vs_pipeline': 1.0},
    {'tool': 'urlboot-pull', 'format': 'xz', 'wall': 4.0, 'vs_pipeline': 1.0},
    {'tool': 'pipeline', 'format': 'zst', 'wall': 0.6, 'vs_pipeline': 1.0},
    {'tool': 'urlboot-pull', 'format': 'zst', 'wall': 0.48, 'vs_pipeline': 0.8},
    {'tool': 'systemd-pull 262', 'format': 'zst', 'wall': 3.0, 'vs_pipeline': 5.0},
])
new = result('bbbb', [
    {'tool': 'pipeline', 'format': 'xz', 'wall': 4.2, 'vs_pipeline': 1.0},
    {'tool': 'urlboot-pull', 'format': 'xz', 'wall': 3.36, 'vs_pipeline': 0.8},
    {'tool': 'pipeline', 'format': 'zst', 'wall': 0.6, 'vs_pipeline': 1.0},
    {'tool': 'urlboot-pull', 'format': 'zst', 'wall': 0.57, 'vs_pipeline': 0.95},
    {'tool': 'systemd-pull 262', 'format': 'zst', 'walls': [None, None, None]},
])
with tempfile.TemporaryDirectory() as d:
    paths = []
    for name, data in (('old.json', old), ('new.json', new)):
        paths.append(os.path.join(d, name))
        with open(paths[-1], 'w') as f:
            json.dump(data, f)
    p = subprocess.run([tool] + paths, capture_output=True, text=True)
    lines = {tuple(l.split()[:2]): l for l in p.stdout.splitlines()}
    check(p.returncode == 0, f'two results compared (exit {p.returncode})')
    check('old: aaaa' in p.stdout and 'new: bbbb' in p.stdout, 'both runs named by their commit')
    xz = lines.get(('urlboot-pull', 'xz'), '')
    check('0.84x' in xz and 'faster' in xz, f'xz: new/old 0.84x, faster against its pipeline: {xz!r}')
    zst = lines.get(('urlboot-pull', 'zst'), '')
    check('1.19x' in zst and 'slower' in zst, f'zst: new/old 1.19x, slower against its pipeline: {zst!r}')
    pipe = lines.get(('pipeline', 'xz'), '')
    check('slower' not in pipe and 'faster' not in pipe, f'the pipeline itself is never marked: {pipe!r}')
    failed = [l for l in p.stdout.splitlines() if l.startswith('systemd-pull 262')]
    check(failed and 'failed' in failed[0], f'a run without a median says so: {failed!r}')
    with open(paths[1], 'w') as f:
        f.write('{not json')
    p = subprocess.run([tool] + paths, capture_output=True, text=True)
    check(p.returncode == 1 and 'cannot read' in p.stderr, f'bad input: one line, exit 1 ({p.stderr.strip()!r})')
    p = subprocess.run([tool, paths[0]], capture_output=True, text=True)
    check(p.returncode == 2, f'one file only: a usage error, exit 2 (exit {p.returncode})')

print(f'1..{len(checks)}')
for i, (ok, what) in enumerate(checks, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {what}")
