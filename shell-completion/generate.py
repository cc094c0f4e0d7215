#!/usr/bin/env python3
"""Bash and zsh completion for one urlboot command, generated at build time from the command's own option
tables (`COMMAND --dump-table`: one JSON object per table, "COMMAND" for its own options and
"COMMAND VERB" for each verb), so completion offers exactly what the program accepts.

  generate.py bash|zsh NAME EXECUTABLE OUTPUT
"""
import json
import subprocess
import sys


def load(exe):
    out = subprocess.run([exe, '--dump-table'], capture_output=True, text=True, check=True, timeout=60).stdout
    tables = [json.loads(line) for line in out.splitlines() if line.strip()]
    if not tables:
        sys.exit(f'{exe} --dump-table printed no table')
    return tables


def split(tables, name):
    """The command's own table and its verbs' tables, by verb name."""
    own = next((t for t in tables if t['name'] == name), None)
    verbs = {t['name'].split(' ', 1)[1]: t for t in tables if t['name'].startswith(name + ' ')}
    if own is None and len(tables) == 1:
        own = tables[0]
    return own or {'name': name, 'options': [], 'completeArguments': None}, verbs


def verb_options(own, verb):
    """A verb takes its own options and the command's, except the command's help and version."""
    inherited = [o for o in own['options'] if o['name'] not in ('help', 'version')]
    names = {o['name'] for o in verb['options']}
    return verb['options'] + [o for o in inherited if o['name'] not in names]


def shell_words(words):
    return ' '.join(words).replace("'", '')


# ---------------------------------------------------------------------------------------------- bash

def bash_action(complete, verbs):
    if not complete:
        return ':'
    kind, _, arg = complete.partition(':')
    if kind == 'file':
        return f"_filedir '@({arg})'" if arg else '_filedir'
    if kind == 'dir':
        return '_filedir -d'
    if kind == 'words':
        return f"COMPREPLY=($(compgen -W '{shell_words(arg.split())}' -- \"$cur\"))"
    if kind == 'verbs':
        return f"COMPREPLY=($(compgen -W '{shell_words(verbs)}' -- \"$cur\"))"
    return ':'


def bash_offer(options):
    words = []
    for o in options:
        if o['help'] is None:
            continue
        if o['name']:
            words.append('--' + o['name'] + ('=' if o['argument'] == 'required' else ''))
        if o['short']:
            words.append('-' + o['short'])
    return shell_words(words)


def bash_value_cases(options, verb_pattern, verbs):
    lines = []
    for o in options:
        if o['argument'] == 'none':
            continue
        flags = (['--' + o['name']] if o['name'] else []) + (['-' + o['short']] if o['short'] else [])
        pattern = '|'.join(f'{verb_pattern}:{f}' for f in flags)
        lines.append(f'        {pattern}) {bash_action(o["complete"], verbs)}; return ;;')
    return lines


def bash(name, tables):
    own, verbs = split(tables, name)
    func = '_' + name.replace('-', '_')
    takes_value = sorted({f for t in tables for o in t['options'] if o['argument'] == 'required'
                          for f in (['--' + o['name']] if o['name'] else []) + (['-' + o['short']] if o['short'] else [])})
    out = [f'# bash completion for {name}, generated from `{name} --dump-table` by shell-completion/generate.py',
           '# SPDX-License-Identifier: LGPL-2.1-or-later', '',
           f'{func}() {{',
           '        local cur prev words cword split verb= i',
           '        _init_completion -s || return', '']
    if verbs:
        out += ['        # the verb: the first word that is neither an option nor an option\'s separate value',
                '        for ((i = 1; i < cword; i++)); do',
                '                case ${words[i]} in']
        if takes_value:
            out.append(f'                {"|".join(takes_value)}) ((i++)) ;;')
        out += ['                -*) ;;',
                '                *) verb=${words[i]}; break ;;',
                '                esac',
                '        done', '']
    out += ['        case $verb:$prev in']
    out += bash_value_cases(own['options'], '', list(verbs))
    for v, t in verbs.items():
        out += bash_value_cases(verb_options(own, t), v, list(verbs))
    out += ['        esac', '        $split && return', '',
            '        if [[ $cur == -* ]]; then',
            '                local opts',
            '                case $verb in']
    for v, t in verbs.items():
        out.append(f"                {v}) opts='{bash_offer(verb_options(own, t))}' ;;")
    out += [f"                *) opts='{bash_offer(own['options'])}' ;;",
            '                esac',
            '                COMPREPLY=($(compgen -W "$opts" -- "$cur"))',
            '                [[ ${COMPREPLY-} == *= ]] && compopt -o nospace',
            '                return',
            '        fi', '',
            '        case $verb in']
    if verbs:
        out.append(f"        '') {bash_action('verbs', list(verbs))} ;;")
    for v, t in verbs.items():
        out.append(f'        {v}) {bash_action(t["completeArguments"], list(verbs))} ;;')
    if not verbs:
        out.append(f'        *) {bash_action(own["completeArguments"], [])} ;;')
    out += ['        esac', '}', f'complete -F {func} {name}', '']
    return '\n'.join(out)


# ----------------------------------------------------------------------------------------------- zsh

def zsh_quote(text):
    return text.replace("'", "'\\''")


def zsh_action(complete, verbs):
    if not complete:
        return ' '
    kind, _, arg = complete.partition(':')
    if kind == 'file':
        return f'_files -g "*.({arg})"' if arg else '_files'
    if kind == 'dir':
        return '_files -/'
    if kind == 'words':
        return '(' + ' '.join(arg.split()) + ')'
    if kind == 'verbs':
        return '(' + ' '.join(verbs) + ')'
    return ' '


def zsh_specs(options, verbs):
    specs = []
    for o in options:
        if o['help'] is None:
            continue
        text = o['help'].split('\n')[0].replace('[', '(').replace(']', ')').replace(':', ';')
        forms = (['--' + o['name']] if o['name'] else []) + (['-' + o['short']] if o['short'] else [])
        metavar = (o['metavar'] or 'VALUE').replace(':', ';')
        action = zsh_action(o['complete'], verbs)
        for form in forms:
            long = form.startswith('--')
            if o['argument'] == 'required':
                suffix = ('=' if long else '+') + f'[{text}]:{metavar}:{action}'
            elif o['argument'] == 'optional':
                suffix = ('=-' if long else '-') + f'[{text}]::{metavar}:{action}'
            else:
                suffix = f'[{text}]'
            exclusive = f'({" ".join(forms)})' if len(forms) > 1 else ''
            specs.append(f"'{zsh_quote(exclusive + form + suffix)}'")
    return specs


def zsh_call(head, specs, table, extra=()):
    """An _arguments call: the option specs, then the positional arguments (none when the table takes none)."""
    specs = list(specs) + list(extra)
    if not extra and table.get('maxArguments') != 0:
        specs.append(f"'*:argument:{zsh_quote(zsh_action(table['completeArguments'], []))}'")
    return [f'        {head} \\'] + [f'                {s}' + (' \\' if i + 1 < len(specs) else '')
                                     for i, s in enumerate(specs)]


def zsh(name, tables):
    own, verbs = split(tables, name)
    func = '_' + name.replace('-', '_')
    out = [f'#compdef {name}', f'# zsh completion for {name}, generated from `{name} --dump-table` by '
           'shell-completion/generate.py', '# SPDX-License-Identifier: LGPL-2.1-or-later', '']
    for v, t in verbs.items():
        out += [f'{func}_{v.replace("-", "_")}() {{']
        out += zsh_call('_arguments -s', zsh_specs(verb_options(own, t), list(verbs)), t)
        out += ['}', '']
    out += [f'{func}() {{']
    if verbs:
        out += ['        local curcontext=$curcontext state line',
                '        local -a verbs',
                f"        verbs=({' '.join(verbs)})",
                ]
        out += zsh_call('_arguments -C -s', zsh_specs(own['options'], list(verbs)), own,
                        ["':command:->verb'", "'*::argument:->arguments'"])
        out += ['        case $state in',
                "        verb) _describe -t commands 'command' verbs ;;",
                '        arguments)',
                '                curcontext=${curcontext%:*:*}:' + name + '-$words[1]:',
                '                case $words[1] in']
        for v in verbs:
            out.append(f'                {v}) {func}_{v.replace("-", "_")} ;;')
        out += ['                esac ;;', '        esac']
    else:
        out += zsh_call('_arguments -s', zsh_specs(own['options'], []), own)
    out += ['}', '', f'{func} "$@"', '']
    return '\n'.join(out)


def main():
    shell, name, exe, output = sys.argv[1:5]
    text = (bash if shell == 'bash' else zsh)(name, load(exe))
    tmp = output + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(text)
    import os
    os.replace(tmp, output)


if __name__ == '__main__':
    main()
