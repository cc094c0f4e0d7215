"""Reading generator output the way systemd would: unit files, drop-ins, ExecStart= words.

Used by the differential tests to turn what urlboot and systemd 262 wrote into comparable models.
"""
import os
import re


def read_tree(root):
    """Map of path relative to ROOT -> ('file', text) or ('link', target), over normal/early/late."""
    out = {}
    for base, dirs, files in os.walk(root):
        for name in dirs + files:
            p = os.path.join(base, name)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                out[rel] = ('link', os.readlink(p))
            elif os.path.isfile(p):
                with open(p, errors='surrogateescape') as f:
                    out[rel] = ('file', f.read())
    return out


def parse_unit(text):
    """List of (section, key, value) in file order; continuation lines joined as systemd does."""
    items, section = [], None
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line or line[0] in '#;':
            continue
        if line.startswith('[') and line.endswith(']'):
            section = line[1:-1]
            continue
        while line.endswith('\\') and i < len(lines):
            line = line[:-1] + ' ' + lines[i].strip()
            i += 1
        key, sep, value = line.partition('=')
        if sep:
            items.append((section, key.strip(), value.strip()))
    return items


def unit_settings(tree, unit):
    """The unit's (section, key, value) items from every directory, with its drop-ins appended
    (the dependency keys are lists, so appending is what systemd does for them)."""
    items = []
    for d in ('early', 'normal', 'late'):
        entry = tree.get(f'{d}/{unit}')
        if entry and entry[0] == 'file':
            items += parse_unit(entry[1])
            break
    for d in ('early', 'normal', 'late'):
        for rel, (kind, text) in sorted(tree.items()):
            if kind == 'file' and rel.startswith(f'{d}/{unit}.d/') and rel.endswith('.conf'):
                items += parse_unit(text)
    return items


def dependencies(items, keys=('Requires', 'Wants', 'BindsTo', 'Requisite', 'After', 'Before', 'Conflicts',
                                'OnFailure', 'RequiresMountsFor', 'WantsMountsFor')):
    """Set of 'Key=unit' for the dependency keys (space-separated lists split)."""
    out = set()
    for section, k, v in items:
        if section == 'Unit' and k in keys:
            for u in v.split():
                out.add(f'{k}={u}')
    return out


def last(items, section, key):
    v = None
    for s, k, val in items:
        if s == section and k == key:
            v = val
    return v


def links(tree):
    """Set of 'target.wants/unit' (dir-less) for every symlink in the output."""
    out = set()
    for rel, (kind, _) in tree.items():
        if kind == 'link':
            out.add(rel.split('/', 1)[1])
    return out


_SIMPLE = {'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v', '\\': '\\',
           '"': '"', "'": "'", 's': ' '}


class ExecError(Exception):
    pass


def _cunescape_one(s, i):
    """Escape at s[i] (after the backslash); returns (text, next index)."""
    if i >= len(s):
        raise ExecError('trailing backslash')
    c = s[i]
    if c in _SIMPLE:
        return _SIMPLE[c], i + 1
    if c == 'x' and re.match(r'[0-9a-fA-F]{2}', s[i + 1:i + 3]):
        return chr(int(s[i + 1:i + 3], 16)), i + 3
    if c in '01234567' and re.match(r'[0-7]{3}', s[i:i + 3]):
        return chr(int(s[i:i + 3], 8)), i + 3
    if c == 'u' and re.match(r'[0-9a-fA-F]{4}', s[i + 1:i + 5]):
        return chr(int(s[i + 1:i + 5], 16)), i + 5
    raise ExecError(f'invalid escape \\{c}')


def exec_words(value, unit=None):
    """ExecStart= as systemd splits it: quotes, C escapes, %%, %n (the unit's name, when given) and
    (unless the ':' prefix) $$ and ${VAR}/$VAR (no variables are set here, so they expand to nothing).
    Returns (words, no_env)."""
    value = _specifiers(value, unit)    # systemd expands specifiers in the raw value, then splits
    prefix_end = 0
    while prefix_end < len(value) and value[prefix_end] in '-@:+!|':
        prefix_end += 1
    prefixes, s = value[:prefix_end], value[prefix_end:]
    no_env = ':' in prefixes
    words, cur, quote, started, i = [], '', None, False, 0
    while i < len(s):
        c = s[i]
        if quote:
            if c == quote:
                quote = None
                i += 1
            elif c == '\\':
                t, i = _cunescape_one(s, i + 1)
                cur += t
            else:
                cur += c
                i += 1
            continue
        if c in ' \t\n':
            if started:
                words.append(cur)
                cur, started = '', False
            i += 1
            continue
        started = True
        if c in '"\'':
            quote = c
            i += 1
        elif c == '\\':
            t, i = _cunescape_one(s, i + 1)
            cur += t
        else:
            cur += c
            i += 1
    if quote:
        raise ExecError('unterminated quote')
    if started:
        words.append(cur)
    out = []
    for w in words:
        if not no_env:
            w = _variables(w)
            if w is None:
                continue
        out.append(w)
    return out, no_env


def _specifiers(w, unit=None):
    def sub(m):
        if m.group(1) == '%':
            return '%'
        if m.group(1) == 'n' and unit:
            return unit
        raise ExecError(f'specifier %{m.group(1)} would be expanded')
    return re.sub(r'%(.)', sub, w)


def _variables(w):
    if re.fullmatch(r'\$[A-Za-z_][A-Za-z0-9_]*', w):
        return None     # an unset variable as a whole word: no word at all
    # left to right: "$$" is a dollar, "${NAME}" an (unset) variable
    return re.sub(r'\$\$|\$\{[A-Za-z_][A-Za-z0-9_]*\}', lambda m: '$' if m.group(0) == '$$' else '', w)
