#!/bin/bash
# The Debian packages: built from this tree with dpkg-buildpackage, lintian-clean at the error and
# warning levels, installed into a fresh Debian 12 tree (mmdebstrap), where the tools run, systemd
# finds and accepts the units and generators, and dracut builds an initrd with the module; then
# docs/howto-netboot.md is followed in that tree and a QEMU machine boots the result (howto.sh).
# Prints TAP.
#   run.sh SRCDIR
set -u
src=$(realpath "$1")
. "$src/test/tap.sh"
tmp=$(mktemp -d /var/tmp/urlboot-package.XXXXXX)
# URLBOOT_PACKAGE_KEEP=1 keeps the tree and logs (for working on the how-to).
[ -n "${URLBOOT_PACKAGE_KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mirror=${URLBOOT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
. "$src/test/package/tree.sh"

for t in dpkg-buildpackage lintian mmdebstrap; do
	command -v $t >/dev/null || { echo "1..0 # SKIP $t is missing (tools/install-deps --package)"; exit 0; }
done
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP needs root (mmdebstrap and chroot)"; exit 0; }
echo "1..13"

copy_source
(cd "$tmp/urlboot" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -b) > "$tmp/build.log" 2>&1
rc=$?
check "dpkg-buildpackage -us -uc -b builds every package" \
	"[ $rc = 0 ] && [ \$(ls '$tmp'/*.deb | grep -vc dbgsym) = 9 ]"
show_if_failed "$tmp/build.log"
if [ $tap_failed -gt 0 ]; then
	for i in $(seq 2 13); do echo "not ok $i - not tried: the packages did not build"; done
	exit 1
fi
lintian --fail-on error,warning "$tmp"/urlboot_*.changes > "$tmp/lintian.log" 2>&1
rc=$?
check "lintian: no error and no warning" "[ $rc = 0 ]"
show_if_failed "$tmp/lintian.log"

install_tree amd64 $(ls "$tmp"/*.deb | grep -v dbgsym)
rc=$?
if [ $rc = 77 ]; then
	for i in $(seq 3 13); do echo "ok $i # SKIP the Debian archive ($mirror) cannot be reached"; done
	tap_exit
fi
check "the packages install into a fresh Debian 12 tree with their dependencies" "[ $rc = 0 ]"
show_if_failed "$tmp/mmdebstrap.log"

bad=$(tools_failing)
check "every tool runs (--help):$bad" "[ -z '$bad' ]"

pull_in_tree "$tmp/pull.log"
check "the installed urlboot-pull installs an image (a file: URL)" \
	"cmp -s '$tmp/tree/var/tmp/disk.raw' '$tmp/tree/var/tmp/images/disk.raw'"
show_if_failed "$tmp/pull.log"

in_tree systemd-analyze unit-paths > "$tmp/paths"
units=$(cd "$tmp/tree/usr/lib/systemd/system" && echo urlboot-*.service urlboot-*.socket urlboot-*.target urlboot-*.path)
n_units=$(echo $units | wc -w)
check "the units are where systemd looks ($n_units units)" "grep -qx /usr/lib/systemd/system '$tmp/paths' && [ $n_units -ge 10 ]"
in_tree sh -c "cd /usr/lib/systemd/system && SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no $(echo $units)" \
	> "$tmp/verify.log" 2>&1
# (What a chroot lacks, a running system has: /proc/cmdline and the like.)
check "systemd-analyze verify accepts them" "! grep -v 'proc-cmdline\|/proc/' '$tmp/verify.log' | grep -q ."
show_if_failed "$tmp/verify.log"

mkdir -p "$tmp/tree/run/gen"
in_tree sh -c 'cd /run/gen && mkdir -p n e l && SYSTEMD_PROC_CMDLINE="rd.systemd.pull=raw,machine,verify=no,blockdev:rootdisk:http://h/img.raw.zst" \
	SYSTEMD_IN_INITRD=1 /usr/lib/systemd/system-generators/urlboot-import-generator n e l && ls n' > "$tmp/gen.log" 2>&1
check "the import generator runs from its installed place and writes the download unit" \
	"grep -q 'urlboot-import@run-machines-rootdisk.raw.service' '$tmp/gen.log'"

in_tree sh -c 'dracut --quiet --no-kernel --no-hostonly --force -m "systemd systemd-initrd systemd-networkd urlboot base" /tmp/initrd.img && lsinitrd /tmp/initrd.img' \
	> "$tmp/initrd.log" 2>&1
check "dracut in the tree builds an initrd with the urlboot module" \
	"grep -q 'usr/bin/urlboot-pull' '$tmp/initrd.log' && grep -q 'urlboot-import-generator' '$tmp/initrd.log'"
show_if_failed "$tmp/initrd.log" 10

# docs/howto-netboot.md, as written, in this tree; then a machine boots what it made (4 lines).
bash "$src/test/package/howto.sh" "$tmp/tree" "$src" 10 | tee "$tmp/howto.tap"
grep -q '^not ok' "$tmp/howto.tap" && tap_failed=$((tap_failed + 1))
tap_exit
