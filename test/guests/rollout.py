#!/usr/bin/env python3
"""A rollout on a stock machine, boot after boot with one VARS file: the real Debian 12 guest (tools/guest)
booted through Debian's shim with Secure Boot on and only Microsoft's keys, a MOK enrolled, and an i6300esb
hardware watchdog; TAP out.

The server offers versions as entries of a signed list (build-manager --generation=N: .entries and .rollout,
signed with the MOK, named by the boot manager's loader.conf "urlboot-entries :rollout-entries.efi"), each entry
pinned to its UKI's SHA-256 (--uki=); each version is a UKI that pins the guest image by sha256= and hands the
watchdog to systemd (systemd.watchdog_sec=30). The boots, one QEMU run each (a reset ends QEMU, -no-reboot):

  1. list 1 {41}: 41 boots on trial, covered by the watchdog, and is blessed (urlboot-rollout-bless.service after
     boot-complete.target, what ran being what its entry pins); the guest asks for a second key (mokutil --import)
  2. MokManager (shim fetches it from beside itself): driven over the serial console, it enrolls the key
  3. list 2 {42+1, 41}: 42's health check fails, so boot-complete.target is never reached and the deadline reboots
  4. 42 has used its try: the boot manager falls back to 41 by itself; urlbootctl status says why
  5. list 3 {43+1, 42, 41}: 43's image fails verification in the initrd: emergency mode reboots (1 try)
  6. list 4 {44, 43, 42, 41}: 44, signed with the key MokManager enrolled, is picked up and blessed
  7. list 5 {47, 45+1, 44, ...}: 47's UKI is missing (404: a fetch failure, no try), 45 starts on trial and its
     kernel panics (init=/bin/false): the watchdog resets the machine, the try counted
  8. list 6 {47, 46+1, 45, 44, ...}: 47 404 again; 46 hangs silently (init=/usr/bin/cat): the watchdog resets it
  9. the server replays list 3 (older, validly signed): refused, the kept list 6 is offered; 47's URL now serves
     41's signed UKI: refused by 47's pin (its third fetch failure, its tries untouched); 46 and 45 used their
     tries: 44, the newest good version, boots; urlbootctl says so, with the list's generation and the refusal

  rollout.py BUILDDIR SRCDIR          (boots QEMU: run it under flock /tmp/urlboot-qemu.lock)
"""
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import Case, Tap, make_cases_disk, parse_console, run, tail  # noqa: E402

MOK_PASSWORD = 'urlboot-rollout'
DEADLINE = 45          # urlboot.rollout_timeout= of the broken version, seconds from its system's start
WATCHDOG = 30          # systemd.watchdog_sec= of every version: the longest a dead system goes unreset
SERVER_URL = 'http://10.0.2.2:8080'


class Rollout:
    def __init__(self, build, src, tap):
        self.build, self.src, self.tap = build, src, tap
        self.ctl = os.path.join(build, 'src/bootctl/urlbootctl')
        self.assets = os.path.join(build, 'e2e-assets')
        self.srv = os.path.join(build, 'rollout-srv')
        self.logs = os.path.join(build, 'rollout-logs')
        self.vars = os.path.join(self.logs, 'rollout.vars.fd')
        self.boots = 0

    def key(self, name, cn):
        key, cert, der = (os.path.join(self.logs, f'{name}.{x}') for x in ('key', 'pem', 'der'))
        subprocess.run(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert,
                        '-days', '3650', '-subj', f'/CN={cn}', '-addext', 'extendedKeyUsage=codeSigning'],
                       check=True, capture_output=True)
        subprocess.run(['openssl', 'x509', '-in', cert, '-outform', 'der', '-out', der], check=True)
        return key, cert, der

    def prepare(self):
        """Everything served and the VARS file; a reason to skip, or None."""
        shutil.rmtree(self.srv, ignore_errors=True)
        shutil.rmtree(self.logs, ignore_errors=True)
        os.makedirs(self.srv)
        os.makedirs(self.logs)
        p = run([os.path.join(self.src, 'tools/e2e/build-assets'), self.build, self.assets])
        if p.returncode != 0:
            raise RuntimeError('tools/e2e/build-assets failed:\n' + p.stdout[-2000:])
        with open(os.path.join(self.assets, 'kver')) as f:
            kver = f.read().strip()
        p = subprocess.run([os.path.join(self.src, 'tools/guest/build-guest'), f'--kver={kver}', 'bookworm', self.build],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode == 77:
            return (p.stderr.strip().splitlines() or ['the Debian archive cannot be reached'])[-1]
        if p.returncode != 0:
            raise RuntimeError('tools/guest/build-guest bookworm failed:\n' + p.stderr[-2000:])
        image = p.stdout.strip().splitlines()[-1]
        p = subprocess.run([os.path.join(self.src, 'tools/e2e/fetch-shim')], capture_output=True, text=True)
        if p.returncode == 77:
            return (p.stderr.strip().splitlines() or ['shim cannot be fetched'])[-1]
        if p.returncode != 0:
            raise RuntimeError('tools/e2e/fetch-shim failed: ' + p.stderr)
        shim = p.stdout.strip()
        for f in ('shimx64.efi', 'mmx64.efi'):
            shutil.copy(os.path.join(shim, f), os.path.join(self.srv, f))
        served = os.path.join(self.srv, 'bookworm.raw.zst')
        try:
            os.link(image, served)
        except OSError:
            shutil.copy(image, served)
        h = hashlib.sha256()
        with open(served, 'rb') as f:
            for b in iter(lambda: f.read(1 << 20), b''):
                h.update(b)
        digest = h.hexdigest()
        p = run([os.path.join(self.src, 'tools/e2e/make-initrd'), '--small', os.path.join(self.assets, 'stage'), kver,
                 os.path.join(self.assets, 'initrd-small.img')])
        if p.returncode != 0:
            raise RuntimeError('tools/e2e/make-initrd --small failed:\n' + p.stdout[-2000:])
        initrd = p.stdout.strip().splitlines()[-1]

        self.key_a = self.key('key-a', 'urlboot test MOK A')
        self.key_b = self.key('key-b', 'urlboot test MOK B')
        shutil.copy('/usr/share/OVMF/OVMF_VARS_4M.ms.fd', self.vars)
        subprocess.run([self.ctl, 'enroll-mok', self.key_a[1], f'--vars-file={self.vars}'], check=True, capture_output=True)

        # The boot manager, once: shim's second stage, signed with key A; its loader.conf names the entry list.
        conf = os.path.join(self.logs, 'loader.conf')
        with open(conf, 'w') as f:
            f.write('timeout 0\nreboot-on-error yes\nurlboot-entries :rollout-entries.efi\nurlboot-rollout-tries 2\n')
        self.sign_run([self.ctl, 'build-manager', f'--loader-conf={conf}', '--manager',
                       os.path.join(self.build, 'src/boot/urlbootx64.efi'), f'--output={self.srv}/grubx64.efi'], self.key_a)

        # The versions: the same guest image, pinned; 42 never reaches boot-complete.target (the guest's health
        # check, tools/guest/urlboot-guest-health.service, fails on urlboot.guest_unhealthy); 43 pins a wrong
        # digest; 44 is signed with key B (which only MokManager's enrolment makes trusted); 45's system is no
        # system (init=/bin/false: the kernel panics), 46's hangs without a word (init=/usr/bin/cat: PID 1 reads a
        # console nobody types on); 47's UKI is never on the server as itself.
        base = (f'console=ttyS0 rd.systemd.pull=raw,machine,sha256={{}},blockdev,bootorigin:rootdisk:bookworm.raw.zst '
                f'root=gpt-auto rw rootflags=x-systemd.device-timeout=300 systemd.watchdog_sec={WATCHDOG}')
        versions = {
            41: (base.format(digest), self.key_a),
            42: (base.format(digest) + f' urlboot.guest_unhealthy urlboot.rollout_timeout={DEADLINE}', self.key_a),
            43: (base.format('0' * 64), self.key_a),
            44: (base.format(digest), self.key_b),
            45: (base.format(digest) + ' init=/bin/false', self.key_a),
            46: (base.format(digest) + ' init=/usr/bin/cat', self.key_a),
            47: (base.format(digest) + ' urlboot.version=47', self.key_a),
        }
        for v, (cmdline, key) in versions.items():
            p = run([os.path.join(self.src, 'tools/e2e/make-uki'), self.assets, self.build,
                     os.path.join(self.srv, f'image-{v}.efi'), cmdline, f'--initrd={initrd}',
                     f'--sign-key={key[0]}', f'--sign-cert={key[1]}'])
            if p.returncode != 0:
                raise RuntimeError(f'the UKI of version {v} could not be built:\n' + p.stdout[-2000:])
        # 47's UKI lives apart: the boots decide what the server answers for it (nothing, or other bytes)
        os.replace(os.path.join(self.srv, 'image-47.efi'), os.path.join(self.logs, 'image-47.efi'))
        return None

    def sign_run(self, cmd, key):
        subprocess.run(cmd + [f'--sign-key={key[0]}', f'--sign-cert={key[1]}'], check=True, capture_output=True)

    def publish(self, generation, versions):
        """Entry list `generation` offering these versions (newest first), each pinned to its UKI, signed with
        key A, moved into place; a copy stays in the logs (list-N.efi) for a replay."""
        entries = []
        for v in versions:
            name = f'image-{v}+1.conf' if v in (42, 43, 45, 46) else f'image-{v}.conf'
            entries.append(os.path.join(self.logs, name))
            with open(entries[-1], 'w') as f:
                f.write(f'title Debian image {v}\nuki-url :image-{v}.efi\n')
        ukis = [os.path.join(self.logs if v == 47 else self.srv, f'image-{v}.efi') for v in versions]
        out = os.path.join(self.srv, 'rollout-entries.efi')
        self.sign_run([self.ctl, 'build-manager', f'--generation={generation}', '--max-age=30d'] +
                      [f'--entry={e}' for e in entries] + [f'--uki={u}' for u in ukis] +
                      ['--manager', os.path.join(self.build, 'src/boot/urlbootx64.efi'), f'--output={out}.new'],
                      self.key_a)
        shutil.copy(out + '.new', os.path.join(self.logs, f'list-{generation}.efi'))
        os.replace(out + '.new', out)

    def replay(self, generation):
        """The server answers with an older list it once published (validly signed)."""
        shutil.copy(os.path.join(self.logs, f'list-{generation}.efi'), os.path.join(self.srv, 'rollout-entries.efi'))

    def boot(self, label, timeout, cases=(), extra=(), expect=r'URLBOOT-GUEST-DONE', panic_fails=True):
        """One QEMU run with the VARS file in place; returns (result, console lines)."""
        self.boots += 1
        log = os.path.join(self.logs, f'boot-{self.boots}-{label}.log')
        cmd = [os.path.join(self.src, 'test/netns-run.sh'), sys.executable, os.path.join(self.src, 'tools/e2e/boot.py'),
               '--srv', self.srv, '--bootfile', 'shimx64.efi', '--secure-boot', '--vars', self.vars, '--vars-in-place',
               '--log', log, '--timeout', str(timeout), '--memory', '3072', '--expect', expect, '--watchdog',
               '--server-log', log[:-4] + '.http'] + (['--fail', r'Kernel panic - not syncing'] if panic_fails else []) + \
            list(extra)
        if cases:
            disk = os.path.join(self.logs, f'boot-{self.boots}.cases.tar')
            make_cases_disk(disk, 'bookworm', cases, self.src, {'URLBOOT_SERVER_URL': SERVER_URL,
                                                                 'URLBOOT_MOK_PASSWORD': MOK_PASSWORD})
            cmd += ['--drive', f'urlboot-cases={disk}']
        p = run(cmd)
        try:
            result = json.loads(p.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            result = {'ok': False, 'error': p.stdout[-1000:]}
        with open(log, errors='replace') as f:
            lines = [re.sub(r'^\[ *[\d.]+\] ?', '', l.rstrip('\n')) for l in f]
        result['log'] = log
        return result, lines

    def check(self, ok, text, log=None):
        self.tap.test(ok, text)
        if not ok and log:
            self.tap.comment(tail(log, 25))


def case(src, name, data=None):
    c = Case(os.path.join(src, 'test/guests/rollout', f'{name}.sh'))
    if data:
        c.data = data
    return c


def report(lines):
    """What report.sh printed: the JSON of urlbootctl rollout, status and bootctl lines."""
    out = {'json': None, 'status': [], 'bootctl': [], 'bless': None, 'selected': None, 'watchdog': []}
    for l in lines:
        m = re.search(r'URLBOOT-CASE report\| (ROLLOUT-[A-Z-]+) ?(.*)$', l)
        if not m:
            continue
        kind, rest = m.groups()
        rest = rest.strip()
        if kind == 'ROLLOUT-JSON':
            try:
                out['json'] = json.loads(rest)
            except ValueError:
                pass
        elif kind == 'ROLLOUT-STATUS':
            out['status'].append(rest)
        elif kind == 'ROLLOUT-BOOTCTL':
            out['bootctl'].append(rest)
        elif kind == 'ROLLOUT-BLESS':
            out['bless'] = rest
        elif kind == 'ROLLOUT-ENTRY-SELECTED':
            out['selected'] = rest
        elif kind == 'ROLLOUT-WATCHDOG':
            out['watchdog'].append('switch' if 'Switching root' in rest else 'watchdog')
    return out


def states(rep):
    j = rep['json'] or {}
    return {v['id']: (v['state'], v['triesLeft'], v['triesDone']) for v in j.get('versions', [])}


def fetch_failures(rep):
    j = rep['json'] or {}
    return {v['id']: v['fetchFailures'] for v in j.get('versions', [])}


def seen(lines, rx):
    return any(re.search(rx, l) for l in lines)


def when(log, rx):
    """Seconds since QEMU started of the first line of the serial log matching rx (boot.py's stamps), or None."""
    with open(log, errors='replace') as f:
        for l in f:
            m = re.match(r'^\[ *([\d.]+)\] ?(.*)$', l)
            if m and re.search(rx, m.group(2)):
                return float(m.group(1))
    return None


def main():
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    tap = Tap()
    r = Rollout(build, src, tap)
    try:
        skip = r.prepare()
    except (RuntimeError, subprocess.CalledProcessError) as e:
        tap.test(False, f'rollout: the boot files could not be made: {e}')
        print(f'1..{tap.count}')
        return 1
    if skip:
        print(f'1..0 # SKIP {skip}')
        return 0
    b_data = os.path.join(r.logs, 'mok-import.d')
    os.makedirs(b_data)
    shutil.copy(r.key_b[2], os.path.join(b_data, 'key-b.der'))

    # 1. version 41, new: on trial, blessed; the guest asks for key B's enrolment.
    r.publish(1, [41])
    res, lines = r.boot('41-first', 420, cases=[case(src, 'mok-import', b_data), case(src, 'report')])
    rep = report(lines)
    st = states(rep)
    r.check(res.get('ok') and seen(lines, r'urlboot boot manager .*through shim') and
            seen(lines, r'image-41\.conf is on trial: start 1, 1 tries left'),
            'rollout: through shim (Secure Boot, Microsoft\'s keys, a MOK), the boot manager starts the only version, '
            'image-41, on trial (start 1 of 2)', res['log'])
    r.check(st.get('image-41.conf') == ('good', 1, 1) and rep['bless'] == 'active',
            f'rollout: image-41 reached boot-complete.target and urlboot-rollout-bless.service marked it good, the UKI '
            f'that ran being the one its entry pins ({st})', res['log'])
    r.check(seen(lines, r'image-41\.conf: the hardware watchdog \(i6300esb, locked\) resets the machine unless systemd '
                        r'feeds it') and rep['watchdog'] == ['watchdog', 'switch', 'watchdog'] and 'reset' not in res['milestones'],
            f'watchdog: the trial of image-41 is covered by the locked i6300esb watchdog; systemd takes it over '
            f'(systemd.watchdog_sec=) in the initrd and again after the switch ({rep["watchdog"]}): no reset', res['log'])
    r.check(any(re.match(r'^ *Rollout: image-41\.conf, good \(newest version\)$', s) for s in rep['status']) and
            any(re.match(r'^ *Shim: booted through shim', s) for s in rep['status']) and
            any(re.match(r'^ *Rollout List: generation 1 \(fetched\), made .* ago \(max-age 4w 2d\)$', s)
                for s in rep['status']),
            'rollout: urlbootctl status: "Rollout: image-41.conf, good (newest version)", the entry list\'s generation '
            'and age, booted through shim', res['log'])
    r.check(rep['selected'] == 'image-41.conf' and
            any(re.search(r'Secure Boot: enabled \(user\)', s) for s in rep['bootctl']),
            'rollout: LoaderEntrySelected (v258\'s "Current Entry") is image-41.conf; systemd 252\'s bootctl says Secure '
            'Boot enabled (user)', res['log'])
    r.check(seen(lines, r'URLBOOT-CASE mok-import\| ok 1 ') and seen(lines, r'URLBOOT-CASE mok-import\| ok 2 '),
            'mok: in the guest, mokutil --import asked for key B\'s enrolment (mokutil --list-new shows it)', res['log'])

    # 2. MokManager: shim finds the request and fetches mmx64.efi from beside itself.
    keys = [(r'Press any key to perform MOK management', ' '), (r'Enroll MOK', r'\x1b[B\r'),
            (r'Continue', r'\x1b[B\r'), (r'Enroll the key', r'\x1b[B\r'), (r'Password', MOK_PASSWORD + r'\r'),
            (r'Reboot', r'\r')]
    res, lines = r.boot('mokmanager', 180, expect='(?!)',
                        extra=[a for k, v in keys for a in ('--send-screen', f'{k}={v}')] +
                        ['--expect-stop', '--require', r'Shim UEFI key management'])
    r.check(res.get('ok'),
            'mok: MokManager (fetched by shim from beside itself) enrolled key B, driven over the serial console, '
            'and reset the machine', res['log'])

    # 3. version 42 (one try): its system never reaches boot-complete.target; the deadline reboots.
    r.publish(2, [42, 41])
    res, lines = r.boot('42-try', DEADLINE + 150, expect='(?!)',
                        extra=['--expect-stop', '--require', r'image-42\.conf is on trial: start 1, 0 tries left'])
    reset = res.get('milestones', {}).get('reset', 0)
    r.check(res.get('ok') and reset > DEADLINE and seen(lines, r'(Starting|Finished) urlboot-rollout-d|did not reach boot-complete') and
            seen(lines, r'reboot: Restarting system') and not seen(lines, r'Finished urlboot-rollout-b'),
            f'rollout: image-42 (boot-complete.target never reached) on trial: the deadline '
            f'(urlboot.rollout_timeout={DEADLINE}) rebooted it ({reset:.0f} s after power-on)', res['log'])

    # 4. 42 has no try left: back to 41, by itself.
    res, lines = r.boot('41-fallback', 420, cases=[case(src, 'report')])
    rep = report(lines)
    st = states(rep)
    r.check(res.get('ok') and seen(lines, r'image-41\.conf: fallback: image-42\.conf used up its tries'),
            'rollout: the boot manager falls back to image-41 by itself ("image-42.conf used up its tries")', res['log'])
    r.check(any(re.match(r'^ *Rollout: image-41\.conf, good \(fallback: image-42\.conf used up its tries\)$', s)
                for s in rep['status']) and st.get('image-42.conf') == ('bad', 0, 1),
            f'rollout: urlbootctl status says why ("fallback: image-42.conf used up its tries"); rollout shows 42 bad '
            f'after its start ({st})', res['log'])

    # 5. version 43 (one try, image-43+1.conf): its image fails verification in the initrd.
    r.publish(3, [43, 42, 41])
    res, lines = r.boot('43-verify-fails', 240, expect='(?!)',
                        extra=['--expect-stop', '--require', r'image-43\.conf is on trial: start 1, 0 tries left'])
    r.check(res.get('ok') and seen(lines, r'but 0{64} was expected') and
            seen(lines, r'urlboot-rollout-f|is on trial and failed') and seen(lines, r'reboot: Restarting system'),
            'rollout: image-43 (1 try) fails verification in the initrd: emergency mode reboots at once', res['log'])

    # 6. version 44, signed with key B: the enrolment worked; picked up and blessed.
    r.publish(4, [44, 43, 42, 41])
    res, lines = r.boot('44-fixed', 420, cases=[case(src, 'report')])
    rep = report(lines)
    st = states(rep)
    r.check(res.get('ok') and st.get('image-44.conf') == ('good', 1, 1) and
            any(re.match(r'^ *Rollout: image-44\.conf, good \(newest version\)$', s) for s in rep['status']),
            f'rollout: the fixed image-44 (signed with key B, enrolled through MokManager) is picked up and blessed '
            f'({st})', res['log'])
    r.check(st.get('image-43.conf', ('',))[0] == 'bad' and st.get('image-42.conf', ('',))[0] == 'bad' and
            st.get('image-41.conf', ('',))[0] == 'good',
            'rollout: urlbootctl rollout lists 43 and 42 bad, 41 good', res['log'])

    # 7. 47's UKI is missing; 45 (one try) panics: the watchdog resets the machine and the try counts.
    r.publish(5, [47, 45, 44, 43, 42, 41])
    res, lines = r.boot('45-panics', 300, expect='(?!)', panic_fails=False,
                        extra=['--expect-stop', '--require', r'image-47\.efi: the server answered with an error',
                               '--require', r'image-47\.conf: its UKI could not be fetched or was refused \(1 of 5 times',
                               '--require', r'image-45\.conf is on trial: start 1, 0 tries left',
                               '--require', r'image-45\.conf: the hardware watchdog \(i6300esb, locked\)',
                               '--require', r'Kernel panic - not syncing'])
    panic, reset = when(res['log'], r'Kernel panic - not syncing'), res.get('milestones', {}).get('reset')
    r.check(res.get('ok') and panic and reset and 0 < reset - panic <= WATCHDOG + 15,
            f'watchdog: image-45 (on trial) panics before its system runs (init=/bin/false); the watchdog the boot '
            f'manager armed resets the machine {reset - panic if panic and reset else 0:.0f} s later (systemd.watchdog_sec='
            f'{WATCHDOG}); image-47, whose UKI is missing, cost no try', res['log'])

    # 8. 47 still missing; 46 (one try) hangs without a word: reset by the watchdog as well.
    r.publish(6, [47, 46, 45, 44, 43, 42, 41])
    res, lines = r.boot('46-hangs', 300, expect='(?!)',
                        extra=['--expect-stop', '--require', r'image-47\.conf: its UKI could not be fetched or was refused \(2 of 5',
                               '--require', r'image-46\.conf is on trial: start 1, 0 tries left',
                               '--require', r'image-46\.conf: the hardware watchdog \(i6300esb, locked\)',
                               '--require', r'Starting initrd-switch-root\.service'])
    switched, reset = when(res['log'], r'Starting initrd-switch-root\.service'), res.get('milestones', {}).get('reset')
    last = when(res['log'], r'Kernel panic|Welcome to Debian GNU/Linux 12 \(bookworm\)!$')
    r.check(res.get('ok') and switched and reset and 0 < reset - switched <= WATCHDOG + 30 and not last,
            f'watchdog: image-46 (on trial) hangs silently after the switch (init=/usr/bin/cat: no systemd, no deadline '
            f'timer, no panic, not a word); the watchdog resets the machine {reset - switched if switched and reset else 0:.0f} '
            f's after the switch began', res['log'])

    # 9. The server replays list 3 and answers 47's URL with 41's signed UKI; 45 and 46 used their tries.
    r.replay(3)
    shutil.copy(os.path.join(r.srv, 'image-41.efi'), os.path.join(r.srv, 'image-47.efi'))
    res, lines = r.boot('replay-and-older-uki', 420, cases=[case(src, 'report')])
    rep = report(lines)
    st, ff = states(rep), fetch_failures(rep)
    lst = (rep['json'] or {}).get('list') or {}
    r.check(res.get('ok') and seen(lines, r'rollout-entries\.efi: entry list generation 3 is older than generation 6, '
                                          r'which this machine took before; refused') and
            seen(lines, r'offering the versions of entry list generation 6, kept from an earlier boot') and
            (lst.get('generation'), lst.get('source'), lst.get('refusedGeneration')) == (6, 'kept-refused-older', 3),
            f'rollout: a replayed older signed entry list (generation 3) is refused; the list kept from generation 6 is '
            f'offered, and urlbootctl rollout says so ({lst})', res['log'])
    r.check(seen(lines, r'image-47\.efi has SHA-256 [0-9a-f]{64}, but entry image-47\.conf pins [0-9a-f]{64} '
                        r'\(an older or another image\); refused') and
            st.get('image-47.conf') == ('trial', 2, 0) and ff.get('image-47.conf') == 3,
            f'rollout: an older signed UKI (41\'s) served under image-47\'s URL is refused by its pin before LoadImage(); '
            f'three failed fetches (404, 404, pin) left image-47\'s tries untouched ({st.get("image-47.conf")}, '
            f'{ff.get("image-47.conf")} fetch failures)', res['log'])
    r.check(any(re.match(r'^ *Rollout: image-44\.conf, good \(fallback: image-47\.conf could not be fetched\)$', s)
                for s in rep['status']) and st.get('image-45.conf', ('',))[0] == 'bad' and
            st.get('image-46.conf', ('',))[0] == 'bad' and rep['selected'] == 'image-44.conf',
            f'rollout: meanwhile the newest good version, image-44, boots ("fallback: image-47.conf could not be '
            f'fetched"); 45 and 46, reset by the watchdog, are bad ({st})', res['log'])
    for f in glob.glob(os.path.join(r.srv, '*')):
        if f.endswith('.raw.zst'):
            os.unlink(f)
    print(f'1..{tap.count}')
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
