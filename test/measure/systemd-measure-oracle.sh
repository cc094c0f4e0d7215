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
echo "1..8"
if [ ! -x "$measure" ] || [ ! -f "$stub" ]; then
	for i in 1 2 3 4 5 6 7 8; do echo "ok $i # SKIP systemd-measure (package systemd) or the stub (gnu-efi) is missing"; done
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

# Issue 33, item 1: a section whose VirtualSize is 0 is empty whatever raw data the file holds: systemd-stub
# (src/boot/pe.c, PE_SECTION_VECTOR_IS_SET: memory size > 0) and ours skip it, so must the prediction.
pcr11() { "$ctl" measure --json "$1" | python3 -c 'import json,sys; print([x for x in json.load(sys.stdin)["pcrs"] if x["pcr"]==11][0]["sha256"])'; }
printf 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n' > "$tmp/sbat"
"$ctl" build-uki --stub="$stub" --output="$tmp/with.efi" --os-release="$tmp/osrel" --linux="$tmp/linux" --sbat="$tmp/sbat" >/dev/null 2>&1
"$ctl" build-uki --stub="$stub" --output="$tmp/without.efi" --os-release="$tmp/osrel" --linux="$tmp/linux" >/dev/null 2>&1
python3 - "$tmp/with.efi" "$tmp/zero.efi" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
pe = struct.unpack_from('<I', d, 0x3c)[0]
n, opt = struct.unpack_from('<H', d, pe + 6)[0], struct.unpack_from('<H', d, pe + 20)[0]
for i in range(n):
    h = pe + 24 + opt + 40 * i
    if d[h:h + 8].rstrip(b'\0') == b'.sbat':
        struct.pack_into('<I', d, h + 8, 0)  # VirtualSize 0, raw data kept
open(sys.argv[2], 'wb').write(d)
PY
zero=$(pcr11 "$tmp/zero.efi") without=$(pcr11 "$tmp/without.efi") with=$(pcr11 "$tmp/with.efi")
n=$((n + 1))
if [ -n "$zero" ] && [ "$zero" = "$without" ] && [ "$zero" != "$with" ]; then
	echo "ok $n - a .sbat with VirtualSize 0 and raw data is not measured (as if absent)"
else
	echo "not ok $n - VirtualSize 0: '$zero', without the section '$without', with it '$with'"
fi

# Item 3: under Secure Boot an empty .cmdline (VirtualSize 0, build-uki --cmdline=@empty) counts as none:
# both stubs keep the load options and measure them into PCR 12 (systemd's stub.c: the load options are
# dropped only when the .cmdline section is set).
pcr12() { "$ctl" measure --json --secure-boot --options="$2" "$1" | python3 -c 'import json,sys; p=([x for x in json.load(sys.stdin)["pcrs"] if x["pcr"]==12] or [{"sha256": "0"}])[0]["sha256"]; print("unmeasured" if set(p) == {"0"} else p)'; }
: > "$tmp/empty"
"$ctl" build-uki --stub="$stub" --output="$tmp/emptycmd.efi" --os-release="$tmp/osrel" --linux="$tmp/linux" --cmdline=@"$tmp/empty" >/dev/null 2>&1
printf 'quiet' > "$tmp/quiet"
"$ctl" build-uki --stub="$stub" --output="$tmp/cmd.efi" --os-release="$tmp/osrel" --linux="$tmp/linux" --cmdline=@"$tmp/quiet" >/dev/null 2>&1
e=$(pcr12 "$tmp/emptycmd.efi" root=/dev/x) w=$(pcr12 "$tmp/without.efi" root=/dev/x) c=$(pcr12 "$tmp/cmd.efi" root=/dev/x)
n=$((n + 1))
if [ -n "$e" ] && [ "$e" != unmeasured ] && [ "$e" = "$w" ] && [ "$c" = unmeasured ]; then
	echo "ok $n - Secure Boot, empty .cmdline: the load options are kept and measured, as without .cmdline"
else
	echo "not ok $n - empty .cmdline '$e', no .cmdline '$w', .cmdline 'quiet' '$c'"
fi

# Item 7: a FAT ESP holds b.cred and B.cred as one file, which the stub picks up once: a tree with both
# cannot be an ESP, and measure says so instead of predicting two credentials.
mkdir -p "$tmp/esp/EFI/Linux/u.efi.extra.d"
echo one > "$tmp/esp/EFI/Linux/u.efi.extra.d/b.cred"
echo two > "$tmp/esp/EFI/Linux/u.efi.extra.d/B.cred"
"$ctl" measure --esp="$tmp/esp" --uki-path=EFI/Linux/u.efi "$tmp/without.efi" >/dev/null 2>"$tmp/err"
rc=$?
n=$((n + 1))
if [ $rc = 1 ] && grep -q "are one file on the ESP (FAT ignores case)" "$tmp/err"; then
	echo "ok $n - b.cred and B.cred in one ESP directory: refused, one line"
else
	echo "not ok $n - b.cred and B.cred: exit $rc, $(cat "$tmp/err")"
fi

# Item 7: --profile-cmdline= belongs to the --profile= right before it, as the usage says: with
# "--profile=A --profile=B --profile-cmdline=X" the .cmdline follows the second .profile.
printf 'ID=a\n' > "$tmp/pa"
"$ctl" build-uki --stub="$stub" --output="$tmp/prof.efi" --linux="$tmp/linux" --profile="$tmp/pa" --profile="$tmp/pa" \
	--profile-cmdline=second >/dev/null 2>&1
order=$(python3 - "$tmp/prof.efi" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
pe = struct.unpack_from('<I', d, 0x3c)[0]
n, opt = struct.unpack_from('<H', d, pe + 6)[0], struct.unpack_from('<H', d, pe + 20)[0]
print(' '.join(d[pe + 24 + opt + 40 * i:pe + 32 + opt + 40 * i].rstrip(b'\0').decode() for i in range(n)
               if d[pe + 24 + opt + 40 * i:pe + 25 + opt + 40 * i] == b'.' and b'profile' in d[pe + 24 + opt + 40 * i:pe + 32 + opt + 40 * i]
               or d[pe + 24 + opt + 40 * i:pe + 32 + opt + 40 * i].rstrip(b'\0') == b'.cmdline'))
PY
)
"$ctl" build-uki --stub="$stub" --output="$tmp/bad.efi" --linux="$tmp/linux" --profile-cmdline=x --profile="$tmp/pa" >/dev/null 2>"$tmp/err"
rc=$?
n=$((n + 1))
if [ "$order" = ".profile .profile .cmdline" ] && [ $rc = 2 ] && grep -q "must follow the --profile= it belongs to" "$tmp/err"; then
	echo "ok $n - --profile-cmdline= binds to the --profile= before it; before any, a usage error"
else
	echo "not ok $n - sections '$order', misplaced: exit $rc $(cat "$tmp/err")"
fi
