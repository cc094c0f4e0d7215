#!/bin/bash
# Every static unit urlboot installs passes systemd-analyze verify (systemd 252). Prints TAP.
set -u
built=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Installed paths of our programs do not exist on a build host: verify against /usr/bin/true.
for f in "$src"/*.target "$src"/*.path "$src"/*.socket "$built"/*.service; do
	sed -e 's#/usr/bin/urlboot-[a-z-]*#/usr/bin/true#g' -e 's#/usr/bin/urlbootctl#/usr/bin/true#g' "$f" > "$tmp/$(basename "$f")"
done
units=$(cd "$tmp" && ls)
echo "1..$(echo "$units" | wc -l)"
n=0 failed=0
for u in $units; do
	n=$((n + 1))
	inst=$u
	# A template is verified through an instance.
	case "$u" in *@.service) inst=${u%@.service}@run-machines-rootdisk.raw.service; cp "$tmp/$u" "$tmp/$inst" ;; esac
	out=$(SYSTEMD_UNIT_PATH="$tmp:" systemd-analyze verify --man=no "$tmp/$inst" 2>&1)
	if [ $? = 0 ] && [ -z "$out" ]; then echo "ok $n - $u"; else echo "not ok $n - $u"; echo "$out" | sed 's/^/# /'; failed=$((failed + 1)); fi
done
exit $((failed > 0))
