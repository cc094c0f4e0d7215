"""The arm64 system of test/e2e/aa64-boot.py's network boot: a Debian 12 arm64 tree (mmdebstrap --arch=arm64,
its programs run by qemu-user through binfmt_misc) in which dracut builds the initrd with urlboot's module
from the cross build's files, and the root image that initrd pulls: busybox and urlbootctl with their
libraries, on the arm64 root partition type (tools/image/make-disk-image --arch=arm64)."""
import fcntl
import hashlib
import os
import shutil
import subprocess

MIRROR = os.environ.get('URLBOOT_DEBIAN_MIRROR', 'http://deb.debian.org/debian')
# systemd and udev for the initrd, dracut (its systemd-networkd module is in dracut-network), and the libraries urlboot's programs link (those of the package
# urlboot's Depends and Recommends on arm64: libarchive for tarballs, libsystemd for the journal)
PACKAGES = ('systemd-sysv udev dbus kmod dracut-core dracut-network zstd fdisk ca-certificates libcurl4 liblzma5 libzstd1 zlib1g '
            'libbz2-1.0 libarchive13 libssl3 libblkid1 libsystemd0 libjson-c5 libkeyutils1 libldns3 libdevmapper1.02.1 '
            'libmicrohttpd12').split()
DRACUT_MODULES = 'systemd-initrd udev-rules systemd-networkd urlboot base'
DRACUT_OMIT = 'ifcfg dracut-systemd rootfs-block plymouth'


def tree(cache, kernel_deb):
    """The tree (cached under a key of its packages and kernel), built when missing: its path, or
    (None, why) when it cannot be built. The kernel's modules are in it (dracut takes them from there)."""
    key = hashlib.sha256((' '.join(PACKAGES) + os.path.basename(kernel_deb)).encode()).hexdigest()[:12]
    path = os.path.join(cache, f'arm64-tree-{key}')
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, 'arm64-tree.lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(os.path.join(path, '.complete')):
            return path, None
        shutil.rmtree(path + '.tmp', ignore_errors=True)
        log = os.path.join(cache, 'mmdebstrap-arm64.log')
        with open(log, 'w') as f:
            p = subprocess.run(['mmdebstrap', '--arch=arm64', '--variant=minbase', '--include=' + ','.join(PACKAGES),
                                'bookworm', path + '.tmp', MIRROR], stdout=f, stderr=subprocess.STDOUT)
        if p.returncode != 0:
            shutil.rmtree(path + '.tmp', ignore_errors=True)
            with open(log) as f:
                last = [l.strip() for l in f if l.startswith('E:')] or ['see ' + log]
            return None, f'mmdebstrap --arch=arm64 failed: {last[-1]}'
        subprocess.run(f'dpkg-deb --fsys-tarfile {kernel_deb} | tar -x -C {path}.tmp/usr --strip-components=1 ./lib/modules',
                       shell=True, check=True)
        kver = os.listdir(os.path.join(path + '.tmp', 'usr/lib/modules'))[0]
        subprocess.run(['chroot', path + '.tmp', 'depmod', kver], check=True)
        # mount points of the initrd's build
        for sub in ('stage', 'out', 'usr/lib/dracut/modules.d/90urlboot'):
            os.makedirs(os.path.join(path + '.tmp', sub), exist_ok=True)
        open(os.path.join(path + '.tmp', '.complete'), 'w').close()
        shutil.rmtree(path, ignore_errors=True)
        os.rename(path + '.tmp', path)
        for old in os.listdir(cache):      # trees of other package lists or kernels
            if old.startswith('arm64-tree-') and not old.endswith('.lock') and os.path.join(cache, old) != path:
                shutil.rmtree(os.path.join(cache, old), ignore_errors=True)
    return path, None


def kernel_version(tree_path):
    return os.listdir(os.path.join(tree_path, 'usr/lib/modules'))[0]


def newest_mtime(top):
    """Of the regular files under top (meson install makes its symlinks anew every time)."""
    paths = (os.path.join(d, n) for d, _, names in os.walk(top) for n in names)
    return max((os.lstat(p).st_mtime for p in paths if not os.path.islink(p)), default=0)


def initrd(tree_path, cross, src):
    """The cross build installed into cross/e2e-stage, and dracut in the tree (qemu-user) with urlboot's
    module from src and the programs from that stage, into cross/e2e-initrd.img; built again only when
    stale. @return (its path, None) or (None, why not)"""
    stage, out = os.path.join(cross, 'e2e-stage'), os.path.join(cross, 'e2e-initrd.img')
    with open(out + '.lock', 'w') as lock:      # tools/test prepares it while the boot may want it
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(['meson', 'install', '-C', cross, '--no-rebuild', '--quiet', '--destdir', stage],
                       check=True, stdout=subprocess.DEVNULL)
        error = _initrd(tree_path, stage, src, out)
    return (None, error) if error else (out, None)


def _initrd(tree_path, stage, src, out):
    # stale: older than a file of the stage or of the module, or than the tree (a new package list or kernel)
    if os.path.exists(out) and os.path.getmtime(out) > max(newest_mtime(stage), newest_mtime(os.path.join(src, 'dracut')),
                                                        os.path.getmtime(os.path.join(tree_path, '.complete'))):
        return None
    out_dir = os.path.dirname(os.path.abspath(out))
    script = f'''
        t={tree_path}
        mount -t proc proc $t/proc && mount --rbind /sys $t/sys && mount --rbind /dev $t/dev &&
        mount -t tmpfs tmpfs $t/tmp && mount --bind {stage} $t/stage && mount --bind {out_dir} $t/out &&
        mount --bind {src}/dracut/90urlboot $t/usr/lib/dracut/modules.d/90urlboot &&
        exec chroot $t env URLBOOT_DRACUT_STAGE=/stage dracut --quiet --no-hostonly --kver {kernel_version(tree_path)} \
            --force --compress zstd --omit "{DRACUT_OMIT}" -m "{DRACUT_MODULES}" /out/{os.path.basename(out)}.tmp'''
    p = subprocess.run(['unshare', '--mount', '--propagation', 'private', '--', 'sh', '-c', script],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return 'dracut failed in the arm64 tree: ' + ' | '.join((p.stdout + p.stderr).strip().splitlines()[-3:])
    os.rename(out + '.tmp', out)
    return None


def needed_libraries(tree_path, binary):
    """The shared libraries binary needs (recursively, by DT_NEEDED), as paths in the tree."""
    lib_dirs = [os.path.join(tree_path, d) for d in ('usr/lib/aarch64-linux-gnu', 'lib/aarch64-linux-gnu')]
    found, todo = [], [binary]
    while todo:
        dyn = subprocess.run(['aarch64-linux-gnu-readelf', '-d', todo.pop()], capture_output=True, text=True, check=True).stdout
        for line in dyn.splitlines():
            if '(NEEDED)' not in line:
                continue
            name = line.split('[', 1)[1].rstrip(']')
            path = next((os.path.join(d, name) for d in lib_dirs if os.path.exists(os.path.join(d, name))), None)
            if path is None:
                raise FileNotFoundError(f'{name} (needed by {os.path.basename(binary)}) is not in the arm64 tree')
            if path not in found:
                found.append(path)
                todo.append(path)
    return found


def root_tree(tree_path, stage, busybox, init_text, out_dir):
    """The root file system: busybox (static), urlbootctl from the stage with its libraries from the tree,
    init_text as /sbin/init."""
    for sub in ('bin', 'sbin', 'proc', 'sys/firmware/efi/efivars', 'dev', 'run', 'tmp', 'etc', 'usr/bin',
                'usr/lib/aarch64-linux-gnu'):
        os.makedirs(os.path.join(out_dir, sub), exist_ok=True)
    os.symlink('usr/lib', os.path.join(out_dir, 'lib'))
    shutil.copy(busybox, os.path.join(out_dir, 'bin/busybox'))
    urlbootctl = os.path.join(stage, 'usr/bin/urlbootctl')
    shutil.copy(urlbootctl, os.path.join(out_dir, 'usr/bin/urlbootctl'))
    for lib in needed_libraries(tree_path, urlbootctl):
        shutil.copy(lib, os.path.join(out_dir, 'usr/lib/aarch64-linux-gnu', os.path.basename(lib)))
    shutil.copy(os.path.join(tree_path, 'usr/lib/ld-linux-aarch64.so.1'), os.path.join(out_dir, 'usr/lib/ld-linux-aarch64.so.1'))
    with open(os.path.join(out_dir, 'sbin/init'), 'w') as f:
        f.write(init_text)
    os.chmod(os.path.join(out_dir, 'sbin/init'), 0o755)
    with open(os.path.join(out_dir, 'usr/lib/os-release'), 'w') as f:
        f.write('ID=urlboot-demo\nNAME="urlboot arm64 demo root"\n')
