#!/bin/bash
# The Debian packages for arm64 (issue 43): cross-built from this tree with dpkg-buildpackage -a arm64
# (Debian's cross compiler and arm64 libraries: tools/install-deps --arm64), lintian-clean at the error and
# warning levels, installed into a fresh arm64 Debian 12 tree (mmdebstrap --arch=arm64), where the tools run
# under qemu-user (binfmt_misc), urlboot-pull installs an image and the import generator writes its unit.
# urlboot-efi is amd64's only (gnu-efi:arm64 cannot be installed beside gnu-efi for the build); the arm64
# UEFI programs come from the cross meson build (tools/cross/setup-aa64, test boot-aa64). Prints TAP.
#   arm64.sh SRCDIR
set -u
src=$(realpath "$1")
. "$src/test/tap.sh"
tmp=$(mktemp -d /var/tmp/urlboot-package-arm64.XXXXXX)
[ -n "${URLBOOT_PACKAGE_KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mirror=${URLBOOT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
. "$src/test/package/tree.sh"

for t in dpkg-buildpackage lintian mmdebstrap aarch64-linux-gnu-gcc aarch64-linux-gnu-pkg-config; do
	command -v $t >/dev/null || { echo "1..0 # SKIP $t is missing (tools/install-deps --e2e --arm64)"; exit 0; }
done
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP needs root (mmdebstrap and chroot)"; exit 0; }
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] ||
	{ echo "1..0 # SKIP binfmt_misc does not run arm64 programs (tools/install-deps --arm64: qemu-user-static)"; exit 0; }
echo "1..6"

copy_source
# -b: urlboot-dracut (Architecture: all) too
(cd "$tmp/urlboot" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -a arm64 -us -uc -b) > "$tmp/build.log" 2>&1
rc=$?
debs=$(ls "$tmp"/*_arm64.deb "$tmp"/*_all.deb 2>/dev/null | grep -v dbgsym)
check "dpkg-buildpackage -a arm64 builds the arm64 packages and urlboot-dracut" \
	"[ $rc = 0 ] && [ \$(ls '$tmp'/*_arm64.deb | grep -vc dbgsym) = 7 ] && ls '$tmp'/urlboot-dracut_*_all.deb >/dev/null"
show_if_failed "$tmp/build.log"
if [ $tap_failed -gt 0 ]; then
	for i in $(seq 2 6); do echo "not ok $i - not tried: the packages did not build"; done
	exit 1
fi
# every ELF file the arm64 packages hold is for AArch64 (scripts aside)
for d in $(ls "$tmp"/*_arm64.deb | grep -v dbgsym); do dpkg-deb -x "$d" "$tmp/x"; done
elf=$(find "$tmp/x" -type f -exec file {} + | grep ': *ELF')
n_elf=$(grep -c . <<<"$elf")
other=$(grep -v 'ARM aarch64' <<<"$elf" | sed "s|^$tmp/x||; s|:.*||" | xargs)
check "their $n_elf ELF files (programs, generators, libraries, the nbdkit plugin) are all for AArch64${other:+; not: $other}" \
	"[ $n_elf -ge 15 ] && [ -z '$other' ]"

lintian --fail-on error,warning "$tmp"/urlboot_*_arm64.changes > "$tmp/lintian.log" 2>&1
rc=$?
check "lintian: no error and no warning" "[ $rc = 0 ]"
show_if_failed "$tmp/lintian.log"

# shellcheck disable=SC2086 # one word per file
install_tree arm64 $debs
rc=$?
if [ $rc = 77 ]; then
	for i in $(seq 4 6); do echo "ok $i # SKIP the Debian archive ($mirror) cannot be reached"; done
	tap_exit
fi
check "the packages install into a fresh arm64 Debian 12 tree with their dependencies" "[ $rc = 0 ]"
show_if_failed "$tmp/mmdebstrap.log"

# (its programs run by qemu-user through binfmt_misc)
bad=$(tools_failing)
arch=$(in_tree uname -m)
check "every tool runs on $arch (--help):$bad" "[ -z '$bad' ] && [ '$arch' = aarch64 ]"

pull_in_tree "$tmp/pull.log"
mkdir -p "$tmp/tree/run/gen"
in_tree sh -c 'cd /run/gen && mkdir -p n e l && SYSTEMD_PROC_CMDLINE="rd.systemd.pull=raw,machine,verify=no,blockdev:rootdisk:http://h/img.raw.zst" \
	SYSTEMD_IN_INITRD=1 /usr/lib/systemd/system-generators/urlboot-import-generator n e l && ls n' > "$tmp/run.log" 2>&1
cat "$tmp/pull.log" >> "$tmp/run.log"
check "urlboot-pull (arm64) installs an image; the import generator writes the download unit" \
	"cmp -s '$tmp/tree/var/tmp/disk.raw' '$tmp/tree/var/tmp/images/disk.raw' && grep -q 'urlboot-import@run-machines-rootdisk.raw.service' '$tmp/run.log'"
show_if_failed "$tmp/run.log"
tap_exit
