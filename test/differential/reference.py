"""Shared by the differential tests: systemd 262 (tools/reference/systemd-unstable) as the oracle.

- reference_tree(): the tree's path, or Skip with the reason (exit 77 of the tool: archive unreachable).
- run_in_tree(workdir, script): runs a shell script inside the tree (chroot, private mount namespace)
  with WORKDIR bound at /mnt, so a whole batch of cases costs one chroot session.
- IntendedDifferences: the table of deliberate differences in docs/compatibility.md, read by the
  tests so that any difference NOT listed there fails.
- Tap: TAP output.
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFERENCE = os.path.join(TOP, 'tools/reference/systemd-unstable')
COMPATIBILITY = os.path.join(TOP, 'docs/compatibility.md')


class Skip(Exception):
    pass


def archive_unreachable():
    """Why the Debian archive cannot be reached, or None. (mmdebstrap --quiet does not always say so in
    a way tools/reference/systemd-unstable recognises, e.g. "connection refused" by a proxy.)"""
    import urllib.request
    mirror = os.environ.get('URLBOOT_DEBIAN_MIRROR', 'http://deb.debian.org/debian')
    try:
        urllib.request.urlopen(mirror.rstrip('/') + '/dists/sid/Release', timeout=15).close()
        return None
    except Exception as e:       # any failure to fetch means: no archive
        return f'the Debian archive ({mirror}) cannot be reached: {e}'


def reference_tree():
    p = subprocess.run([REFERENCE], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode == 77:
        raise Skip('systemd 262 reference tree unavailable: ' + (p.stderr.strip().splitlines() or ['exit 77'])[-1])
    if p.returncode != 0:
        why = archive_unreachable()
        if why:
            raise Skip('systemd 262 reference tree unavailable: ' + why)
        raise RuntimeError('tools/reference/systemd-unstable failed: ' + p.stderr.strip())
    return p.stdout.strip()


def run_in_tree(workdir, script, timeout=600, check=True):
    """Runs SCRIPT (bash) in the reference tree with WORKDIR at /mnt; returns the CompletedProcess.

    The bind at /mnt is made in a mount namespace of our own, so the shared tree never changes and
    nothing stays mounted when we are done (also when killed)."""
    tree = reference_tree()
    with open(os.path.join(workdir, 'script.sh'), 'w') as f:
        f.write(script)
    p = subprocess.run(['unshare', '--mount', '--propagation', 'private', 'sh', '-c',
                        'mount --bind "$1" "$2/mnt" && exec "$3" --run bash /mnt/script.sh',
                        'sh', workdir, tree, REFERENCE],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise RuntimeError(f'script in the reference tree failed ({p.returncode}):\n{p.stdout}')
    return p


def efivar_bytes(value, attributes=6):
    """A Boot Loader Interface string variable as efivarfs shows it: attributes, UTF-16LE, NUL."""
    return attributes.to_bytes(4, 'little') + value.encode('utf-16-le') + b'\0\0'


LOADER_GUID = '4a67b082-0a4c-41cf-b6c7-440b29bb8c4f'


def write_efivars(directory, variables):
    os.makedirs(directory, exist_ok=True)
    for name, value in variables.items():
        with open(os.path.join(directory, f'{name}-{LOADER_GUID}'), 'wb') as f:
            f.write(efivar_bytes(value))


class IntendedDifferences:
    """Rows of the table between <!-- intended-differences --> markers in docs/compatibility.md:

    | id | test | kind | pattern | why |

    A difference found by a test is (kind, text); it is intended when a row of the same test and kind
    (the cells may list several, comma-separated) has a pattern (a Python regex, in backquotes) found
    in the text."""

    def __init__(self, test):
        self.test = test
        self.rows = []
        self.used = set()
        with open(COMPATIBILITY) as f:
            text = f.read()
        m = re.search(r'<!-- intended-differences -->\n(.*?)<!-- /intended-differences -->', text, re.S)
        if not m:
            raise RuntimeError('docs/compatibility.md has no intended-differences table')
        for line in m.group(1).splitlines():
            # cells split at "|" but not at "\\|", which is a "|" inside a cell (as on GitHub)
            cells = [c.strip().replace('\\|', '|') for c in re.split(r'(?<!\\)\|', line.strip().strip('|'))]
            if len(cells) < 5 or not cells[0].startswith('`'):
                continue
            rid, tests, kind, pattern = (c.strip('`') for c in cells[:4])
            if test not in [t.strip() for t in tests.split(',')]:
                continue
            self.rows.append((rid, {k.strip() for k in kind.split(',')}, re.compile(pattern)))

    def match(self, kind, text):
        """The id of the row that intends this difference, or None."""
        for rid, kinds, rx in self.rows:
            if kind in kinds and rx.search(text):
                self.used.add(rid)
                return rid
        return None

    def unused(self):
        return [rid for rid, _, _ in self.rows if rid not in self.used]


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0
        self.lines = []

    def ok(self, good, name, details=()):
        self.n += 1
        self.lines.append(f'{"ok" if good else "not ok"} {self.n} - {name}')
        for d in details:
            self.lines.append('# ' + str(d).replace('\n', '\n# '))
        if not good:
            self.failed += 1

    def note(self, text):
        self.lines.append('# ' + text.replace('\n', '\n# '))

    def finish(self):
        print(f'1..{self.n}')
        print('\n'.join(self.lines))
        sys.stdout.flush()
        return 1 if self.failed else 0


def main_guard(body):
    """Runs BODY(); a Skip becomes a TAP skip line with the reason."""
    try:
        sys.exit(body())
    except Skip as e:
        print(f'1..0 # SKIP {e}')
        sys.exit(0)
