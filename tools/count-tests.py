#!/usr/bin/env python3
"""Count test results from meson's JSON test logs and print "N passed, N failed".

A TAP test counts each of its cases ("ok"/"not ok" lines); any other test counts once.
A test that failed without reporting a failed case (a crash, a sanitizer report) counts one failure.
"""
import json
import re
import sys

TAP_LINE = re.compile(r'^(not )?ok \d+')


def count(path):
    passed = failed = skipped = 0
    with open(path) as f:
        for line in f:
            entry = json.loads(line)
            result = entry.get('result')
            out = entry.get('stdout') or ''
            tap = [m for m in (TAP_LINE.match(l) for l in out.splitlines()) if m]
            ok = result in ('OK', 'EXPECTEDFAIL')
            if result == 'SKIP':
                skipped += 1
            elif tap:
                bad = sum(1 for m in tap if m.group(1))
                good = len(tap) - bad
                if not ok and bad == 0:
                    bad = 1
                passed += good
                failed += bad
            elif ok:
                passed += 1
            else:
                failed += 1
    return passed, failed, skipped


def main():
    passed = failed = skipped = 0
    for path in sys.argv[1:]:
        p, f, s = count(path)
        passed, failed, skipped = passed + p, failed + f, skipped + s
    if skipped:
        print(f'{skipped} skipped (each says why in its log)')
    print(f'{passed} passed, {failed} failed')     # the last line, alone: CI reads it
    return 1 if failed or passed == 0 else 0


sys.exit(main())
