#!/bin/bash
# urlboot-loop and urlboot-udev-probe on real loop devices (root only). Prints TAP.
# Everything attached is detached again, also when a check fails (trap on EXIT).
set -u
build=$1 tools=$2
loop=$build/src/loop/urlboot-loop
probe=$build/src/udev/urlboot-udev-probe
tmp=$(mktemp -d)
attached=()
cleanup() {
	for d in "${attached[@]}"; do "$loop" detach "$d" >/dev/null 2>&1; done
	rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../tap.sh"
attach() { # attach ARGS... → device on stdout, remembered for cleanup
	local d
	d=$("$loop" attach "$@") || return 1
	attached+=("$d")
	echo "$d"
}
X86=4f68bce3-e8cd-4db1-96e7-fbcaf984b709
ARM64=b921b045-1df0-41c3-af44-4c6f280d3fae
ESP=c12a7328-f81f-11d2-ba4b-00a0c93ec93b
gpt() { # gpt FILE "PARTITION LINE"... : a 64 MiB disk with these sfdisk partition lines
	truncate -s 64M "$1"
	{ echo "label: gpt"; shift; printf '%s\n' "$@"; } | sfdisk -q "$1"
}
prop() { grep -qxF -- "$2" <<<"$1"; }

if [ "$(id -u)" != 0 ] || [ ! -e /dev/loop-control ]; then
	echo "1..0 # SKIP needs root and /dev/loop-control"
	exit 0
fi
echo "1..24"
export URLBOOT_EFIVARFS=$tmp/efivars
mkdir -p "$URLBOOT_EFIVARFS"

mkdir -p "$tmp/root/usr/lib" && echo ID=t > "$tmp/root/usr/lib/os-release"
"$tools/image/make-disk-image" --size=16 "$tmp/root" "$tmp/rootdisk.raw"

# attach with the file name as reference
d=$(attach --ref-auto "$tmp/rootdisk.raw")
json=$("$loop" list --json)
check "the reference reads back through LOOP_GET_STATUS64" \
	"python3 -c 'import json,sys; l=[x for x in json.loads(sys.argv[1]) if x[\"device\"]==\"$d\"]; assert l[0][\"reference\"]==\"rootdisk.raw\" and l[0][\"partitions\"]==1' '$json'"
check "the partition exists with the partition's size" "[ -b ${d}p1 ] && [ \$(blockdev --getsize64 ${d}p1) = \$((16 * 1024 * 1024)) ]"
check "the partition holds the file system" "[ \"\$(blkid -o value -s TYPE ${d}p1)\" = ext4 ]"
out=$("$probe" "$d")
check "probe: reference and gpt-auto root disk properties" \
	"prop '$out' URLBOOT_LOOP_REF=rootdisk.raw && prop '$out' ID_PART_GPT_AUTO_ROOT_DISK=1 && prop '$out' \"ID_PART_GPT_AUTO_ROOT_UUID=\$(blkid -o value -s PART_ENTRY_UUID -p ${d}p1)\""
out=$("$probe" "${d}p1")
check "probe: the root partition is marked" "prop '$out' ID_PART_GPT_AUTO_ROOT=1"
"$loop" attach --ref-auto "$tmp/rootdisk.raw" >/dev/null 2>"$tmp/err"; rc=$?
check "attaching the same file again is refused" "[ $rc = 1 ] && grep -q 'already' '$tmp/err'"
d2=$(attach --force --ref=second "$tmp/rootdisk.raw")
check "--force attaches it again" "[ -n '$d2' ] && [ '$d2' != '$d' ]"
"$loop" detach "$tmp/rootdisk.raw"
# Another process holding a device open (a probe, a list) defers the detach until it lets go: up to 2 s.
for _ in $(seq 20); do
	[ -e "/sys/block/${d#/dev/}/loop" ] || [ -e "/sys/block/${d2#/dev/}/loop" ] || break
	sleep 0.1
done
check "detach by file removes both devices and their partitions" \
	"! [ -e /sys/block/${d#/dev/}/loop ] && ! [ -e /sys/block/${d2#/dev/}/loop ] && ! [ -b ${d}p1 ]"
"$loop" detach "$tmp/rootdisk.raw"; rc=$?
"$loop" detach /dev/loop250 2>/dev/null; rc2=$?
check "detach is idempotent" "[ $rc = 0 ] && [ $rc2 = 0 ]"

# read-only
d=$(attach --read-only --ref=ro "$tmp/rootdisk.raw")
check "read-only is enforced (a write fails)" "! dd if=/dev/zero of=$d bs=4096 count=1 conv=notrunc 2>/dev/null"
"$loop" detach "$d"
cp "$tmp/rootdisk.raw" "$tmp/ro.raw"
d=$(unshare -m --propagation private sh -c "mount --bind '$tmp' '$tmp' && mount -o remount,bind,ro '$tmp' && '$loop' attach --ref=ro2 '$tmp/ro.raw'" 2>"$tmp/err")
[ -n "$d" ] && attached+=("$d")
check "a file that cannot be written is attached read-only" "[ -n '$d' ] && grep -q 'attached read-only' '$tmp/err' && [ \"\$(blockdev --getro $d)\" = 1 ]"
[ -n "$d" ] && "$loop" detach "$d"

# reference rules
long=$(printf 'x%.0s' $(seq 64))
"$loop" attach --ref="$long" "$tmp/rootdisk.raw" 2>"$tmp/err"; rc=$?
check "a reference over 63 bytes is refused clearly" "[ $rc = 1 ] && grep -q 'at most 63' '$tmp/err'"
cp "$tmp/rootdisk.raw" "$tmp/other.raw"
d=$(attach --ref-auto "$tmp/other.raw")
out=$("$probe" "$d")
check "reference other.raw: a by-loop-ref name but no gpt-auto properties" \
	"prop '$out' URLBOOT_LOOP_REF_ENC=other.raw && ! grep -q GPT_AUTO <<<'$out'"
"$loop" detach "$d"
d=$(attach --ref='my disk/1' "$tmp/other.raw")
out=$("$probe" "$d")
check "unsafe reference characters are encoded as udev does" "prop '$out' 'URLBOOT_LOOP_REF_ENC=my\\x20disk\\x2f1'"
"$loop" detach "$d"

# the newest root partition
gpt "$tmp/versions.raw" "size=8M, type=$X86, name=\"root-1.9\"" "size=8M, type=$X86, name=\"root-1.10\"" "size=8M, type=$ARM64, name=\"root-9.0\""
d=$(attach --ref=rootdisk "$tmp/versions.raw")
check "root-1.10 is chosen over root-1.9 (and arm64 ignored)" \
	"prop \"\$('$probe' ${d}p2)\" ID_PART_GPT_AUTO_ROOT=1 && ! grep -q GPT_AUTO_ROOT= <<<\"\$('$probe' ${d}p1)\" && ! grep -q GPT_AUTO_ROOT= <<<\"\$('$probe' ${d}p3)\""
"$loop" detach "$d"
gpt "$tmp/arm.raw" "size=8M, type=$ARM64, name=\"root-arm64\""
d=$(attach --ref=rootdisk.raw "$tmp/arm.raw")
check "an arm64 root partition is ignored on x86-64 (the disk is still the root disk, as in v258)" \
	"prop \"\$('$probe' $d)\" ID_PART_GPT_AUTO_ROOT_DISK=1 && ! grep -q 'GPT_AUTO_ROOT_UUID\|GPT_AUTO_ROOT=' <<<\"\$('$probe' $d; '$probe' ${d}p1)\""
"$loop" detach "$d"
gpt "$tmp/noauto.raw" "size=8M, type=$X86, name=\"root-9\", attrs=\"GUID:63\"" "size=8M, type=$X86, name=\"root-1\""
d=$(attach --ref=rootdisk "$tmp/noauto.raw")
check "a partition flagged no-auto is skipped" \
	"prop \"\$('$probe' ${d}p2)\" ID_PART_GPT_AUTO_ROOT=1 && ! grep -q GPT_AUTO_ROOT= <<<\"\$('$probe' ${d}p1)\""
"$loop" detach "$d"

# LoaderDevicePartUUID
python3 -c "import sys; sys.stdout.buffer.write(b'\x06\0\0\0' + 'D2F2A6B0-1111-4E4E-9C9C-0123456789AB'.encode('utf-16-le') + b'\0\0')" \
	> "$URLBOOT_EFIVARFS/LoaderDevicePartUUID-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
d=$(attach --ref-auto "$tmp/rootdisk.raw")
check "LoaderDevicePartUUID set but not on this disk: no gpt-auto properties" "! grep -q GPT_AUTO <<<\"\$('$probe' $d)\""
"$loop" detach "$d"
gpt "$tmp/netesp.raw" "size=8M, type=$ESP, name=\"ESP\", uuid=d2f2a6b0-1111-4e4e-9c9c-0123456789ab" "size=8M, type=$X86, name=\"root\""
d=$(attach --ref=anything "$tmp/netesp.raw")
check "a loop disk holding the booted ESP provides the root" "prop \"\$('$probe' ${d}p2)\" ID_PART_GPT_AUTO_ROOT=1"
"$loop" detach "$d"
rm "$URLBOOT_EFIVARFS"/*

# Eight attaches at once: each must get its own device (free-device races are retried).
for i in $(seq 8); do cp "$tmp/rootdisk.raw" "$tmp/par$i.raw"; done
for i in $(seq 8); do "$loop" attach --ref=par$i "$tmp/par$i.raw" > "$tmp/par$i.dev" 2>&1 & done
wait
for i in $(seq 8); do d=$(cat "$tmp/par$i.dev"); case "$d" in /dev/loop*) attached+=("$d") ;; esac; done
check "eight parallel attaches get eight different devices" \
	"[ \$(cat $tmp/par*.dev | grep -c '^/dev/loop') = 8 ] && [ \$(cat $tmp/par*.dev | sort -u | wc -l) = 8 ]"
for i in $(seq 8); do "$loop" detach "$tmp/par$i.raw"; done

# docs/security.md L3: a reference with a newline must not add udev properties of its own.
"$loop" attach --ref=$'evil\nID_PART_GPT_AUTO_ROOT=1' "$tmp/rootdisk.raw" >/dev/null 2>"$tmp/err"; rc=$?
check "urlboot-loop refuses a reference with a control character" "[ $rc = 1 ] && grep -q 'control characters' '$tmp/err'"
d=$(attach --ref=plain "$tmp/rootdisk.raw")
# Anyone who may open the device can set any lo_file_name (LOOP_SET_STATUS64), bypassing urlboot-loop.
python3 - "$d" <<'PY'
import fcntl, os, struct, sys
LOOP_GET_STATUS64, LOOP_SET_STATUS64 = 0x4C05, 0x4C04
fd = os.open(sys.argv[1], os.O_RDWR)
info = bytearray(fcntl.ioctl(fd, LOOP_GET_STATUS64, bytes(232)))
name = b'rootdisk.raw\nID_PART_GPT_AUTO_ROOT=1\nSYSTEMD_WANTS=evil.service'
info[56:56 + 64] = name.ljust(64, b'\0')[:64]
fcntl.ioctl(fd, LOOP_SET_STATUS64, bytes(info))
PY
out=$("$probe" "${d}p1")
check "probe: a reference with newlines adds no property lines, only the encoded form" \
	"! grep -q '^SYSTEMD_WANTS\|^URLBOOT_LOOP_REF=' <<<\"\$out\" && grep -q '^URLBOOT_LOOP_REF_ENC=rootdisk.raw\\\\x0aID' <<<\"\$out\" && [ \$(grep -c '^ID_PART_GPT_AUTO_ROOT=1\$' <<<\"\$out\") -le 1 ]"
"$loop" detach "$d"

check "nothing stays attached" "! \"$loop\" list | grep -q '$tmp'"
"$probe" /dev/null >/dev/null 2>&1; rc=$?
check "the probe refuses what is not a block device" "[ $rc = 1 ]"
tap_exit
