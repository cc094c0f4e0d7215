#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# urlbootctl measure against systemd's own arithmetic: PCR 11 of UKIs made by urlbootctl build-uki with
# urlboot's stub, in all four banks, compared with systemd-measure calculate (--phase= : the value
# right after the stub, before systemd-pcrphase) given the same section contents as files. The host's
# systemd-measure (252) knows .linux .osrel .cmdline .initrd .splash .dtb .pcrpkey; the sections newer
# versions added are covered by test-measure (hashlib) and by the boot with systemd-stub 262 (test/e2e).
#   systemd-measure-oracle.sh URLBOOTCTL STUB
set -u
ctl=$1 stub=$2
measure=/lib/systemd/systemd-measure
[ -x "$measure" ] || measure=/usr/lib/systemd/systemd-measure
echo "1..4"
if [ ! -x "$measure" ] || [ ! -f "$stub" ]; then
	for i in 1 2 3 4; do echo "ok $i # SKIP systemd-measure (package systemd) or the stub (gnu-efi) is missing"; done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
check() { # NAME SECTION...: a UKI with these sections (files $tmp/SECTION), measured both ways
	local name=$1 build=() margs=() osrel=/dev/null ours theirs
	shift
	n=$((n + 1))
	for s in "$@"; do
		margs+=("--$s=$tmp/$s")
		case $s in
		osrel) osrel=$tmp/osrel ;;
		cmdline) build+=(--cmdline=@"$tmp/cmdline") ;;
		*) build+=("--$s=$tmp/$s") ;;
		esac
	done
	if ! "$ctl" build-uki --stub="$stub" --output="$tmp/uki.efi" --os-release="$osrel" "${build[@]}" >/dev/null 2>&1; then
		echo "not ok $n - $name: build-uki failed"
		return
	fi
	ours=$("$ctl" measure --json --bank=sha1 --bank=sha256 --bank=sha384 --bank=sha512 "$tmp/uki.efi" |
		python3 -c 'import json,sys; p=[x for x in json.load(sys.stdin)["pcrs"] if x["pcr"]==11][0]; print(" ".join(p[b] for b in ("sha1","sha256","sha384","sha512")))')
	theirs=$("$measure" calculate --phase= --json=short "${margs[@]}" |
		python3 -c 'import json,sys; j=json.load(sys.stdin); print(" ".join(j[b][0]["hash"] for b in ("sha1","sha256","sha384","sha512")))')
	if [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
		echo "ok $n - $name (sha256 ${ours:41:64})"
	else
		echo "not ok $n - $name: urlbootctl '$ours', systemd-measure '$theirs'"
	fi
}

head -c 300000 /dev/urandom > "$tmp/linux"
check "kernel only" linux
printf 'ID=oracle\nNAME="Oracle test"\n' > "$tmp/osrel"
printf 'console=ttyS0 root=gpt-auto rd.systemd.pull=raw,machine,verify=no,blockdev,bootorigin:rootdisk:image.raw.zst' > "$tmp/cmdline"
head -c 1000003 /dev/urandom > "$tmp/initrd"
check "kernel, os-release, command line, initrd" linux osrel cmdline initrd
# a command line with a trailing newline is measured as it is (the stub cleans up only what it passes on)
printf 'quiet splash\n' > "$tmp/cmdline"
check "command line with a newline" linux osrel cmdline
# sizes that are not multiples of the file alignment
head -c 513 /dev/urandom > "$tmp/initrd"
check "odd sizes" linux osrel initrd
