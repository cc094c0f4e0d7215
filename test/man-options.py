#!/usr/bin/env python3
"""Every option a command's tables list (`COMMAND --dump-table`, src/shared/command-table.h; --help for a
command without tables) has an entry in the OPTIONS section of its man page (a command with verbs: its own
options and each verb's, the latter in a subsection per verb), so the page and the program cannot drift
apart. Generators take no options: their page must exist (TAP).

  man-options.py BUILDDIR SRCDIR
"""
import json
import os
import re
import subprocess
import sys

build, src = sys.argv[1], sys.argv[2]
OPTION = re.compile(r'(?<![\w-])--[a-z0-9][a-z0-9-]*')
# What a page may name without --help listing it: options of other programs it mentions.
FOREIGN = {
    'urlboot-pull.1': {'--verify', '--class'},
}


def man_text(page):
    with open(page, encoding='utf-8') as f:
        text = f.read()
    text = text.replace('\\-', '-').replace('\\(em', ' ')
    return re.sub(r'\\f[BIRP]|\\fP', '', text)


def option_entries(text):
    """The options named on the tag line of a .TP entry of the OPTIONS section."""
    m = re.search(r'^\.SH OPTIONS\n(.*?)(?=^\.SH |\Z)', text, re.S | re.M)
    if not m:
        return None
    lines = m.group(1).split('\n')
    return {o for i, l in enumerate(lines) if i > 0 and lines[i - 1].startswith('.TP') for o in OPTION.findall(l)}


def help_options(argv, option_lines_only=False):
    """The options --help names (or only those of its option lines, which start with a dash)."""
    p = subprocess.run(argv + ['--help'], capture_output=True, text=True, timeout=30)
    if p.returncode != 0:
        return None
    lines = p.stdout.split('\n')
    if option_lines_only:
        lines = [l for l in lines if l.lstrip().startswith('-')]
    return set(OPTION.findall('\n'.join(lines)))


def table_options(argv):
    """The listed long options of the command's own table and of its verbs' tables, or None without tables."""
    p = subprocess.run(argv + ['--dump-table'], capture_output=True, text=True, timeout=30)
    if p.returncode != 0 or not p.stdout.startswith('{'):
        return None
    own, verbs = set(), set()
    for line in p.stdout.splitlines():
        t = json.loads(line)
        names = {'--' + o['name'] for o in t['options'] if o['name'] and o['help'] is not None}
        (verbs if ' ' in t['name'] else own).update(names)
    return own, verbs - own - {'--help'}


def commands():
    for base, dirs, files in os.walk(os.path.join(build, 'src')):
        for name in sorted(files):
            path = os.path.join(base, name)
            if not name.startswith('urlboot') or '.' in name or not os.access(path, os.X_OK):
                continue
            pages = [p for p in os.listdir(os.path.join(src, 'man')) if p.rsplit('.', 1)[0] == name]
            yield name, path, pages


checks = []
for name, path, pages in sorted(commands()):
    if not pages:
        checks.append((False, f'{name}: no man page'))
        continue
    page = pages[0]
    text = man_text(os.path.join(src, 'man', page))
    if name.endswith('-generator'):
        checks.append((True, f'{name}: {page} (a generator takes no options)'))
        continue
    tables = table_options([path])
    opts = tables[0] if tables else help_options([path], option_lines_only=name == 'urlbootctl')
    if opts is None:
        checks.append((False, f'{name} --help fails'))
        continue
    entries = option_entries(text)
    missing = sorted(opts - (entries or set()))
    checks.append(((entries is not None or not opts) and not missing,
                   f'{name}: every option it lists has an entry in OPTIONS of {page} ({len(opts)})'
                   + (f'; missing: {" ".join(missing)}' if missing else '')
                   + ('; no OPTIONS section' if entries is None and opts else '')))
    # a command with verbs: each verb's options have entries too (under the verb's subsection).
    if tables and tables[1]:
        missing = sorted(tables[1] - (entries or set()))
        checks.append((not missing, f'{name}: every option of every verb has an entry in OPTIONS of {page} '
                       f'({len(tables[1])})' + (f'; missing: {" ".join(missing)}' if missing else '')))
    elif name == 'urlbootctl':
        verbs = subprocess.run([path, 'help'], capture_output=True, text=True).stdout
        verb_opts = set()
        for verb in sorted(set(re.findall(r'^  ([a-z][a-z0-9-]+)', verbs, re.M))):
            verb_opts |= help_options([path, verb]) or set()
        missing = sorted(o for o in verb_opts if not re.search(re.escape(o) + r'(?![\w-])', text))
        checks.append((not missing, f'urlbootctl: {page} names every option of every verb\'s --help ({len(verb_opts)})'
                       + (f'; missing: {" ".join(missing)}' if missing else '')))

print(f'1..{len(checks)}')
for i, (ok, what) in enumerate(checks, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {what}")
sys.exit(0 if all(ok for ok, _ in checks) else 1)
