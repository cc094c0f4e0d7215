#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The tree digest of a directory extension (sysext-digest.h), computed a second way: os.walk and
hashlib here, openat/readdir and OpenSSL there. Trees with files, empty files, links (dangling too),
a FIFO, odd modes and names that sort differently by byte and by locale; then one change at a time
must change the digest.
  tree-digest.py URLBOOT-SYSEXT-MEASURE"""
import hashlib
import os
import stat
import subprocess
import sys
import tempfile

measure = sys.argv[1]
checks = []


def letter(m):
    for test, c in ((stat.S_ISDIR, 'd'), (stat.S_ISREG, 'f'), (stat.S_ISLNK, 'l'), (stat.S_ISCHR, 'c'),
                    (stat.S_ISBLK, 'b'), (stat.S_ISFIFO, 'p')):
        if test(m):
            return c
    return 's'


def oracle(top):
    h = hashlib.sha256()

    def walk(d, prefix):
        for name in sorted(os.listdir(d), key=os.fsencode):
            p = os.path.join(d, name)
            st = os.lstat(p)
            rel = prefix + '/' + name
            if stat.S_ISREG(st.st_mode):
                payload = hashlib.sha256(open(p, 'rb').read()).hexdigest().encode()
            elif stat.S_ISLNK(st.st_mode):
                payload = os.fsencode(os.readlink(p))
            elif stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
                payload = b'%d:%d' % (os.major(st.st_rdev), os.minor(st.st_rdev))
            else:
                payload = b''
            h.update(os.fsencode(rel) + b'\0')
            h.update(b'%s\0%o\0%d\0%d\0%s\0' % (letter(st.st_mode).encode(), st.st_mode & 0o7777, st.st_uid,
                                                st.st_gid, payload))
            if stat.S_ISDIR(st.st_mode):
                walk(p, rel)
    walk(top, '')
    return h.hexdigest()


def ours(top):
    out = subprocess.run([measure, '--dry-run', '--image=' + top], capture_output=True, text=True).stdout
    parts = out.strip().split('\t')[-1].split(':')
    return parts[3] if len(parts) == 4 and parts[2] == 'tree' else out


def check(text, top):
    a, b = ours(top), oracle(top)
    checks.append((a == b, text, '' if a == b else 'ours %s, oracle %s' % (a, b)))
    return a


with tempfile.TemporaryDirectory() as tmp:
    top = os.path.join(tmp, 'ext')
    os.makedirs(top + '/usr/lib/extension-release.d')
    open(top + '/usr/lib/extension-release.d/extension-release.ext', 'w').write('ID=_any\n')
    os.makedirs(top + '/usr/share/B')
    os.makedirs(top + '/usr/share/a b')
    open(top + '/usr/share/B/file', 'wb').write(os.urandom(100000))
    open(top + '/usr/share/a b/empty', 'w').close()
    open(top + '/usr/share/Zed', 'w').write('z')
    open(top + '/usr/share/_under', 'w').write('u')
    os.symlink('B/file', top + '/usr/share/link')
    os.symlink('/nowhere', top + '/usr/share/dangling')
    os.mkfifo(top + '/usr/share/fifo')
    os.chmod(top + '/usr/share/Zed', 0o4711)
    first = check('a tree of files, links, a FIFO, a setuid file: the same digest both ways', top)

    changes = [
        ('a byte of a file', lambda: open(top + '/usr/share/Zed', 'w').write('y')),
        ('a mode', lambda: os.chmod(top + '/usr/share/_under', 0o600)),
        ('an owner', lambda: os.lchown(top + '/usr/share/_under', 1, 1)),
        ('a link target', lambda: (os.unlink(top + '/usr/share/link'), os.symlink('B/other', top + '/usr/share/link'))),
        ('a new empty directory', lambda: os.mkdir(top + '/usr/share/new')),
        ('a renamed file', lambda: os.rename(top + '/usr/share/a b/empty', top + '/usr/share/a b/empty2')),
    ]
    seen = {first}
    for text, change in changes:
        change()
        d = check('after %s: the same digest both ways' % text, top)
        checks.append((d not in seen, '%s changes the digest' % text, ''))
        seen.add(d)

print('1..%d' % len(checks))
for i, (ok, text, why) in enumerate(checks, 1):
    print('%s %d - %s' % ('ok' if ok else 'not ok', i, text))
    if why:
        print('# ' + why)
