#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# urlboot-sysext-measure --root=DIR --dry-run on an OS tree: the extensions systemd-sysext 252 itself lists
# there (its search path and precedence), each judged by its extension-release as 252 judges it: a directory's
# read directly, a raw ext4 image's through systemd-dissect (a loop device); one for another OS is not
# measured, an image shadowed by one of the same name earlier in the search path is not either. Needs root
# (loop devices). Prints TAP.
#   discover.sh URLBOOT-SYSEXT-MEASURE
set -u
measure=$1
n=5
echo "1..$n"
skip() { for i in $(seq $n); do echo "ok $i # SKIP $1"; done; exit 0; }
[ "$(id -u)" = 0 ] || skip "needs root (systemd-dissect attaches a loop device)"
command -v systemd-sysext >/dev/null || skip "no systemd-sysext (package systemd)"
command -v systemd-dissect >/dev/null || skip "no systemd-dissect (package systemd-container)"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4 (e2fsprogs)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root/etc/extensions" "$root/run/extensions" "$root/var/lib/extensions" "$root/usr/lib"
printf 'ID=debian\nVERSION_ID=12\n' > "$root/usr/lib/os-release"
ext() { # DIR NAME RELEASE
	mkdir -p "$1/usr/lib/extension-release.d" "$1/usr/share/$2"
	printf '%b' "$3" > "$1/usr/lib/extension-release.d/extension-release.$2"
	echo "$2" > "$1/usr/share/$2/file"
}
ext "$root/run/extensions/tools" tools 'ID=debian\nVERSION_ID=12\n'
ext "$root/var/lib/extensions/tools" tools 'ID=debian\nVERSION_ID=12\n'      # shadowed by /run's
ext "$root/etc/extensions/any" any 'ID=_any\n'
ext "$root/run/extensions/fedora" fedora 'ID=fedora\nVERSION_ID=41\n'
ext "$tmp/debug" debug 'ID=debian\nVERSION_ID=12\n'
mkfs.ext4 -q -d "$tmp/debug" "$root/var/lib/extensions/debug.raw" 8M >/dev/null 2>&1
ext "$tmp/old" old 'ID=debian\nVERSION_ID=11\n'
mkfs.ext4 -q -d "$tmp/old" "$root/var/lib/extensions/old.raw" 8M >/dev/null 2>&1

"$measure" --root="$root" --dry-run --json=short > "$tmp/plan.json" 2> "$tmp/err.txt" || true
plan=$(python3 -c 'import json,sys
for e in json.load(open(sys.argv[1])):
    print(e["name"], e["outcome"], (e["event"] or "").split(":")[2] if e["event"] else e.get("reason", ""), e["path"].replace(sys.argv[2], ""))' "$tmp/plan.json" "$root" 2>/dev/null)
has() { grep -qxF "$1" <<< "$plan"; }
has "tools would-measure tree /run/extensions/tools" && ! grep -q /var/lib/extensions/tools <<< "$plan" &&
	echo "ok - a directory that matches is measured, the one of the same name later in the search path is not" ||
	echo "not ok - a directory that matches is measured, the one of the same name later in the search path is not"
has "debug would-measure sha256 /var/lib/extensions/debug.raw" &&
	echo "ok - a raw image whose extension-release (read by systemd-dissect) matches is measured by its SHA-256" ||
	echo "not ok - a raw image whose extension-release (read by systemd-dissect) matches is measured by its SHA-256"
has "old not-merged its VERSION_ID= is not the host's /var/lib/extensions/old.raw" &&
	echo "ok - a raw image for another version is not measured" || echo "not ok - a raw image for another version is not measured"
has "fedora not-merged its ID= names another OS /run/extensions/fedora" && has "any would-measure tree /etc/extensions/any" &&
	echo "ok - ID=_any is measured, another OS's is not" || echo "not ok - ID=_any is measured, another OS's is not"
[ "$(awk '{ print $1 }' <<< "$plan" | tr '\n' ' ')" = "any debug fedora old tools " ] &&
	echo "ok - in the order systemd-sysext merges (names in version order)" ||
	echo "not ok - in the order systemd-sysext merges (names in version order)"
[ -n "$plan" ] || { echo "# plan:"; sed 's/^/# /' "$tmp/plan.json" "$tmp/err.txt"; }
