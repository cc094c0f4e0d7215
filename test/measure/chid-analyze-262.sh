#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# urlbootctl chid (the CHID code urlboot's stub runs, on an SMBIOS table) against systemd-analyze chid 262 in
# the reference tree (tools/reference/systemd-unstable), given the same machine: the table as a file, the
# same fields as the kernel shows them in /sys/class/dmi/id (a tmpfs over the tree's /sys/class). Types 3-11,
# the ones a .hwids entry is matched with, must be the same. SKIP without the archive.
#   chid-analyze-262.sh URLBOOTCTL SRCDIR
set -u
ctl=$1 src=$2
tmp=$(mktemp -d /tmp/urlboot-chid-oracle.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$src/test/tap.sh"
. "$src/test/reference-version.sh"
reference_version "$src"

# machine NAME M F P S m p: the SMBIOS table (types 1 and 2) and the sysfs files of these fields
machine() {
	local name=$1
	shift
	mkdir -p "$tmp/$name/id"
	python3 - "$tmp/$name/table" "$@" <<'P'
import struct, sys
out, m, f, p, s, bm, bp = sys.argv[1:]
def structure(kind, formatted, strings):
    return bytes([kind, len(formatted) + 4, 0, 0]) + formatted + b''.join(x.encode() + b'\0' for x in strings) + b'\0'
# type 1 (SMBIOS 2.4): manufacturer 1, product 2, version, serial, UUID, wake-up, SKU 3, family 4
t1 = structure(1, bytes([1, 2, 0, 0]) + bytes(16) + bytes([6, 3, 4]), [m, p, s, f])
t2 = structure(2, bytes([1, 2, 0, 0]), [bm, bp])
open(out, 'wb').write(t1 + t2 + structure(127, b'', []) + b'\0')
P
	local i=0 file
	for file in sys_vendor product_family product_name product_sku board_vendor board_name; do
		i=$((i + 1))
		printf '%s\n' "${!i}" > "$tmp/$name/id/$file"
	done
}
machine workstation "Example Computers Ltd." "Workstation" "EX-4711" "SKU 0815" "Example Computers Ltd." "Board X1 (EX-4711)"
machine qemu-board "urlboot test" "urlboot boards" "urlboot board 1" "ub-1" "urlboot test" "ub-base-1"
machine non-ascii "Société Générale ☃" "𝔘rlboot" "Ø-1" "Ø" "ä" "ü board"

rows() { python3 -c 'import json,sys; print(" ".join("%s=%s" % (r["type"], r["chid"]) for r in json.load(sys.stdin) if r["type"] in range(3, 12)))'; }
for d in "$tmp"/*/; do
	name=$(basename "$d")
	ours=$("$ctl" chid --json --smbios="$d/table" | rows)
	theirs=$(tar -C "$d" -cf - id | "$src/tools/reference/systemd-unstable" --run /bin/sh -c '
		mount -t tmpfs tmpfs /sys/class && mkdir -p /sys/class/dmi && cd /sys/class/dmi && tar xf - &&
		systemd-analyze chid --json=short 2>/dev/null' | rows)
	check "$name: urlbootctl chid gives systemd-analyze chid $version's CHIDs of types 3-11 ($(echo $ours | wc -w) of them)" \
		'[ -n "$ours" ] && [ "$ours" = "$theirs" ]' "ours: $ours; systemd's: $theirs"
done
echo "1..$tap_n"
tap_exit
