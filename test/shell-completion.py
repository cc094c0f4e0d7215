#!/usr/bin/env python3
"""The generated bash and zsh completion offer what each command's option tables say (TAP).

Bash is run for real (bash-completion's _init_completion, the generated function, COMPREPLY read back):
every verb after the command, every listed option of every verb after "--", and for options whose value
completes to directories, files of an extension or fixed words, exactly those. Zsh: the file parses
(zsh -n) and names every listed option in an _arguments spec.

  shell-completion.py BUILDDIR NAME=EXECUTABLE...
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

BASH_COMPLETION = '/usr/share/bash-completion/bash_completion'
build = os.path.abspath(sys.argv[1])
commands = dict(a.split('=', 1) for a in sys.argv[2:])
checks = []


def check(ok, text):
    checks.append((bool(ok), text))


def tables_of(exe):
    out = subprocess.run([exe, '--dump-table'], capture_output=True, text=True, timeout=30).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def complete_bash(script, name, words, cwd):
    """COMPREPLY for the command line `words` (the last one being completed), from the generated function."""
    program = f'''
source {BASH_COMPLETION}
source {script}
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${{#COMP_LINE}}; COMPREPLY=()
_{name.replace('-', '_')} {name} "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}" 2>/dev/null
printf '%s\\n' "${{COMPREPLY[@]}}"
'''
    p = subprocess.run(['bash', '-c', program, 'complete'] + words, capture_output=True, text=True, cwd=cwd,
                       timeout=30)
    return {w for w in p.stdout.split('\n') if w}


def listed_forms(options):
    forms = set()
    for o in options:
        if o['help'] is None:
            continue
        if o['name']:
            forms.add('--' + o['name'] + ('=' if o['argument'] == 'required' else ''))
        if o['short']:
            forms.add('-' + o['short'])
    return forms


def value_expectation(complete, workdir):
    """What completing an empty value must offer in workdir (a dir 'sub', files 'a.efi', 'b.txt')."""
    kind, _, arg = (complete or '').partition(':')
    if kind == 'dir':
        return {'sub'}
    if kind == 'file' and arg:
        return {'sub'} | {f for f in ('a.efi', 'b.txt') if f.rsplit('.', 1)[1] in arg.split('|')}
    if kind == 'file':
        return {'sub', 'a.efi', 'b.txt'}
    if kind == 'words':
        return set(arg.split())
    return None


def check_bash(name, tables, workdir):
    script = os.path.join(build, 'shell-completion/bash', name)
    own = next((t for t in tables if t['name'] == name), tables[0])
    verbs = {t['name'].split(' ', 1)[1]: t for t in tables if t['name'].startswith(name + ' ')}
    if verbs:
        got = complete_bash(script, name, [name, ''], workdir)
        check(got == set(verbs), f'bash: {name} <TAB> offers its {len(verbs)} verbs'
              + ('' if got == set(verbs) else f'; got {sorted(got)}'))
    contexts = [([], own, own['options'])]
    for v, t in verbs.items():
        inherited = [o for o in own['options'] if o['name'] not in ('help', 'version')
                     and o['name'] not in {x['name'] for x in t['options']}]
        contexts.append(([v], t, t['options'] + inherited))
    for prefix, table, options in contexts:
        want = {f for f in listed_forms(options) if f.startswith('--')}
        got = complete_bash(script, name, [name] + prefix + ['--'], workdir)
        what = ' '.join([name] + prefix)
        check(got == want, f'bash: {what} --<TAB> offers its {len(want)} long options'
              + ('' if got == want else f'; missing {sorted(want - got)}, extra {sorted(got - want)}'))
        for o in options:
            expected = value_expectation(o['complete'], workdir) if o['argument'] == 'required' else None
            if expected is None or not o['name'] or o['help'] is None:
                continue
            got = complete_bash(script, name, [name] + prefix + ['--' + o['name'], ''], workdir)
            check(got == expected, f'bash: {what} --{o["name"]} <TAB> offers {o["complete"]}'
                  + ('' if got == expected else f'; got {sorted(got)}'))


def check_zsh(name, tables):
    script = os.path.join(build, 'shell-completion/zsh', '_' + name)
    with open(script, encoding='utf-8') as f:
        text = f.read()
    p = subprocess.run(['zsh', '-n', script], capture_output=True, text=True)
    check(p.returncode == 0 and text.startswith(f'#compdef {name}\n'),
          f'zsh: _{name} parses and declares #compdef {name}' + (f'; {p.stderr.strip()}' if p.returncode else ''))
    missing = sorted({f for t in tables for f in listed_forms(t['options'])
                      if f"'{f.rstrip('=')}" not in text and f")'{f.rstrip('=')}" not in text
                      and f"){f.rstrip('=')}" not in text})
    check(not missing, f'zsh: _{name} has a spec for every listed option' + (f'; missing {missing}' if missing else ''))


def main():
    if not os.path.exists(BASH_COMPLETION) or not shutil.which('zsh'):
        print('1..0 # skip bash-completion or zsh not installed (tools/install-deps installs them)')
        return
    with tempfile.TemporaryDirectory() as workdir:
        os.mkdir(os.path.join(workdir, 'sub'))
        for f in ('a.efi', 'b.txt'):
            open(os.path.join(workdir, f), 'w').close()
        for name, exe in sorted(commands.items()):
            tables = tables_of(exe)
            check(tables, f'{name} --dump-table prints its tables ({len(tables)})')
            if tables:
                check_bash(name, tables, workdir)
                check_zsh(name, tables)
    print(f'1..{len(checks)}')
    for i, (ok, text) in enumerate(checks, 1):
        print(f'{"ok" if ok else "not ok"} {i} - {text}')


main()
