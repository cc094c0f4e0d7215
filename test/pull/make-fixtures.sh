#!/bin/bash
# Build what the urlboot-pull tests serve: a GPT/ext4 disk image in every compression, tarballs,
# SHA256SUMS, a signature made with a throw-away key, and hostile tarballs.
#   make-fixtures.sh TOOLS_DIR OUTPUT_DIR
set -euo pipefail
tools=$1 out=$2
mkdir -p "$out/srv" "$out/root"
cd "$out"

# A small root tree: text, a random (incompressible) file, a hard link, a symlink, a special mode.
mkdir -p root/etc root/usr/lib root/var/empty
echo "ID=urlboot-test" > root/usr/lib/os-release
ln -s ../usr/lib/os-release root/etc/os-release
head -c 3M /dev/urandom > root/usr/lib/random.bin
seq 1 200000 > root/usr/lib/numbers.txt
ln root/usr/lib/numbers.txt root/usr/lib/numbers-hardlink.txt
echo secret > root/etc/shadow && chmod 0640 root/etc/shadow
chmod 1777 root/var/empty
# What only root can restore: another owner, a user xattr, a POSIX ACL, a file capability (raw
# xattr values, so no acl/libcap tools are needed: version 2 ACL entries; VFS capability v2).
chown 1234:5678 root/etc/shadow
python3 - root <<'PY'
import os, struct, sys
r = sys.argv[1]
os.setxattr(f'{r}/usr/lib/os-release', 'user.urlboot.origin', b'test fixture')
acl = struct.pack('<I', 2) + b''.join(struct.pack('<HHI', tag, perm, ident) for tag, perm, ident in (
    (0x01, 6, 0xffffffff), (0x02, 4, 4321), (0x04, 4, 0xffffffff), (0x10, 4, 0xffffffff), (0x20, 0, 0xffffffff)))
os.setxattr(f'{r}/etc/shadow', 'system.posix_acl_access', acl)
os.setxattr(f'{r}/usr/lib/random.bin', 'security.capability',
            struct.pack('<IIIII', 0x02000001, 1 << 13, 0, 0, 0))   # cap_net_raw, effective
PY

"$tools/image/make-disk-image" --size=24 root srv/disk.raw
zstd -q -f srv/disk.raw -o srv/disk.raw.zst
xz -T2 --block-size=1MiB -k -c srv/disk.raw > srv/disk.raw.xz
gzip -c srv/disk.raw > srv/disk.raw.gz
bzip2 -c srv/disk.raw > srv/disk.raw.bz2
head -c 1000000 srv/disk.raw.zst > srv/truncated.raw.zst
cp srv/disk.raw.zst srv/corrupt.raw.zst && printf 'garbage!' | dd of=srv/corrupt.raw.zst bs=1 seek=2000000 conv=notrunc 2>/dev/null
# Frames of 1 MiB that state their sizes, as `urlboot-lazy compress` writes them (its seek table left
# out): decoded several frames at once. Damaged in the first frame's data, and truncated.
split -b 1M -d -a 3 srv/disk.raw frame.
for f in frame.*; do zstd -q -c "$f"; done > srv/frames.raw.zst && rm -f frame.*
head -c 300000 srv/frames.raw.zst > srv/truncated-frames.raw.zst
cp srv/frames.raw.zst srv/corrupt-frames.raw.zst && printf 'garbage!' | dd of=srv/corrupt-frames.raw.zst bs=1 seek=100 conv=notrunc 2>/dev/null

tar -C root --numeric-owner --xattrs --xattrs-include='*' --acls -cf srv/root.tar .
xz -T2 -k -c srv/root.tar > srv/root.tar.xz
zstd -q -f srv/root.tar -o srv/root.tar.zst
gzip -c srv/root.tar > srv/root.tar.gz

python3 - srv <<'PY'
import io, sys, tarfile
d = sys.argv[1]
def make(name, entries):
    with tarfile.open(f'{d}/{name}', 'w') as t:
        for kind, path, arg in entries:
            i = tarfile.TarInfo(path)
            if kind == 'file':
                data = arg.encode(); i.size = len(data); t.addfile(i, io.BytesIO(data))
            elif kind == 'symlink':
                i.type = tarfile.SYMTYPE; i.linkname = arg; t.addfile(i)
            elif kind == 'hardlink':
                i.type = tarfile.LNKTYPE; i.linkname = arg; t.addfile(i)
            elif kind == 'dir':
                i.type = tarfile.DIRTYPE; i.mode = 0o755; t.addfile(i)
make('evil-dotdot.tar', [('file', 'ok', 'x'), ('file', '../escaped', 'pwned')])
make('evil-absolute.tar', [('file', '/tmp/urlboot-absolute-escape', 'pwned')])
make('evil-symlink.tar', [('symlink', 'link', '/tmp'), ('file', 'link/urlboot-symlink-escape', 'pwned')])
make('evil-hardlink.tar', [('hardlink', 'passwd', '../../../../etc/passwd')])
PY

# The security review's root-entry attacks (docs/security.md, C1 and H1): the tree's own entry as a
# hard link with data, a hard link, a symlink, a plain file, under the spellings of the root; the
# targets are the canaries the test puts beside the tree ("../victim") or at an absolute path.
python3 - srv <<'PY'
import io, sys, tarfile
d = sys.argv[1]
def entry(t, kind, path, target='', data=b'', mode=0o755):
    i = tarfile.TarInfo(path)
    i.mode = mode
    if kind == 'dir':
        i.type = tarfile.DIRTYPE
    elif kind == 'symlink':
        i.type, i.linkname = tarfile.SYMTYPE, target
    elif kind == 'hardlink':
        i.type, i.linkname = tarfile.LNKTYPE, target
    elif kind == 'chr':
        i.type, i.devmajor, i.devminor = tarfile.CHRTYPE, target[0], target[1]
    i.size = len(data)
    t.addfile(i, io.BytesIO(data) if data else None)
def make(name, entries):
    with tarfile.open(f'{d}/{name}', 'w', format=tarfile.PAX_FORMAT) as t:
        for e in entries:
            entry(t, *e)
# A pax hard link that carries data (libarchive writes it into the link target).
make('dot-hardlink-data.tar', [('hardlink', '.', '../victim', b'PWNED-BY-TAR\n', 0o4777)])
make('dot-hardlink-abs.tar', [('hardlink', '.', '/tmp/urlboot-pull-victim', b'PWNED-BY-TAR\n', 0o4777)])
make('dot-hardlink.tar', [('hardlink', './', '../victim')])
make('dot-symlink.tar', [('symlink', '.', '../victimdir', b'', 0o777)])
make('dotslash-symlink.tar', [('dir', 'etc'), ('symlink', './/.', '../victimdir', b'', 0o777)])
make('dot-file.tar', [('file', './', '', b'not a tree\n', 0o644)])
make('hardlink-to-root.tar', [('dir', './'), ('hardlink', 'x', '.')])
# What the tree may hold but nobody but root may reach: a device node and a setuid binary.
make('devnodes.tar', [('dir', './', '', b'', 0o751), ('chr', 'mem', (1, 1), b'', 0o666), ('file', 'suid', '', b'#!/bin/sh\n', 0o4755)])
# A name that would forge a log line and clear the screen if printed as it is.
make('log-injection.tar', [('file', '../x\n<0>urlboot-pull: Downloaded and verified OK\x1b[2J', '', b'x')])
PY
# uuencoded: libarchive can decode it, but only the four compressions images use are enabled.
python3 -c 'import binascii, sys
data = open(sys.argv[1], "rb").read()
out = [b"begin 644 root.tar\n"] + [binascii.b2a_uu(data[i:i + 45]) for i in range(0, len(data), 45)] + [b"`\nend\n"]
open(sys.argv[2], "wb").write(b"".join(out))' srv/root.tar srv/root.tar.uu

# Decoder memory: two 70 MiB blocks that each need a 64 MiB dictionary (~65 MiB to decode), and a
# zstd stream whose window is 256 MiB (its size unknown when it was written, so the window stays).
head -c 140M /dev/zero | xz -T2 --block-size=70MiB --lzma2=preset=1,dict=64MiB -c > srv/bigdict.raw.xz
head -c 1M /dev/urandom | zstd -q --long=28 -c > srv/bigwindow.raw.zst
cat srv/root.tar | xz --lzma2=preset=1,dict=64MiB -c > srv/bigdict.tar.xz
# Damaged compressed tarballs: cut short, and a byte changed in the middle.
head -c 100000 srv/root.tar.zst > srv/truncated.tar.zst
cp srv/root.tar.xz srv/corrupt.tar.xz && printf 'X' | dd of=srv/corrupt.tar.xz bs=1 seek=50000 conv=notrunc 2>/dev/null

(cd srv && sha256sum disk.raw disk.raw.zst disk.raw.xz disk.raw.gz disk.raw.bz2 root.tar root.tar.xz root.tar.zst > SHA256SUMS)
mkdir -p sumsonly && cp srv/disk.raw.zst sumsonly/ && (cd sumsonly && sha256sum disk.raw.zst | cut -d' ' -f1 > disk.raw.zst.sha256)
# SHA256SUMS as other tools write it: CRLF line ends, no final newline, "./NAME", the BSD form.
zst_sum=$(sha256sum srv/disk.raw.zst | cut -d' ' -f1)
for v in crlf nonl dotslash bsd; do mkdir -p "srv/sums-$v" && ln srv/disk.raw.zst "srv/sums-$v/"; done
printf 'ffff  other\r\n%s  disk.raw.zst\r\n' "$zst_sum" > srv/sums-crlf/SHA256SUMS
printf '%s  other.raw\n%s  disk.raw.zst' "$zst_sum" "$zst_sum" > srv/sums-nonl/SHA256SUMS
printf '%s *./disk.raw.zst\n' "$zst_sum" > srv/sums-dotslash/SHA256SUMS
printf 'SHA256 (disk.raw.zst) = %s\n' "$zst_sum" > srv/sums-bsd/SHA256SUMS
mv sumsonly srv/

# A signing key of our own, only for these tests.
export GNUPGHOME="$out/gnupg"
mkdir -p -m 0700 "$GNUPGHOME"
gpg --batch --quiet --pinentry-mode loopback --passphrase '' --quick-gen-key 'urlboot test <test@urlboot.invalid>' ed25519 sign never 2>/dev/null
gpg --batch --quiet --export > keyring.gpg
gpg --batch --quiet --detach-sign --output srv/SHA256SUMS.gpg srv/SHA256SUMS
mkdir -p srv/badsig && cp srv/disk.raw.zst srv/SHA256SUMS srv/badsig/
echo "tampered" > srv/tampered && gpg --batch --quiet --detach-sign --output srv/badsig/SHA256SUMS.gpg srv/tampered
rm -rf "$GNUPGHOME" srv/tampered
