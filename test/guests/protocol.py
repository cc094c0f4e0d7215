#!/usr/bin/env python3
"""The guest cases' protocol without a guest, in seconds: test/guests/run-cases runs here over cases
that pass, fail, skip, crash, hang, print nothing or less than planned, and run.py reads what they
printed (as the serial log would hold it) and case headers good and bad. TAP out."""
import contextlib
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('guest_run', os.path.join(HERE, 'run.py'))
run = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run)

# name: (timeout, script body, the test lines run.py must make of it, numbers left out)
CASES = {
    'passes': (30, 'echo 1..2\necho "ok 1 - first"\necho "ok - second # SKIP not here"\n',
               ['ok - g/passes: first', 'ok - g/passes: second # SKIP not here']),
    'fails': (30, 'echo "ok - a"\necho "not ok - b"\nexit 1\n', ['ok - g/fails: a', 'not ok - g/fails: b']),
    'crashes': (30, 'echo "ok - a"\nexit 3\n', ['ok - g/crashes: a', 'not ok - g/crashes: exited with status 3']),
    'silent': (30, 'echo hello\n', ['not ok - g/silent: printed no TAP line']),
    'short-plan': (30, 'echo 1..3\necho ok\n',
                   ['ok - g/short-plan: test 1', 'not ok - g/short-plan: planned 3 tests, printed 1']),
    'skips': (30, 'echo "# no TPM here"\nexit 77\n', ['ok - g/skips # SKIP no TPM here']),
    'plan-skip': (30, 'echo "1..0 # SKIP needs sid"\n', ['ok - g/plan-skip # SKIP needs sid']),
    'hangs': (2, 'echo "ok - started"\nexec sleep 60\n',
              ['ok - g/hangs: started', 'not ok - g/hangs: killed after its timeout']),
    'hash-in-text': (30, 'echo "ok - C# is not a directive"\n', ['ok - g/hash-in-text: C\u266f is not a directive']),
    'environment': (30, '[ "$URLBOOT_GUEST" = g ] && [ "$URLBOOT_CASE" = environment ] && [ "$FOO" = "bar baz" ] &&\n'
                        '[ -f "$URLBOOT_CASE_DATA/file" ] && [ "$(pwd)" != / ] && [ -z "${LEAK:-}" ] &&\n'
                        'echo "ok - environment" || echo "not ok - environment"\necho "to stderr" >&2\n',
                    ['ok - g/environment: environment']),
}


class Out:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, ok, what, detail=''):
        self.n += 1
        self.failed += not ok
        print(f'{"ok" if ok else "not ok"} {self.n} - {what}')
        if not ok and detail:
            print(''.join(f'# {line}\n' for line in detail.splitlines()), end='')


def tap_of(records, names):
    """run.py's TAP for these cases (only its test lines, numbers removed), and all it printed."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        tap = run.Tap()
        for name in names:
            if name in records:
                run.report_case(tap, f'g/{name}', records[name])
    text = buf.getvalue()
    numbers = [int(m.group(1)) for m in re.finditer(r'^(?:not )?ok (\d+)', text, re.M)]
    tests = [re.sub(r'^((?:not )?ok) \d+', r'\1', line) for line in text.splitlines() if re.match(r'(not )?ok ', line)]
    return tests, text, numbers


def main():
    out = Out()
    tmp = tempfile.mkdtemp(prefix='urlboot-guest-protocol.')
    try:
        disk = os.path.join(tmp, 'disk')
        os.makedirs(os.path.join(disk, 'cases', 'environment.d'))
        shutil.copy(os.path.join(HERE, 'run-cases'), disk)
        with open(os.path.join(disk, 'guest'), 'w') as f:
            f.write('g\n')
        with open(os.path.join(disk, 'environment'), 'w') as f:
            f.write('FOO=bar baz\n')
        with open(os.path.join(disk, 'cases', 'environment.d', 'file'), 'w') as f:
            f.write('data\n')
        with open(os.path.join(disk, 'manifest'), 'w') as f:
            for name, (timeout, body, _) in CASES.items():
                f.write(f'{name} {timeout}\n')
                path = os.path.join(disk, 'cases', f'{name}.sh')
                with open(path, 'w') as script:
                    script.write('#!/bin/bash\n' + body)
                os.chmod(path, 0o755)
        scratch = os.path.join(tmp, 'scratch')
        os.makedirs(scratch)
        p = subprocess.run([os.path.join(disk, 'run-cases')], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, env=dict(os.environ, URLBOOT_SCRATCH_DIR=scratch, LEAK='1'))
        out.check(p.returncode == 0 and not os.listdir(scratch), 'run-cases ran every case and removed its scratch '
                  'directories', p.stdout)

        # As the serial log holds it: stamped lines; the last case's end never came (the guest stopped).
        log = os.path.join(tmp, 'console.log')
        lines = p.stdout.splitlines() + ['URLBOOT-CASE-BEGIN cut-off', 'URLBOOT-CASE cut-off| ok - so far']
        with open(log, 'w') as f:
            f.write('[   1.000] login: URLBOOT-GUEST-READY state=running systemd=252 failed=none uptime=9.5 '
                    'multi_user=7.25\n')
            f.writelines(f'[{2 + i / 100:8.3f}] {line}\n' for i, line in enumerate(lines))
        ready, done, records = run.parse_console(log)
        out.check(ready == {'state': 'running', 'systemd': '252', 'failed': 'none', 'uptime': '9.5',
                            'multi_user': '7.25'}, 'the READY line is read after other text', repr(ready))
        for name, (_, _, expected) in CASES.items():
            tests, text, _ = tap_of(records, [name])
            out.check(tests == expected, f'case "{name}" becomes {expected}', text)
        tests, text, _ = tap_of(records, ['cut-off'])
        out.check(tests == ['ok - g/cut-off: so far', 'not ok - g/cut-off: did not finish (the guest stopped or the '
                                                     'boot timed out)'], 'a case without its end fails', text)
        tests, text, numbers = tap_of(records, list(CASES))
        out.check(numbers == list(range(1, len(numbers) + 1)), 'test lines are renumbered 1..N over all cases', text)
        out.check('# g/environment: to stderr' in text and '# g/skips: no TPM here' in text and
                  '# g/silent: hello' in text, 'other output becomes comments', text)

        # Headers.
        headers = {
            'good': ('# guests: bookworm sid\n# timeout: 40\n# needs: tpm\n', True, None),
            'everywhere': ('# guests: all\n', True, None),
            'no-guests': ('# timeout: 40\n', True, "no '# guests"),
            'late-header': ('echo hi\n# guests: sid\n', True, "no '# guests"),
            'bad-guest': ('# guests: bookworm jessie\n', True, 'unknown guest'),
            'bad-need': ('# guests: sid\n# needs: gpu\n', True, 'unknown need'),
            'bad-timeout': ('# guests: sid\n# timeout: soon\n', True, 'not a number'),
            'not-executable': ('# guests: sid\n', False, 'not executable'),
            'Bad_Name': ('# guests: sid\n', True, 'lower-case'),
        }
        for name, (header, executable, error) in headers.items():
            path = os.path.join(tmp, f'{name}.sh')
            with open(path, 'w') as f:
                f.write('#!/bin/bash\n' + header + 'echo ok\n')
            os.chmod(path, 0o755 if executable else 0o644)
            c = run.Case(path)
            ok = (c.error is None) if error is None else (c.error is not None and error in c.error)
            out.check(ok, f'header "{name}": ' + ('accepted' if error is None else f'refused ({error})'), repr(c.error))
        c = run.Case(os.path.join(tmp, 'good.sh'))
        out.check((c.guests, c.timeout, c.needs) == (['bookworm', 'sid'], 40, {'tpm'}), 'header fields read',
                  repr((c.guests, c.timeout, c.needs)))
        out.check(run.Case(os.path.join(tmp, 'everywhere.sh')).guests == ['bookworm', 'sid'],
                  '"all" means every system (not its lazy boot)', repr(run.Case(os.path.join(tmp, 'everywhere.sh')).guests))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f'1..{out.n}')
    return 1 if out.failed else 0


if __name__ == '__main__':
    sys.exit(main())
