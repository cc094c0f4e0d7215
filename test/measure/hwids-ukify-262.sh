#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# urlbootctl build-uki's devicetree sections against ukify 262's (tools/reference/systemd-unstable): the same
# device descriptions (--hwids=DIR, JSON) and devicetrees (--devicetree-auto=) give byte for byte the same
# .hwids section and the same .dtbauto sections in the same order; descriptions that are not ones are refused
# with one line naming the file. SKIP without the archive.
#   hwids-ukify-262.sh URLBOOTCTL STUB SRCDIR
set -u
ctl=$1 stub=$2 src=$3
tmp=$(mktemp -d /tmp/urlboot-hwids-oracle.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$src/test/tap.sh"
. "$src/test/reference-version.sh"

if [ ! -f "$stub" ]; then
	echo "1..0 # SKIP no stub built here (gnu-efi is missing)"
	exit 0
elif ! command -v dtc >/dev/null; then
	echo "1..1"
	echo "not ok 1 - dtc is missing (package device-tree-compiler, tools/install-deps)"
	exit 1
fi
reference_version "$src"

mkdir -p "$tmp/in/hwids/more" "$tmp/out"
cd "$tmp/in" || exit 1
printf '/dts-v1/;\n/ { compatible = "urlboot,board-1", "urlboot,family"; urlboot-dtb = "board-1"; };\n' | dtc -q -O dtb -o a.dtb -
printf '/dts-v1/;\n/ { compatible = "linux,dummy-virt"; urlboot-dtb = "virt"; };\n' | dtc -q -O dtb -o b.dtb -
# two devices, one described in two files (merged), CHIDs given out of order and in upper case
cat > hwids/board.json <<'J'
{"type": "devicetree", "name": "urlboot board 1", "compatible": "urlboot,board-1",
 "hwids": ["e3f2611c-989a-5274-8acb-e5c30c71aff3", "C4FDDAEE-8E0C-53EC-8E93-8BCC02D09071"]}
J
cat > hwids/more/board-again.json <<'J'
{"type": "devicetree", "name": "urlboot board 1", "compatible": "urlboot,board-1",
 "hwids": ["8ebb2b28-c710-55a7-9d7c-0c94a485db5d"]}
J
cat > hwids/virt.json <<'J'
{"type": "devicetree", "name": "QEMU virt", "compatible": "linux,dummy-virt", "hwids": ["0d2bb4e2-30ef-5b8c-9e0b-6b1b2a2f6d41"]}
J
head -c 70000 /dev/urandom > linux
printf 'ID=oracle\n' > osrel

# ukify reads the descriptions in the order the file system lists them, urlboot in the order of their paths:
# for these the devices come out in the same order either way
tar -cf - . | "$src/tools/reference/systemd-unstable" --run /bin/sh -c '
	mkdir /tmp/in && cd /tmp/in && tar xf - &&
	ukify build --linux=linux --uname=6.1.0-oracle --os-release=@osrel --devicetree-auto=a.dtb --devicetree-auto=b.dtb --hwids=hwids \
		--output=/tmp/theirs.efi >&2 && cat /tmp/theirs.efi' > "$tmp/out/theirs.efi" 2>"$tmp/err"
"$ctl" build-uki --stub="$stub" --linux=linux --uname=6.1.0-oracle --os-release=osrel --devicetree-auto=a.dtb \
	--devicetree-auto=b.dtb --hwids=hwids --output="$tmp/out/ours.efi" >/dev/null 2>"$tmp/ours.err"

section() { # FILE NAME [N]: the Nth (from 0) section of that name, hex
	python3 - "$@" <<'P'
import struct, sys
d = open(sys.argv[1], 'rb').read()
pe = struct.unpack_from('<I', d, 0x3c)[0]
n, opt = struct.unpack_from('<H', d, pe + 6)[0], struct.unpack_from('<H', d, pe + 20)[0]
found = [s for s in (pe + 24 + opt + 40 * i for i in range(n)) if d[s:s + 8].rstrip(b'\0').decode() == sys.argv[2]]
want = int(sys.argv[3]) if len(sys.argv) > 3 else 0
if want < len(found):
    s = found[want]
    vsize, raw, off = struct.unpack_from('<I', d, s + 8)[0], struct.unpack_from('<I', d, s + 16)[0], struct.unpack_from('<I', d, s + 20)[0]
    print(d[off:off + min(vsize, raw)].hex())
P
}
ours=$(section "$tmp/out/ours.efi" .hwids) theirs=$(section "$tmp/out/theirs.efi" .hwids)
check "the .hwids of the same descriptions is ukify $version's byte for byte (${#ours} hex digits)" \
	'[ -n "$ours" ] && [ "$ours" = "$theirs" ]' "ours $ours, ukify's $theirs $(tail -1 "$tmp/err")"
check "the .dtbauto sections are ukify's, in the same order" \
	'[ "$(section "$tmp/out/ours.efi" .dtbauto 0)" = "$(section "$tmp/out/theirs.efi" .dtbauto 0)" ] &&
	 [ "$(section "$tmp/out/ours.efi" .dtbauto 1)" = "$(section "$tmp/out/theirs.efi" .dtbauto 1)" ] &&
	 [ -n "$(section "$tmp/out/ours.efi" .dtbauto 1)" ]'
# refusals: one line each, naming the file
printf '{"type": "devicetree", "name": "x", "hwids": []}' > hwids/virt.json
"$ctl" build-uki --stub="$stub" --linux=linux --os-release=osrel --devicetree-auto=a.dtb --hwids=hwids \
	--output="$tmp/out/bad.efi" >/dev/null 2>"$tmp/bad.err"
rc=$?
check "a devicetree description without its compatible is refused, naming the file" \
	'[ $rc -ne 0 ] && [ ! -e "$tmp/out/bad.efi" ] && grep -q "hwids/virt.json: a \"devicetree\" description has \"compatible\"" "$tmp/bad.err"' \
	"$(cat "$tmp/bad.err")"
printf '{"type": "devicetree", "name": "x", "compatible": "y", "hwids": ["nope"]}' > hwids/virt.json
"$ctl" build-uki --stub="$stub" --linux=linux --os-release=osrel --devicetree-auto=a.dtb --hwids=hwids \
	--output="$tmp/out/bad.efi" >/dev/null 2>"$tmp/bad.err"
rc=$?
check "a CHID that is none is refused, naming the file and the entry" \
	'[ $rc -ne 0 ] && grep -q "hwids/virt.json: \"hwids\" entry 0 is not a CHID" "$tmp/bad.err"' "$(cat "$tmp/bad.err")"
printf 'not a devicetree' > c.dtb
"$ctl" build-uki --stub="$stub" --linux=linux --os-release=osrel --devicetree-auto=c.dtb \
	--output="$tmp/out/bad.efi" >/dev/null 2>"$tmp/bad.err"
rc=$?
check "a --devicetree-auto= that is no devicetree blob is refused" \
	'[ $rc -ne 0 ] && grep -q "devicetree-auto=c.dtb: not a devicetree blob" "$tmp/bad.err"' "$(cat "$tmp/bad.err")"
echo "1..$tap_n"
tap_exit
