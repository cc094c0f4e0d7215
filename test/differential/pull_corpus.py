"""The generated corpus of pull expressions for the import-generator differential test.

Every option alone and in combination, local names and URLs that are odd or invalid, escapes,
bootorigin against several StubDeviceURLs, host mode, actions, several expressions on one line.
Each input: dict(name, cmdline, efivars={NAME: VALUE}, credentials={NAME: TEXT}, initrd=True).
"""

STUB = 'http://10.0.2.2:8080/dir/uki.efi'
BASE_URL = 'http://example.com/images/image.raw.zst'


def quote(word):
    """A kernel command line word; quoted when it has a space (the quotes are removed by both)."""
    return f'"{word}"' if (' ' in word or '\t' in word) else word


def pull(expr, key='rd.systemd.pull'):
    return quote(f'{key}={expr}')


def inputs():
    out = []

    def add(name, cmdline, efivars=None, credentials=None, initrd=True):
        out.append(dict(name=name, cmdline=cmdline, efivars=efivars or {}, credentials=credentials or {},
                        initrd=initrd))

    # Types x classes x ro/rw, named and derived local names.
    for typ, url in (('raw', 'http://example.com/images/fedora.raw.xz'),
                     ('tar', 'http://example.com/images/fedora.tar.gz')):
        for cls in ('machine', 'portable', 'sysext', 'confext'):
            for ro in ('', ',ro', ',rw'):
                for local in ('', 'img'):
                    add(f'{typ}-{cls}{ro.replace(",", "-")}-{local or "derived"}',
                        pull(f'{typ},{cls}{ro}:{local}:{url}'))

    # One option at a time on a raw machine image.
    opts = ['verify=no', 'verify=checksum', 'verify=signature', 'verify=SIGNATURE', 'verify=bogus', 'verify=',
            'verify=' + 'ab' * 32,
            'runtime=yes', 'runtime=no', 'runtime=1', 'runtime=0', 'runtime=true', 'runtime=false', 'runtime=on',
            'runtime=off', 'runtime=y', 'runtime=n', 'runtime=t', 'runtime=f', 'runtime=YES', 'runtime=bogus',
            'runtime=',
            'blockdev', 'bootorigin', 'ro', 'rw', 'ro,rw', 'rw,ro', 'blockdev,blockdev',
            'sha256=' + 'a' * 64, 'sha256=' + 'A' * 64, 'sha256=' + 'a' * 63, 'sha256=' + 'g' * 64, 'sha256=',
            'mirror=http\\://mirror.example/image.raw.zst', 'mirror=https\\://m/x.raw.zst,mirror=file\\:/srv/x.raw.zst',
            'mirror=ftp\\://m/x', 'mirror=',
            'foo', 'RAW', 'Machine', 'verify', 'runtime', 'raw', 'machine', 'tar', 'portable',
            'sysext,machine', 'tar,raw', 'raw,tar', ' raw', 'raw ']
    for o in opts:
        add(f'option {o}', pull(f'raw,machine,{o}:img:{BASE_URL}'), efivars={'StubDeviceURL': STUB})
    for o in ('', ',', ',,', 'raw,,machine', ',raw,machine', 'raw,machine,', 'machine', 'raw', 'tar,machine,blockdev',
              'tar,sysext,blockdev', 'raw\\,machine', 'raw,mach\\ine', 'raw,machine\\'):
        add(f'options {o!r}', pull(f'{o}:img:{BASE_URL}'))

    # Local names.
    for local in ('-x', '--force', '-', '.#x', '.hidden', '..', '.', 'a/b', 'a\\:b', 'a\\\\b', 'a\\b', 'x' * 59,
                  'x' * 60, 'x' * 255, 'x' * 256, 'ümlaut', 'a b', 'x.raw', 'x.raw.xz', 'my-disk.v2_ü', 'a%b', 'a$b',
                  "a'b", 'a"b', 'a\\,b', 'UPPER', '1', 'a\tb', '\\-x'):
        add(f'local {local!r}', pull(f'raw,machine,verify=no:{local}:{BASE_URL}'))
    for local in ('x' * 58, 'x' * 59, 'x' * 60):
        add(f'blockdev local of {len(local)} bytes', pull(f'raw,machine,blockdev:{local}:{BASE_URL}'))

    # URLs (derived local names, validity, odd characters).
    urls = ['https://example.com/x.raw', 'file:/srv/x.raw', 'file:///srv/x.raw', 'file:x.raw', 'file:', 'file:/',
            'ftp://h/x.raw', 'http://', 'https://', 'http://h', 'http://h/', 'http://h/.raw', 'http://h/x.raw?q=1#f',
            'http://h/dir/', 'http://h/x.raw/', 'http://h/dir//x.raw', 'http://user:pw@h:8080/x.raw',
            'http://[::1]:8080/x.raw', 'http://h/a:b.raw', 'http://h/%41.raw', 'http://h/$x.raw', 'http://h/${X}.raw',
            "http://h/x'y.raw", 'http://h/x"y.raw', 'http://h/x\\y.raw', 'http://h/x.raw\\', 'http://h/ü.raw',
            'HTTP://H/x.raw', 'Http://h/x.raw', 'http:/h/x.raw', 'http:h/x.raw', 'http://h?x', 'http://h#x',
            'http://h/x.raw.xz.gz', 'http://h/disk.qcow2', 'http://h/x.img', 'http://h/x.bin.img', 'http://h/a.img.raw.gz',
            'http://h/foo.sysext.raw', 'http://h/foo.confext.raw', 'http://h/foo.tar.xz', 'http://h/--force.raw',
            'http://h/-x.raw', 'http://h/.#x.raw', 'http://h/x%%y.raw', 'http://h/x%ny.raw', 'http://h/a b.raw',
            'http://h/' + 'y' * 300 + '.raw', 'http://h/x.raw?a=b:c', 'http://h:80/x.raw', 'http://h:/x.raw',
            'http://h/x.raw;v=1', 'http://h/x\x7f.raw', 'gopher://h/x.raw', 'x.raw', '/srv/x.raw']
    for u in urls:
        add(f'url {u!r}', pull(f'raw,machine,verify=no::{u}'))
    for u in ('http://h/foo.tar', 'http://h/foo.tgz', 'http://h/foo.txz', 'http://h/foo.tar.zst', 'http://h/foo.tar.bz2',
              'http://h/.tar', 'http://h/foo.tar.xz.gz', 'http://h/foo.raw', 'http://h/foo'):
        add(f'tar url {u!r}', pull(f'tar,machine,verify=no::{u}'))

    # bootorigin: file names next to several StubDeviceURLs.
    for remote in ('image.raw.zst', 'sub/img.raw', '../img.raw', 'http://other/x.raw', '/abs.raw', 'img.raw?x',
                   'img.raw#y', 'a:b.raw', 'img raw', './img.raw', 'ü.raw', 'img.raw\\'):
        add(f'bootorigin {remote!r}', pull(f'raw,machine,verify=no,bootorigin:root:{remote}'),
            efivars={'StubDeviceURL': STUB})
    for stub in ('http://10.0.2.2:8080/dir/uki.efi?x=1#y', 'http://h/dir/', 'http://h', 'http://h/', 'https://h/a/b/c.efi',
                 'ftp://h/x.efi', 'file:/x.efi', 'not a url', '', 'http://h/dir//uki.efi', 'http://[fe80::1]/u.efi'):
        add(f'StubDeviceURL {stub!r}', pull('raw,machine,verify=no,bootorigin,blockdev:rootdisk:image.raw.zst'),
            efivars={'StubDeviceURL': stub})
    add('bootorigin without StubDeviceURL', pull('raw,machine,verify=no,bootorigin:root:image.raw.zst'))
    add('bootorigin, derived name', pull('raw,machine,verify=no,bootorigin::image.raw.zst'), efivars={'StubDeviceURL': STUB})
    add('bootorigin tar', pull('tar,machine,verify=no,bootorigin:root:image.tar.xz'), efivars={'StubDeviceURL': STUB})

    # The expression's shape.
    for expr in ('', ':', '::', 'raw', 'raw,machine:img', 'raw,machine:img:', 'raw,machine::', ':img:' + BASE_URL,
                 'raw,machine:img:' + BASE_URL + ':extra', 'raw,machine\\:img:' + BASE_URL,
                 'raw,machine:img\\:' + BASE_URL, 'raw,machine:img:\\' + BASE_URL):
        add(f'expression {expr!r}', pull(expr))
    add('key without value', 'rd.systemd.pull')
    add('key with empty value', 'rd.systemd.pull=')
    add('key spelled with dashes', pull(f'raw,machine:img:{BASE_URL}', key='rd.systemd-pull'))
    add('key spelled with an underscore', pull(f'raw,machine:img:{BASE_URL}', key='rd.systemd_pull'))
    add('plain key in the initrd', pull(f'raw,machine:img:{BASE_URL}', key='systemd.pull'))
    add('host: plain key', pull(f'raw,machine:img:{BASE_URL}', key='systemd.pull'), initrd=False)
    add('host: rd. key', pull(f'raw,machine:img:{BASE_URL}'), initrd=False)
    add('host: runtime=yes', pull(f'raw,machine,runtime=yes:img:{BASE_URL}', key='systemd.pull'), initrd=False)
    add('host: sysext', pull(f'raw,sysext:img:{BASE_URL}', key='systemd.pull'), initrd=False)
    add('host: blockdev', pull(f'raw,machine,blockdev:img:{BASE_URL}', key='systemd.pull'), initrd=False)
    add('two expressions', pull(f'raw,machine:a:{BASE_URL}') + ' ' + pull('tar,portable::http://h/b.tar.xz'))
    add('the same image twice', pull(f'raw,machine:a:{BASE_URL}') + ' ' + pull('raw,machine,ro:a:http://h/other.raw'))
    add('the same name, raw and tar', pull(f'raw,machine:a:{BASE_URL}') + ' ' + pull('tar,machine:a:http://h/a.tar'))
    add('the same name, two classes', pull(f'raw,machine:a:{BASE_URL}') + ' ' + pull('raw,sysext:a:http://h/a.raw'))
    add('quoted expression with spaces', '"rd.systemd.pull=raw,machine:a b:http://h/x.raw"')
    add('single-quoted expression', "'rd.systemd.pull=raw,machine:a:http://h/x.raw'")

    # Success and failure actions.
    for key, value in (('success_action', 'reboot'), ('failure_action', 'poweroff'), ('failure_action', 'none'),
                       ('success_action', 'exit'), ('failure_action', 'reboot-force'),
                       ('failure_action', 'soft-reboot'), ('success_action', 'kexec'),
                       ('failure_action', 'halt-immediate'), ('failure_action', 'poweroff-immediate'),
                       ('failure_action', 'bogus'), ('success_action', ''), ('failure_action', 'REBOOT'),
                       ('failure_action', 'reboot\\nFoo=bar'), ('success-action', 'reboot'),
                       ('failure_action', 'exit-force')):
        add(f'{key}={value}', pull(f'raw,machine:img:{BASE_URL}') + f' rd.systemd.pull.{key}={value}')
    add('failure_action without value', pull(f'raw,machine:img:{BASE_URL}') + ' rd.systemd.pull.failure_action')
    add('last failure_action wins', pull(f'raw,machine:img:{BASE_URL}') +
        ' rd.systemd.pull.failure_action=reboot rd.systemd.pull.failure_action=poweroff')
    add('an invalid failure_action after a valid one', pull(f'raw,machine:img:{BASE_URL}') +
        ' rd.systemd.pull.failure_action=reboot rd.systemd.pull.failure_action=bogus')
    add('actions only', 'rd.systemd.pull.success_action=reboot')

    # The import.pull credential.
    add('credential', '', credentials={'import.pull': f'raw,machine:cred:{BASE_URL}\n'})
    add('credential lines', '', credentials={'import.pull':
        f'# a comment\n\n   raw,machine:a:{BASE_URL}   \n\traw,machine:b:http://h/b.raw\r\nraw,bogus::http://h/c.raw\n'})
    add('credential after the command line', pull(f'raw,machine:a:{BASE_URL}'),
        credentials={'import.pull': 'raw,machine,ro:a:http://h/other.raw\n'})
    add('credential without final newline', '', credentials={'import.pull': f'raw,machine:a:{BASE_URL}'})
    return out
