#!/usr/bin/env python3
"""End-to-end boots in QEMU + OVMF over HTTP (scenarios.tsv); one TAP line per scenario.

Runs tools/e2e/build-assets (cached in BUILDDIR/e2e-assets), makes one UKI per scenario and boots it
with tools/e2e/boot.py inside a private network namespace. Serial logs stay in BUILDDIR/e2e-logs.

  run.py BUILDDIR SRCDIR [SCENARIO...]
"""
import hashlib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import differential  # noqa: E402  systemd 262 beside urlboot (test/e2e/differential.py)
from console import loop_tables_read_twice  # noqa: E402  what every boot's serial console must not show


def sha256(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def mtools(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, MTOOLS_SKIP_CHECK='1'))


def put_text(img, path, text, tmpdir):
    f = os.path.join(tmpdir, 'text')
    with open(f, 'w') as out:
        out.write(text)
    mtools('mcopy', '-o', '-i', img, f, '::' + path)


ESP_OFFSET, ESP_MB, XBOOTLDR_MB = 1 << 20, 128, 32


def make_esp_disk(path, manager, uki, tmpdir, linux=None, uki_options=None, extras=()):
    """A GPT disk, no mount needed: an ESP (FAT, mtools) with the boot manager as the removable-media
    loader, loader.conf, a Type #2 UKI and Type #1 entries (one counted, two that must be left out),
    and an XBOOTLDR partition with one more Type #1 entry. uki_options: the default is a Type #1 "uki"
    entry with these options and a counter (uki-options+3.conf); extras: (ESP path, local file) pairs copied too (credentials, extensions).
    Returns the ESP's mtools image spec."""
    size = ESP_OFFSET + (ESP_MB + XBOOTLDR_MB) * (1 << 20) + (1 << 20)
    with open(path, 'wb') as f:
        f.truncate(size)
    layout = (f'label: gpt\nstart=2048, size={ESP_MB * 2048}, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n'
              f'size={XBOOTLDR_MB * 2048}, type=BC13C2FF-59E6-4262-A352-B275FD6F7172\n')
    subprocess.run(['sfdisk', '--quiet', path], input=layout, text=True, check=True)
    esp = f'{path}@@{ESP_OFFSET}'
    xbootldr = f'{path}@@{ESP_OFFSET + ESP_MB * (1 << 20)}'
    mtools('mformat', '-i', esp, '-F', '-T', str(ESP_MB * 2048), '-v', 'ESP', '::')
    mtools('mformat', '-i', xbootldr, '-T', str(XBOOTLDR_MB * 2048), '-v', 'XBOOTLDR', '::')
    for d in ('/EFI', '/EFI/BOOT', '/EFI/Linux', '/loader', '/loader/entries'):
        mtools('mmd', '-i', esp, '::' + d)
    mtools('mcopy', '-i', esp, manager, '::/EFI/BOOT/BOOTX64.EFI')
    mtools('mcopy', '-i', esp, uki, '::/EFI/Linux/os.efi')
    default = 'local-uki.conf'
    if linux:
        # kernel, initrd, options: the boot manager hands the initrd over LoadFile2
        kernel, initrd, options = linux
        mtools('mcopy', '-i', esp, kernel, '::/vmlinuz')
        mtools('mcopy', '-i', esp, initrd, '::/initrd.img')
        put_text(esp, '/loader/entries/linux-initrd+2.conf',
                 f'title urlboot linux entry\nlinux /vmlinuz\ninitrd /initrd.img\noptions {options}\n', tmpdir)
        default = 'linux-initrd.conf'
    if uki_options:
        put_text(esp, '/loader/entries/uki-options+3.conf',
                 f'title urlboot uki with options\nuki /EFI/Linux/os.efi\noptions {uki_options}\n', tmpdir)
        default = 'uki-options.conf'
    made = {'/EFI', '/EFI/BOOT', '/EFI/Linux', '/loader', '/loader/entries'}
    for where, local in extras:
        for i in range(2, len(where.split('/'))):
            d = '/'.join(where.split('/')[:i])
            if d not in made:   # mmd fails on a directory that exists
                mtools('mmd', '-i', esp, '::' + d)
                made.add(d)
        mtools('mcopy', '-o', '-i', esp, local, '::' + where)
    put_text(esp, '/loader/loader.conf', f'timeout 2\ndefault {default}\nreboot-on-error no\n', tmpdir)
    put_text(esp, '/loader/entries/local-uki+3.conf', 'title urlboot local UKI\nuki /EFI/Linux/os.efi\n', tmpdir)
    put_text(esp, '/loader/entries/missing-kernel.conf', 'title Missing kernel\nlinux /vmlinuz-none\n', tmpdir)
    put_text(esp, '/loader/entries/other-arch.conf', 'title Other arch\narchitecture aa64\nuki /EFI/Linux/os.efi\n',
             tmpdir)
    for d in ('/EFI', '/EFI/tools', '/loader', '/loader/entries'):
        mtools('mmd', '-i', xbootldr, '::' + d)
    mtools('mcopy', '-i', xbootldr, manager, '::/EFI/tools/tool.efi')
    put_text(xbootldr, '/loader/entries/tool.conf', 'title Tool from XBOOTLDR\nefi /EFI/tools/tool.efi\n', tmpdir)
    return esp


def measure(build, uki, *args):
    """urlbootctl measure's prediction: {pcr: sha256}."""
    out = subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'measure', '--json', *args]
                         + ([uki] if uki else []), check=True, capture_output=True, text=True).stdout
    return {p['pcr']: p['sha256'] for p in json.loads(out)['pcrs']}


def pcr_requires(pcrs):
    """The guest must print exactly the predicted values (tools/e2e/build-assets, /etc/urlboot-e2e-tpm)."""
    return sum((['--require', rf'^URLBOOT-PCR {n} sha256 {v}$'] for n, v in sorted(pcrs.items())), [])


# Every boot with a TPM: the event log replays to the TPM's values, and the stub said it measured.
TPM_CHECKS = ['--tpm', '--require', r'^URLBOOT-EVENTLOG-OK$', '--fail', r'^URLBOOT-EVENTLOG-FAILED$',
              '--require', r'^URLBOOT-EFIVAR StubPcrKernelImage=11$',
              '--require', r'^URLBOOT-EFIVAR LoaderTpm2ActivePcrBanks=0x0000000[0-9a-f]$']


def reference_stub():
    """systemd 262's linuxx64.efi.stub from the reference tree, or None with the reason."""
    p = subprocess.run([os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                     'tools/reference/systemd-unstable')], capture_output=True, text=True)
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or ['the reference tree could not be built'])[-1]
    stub = os.path.join(p.stdout.strip(), 'usr/lib/systemd/boot/efi/linuxx64.efi.stub')
    return (stub, None) if os.path.exists(stub) else (None, 'the reference tree has no linuxx64.efi.stub')


def shim_files(src):
    """Debian's signed shim and MokManager (tools/e2e/fetch-shim), or None with the reason."""
    p = subprocess.run([os.path.join(src, 'tools/e2e/fetch-shim')], capture_output=True, text=True)
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or ['shim could not be fetched'])[-1]
    return p.stdout.strip(), None


def mok_key(assets):
    """The administrator's key for shim's MOK list (made once per assets directory): (key, cert)."""
    key, cert = os.path.join(assets, 'mok.key'), os.path.join(assets, 'mok.pem')
    if not os.path.exists(cert):
        subprocess.run(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert,
                        '-days', '3650', '-subj', '/CN=urlboot test MOK', '-addext', 'extendedKeyUsage=codeSigning'],
                       check=True, capture_output=True)
    return key, cert


def other_key(assets):
    """A key nobody enrolled: (key, cert)."""
    key, cert = os.path.join(assets, 'other.key'), os.path.join(assets, 'other.pem')
    if not os.path.exists(cert):
        subprocess.run(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert,
                        '-days', '3650', '-subj', '/CN=urlboot test key nobody enrolled'], check=True, capture_output=True)
    return key, cert


def flip_byte(path, offset_from_end=4096):
    """One byte of a signed image changed, far from the headers (inside .linux)."""
    with open(path, 'r+b') as f:
        f.seek(os.path.getsize(path) - offset_from_end)
        b = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([b[0] ^ 0xff]))


def carried_disk(srv, assets, tampered):
    """lazy.raw (GPT: root and root-verity) as rootdisk.raw for build-uki --image=; tampered: one byte of the root
    partition's first block changed, which dm-verity must refuse on the first read."""
    import shutil
    import struct
    d = os.path.join(assets, 'carried-tampered' if tampered else 'carried')
    os.makedirs(d, exist_ok=True)
    disk = os.path.join(d, 'rootdisk.raw')
    shutil.copy(os.path.join(srv, 'lazy.raw'), disk)
    if tampered:
        with open(disk, 'r+b') as f:
            f.seek(512)
            header = f.read(92)
            entries_lba = struct.unpack_from('<Q', header, 72)[0]
            f.seek(entries_lba * 512 + 32)
            first_lba = struct.unpack('<Q', f.read(8))[0]     # the first entry: the root partition
            f.seek(first_lba * 512 + 1024 + 0x38)
            b = f.read(1)
            f.seek(-1, 1)
            f.write(bytes([b[0] ^ 0xff]))
    return disk


LUKS_UUID = '6c756b73-7572-6c62-6f6f-742d726f6f74'     # fixed: the scenario's rd.luks.uuid= names it


def luks_disk(build, assets):
    """The demo root as ext4 inside LUKS2 (root.luks, for build-uki --image=), encrypted offline (cryptsetup
    reencrypt --encrypt: no device-mapper on the build host), and an initrd with dracut's crypt module and the
    key. @return (disk, initrd)"""
    d = os.path.join(assets, 'luks')
    os.makedirs(d, exist_ok=True)
    disk, key = os.path.join(d, 'root.luks'), os.path.join(d, 'key')
    if not os.path.exists(disk):
        with open(key, 'w') as f:
            f.write('urlboot e2e passphrase')
        tmp = disk + '.tmp'
        subprocess.run(['mkfs.ext4', '-q', '-F', '-L', 'luks-root', '-d', os.path.join(assets, 'root'), tmp, '64M'],
                       check=True, capture_output=True)
        with open(tmp, 'r+b') as f:
            f.truncate(96 << 20)    # room for the LUKS2 header the encryption puts in front
        subprocess.run(['cryptsetup', 'reencrypt', '--encrypt', '--type', 'luks2', '--reduce-device-size', '32M',
                        '--uuid', LUKS_UUID, '--pbkdf', 'pbkdf2', '--pbkdf-force-iterations', '1000', '--batch-mode',
                        '--key-file', key, tmp], check=True, capture_output=True)
        os.rename(tmp, disk)
    initrd = os.path.join(assets, 'initrd-crypt.img')
    with open(os.path.join(assets, 'kver')) as f:
        kver = f.read().strip()
    subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../tools/e2e/make-initrd'),
                    f'--crypt={key}', os.path.join(assets, 'stage'), kver, initrd], check=True, stdout=subprocess.DEVNULL)
    return disk, initrd


HTTPS_REFUSALS = {   # via: (the port of test/http/nginx.py the UKI is fetched from, the boot manager's line)
    'https-refuse-other-ca': (8446, r"TLS failed: the server's certificate is not signed by a CA this boot manager pins"),
    'https-refuse-wrong-host': (8445, r"TLS failed: the server's certificate is not signed by a CA this boot manager pins"),
    'https-refuse-downgrade': (8447, r'the server redirects; refused \(no redirect is followed'),
}


def tls_pki(src, build, assets):
    """The test PKI (tools/e2e/tls-pki), made once per assets directory."""
    pki = os.path.join(assets, 'tls')
    subprocess.run([os.path.join(src, 'tools/e2e/tls-pki'), pki, os.path.join(build, 'src/bootctl/urlbootctl')],
                   check=True, capture_output=True)
    return pki


def https_boot(build, src, assets, srv, logs, name, port, entry_url):
    """The firmware (CA list from QEMU's fw_cfg) boots https://10.0.2.2:PORT/NAME-manager.efi from a Boot####
    Uri() entry (urlbootctl add-uri); the boot manager pins the same CA (build-manager --ca=) and starts
    entry_url. boot.py's arguments."""
    import shutil
    ctl = os.path.join(build, 'src/bootctl/urlbootctl')
    pki = tls_pki(src, build, assets)
    entry, conf = os.path.join(logs, f'{name}.conf'), os.path.join(logs, f'{name}.loader.conf')
    with open(entry, 'w') as f:
        f.write(f'title HTTPS {name}\nuki-url {entry_url}\n')
    with open(conf, 'w') as f:
        f.write('timeout 0\nreboot-on-error yes\n')
    subprocess.run([ctl, 'build-manager', f'--entry={entry}', f'--loader-conf={conf}', f'--ca={pki}/ca.pem',
                    '--manager', os.path.join(build, 'src/boot/urlbootx64.efi'),
                    f'--output={os.path.join(srv, name + "-manager.efi")}'], check=True, capture_output=True)
    vars_file = os.path.join(logs, f'{name}.vars.fd')
    shutil.copy('/usr/share/OVMF/OVMF_VARS_4M.fd', vars_file)
    subprocess.run([ctl, 'add-uri', '--next', f'--vars-file={vars_file}', '--title', name,
                    f'https://10.0.2.2:{port}/{name}-manager.efi'], check=True, capture_output=True)
    fp = subprocess.run([ctl, 'tls-ca', f'{pki}/ca.pem'], check=True, capture_output=True, text=True).stdout.strip()
    return ['--vars', vars_file, '--nginx', pki, '--fw-cacerts', f'{pki}/ca.esl',
            '--require', rf'URI: https://10\.0\.2\.2:{port}/{name}-manager\.efi'], fp


def vars_variable(vars_file, name, vendor):
    """(attributes, bytes) of an authenticated variable in an OVMF VARS file, or None: read here, apart from
    urlbootctl, so that a write it got wrong cannot read back right."""
    import struct
    import uuid
    with open(vars_file, 'rb') as f:
        d = f.read()
    want_name, want_guid = (name + '\0').encode('utf-16-le'), uuid.UUID(vendor).bytes_le
    off = d.find(b'\xaa\x55')
    while 0 <= off < len(d) - 60:
        state, attrs, nsize, dsize = d[off + 2], struct.unpack_from('<I', d, off + 4)[0], \
            struct.unpack_from('<I', d, off + 36)[0], struct.unpack_from('<I', d, off + 40)[0]
        if state == 0x3f and d[off + 44:off + 60] == want_guid and d[off + 60:off + 60 + nsize] == want_name:
            return attrs, d[off + 60 + nsize:off + 60 + nsize + dsize]
        off = d.find(b'\xaa\x55', (off + 60 + nsize + dsize + 3) & ~3)
    return None


TLS_CA_VENDOR = 'fd2340d0-3dab-4349-a6c7-3b4f12b48eae'
URLBOOT_VENDOR = '3c0a4d1e-8b7f-4c55-9a1e-75726c626f6f'


def https_vars_boots(build, src, assets, srv, logs, name, log, timeout, marker, boot):
    """Issue 38, G3: the firmware's CA list provisioned in the VARS file as the how-to says (urlbootctl tls-ca
    --vars-file, both our CA and a second one; no fw_cfg), two boots on that one file. Boot 1: through https to
    the root. Boot 2: the firmware still has its list (it fetches the boot manager over https again), whose
    loader.conf now names a rollout's entry list over https without Secure Boot: since the firmware's TLS also
    trusts the second CA (EDK2 keeps every CA of the boot in one store, so the pin is not exclusive), https
    does not vouch for the list and it is ignored; the boot goes on to the root. After each boot
    TlsCaCertificate is the owner's, byte for byte with its attributes, and no copy for a power cut is left.
    A CompletedProcess with boot.py's JSON."""
    ctl = os.path.join(build, 'src/bootctl/urlbootctl')
    pki = tls_pki(src, build, assets)
    vars_file = boot[boot.index('--vars') + 1]
    boot = [a for i, a in enumerate(boot) if a != '--fw-cacerts' and (i == 0 or boot[i - 1] != '--fw-cacerts')]
    # the Boot#### entry first in BootOrder, for both boots (https_boot's --next is spent by the first)
    subprocess.run([ctl, 'add-uri', '--first', f'--vars-file={vars_file}', '--title', name,
                    f'https://10.0.2.2:8443/{name}-manager.efi'], check=True, capture_output=True)
    subprocess.run([ctl, 'tls-ca', f'{pki}/ca.pem', f'{pki}/other-ca.pem', f'--vars-file={vars_file}'], check=True,
                   capture_output=True)
    owner = vars_variable(vars_file, 'TlsCaCertificate', TLS_CA_VENDOR)

    def run_boot(label, args):
        return subprocess.run([os.path.join(src, 'test/netns-run.sh'), sys.executable, os.path.join(src, 'tools/e2e/boot.py'),
                               '--srv', srv, '--log', log.replace('.log', f'-{label}.log'), '--timeout', timeout,
                               '--server-log', os.path.join(logs, f'{name}-{label}.http'), '--vars-in-place'] + args,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def owner_kept(after):
        now = vars_variable(vars_file, 'TlsCaCertificate', TLS_CA_VENDOR)
        left = vars_variable(vars_file, 'UrlbootTlsCaOwner', URLBOOT_VENDOR)
        if now != owner or left:
            return (f'after {after}: TlsCaCertificate is {"gone" if not now else "changed"} (attributes '
                    f'{now[0] if now else "-"}, was {owner[0]}), copy left: {bool(left)}')
        return None

    p = run_boot('boot1', ['--expect', marker] + boot)
    error = None if result_ok(p) else 'boot 1: ' + p.stdout.strip().splitlines()[-1]
    error = error or owner_kept('boot 1')
    if not error:
        # the same URL now serves the boot manager with a rollout's list over https (unsigned, Secure Boot off)
        conf = os.path.join(logs, f'{name}.loader.conf')
        with open(conf, 'a') as f:
            f.write(f'urlboot-entries https://10.0.2.2:8443/{name}-list.efi\n')
        listed = os.path.join(logs, f'{name}-listed.conf')
        with open(listed, 'w') as f:
            f.write(f'title Listed {name}\nuki-url :{name}.efi\n')
        subprocess.run([ctl, 'build-manager', '--generation=1', f'--entry={listed}', f'--uki={os.path.join(srv, name + ".efi")}',
                        '--manager', os.path.join(build, 'src/boot/urlbootx64.efi'),
                        f'--output={os.path.join(srv, name + "-list.efi")}'], check=True, capture_output=True)
        subprocess.run([ctl, 'build-manager', f'--entry={os.path.join(logs, name + ".conf")}', f'--loader-conf={conf}',
                        f'--ca={pki}/ca.pem', '--manager', os.path.join(build, 'src/boot/urlbootx64.efi'),
                        f'--output={os.path.join(srv, name + "-manager.efi")}'], check=True, capture_output=True)
        p = run_boot('boot2', ['--expect', marker, '--require',
                               rf'{name}-list\.efi: the firmware\'s TLS also trusts CAs this boot manager does not pin'] + boot)
        os.unlink(os.path.join(srv, f'{name}-list.efi'))
        error = None if result_ok(p) else 'boot 2: ' + p.stdout.strip().splitlines()[-1]
        error = error or owner_kept('boot 2')
    if error:
        return subprocess.CompletedProcess(p.args, 1, json.dumps({'ok': False, 'error': error}))
    return p


def lazy_reconnects_after_switch(log, nginx_log, epoch_start):
    """When systemd started the switch to the real root, on the host's clock (the log's seconds since QEMU
    started, boot.py's epoch_start): nbdkit must have opened new TLS connections for lazy.raw after that
    (test/http/nginx.py's log: port, connection, time, request). An error text or None."""
    switch = None
    with open(log, errors='replace') as f:
        for line in f:
            m = re.match(r'^\[ *([\d.]+)\] .*Starting initrd-switch-root\.service', line)
            if m and switch is None:
                switch = epoch_start + float(m.group(1))
    if switch is None:
        return 'the log does not show the switch to the real root'
    first = {}
    try:
        with open(nginx_log) as f:
            for line in f:
                port, conn, msec, rest = line.split(' ', 3)
                if '/lazy.raw' in rest:
                    first.setdefault(conn, float(msec))
    except (OSError, ValueError) as e:
        return f'cannot read the TLS server\'s log: {e}'
    after = [c for c, t in first.items() if t > switch + 2]
    if not after:
        return f'no new TLS connection for lazy.raw after the switch ({len(first)} in all)'
    print(f'# https-lazy: {len(after)} of {len(first)} TLS connections for lazy.raw were opened after the switch',
          flush=True)
    return None


def shim_boot(build, src, assets, srv, logs, name, shim_dir):
    """The firmware (Secure Boot, Microsoft's keys, the MOK enrolled as mokutil and MokManager leave it)
    HTTP-boots Debian's shim, which fetches its second stage from beside itself: grubx64.efi, urlboot's boot
    manager signed with the MOK, whose one entry is the UKI. boot.py's arguments."""
    import shutil
    ctl = os.path.join(build, 'src/bootctl/urlbootctl')
    for f in ('shimx64.efi', 'mmx64.efi'):
        shutil.copy(os.path.join(shim_dir, f), os.path.join(srv, f))
    key, cert = mok_key(assets)
    entry, conf = os.path.join(logs, f'{name}.conf'), os.path.join(logs, f'{name}.loader.conf')
    with open(entry, 'w') as f:
        f.write(f'title Through shim {name}\nuki-url :{name}.efi\n')
    with open(conf, 'w') as f:
        f.write('timeout 0\nreboot-on-error yes\n')
    subprocess.run([ctl, 'build-manager', f'--entry={entry}', f'--loader-conf={conf}', '--manager',
                    os.path.join(build, 'src/boot/urlbootx64.efi'), f'--sign-key={key}', f'--sign-cert={cert}',
                    f'--output={os.path.join(srv, "grubx64.efi")}'], check=True, capture_output=True)
    vars_file = os.path.join(logs, f'{name}.vars.fd')
    shutil.copy('/usr/share/OVMF/OVMF_VARS_4M.ms.fd', vars_file)
    subprocess.run([ctl, 'enroll-mok', cert, f'--vars-file={vars_file}'], check=True, capture_output=True)
    return ['--bootfile', 'shimx64.efi', '--secure-boot', '--vars', vars_file,
            '--require', r'urlboot boot manager .*through shim']


def section_of(pe, name, out):
    """A section's in-memory bytes (VirtualSize) of a PE file, written to out."""
    import struct
    with open(pe, 'rb') as f:
        d = f.read()
    h = struct.unpack_from('<I', d, 0x3c)[0]
    n, opt = struct.unpack_from('<H', d, h + 6)[0], struct.unpack_from('<H', d, h + 20)[0]
    for i in range(n):
        s = h + 24 + opt + 40 * i
        if d[s:s + 8].rstrip(b'\0') == name.encode():
            vsize, _, rsize, roff = struct.unpack_from('<IIII', d, s + 8)
            data = d[roff:roff + min(vsize, rsize)] + bytes(max(0, vsize - rsize))
            with open(out, 'wb') as f:
                f.write(data)
            return out
    raise RuntimeError(f'{pe} has no {name} section')


def check_event_log_copy(build, log, out):
    """The event log the guest printed (urlboot.dump_event_log=1), replayed by urlbootctl and by
    tpm2-tools' tpm2_eventlog: both must give the same PCRs. Returns an error text or None."""
    import base64
    with open(log, errors='replace') as f:
        b64 = [l.split('URLBOOT-EVENTLOG-B64 ', 1)[1].strip() for l in f if 'URLBOOT-EVENTLOG-B64 ' in l]
    if not b64:
        return 'the guest printed no event log'
    with open(out, 'wb') as f:
        f.write(base64.b64decode(''.join(b64)))
    ours = json.loads(subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'event-log', '--sysfs=', '--json', out],
                                     capture_output=True, text=True).stdout or '{}')
    ours = {(p['bank'], p['pcr']): p['replayed'] for p in ours.get('pcrs', [])}
    theirs, bank = {}, None
    text = subprocess.run(['tpm2_eventlog', out], capture_output=True, text=True).stdout
    for line in text.split('\npcrs:', 1)[-1].splitlines():
        m = re.match(r'^  (sha\d+):$', line)
        if m:
            bank = m.group(1)
        m = re.match(r'^    (\d+) *: 0x([0-9A-Fa-f]+)$', line)
        if m and bank:
            theirs[(bank, int(m.group(1)))] = m.group(2).lower()
    differ = [k for k in ours if theirs.get(k) != ours[k] and any(v != '0' for v in ours[k])]
    if not ours or not theirs or differ:
        return f'urlbootctl and tpm2_eventlog replay {out} differently: {differ or "nothing read"}'
    return None


def result_ok(p):
    try:
        return json.loads(p.stdout.strip().splitlines()[-1]).get('ok', False)
    except (ValueError, IndexError):
        return False


def main():
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    only = sys.argv[3:]
    with open(os.path.join(src, 'test/e2e/scenarios.tsv')) as f:
        scenarios = [l.rstrip('\n').split('\t') for l in f if l.strip() and not l.startswith('#')]
    if only:
        scenarios = [s for s in scenarios if s[0] in only]
    comparisons = differential.comparisons(src)
    print(f'1..{len(scenarios) + len(comparisons)}', flush=True)

    assets = os.path.join(build, 'e2e-assets')
    logs = os.path.join(build, 'e2e-logs')
    os.makedirs(logs, exist_ok=True)
    p = subprocess.run([os.path.join(src, 'tools/e2e/build-assets'), build, assets],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        for i, s in enumerate(scenarios, 1):
            print(f'not ok {i} - {s[0]} # assets could not be built')
        print('# ' + p.stdout.replace('\n', '\n# '))
        return 1

    srv = os.path.join(assets, 'srv')
    failed = 0
    booted = set()
    import shutil
    shutil.copy(os.path.join(build, 'src/boot/urlbootx64.efi'), os.path.join(srv, 'urlbootx64.efi'))
    for i, fields in enumerate(scenarios, 1):
        name, cmdline, expect, timeout = fields[:4]
        via = fields[4] if len(fields) > 4 else 'direct'
        # "A && B": A must appear on the console before the marker B (one boot checks both).
        *before, marker = expect.split(' && ')
        requires = [a for r in before for a in ('--require', r)]
        diff = differential.prepare(via, name, build, srv, logs)
        if diff and 'skip' in diff:
            print(f'ok {i} - {name} # SKIP {diff["skip"]}', flush=True)
            continue
        cmdline = re.sub(r'\{sha256:([^}]+)\}', lambda m: sha256(os.path.join(srv, m.group(1))), cmdline)
        cmdline = re.sub(r'\{roothash:([^}]+)\}', lambda m: open(os.path.join(srv, m.group(1) + '.roothash')).read().strip(),
                         cmdline)
        uki = os.path.join(srv, f'{name}.efi')
        extra = []
        skip = None
        if via.startswith('secureboot'):
            extra = ['--sign']
        elif via in ('manager-tpm', 'manager-tpm-systemd-stub'):
            # Profiles 0 and 1; profile 1 boots with an SMBIOS extra: PCR 11 of profile 1's sections, PCR 12
            # the manager's "@1", the stub's profile event and the SMBIOS text.
            prof = os.path.join(logs, 'profile')
            with open(prof, 'w') as f:
                f.write('ID=default\n')
            extra = [f'--profile={prof}', '--profile-cmdline=console=ttyS0 ' + cmdline,
                     f'--profile={prof}', '--profile-cmdline=console=ttyS0 ' + cmdline + ' urlboot.profile=1']
            if via == 'manager-tpm-systemd-stub':
                # The same sections around systemd-stub 262; for the prediction, ours with 262's .sbat.
                sd_stub, skip = reference_stub()
                if sd_stub:
                    ours_extra = extra + [f'--sbat={section_of(sd_stub, ".sbat", os.path.join(logs, "sbat"))}']
                    extra = extra + [f'--stub={sd_stub}']
        elif via in ('https', 'https-lazy', 'https-vars'):
            extra = [f'--ca={tls_pki(src, build, assets)}/ca.pem']
        elif via in ('carried', 'carried-tampered'):
            # The verified root disk inside the UKI's initrd (build-uki --image=): no image over HTTP at all.
            extra = [f'--image={carried_disk(srv, assets, via == "carried-tampered")}']
        elif via == 'carried-luks':
            # The encrypted root inside the UKI, unlocked by systemd 252's cryptsetup generator (rd.luks.*).
            disk, initrd = luks_disk(build, assets)
            extra = [f'--image={disk}', f'--initrd={initrd}']
        elif via.startswith('shim'):
            # Signed with the MOK (shim-other-key: with a key nobody enrolled); the kernel inside keeps
            # Debian's signature, which shim's vendor certificate trusts.
            shim_dir, skip = shim_files(src)
            signer = other_key(assets) if via == 'shim-other-key' else mok_key(assets)
            extra = [f'--sign-key={signer[0]}', f'--sign-cert={signer[1]}']
        if skip:
            print(f'ok {i} - {name} # SKIP {skip}', flush=True)
            continue
        subprocess.run([os.path.join(src, 'tools/e2e/make-uki'), assets, build, uki, 'console=ttyS0 ' + cmdline]
                       + extra + (diff['extra'] if diff else []), check=True)
        if via == 'shim-tampered':
            flip_byte(uki)
        if via == 'shim-foreign-kernel':
            # What the server answers for the UKI: Debian's signed kernel, which shim's vendor certificate trusts
            with open(os.path.join(assets, 'kver')) as f:
                shutil.copy(f'/boot/vmlinuz-{f.read().strip()}', uki)
        if via == 'secureboot-tampered':
            # One byte of the signed UKI changed: inside the .linux section, far from the headers.
            with open(uki, 'r+b') as f:
                f.seek(os.path.getsize(uki) - 4096)
                b = f.read(1)
                f.seek(-1, 1)
                f.write(bytes([b[0] ^ 0xff]))
        log = os.path.join(logs, f'{name}.log')
        boot = ['--bootfile', f'{name}.efi']
        if via == 'secureboot-tpm':
            # Secure Boot and a TPM: PCR 7 holds SecureBoot=1 (the event log says so), PCR 11 the signed UKI's
            # sections; the firmware's load options, if any, are dropped (the UKI has .cmdline): PCR 12 zero.
            boot = ['--bootfile', f'{name}.efi', '--secure-boot', '--require', r'^URLBOOT-EVENTLOG: +7 .*SecureBoot=1$',
                    '--require', r'^BOOTCTL: .*TPM2 Support: yes',
                    '--require', r'^BOOTCTL: .*✓ Measures kernel\+command line\+sysexts$',
                    '--require', r'^URLBOOTCTL: .*✓ Support for passing random seed to OS$']
            boot += TPM_CHECKS + pcr_requires(measure(build, uki, '--secure-boot'))
        elif via.startswith('secureboot'):
            boot = ['--bootfile', f'{name}.efi', '--secure-boot']
        elif via == 'bootentry':
            # No DHCP boot file: a Boot#### entry Uri(URL) written by urlbootctl into the VARS file.
            vars_file = os.path.join(logs, f'{name}.vars.fd')
            shutil.copy('/usr/share/OVMF/OVMF_VARS_4M.fd', vars_file)
            subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'add-uri', '--next', '--vars-file', vars_file,
                            '--title', name, f'http://10.0.2.2:8080/{name}.efi'], check=True, stdout=subprocess.DEVNULL)
            boot = ['--vars', vars_file]
        elif via == 'esp-disk-linux':
            # The same disk; the default is a Type #1 "linux" entry: EFI-stub kernel, initrd, options.
            disk = os.path.join(logs, f'{name}.disk.img')
            with open(os.path.join(assets, 'kver')) as f:
                kver = f.read().strip()
            esp = make_esp_disk(disk, os.path.join(build, 'src/boot/urlbootx64.efi'), uki, logs,
                                linux=(f'/boot/vmlinuz-{kver}', os.path.join(assets, 'initrd.img'),
                                       'console=ttyS0 ' + cmdline + ' urlboot.linux_entry=yes'))
            boot = ['--disk', disk, '--require', r'^ > urlboot linux entry$', '--fail', 'Missing kernel|Other arch']
        elif via == 'esp-disk-oneshot':
            # The same disk; urlbootctl set-oneshot/set-timeout-oneshot in the VARS file pick the Type #2 UKI
            # for this boot and force the menu for 1 s, over loader.conf's default.
            disk = os.path.join(logs, f'{name}.disk.img')
            esp = make_esp_disk(disk, os.path.join(build, 'src/boot/urlbootx64.efi'), uki, logs)
            vars_file = os.path.join(logs, f'{name}.vars.fd')
            shutil.copy('/usr/share/OVMF/OVMF_VARS_4M.fd', vars_file)
            ctl = os.path.join(build, 'src/bootctl/urlbootctl')
            subprocess.run([ctl, 'set-oneshot', 'os.efi', f'--vars-file={vars_file}'], check=True)
            subprocess.run([ctl, 'set-timeout-oneshot', '1', f'--vars-file={vars_file}'], check=True)
            boot = ['--disk', disk, '--vars', vars_file, '--require', r'^ > Debian GNU/Linux',
                    '--require', r'Booting the selected entry in 1 s']
        elif via == 'manager-menu-edit':
            # Two built-in entries; the first (default) cannot be fetched. At the countdown we press Down,
            # then 'e', and type the whole command line plus one word: the edited options reach the kernel.
            entries = []
            for fname, body in ((f'zz-{name}.conf', f'title Broken {name}\nuki-url :{name}-missing.efi\n'),
                                (f'aa-{name}.conf', f'title Good {name}\nuki-url :{name}.efi\n')):
                entries.append(os.path.join(logs, fname))
                with open(entries[-1], 'w') as f:
                    f.write(body)
            conf = os.path.join(logs, f'{name}.loader.conf')
            with open(conf, 'w') as f:
                f.write('timeout 30\neditor yes\n')
            subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'build-manager']
                           + [f'--entry={e}' for e in entries] + [f'--loader-conf={conf}', '--manager',
                           os.path.join(build, 'src/boot/urlbootx64.efi'),
                           f'--output={os.path.join(srv, name + "-manager.efi")}'], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            typed = 'console=ttyS0 ' + cmdline + ' urlboot.edited=yes'
            boot = ['--bootfile', f'{name}-manager.efi', '--send', rf'^ > Broken {name}$=\x1b[Be{typed}\r',
                    '--require', rf'^ > Good {name}$', '--fail', rf'starting http://\S+/{name}-missing\.efi']
        elif via in ('manager-builtin', 'manager-reboot'):
            # The boot manager carries its own menu (.entries) and loader.conf (.loader): no SMBIOS.
            conf = os.path.join(logs, f'{name}.loader.conf')
            entry = os.path.join(logs, f'{name}.conf')
            with open(entry, 'w') as f:
                f.write(f'title Built-in {name}\nuki-url :{name}.efi\n' if via == 'manager-builtin'
                        else f'title Missing {name}\nuki-url :{name}-missing.efi\n')
            with open(conf, 'w') as f:
                f.write('timeout 1\n' if via == 'manager-builtin' else 'timeout 0\nreboot-on-error yes\n')
            subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'build-manager', f'--entry={entry}',
                            f'--loader-conf={conf}', '--manager', os.path.join(build, 'src/boot/urlbootx64.efi'),
                            f'--output={os.path.join(srv, name + "-manager.efi")}'], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            boot = ['--bootfile', f'{name}-manager.efi']
            if via == 'manager-builtin':
                boot += ['--require', rf'^ > Built-in {name}$']
            else:
                boot += ['--require', rf'starting http://10\.0\.2\.2:8080/{name}-missing\.efi', '--expect-exit']
        elif via == 'manager-empty':
            # HTTP-booted with no SMBIOS entries and nothing built in: a message, not a hang or a crash.
            boot = ['--bootfile', 'urlbootx64.efi']
        elif via in ('manager-tpm', 'manager-tpm-systemd-stub'):
            # The profile's word and the SMBIOS extra (cleaned up: the trailing blanks go) reach the kernel.
            smbios_extra = 'urlboot.smbios_extra=yes  '
            boot = ['--bootfile', 'urlbootx64.efi', '--smbios',
                    f'io.systemd.boot.entries-extra:{name}.conf=title {name}\nuki-url :{name}.efi\nprofile 1\n',
                    '--smbios', f'io.systemd.stub.kernel-cmdline-extra={smbios_extra}',
                    '--require', r'URLBOOT-ROOT-OK .*root=gpt-auto.* urlboot\.profile=1 urlboot\.smbios_extra=yes\s*$']
            # A LoaderSystemToken in the VARS file (urlbootctl random-seed): with no RNG in this firmware and
            # Secure Boot off, the manager mixes a seed from it and the kernel finds the table ("RNG="). Both
            # stubs get the same, so that their variables compare (test/e2e/compare.tsv).
            vars_file = os.path.join(logs, f'{name}.vars.fd')
            shutil.copy('/usr/share/OVMF/OVMF_VARS_4M.fd', vars_file)
            subprocess.run([os.path.join(build, 'src/bootctl/urlbootctl'), 'random-seed', f'--vars-file={vars_file}'],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            boot += ['--vars', vars_file, '--require', r'efi: .*RNG=0x']
            predicted = uki
            if via == 'manager-tpm-systemd-stub':
                # The prediction comes from OUR UKI with the same sections: systemd-stub must measure the same.
                predicted = os.path.join(logs, f'{name}-ours.efi')
                subprocess.run([os.path.join(src, 'tools/e2e/make-uki'), assets, build, predicted,
                                'console=ttyS0 ' + cmdline] + ours_extra, check=True)
            else:
                boot += ['--require', r'^URLBOOT-EFIVAR StubPcrKernelParameters=12$']
            boot += TPM_CHECKS + pcr_requires(measure(build, predicted, '--boot-manager', '--profile=1',
                                                      f'--smbios-extra={smbios_extra}'))
            if predicted != uki:
                os.unlink(predicted)
        elif via == 'esp-disk-tpm':
            # Type #1 "uki" entry with options (measured by the manager, then by the stub), credentials beside
            # the UKI and global ones, a system extension image: PCRs 11, 12, 13; loader.conf into PCR 5.
            disk = os.path.join(logs, f'{name}.disk.img')
            files = {}
            for fname, content in (('a.cred', 'first credential\n'), ('b.cred', 'second'), ('g.cred', 'global'),
                                   ('demo.raw', 'not really an image\n' * 64)):
                files[fname] = os.path.join(logs, fname)
                with open(files[fname], 'w') as f:
                    f.write(content)
            options = 'console=ttyS0 ' + cmdline + ' urlboot.type1_options=yes'
            esp = make_esp_disk(disk, os.path.join(build, 'src/boot/urlbootx64.efi'), uki, logs, uki_options=options,
                                extras=[('/EFI/Linux/os.efi.extra.d/a.cred', files['a.cred']),
                                        ('/EFI/Linux/os.efi.extra.d/b.cred', files['b.cred']),
                                        ('/EFI/Linux/os.efi.extra.d/demo.raw', files['demo.raw']),
                                        ('/loader/credentials/g.cred', files['g.cred'])])
            # The entry has a counter: renamed on the disk, LoaderBootCountPath (urlbootctl status in the root).
            boot = ['--disk', disk, '--require', r'^ > urlboot uki with options$', '--require', r'Tool from XBOOTLDR',
                    '--require', r'URLBOOTCTL: +Current Entry: uki-options\.conf$',
                    '--require', r'URLBOOTCTL: +Boot Count: \\loader\\entries\\uki-options\+2-1\.conf',
                    '--fail', 'Missing kernel|Other arch',
                    '--require', r'^URLBOOT-EFIVAR StubPcrInitRDSysExts=13$',
                    '--require', r'^URLBOOT-EFIVAR StubPcrKernelParameters=12$',
                    '--require', r'^URLBOOT-EVENTLOG: +5 .*tag 0xf5bc582a: loader\.conf$',
                    '--require', r'^URLBOOT-PASSED /run/credentials/@\w+/a',
                    '--require', r'URLBOOT-ROOT-OK .*urlboot\.type1_options=yes']
            boot += TPM_CHECKS + pcr_requires(measure(build, uki, '--boot-manager', f'--options={options}',
                                                      f'--credential={files["a.cred"]}', f'--credential={files["b.cred"]}',
                                                      f'--extension={files["demo.raw"]}',
                                                      f'--global-credential={files["g.cred"]}'))
        elif via in ('https', 'https-lazy', 'https-vars'):
            # All over https with one CA: the firmware, the boot manager (:NAME relative to its https URL), the
            # initrd (the CA from the UKI; bootorigin derives the https URL). https-lazy: the image from a server
            # that closes each connection after 4 requests and sends 2 MB/s, so that the copy runs well past
            # the switch and nbdkit opens new TLS connections there (checked in the server's log).
            port = 8443
            boot, fp = https_boot(build, src, assets, srv, logs, name, port, f':{name}.efi')
            boot += ['--require', rf'^URLBOOTCTL: +HTTPS CA Pin: sha256 {fp}$',
                     '--require', rf'^URLBOOTCTL: +Net Boot URL: https://10\.0\.2\.2:{port}/{name}-manager\.efi$',
                     '--require', rf'^URLBOOTCTL: +Net Boot URL: https://10\.0\.2\.2:{port}/{name}\.efi$',
                     '--require', rf'Downloaded https://10\.0\.2\.2:{port}/image\.raw\.zst|https://10\.0\.2\.2:8448/lazy\.raw\.zst '
                                  r'\([0-9.]+ MiB\) is /dev/loop\d+, served from the network']
        elif via in HTTPS_REFUSALS:
            port, line = HTTPS_REFUSALS[via]
            boot, _ = https_boot(build, src, assets, srv, logs, name, 8443, f'https://10.0.2.2:{port}/{name}.efi')
            # the marker is the reboot's announcement; that the VM then resets is uki-url-404-reboots' check
            boot += ['--require', rf'urlboot: https://10\.0\.2\.2:{port}/{name}\.efi: {line}', '--fail', 'URLBOOT-ROOT-OK']
        elif via.startswith('shim'):
            boot = shim_boot(build, src, assets, srv, logs, name, shim_dir)
            if via == 'shim':
                # The whole chain under Secure Boot with Microsoft's keys; both status tools agree; shim's
                # measurements (PCR 7: the MOK that verified the boot manager; PCR 14: the MOK lists) are
                # in the event log, which replays to the TPM; PCR 11 and 12 are as predicted.
                boot += ['--require', r'^URLBOOTCTL: +Secure Boot: enabled \(user\)$',
                         '--require', r'^URLBOOTCTL: +Shim: booted through shim',
                         '--require', r'^BOOTCTL: +Secure Boot: enabled \(user\)$',
                         '--require', r'^URLBOOT-STATUS-OK$',
                         '--require', r'^URLBOOT-EVENTLOG: +14 +0x0000000d +MokList$',
                         '--require', r'^URLBOOT-EVENTLOG: +7 +0x800000e0 +authority MokListRT: .*CN=urlboot test MOK',
                         '--require', r'^URLBOOT-EVENTLOG: +7 .*SecureBoot=1']
                boot += TPM_CHECKS + pcr_requires(measure(build, uki, '--boot-manager', '--secure-boot'))
            elif via == 'shim-foreign-kernel':
                # Issue 38, G1: shim would start it (Debian's signature); the uki entry refuses what is no UKI.
                boot += ['--require', rf'urlboot: http://\S+/{name}\.efi is not a UKI \(no \.linux section\)',
                         '--fail', 'URLBOOT-ROOT-OK|EFI stub: ']
            else:
                # A UKI signed by another key, or changed after signing: shim refuses it, one line saying which
                # (issue 38, point 9: the boot manager tells them apart), a reboot.
                why = ('was changed after it was signed' if via == 'shim-tampered'
                       else 'is not signed by a key this machine trusts')
                boot += ['--require', rf'urlboot: http://\S+/{name}\.efi {why}',
                         '--fail', 'URLBOOT-ROOT-OK']
        elif via == 'manager':
            boot = ['--bootfile', 'urlbootx64.efi', '--smbios',
                    f'io.systemd.boot.entries-extra:{name}.conf=title {name}\nuki-url :{name}.efi\n']
        elif via == 'manager-fw-redirect':
            # Issue 38, point 10: the server answers the boot manager's own GET chunked, which it does not take,
            # so it falls back to the firmware's HTTP boot (LoadFile); to the firmware the server answers with a
            # redirect to the UKI (here http to http, the same server): it must not be followed there either.
            boot = ['--bootfile', 'urlbootx64.efi', '--smbios',
                    f'io.systemd.boot.entries-extra:{name}.conf=title {name}\nuki-url http://10.0.2.2:8080/f=fw-redirect:8080/{name}.efi\n',
                    '--require', r'urlboot: starting http://\S+/f=fw-redirect', '--require', r'HTTP ERROR: Resource Redirected',
                    '--fail', 'URLBOOT-ROOT-OK|EFI stub: ']
        if diff:
            boot = diff['boot']
        http_log = os.path.join(logs, f'{name}.http')
        if via == 'https-vars':
            p = https_vars_boots(build, src, assets, srv, logs, name, log, timeout, marker, boot + requires)
        else:
            p = subprocess.run([os.path.join(src, 'test/netns-run.sh'), sys.executable,
                                os.path.join(src, 'tools/e2e/boot.py'), '--srv', srv, '--log', log, '--timeout', timeout,
                                '--expect', marker, '--server-log', http_log] + requires + boot,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        os.unlink(uki)
        if diff:
            for f in diff['files']:
                os.unlink(f)
            error = diff['check'](http_log) if diff['check'] and result_ok(p) else None
            if error:
                p = subprocess.CompletedProcess(p.args, 1, json.dumps({'ok': False, 'error': error}))
        if result_ok(p):
            # https-vars boots twice, each with a log of its own
            boot_logs = ([log.replace('.log', f'-{b}.log') for b in ('boot1', 'boot2')] if via == 'https-vars'
                         else [log])
            try:
                error = next(filter(None, map(loop_tables_read_twice, boot_logs)), None)
            except OSError as e:
                error = f'cannot read the console log: {e}'
            if error:
                p = subprocess.CompletedProcess(p.args, 1, json.dumps({'ok': False, 'error': error}))
        if via == 'https-lazy' and result_ok(p):
            error = lazy_reconnects_after_switch(log, http_log + '.nginx', json.loads(p.stdout.strip().splitlines()[-1])['epoch_start'])
            if error:
                p = subprocess.CompletedProcess(p.args, 1, json.dumps({'ok': False, 'error': error}))
        if via == 'esp-disk-tpm' and result_ok(p):
            # The counter file was renamed on the disk itself (read back with mtools, not the guest).
            listing = subprocess.run(['mdir', '-b', '-i', esp, '::/loader/entries'], capture_output=True, text=True,
                                     env=dict(os.environ, MTOOLS_SKIP_CHECK='1')).stdout
            if 'uki-options+2-1.conf' not in listing or 'uki-options+3.conf' in listing:
                p = subprocess.CompletedProcess(p.args, 1, json.dumps({'ok': False, 'error': 'entries on disk: ' + listing}))
        for f in (f'{name}-manager.efi', 'grubx64.efi', 'shimx64.efi', 'mmx64.efi'):
            if os.path.exists(os.path.join(srv, f)):
                os.unlink(os.path.join(srv, f))
        if via.startswith('esp-disk'):
            os.unlink(disk)
        if ('tpm' in via or via == 'shim') and 'urlboot.dump_event_log=1' in cmdline and result_ok(p):
            error = check_event_log_copy(build, log, os.path.join(logs, f'{name}.binary_bios_measurements'))
            if error:
                p = subprocess.CompletedProcess(p.args, 1, json.dumps({'ok': False, 'error': error}))
        try:
            result = json.loads(p.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            result = {'ok': False, 'error': p.stdout}
        if result.get('ok'):
            booted.add(name)
            print(f'ok {i} - {name} ({result["seconds"]} s: {json.dumps(result["milestones"])})', flush=True)
        else:
            failed += 1
            print(f'not ok {i} - {name}: {result.get("error")} (log: {log})', flush=True)
            try:
                with open(log) as f:
                    tail = f.readlines()[-25:]
                print(''.join('# ' + l for l in tail), end='')
            except OSError:
                pass
    # Boots side by side (test/e2e/compare.tsv): what urlboot's stub and systemd-stub 262 left in EFI variables.
    for i, (cname, ours, theirs) in enumerate(comparisons, len(scenarios) + 1):
        missing = [s for s in (ours, theirs) if s not in booted]
        if missing:
            print(f'ok {i} - {cname} # SKIP {", ".join(missing)} did not boot in this run', flush=True)
            continue
        good, label, details = differential.judge_comparison(cname, os.path.join(logs, f'{ours}.log'),
                                                             os.path.join(logs, f'{theirs}.log'), ours, theirs)
        failed += not good
        print(f'{"ok" if good else "not ok"} {i} - {label}', flush=True)
        for d in details:
            print('# ' + d, flush=True)
    return 1 if failed else 0


sys.exit(main())
