#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes measure-cases.tsv: boots of small UKIs and the PCR values systemd-stub's rules give for them,
computed here with hashlib, independently of the C code under test (test-measure.c builds the same UKIs
with urlboot's stub and predicts them with src/bootctl/pcr-predict.c). Run it to regenerate the table.

Columns: NAME, SECTIONS (.name=TEXT;... in file order, ".profile=TEXT" starting a profile),
ARGS (key=value;...: profile, options, boot_manager, smbios, secure_boot, cvm (a confidential VM),
cred/gcred/ext/gext=NAME:TEXT, phases; the machine: fdt=COMPATIBLE, its firmware devicetree's root,
chid=TYPE:UUID its CHIDs), then the expected sha256 of PCR 11, 12 and 13. TEXT uses \\n \\t \\\\ escapes,
@pattern:N for N bytes (i*7+3)&0xff, @dtb:A|B a devicetree blob whose root is compatible with A, B,
@hwids:CHID>COMPATIBLE|... a .hwids section; in the table the last two are written out as @hex:BYTES."""
import hashlib
import os
import struct
import uuid

SPEC = ['.linux', '.osrel', '.cmdline', '.initrd', '.ucode', '.splash', '.dtb', '.uname', '.sbat', '.pcrsig',
        '.pcrpkey', '.profile', '.dtbauto', '.hwids', '.efifw']
SIDECARS = [  # (global dir or None, suffix, exclude, target, dir mode, file mode, pcr, description)
    (None, '.cred', None, '.extra/credentials', 0o500, 0o400, 12),
    ('loader/credentials', '.cred', None, '.extra/global_credentials', 0o500, 0o400, 12),
    (None, '.raw', '.confext.raw', '.extra/sysext', 0o555, 0o444, 13),
    ('loader/extensions', '.raw', '.confext.raw', '.extra/global_sysext', 0o555, 0o444, 13),
    (None, '.confext.raw', None, '.extra/confext', 0o555, 0o444, 12),
    ('loader/extensions', '.confext.raw', None, '.extra/global_confext', 0o555, 0o444, 12),
]


def fdt(compatible):
    """A devicetree blob whose root has this compatible (a list: its strings separated by '|')."""
    be = lambda *v: struct.pack('>' + 'I' * len(v), *v)
    value = b''.join(c.encode() + b'\0' for c in compatible.split('|'))
    structure = be(1, 0) + be(3, len(value), 0) + value + b'\0' * (-len(value) % 4) + be(2, 9)
    strings = b'compatible\0'
    header_size, rsvmap = 40, bytes(16)
    total = header_size + len(rsvmap) + len(structure) + len(strings)
    return be(0xd00dfeed, total, header_size + 16, header_size + 16 + len(structure), header_size, 17, 16, 0,
              len(strings), len(structure)) + rsvmap + structure + strings


def hwids(spec):
    """A .hwids section as ukify writes it: entries CHID>COMPATIBLE separated by '|' (devicetree kind)."""
    entries = [e.split('>') for e in spec.split('|')]
    strings = sorted({c for _, c in entries} | {'n-' + c for _, c in entries})
    base = (len(entries) + 1) * 28
    offsets, blob = {}, b''
    for t in strings:
        offsets[t] = base + len(blob)
        blob += t.encode() + b'\0'
    out = b''
    for chid, c in entries:
        out += struct.pack('<I', 1 << 28 | 28) + uuid.UUID(chid).bytes_le + struct.pack('<II', offsets['n-' + c], offsets[c])
    return out + bytes(28) + blob


def text(t):
    if t.startswith('@pattern:'):
        return bytes((i * 7 + 3) & 0xff for i in range(int(t[9:])))
    if t.startswith('@dtb:'):
        return fdt(t[5:])
    if t.startswith('@hwids:'):
        return hwids(t[7:])
    return t.replace('\\n', '\n').replace('\\t', '\t').replace('\\\\', '\\').encode()


def utf16z(s):
    return s.encode('utf-16-le') + b'\0\0'


def mangle(s):
    blank = lambda c: ord(c) <= 0x20 or ord(c) == 0x7f
    s = s.split('\0')[0]
    s = ''.join(' ' if blank(c) else c for c in s.lstrip(''.join(chr(i) for i in range(0x21)) + '\x7f'))
    return s.rstrip(' ')


def cpio(target, dir_mode, file_mode, files):
    out = b''
    def record(ino, mode, name, data=b''):
        h = b'070701' + b''.join(b'%08x' % v for v in
                                 (ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name) + 1, 0))
        r = h + name + b'\0'
        r += b'\0' * (-len(r) % 4)
        return r + data + b'\0' * (-len(data) % 4)
    ino = 1
    parts = target.split('/')
    for i in range(1, len(parts) + 1):
        out += record(ino, 0o40000 | (dir_mode if i == len(parts) else 0o555), '/'.join(parts[:i]).encode())
        ino += 1
    for name, data in sorted(files):
        out += record(ino, 0o100000 | file_mode, (target + '/' + name).encode(), data)
        ino += 1
    return out + b'070701' + b'00000000' * 4 + b'00000001' + b'00000000' * 6 + b'0000000B' + b'00000000' \
        + b'TRAILER!!!\0\0\0\0'


def wants(suffix, exclude, name):
    low = name.lower()
    return (name.isascii() and 0 < len(name) <= 255 and not name.startswith('.') and low.endswith(suffix)
            and not (exclude and low.endswith(exclude)))


# systemd-stub's order of CHID types for a .hwids match, the most specific first
CHID_ORDER = [17, 16, 15, 3, 6, 8, 10, 4, 5, 7, 9, 11]


def root_compatible(blob):
    """The first string of the root's compatible (blobs made by fdt() above)."""
    value_len = struct.unpack_from('>I', blob, 56 + 12)[0]
    return blob[56 + 20:56 + 20 + value_len].split(b'\0')[0].decode()


def chosen_dtbauto(candidates, hwids_data, args):
    """Which .dtbauto (index) the machine of args gets: firmware devicetree (fdt=) first, else .hwids by CHID."""
    if 'fdt' in args:
        want = args['fdt']
    elif hwids_data and 'chid' in args:
        machine = dict((int(t), uuid.UUID(u).bytes_le) for t, u in (c.split(':') for c in args['chid']))
        entries = [(hwids_data[i + 4:i + 20], hwids_data[struct.unpack_from('<I', hwids_data, i + 24)[0]:].split(b'\0')[0].decode())
                   for i in range(0, len(hwids_data) - 28, 28) if struct.unpack_from('<I', hwids_data, i)[0]]
        want = next((c for t in CHID_ORDER if t in machine for chid, c in entries if chid == machine[t]), None)
    else:
        want = None
    return next((i for i, d in enumerate(candidates) if want is not None and root_compatible(d) == want), None)


def predict(sections, args):
    pcr = {11: bytes(32), 12: bytes(32), 13: bytes(32)}
    def extend(n, data):
        pcr[n] = hashlib.sha256(pcr[n] + hashlib.sha256(data).digest()).digest()
    options = args.get('options')
    if 'profile' in args:
        options = '@' + args['profile'] + (' ' + options if options is not None else '')
    if args.get('boot_manager') and options:
        extend(12, utf16z(options))
    profile, custom = 0, None
    if options is not None and all(ord(c) >= 0x20 for c in options.split('\0')[0]):
        o = options
        if len(o) >= 2 and o[0] == '@' and o[1].isdigit():
            i = 1
            while i < len(o) and o[i].isdigit():
                i += 1
            if (i == len(o) or o[i] == ' ') and int(o[1:i]) <= 0xffffffff:
                profile, o = int(o[1:i]), o[i + 1:] if i < len(o) else ''
        custom = mangle(o)
    base, profiles, current = {}, [], None
    candidates = [[]]     # each range's .dtbauto sections: the base's, then each profile's own
    for name, data in sections:
        if name == '.profile':
            profiles.append({'.profile': data})
            current = profiles[-1]
            candidates.append([])
        elif current is None:
            base.setdefault(name, data)
        else:
            current.setdefault(name, data)
        if name == '.dtbauto':
            candidates[-1].append(data)
    # "@4294967295" (UINT_MAX) is the base sections only: systemd-stub's find_sections() skips the profile pass
    own = profiles[profile] if profiles and profile != 0xffffffff else {}
    # the base's choice, which one of the profile's own (with its own .hwids) replaces
    chosen = chosen_dtbauto(candidates[0], base.get('.hwids'), args)
    dtbauto = candidates[0][chosen] if chosen is not None else None
    if own and profile + 1 < len(candidates):
        mine = chosen_dtbauto(candidates[profile + 1], own.get('.hwids'), args)
        dtbauto = candidates[profile + 1][mine] if mine is not None else dtbauto
    if profile:
        extend(12, utf16z(str(profile)))
    has_cmdline = False
    for name in SPEC:
        data = own.get(name, base.get(name))
        if name == '.cmdline' and data:
            has_cmdline = True
        # .dtbauto: the one chosen for the machine, if any; .efifw: never chosen
        if name == '.dtbauto':
            data = dtbauto
        if name in ('.pcrsig', '.efifw') or not data:
            continue
        extend(11, name.encode() + b'\0')
        extend(11, data)
    # stub.c settle_command_line(): dropped under Secure Boot for .cmdline, or in a confidential VM
    if custom and not (args.get('secure_boot') and (has_cmdline or args.get('cvm'))):
        extend(12, utf16z(custom))
    # cmdline_append_and_measure_smbios() returns early in a confidential VM
    if args.get('smbios') is not None and mangle(args['smbios']) and not args.get('cvm'):
        extend(12, utf16z(mangle(args['smbios'])))
    for where, suffix, exclude, target, dmode, fmode, n in SIDECARS:
        key = {None: ('cred', 'ext'), 'loader/credentials': ('gcred',), 'loader/extensions': ('gext',)}[where]
        files = [(f.split(':', 1)[0], text(f.split(':', 1)[1])) for k in key for f in args.get(k, [])]
        files = [(name, data) for name, data in files if wants(suffix, exclude, name)]
        if files:
            extend(n, cpio(target, dmode, fmode, files))
    for word in filter(None, args.get('phases', '').split(':')):
        extend(11, word.encode())
    return pcr


CASES = [
    ('sections-only', '.osrel=ID=test\\n;.cmdline=console=ttyS0 quiet;.initrd=@pattern:5000;.linux=@pattern:40000', ''),
    ('spec-order-not-file-order', '.linux=K;.uname=6.1.0;.sbat=sbat,1\\n;.initrd=I;.osrel=O;.splash=S', ''),
    ('pcrsig-not-measured', '.linux=K;.pcrsig={"sha256":[]};.pcrpkey=KEY', ''),
    ('empty-section-skipped', '.linux=K;.cmdline=;.osrel=O', ''),
    ('unknown-sections-ignored', '.linux=K;.entries=x;.loader=y;.osrel=O', ''),
    ('profile-0', '.linux=K;.osrel=O;.cmdline=base;.profile=ID=a;.profile=ID=b\\nTITLE=B;.cmdline=b-only', 'profile=0'),
    ('profile-1', '.linux=K;.osrel=O;.cmdline=base;.profile=ID=a;.profile=ID=b\\nTITLE=B;.cmdline=b-only', 'profile=1'),
    ('profile-1-from-options', '.linux=K;.cmdline=base;.profile=ID=a;.profile=ID=b;.cmdline=b', 'options=@1'),
    ('load-options-mangled', '.linux=K;.cmdline=base', 'options=\\t  root=/dev/sda1   quiet  \\t'),
    ('load-options-with-newline-ignored', '.linux=K;.cmdline=base', 'options=root=/dev/sda1\\n'),
    ('at-n-not-a-selector', '.linux=K', 'options=@1x quiet'),
    ('secure-boot-drops-options', '.linux=K;.cmdline=base', 'options=evil=1;secure_boot=1'),
    ('secure-boot-keeps-options-without-cmdline', '.linux=K', 'options=ok=1;secure_boot=1'),
    ('smbios-extra', '.linux=K;.cmdline=base', 'smbios=  urlboot.smbios_extra=yes '),
    ('smbios-blank-not-measured', '.linux=K', 'smbios= \\t '),
    ('boot-manager-profile', '.linux=K;.profile=ID=a;.profile=ID=b;.cmdline=b', 'profile=1;boot_manager=1'),
    ('boot-manager-options', '.linux=K;.cmdline=base', 'options=root=/dev/vda2 ro;boot_manager=1;smbios=x=1'),
    ('credentials', '.linux=K', 'cred=b.cred:two;cred=a.cred:one\\n;gcred=z.cred:global;cred=skip.txt:no'),
    ('extensions', '.linux=K', 'ext=os.raw:@pattern:700;ext=etc.confext.raw:conf;gext=g.raw:gsys;gext=h.CONFEXT.RAW:gconf;ext=.hidden.raw:no'),
    ('phases', '.linux=K;.osrel=O', 'phases=enter-initrd:leave-initrd'),
    # issue 33: what systemd-stub 262 does, item by item
    ('dtbauto-efifw-not-selected', '.linux=K;.osrel=O;.dtbauto=DTB1;.dtbauto=DTB2;.hwids=H;.efifw=FW', ''),
    ('cvm-no-smbios', '.linux=K;.cmdline=base', 'smbios=x=1;cvm=1;options=o=1'),
    ('cvm-secure-boot-drops-options-without-cmdline', '.linux=K', 'options=host=1;secure_boot=1;cvm=1'),
    ('profile-uint-max-is-base', '.linux=K;.cmdline=base;.profile=ID=a;.cmdline=a', 'options=@4294967295 x=1'),
    ('profile-beyond-uint-max-is-text', '.linux=K;.cmdline=base', 'options=@4294967296 x=1'),
    # issue 43: the .dtbauto a machine gets is measured, at its place in the list; the others are not
    ('dtbauto-by-firmware-devicetree', '.linux=K;.dtb=D;.dtbauto=@dtb:a,board;.dtbauto=@dtb:linux,dummy-virt|a,board', 'fdt=linux,dummy-virt'),
    ('dtbauto-firmware-first-string-only', '.linux=K;.dtbauto=@dtb:x,other|a,board;.dtbauto=@dtb:a,board', 'fdt=a,board'),
    ('dtbauto-firmware-none-matches', '.linux=K;.dtbauto=@dtb:a,board;.hwids=@hwids:c4fddaee-8e0c-53ec-8e93-8bcc02d09071>a,board', 'fdt=b,board;chid=3:c4fddaee-8e0c-53ec-8e93-8bcc02d09071'),
    ('dtbauto-by-chid', '.linux=K;.dtbauto=@dtb:a,board;.dtbauto=@dtb:b,board;.hwids=@hwids:c4fddaee-8e0c-53ec-8e93-8bcc02d09071>b,board', 'chid=5:c4fddaee-8e0c-53ec-8e93-8bcc02d09071'),
    ('dtbauto-chid-type-order', '.linux=K;.dtbauto=@dtb:a,board;.dtbauto=@dtb:b,board;.hwids=@hwids:e3f2611c-989a-5274-8acb-e5c30c71aff3>a,board|c4fddaee-8e0c-53ec-8e93-8bcc02d09071>b,board', 'chid=11:e3f2611c-989a-5274-8acb-e5c30c71aff3;chid=3:c4fddaee-8e0c-53ec-8e93-8bcc02d09071'),
    ('dtbauto-profile-own-wins', '.linux=K;.dtbauto=@dtb:a,board;.profile=ID=p;.dtbauto=@dtb:x,other|a,board;.dtbauto=@dtb:a,board;.cmdline=p', 'profile=0;fdt=a,board'),
    ('dtbauto-profile-none-keeps-base', '.linux=K;.dtbauto=@dtb:a,board;.profile=ID=p;.dtbauto=@dtb:b,board', 'profile=0;fdt=a,board'),
    ('dtbauto-chid-broad-types-unused', '.linux=K;.dtbauto=@dtb:a,board;.hwids=@hwids:c4fddaee-8e0c-53ec-8e93-8bcc02d09071>a,board', 'chid=14:c4fddaee-8e0c-53ec-8e93-8bcc02d09071'),
]


def parse_args(s):
    args = {}
    for item in filter(None, s.split(';')):
        k, _, v = item.partition('=')
        if k in ('cred', 'gcred', 'ext', 'gext', 'chid'):
            args.setdefault(k, []).append(v)
        elif k in ('boot_manager', 'secure_boot', 'cvm'):
            args[k] = True
        else:
            args[k] = v.replace('\\n', '\n').replace('\\t', '\t')
    return args


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'measure-cases.tsv')
    with open(out, 'w') as f:
        f.write('# Generated by measure-cases.py (hashlib, independent of the C code): NAME, SECTIONS, ARGS,\n'
                '# expected sha256 of PCR 11, 12, 13. See measure-cases.py for the syntax.\n')
        for name, sections, args in CASES:
            secs = [(s.partition('=')[0], text(s.partition('=')[2])) for s in sections.split(';')]
            p = predict(secs, parse_args(args))
            written = ';'.join(n + '=' + ('@hex:' + d.hex() if t.startswith(('@dtb:', '@hwids:')) else t)
                               for (n, d), t in zip(secs, (s.partition('=')[2] for s in sections.split(';'))))
            f.write('\t'.join([name, written, args or '-', p[11].hex(), p[12].hex(), p[13].hex()]) + '\n')


main()
