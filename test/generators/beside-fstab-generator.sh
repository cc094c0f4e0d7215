#!/bin/bash
# Runs systemd 252's own fstab-generator beside urlboot-root-generator for root=bind:PATH and shows
# that systemd loads our sysroot.mount: the real tool's unit search path (systemd-analyze unit-paths)
# puts the generators' early directory before the normal one that fstab-generator writes to.
# Prints TAP.
set -u
build=$1
fstab=/lib/systemd/system-generators/systemd-fstab-generator
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../tap.sh"

echo "1..5"
mkdir -p "$tmp"/{normal,early,late}
export SYSTEMD_IN_INITRD=1 URLBOOT_SYSTEMD_VERSION=252
export SYSTEMD_PROC_CMDLINE="root=bind:/run/machines/root rd.systemd.pull=tar,machine,verify=no::http://h/root.tar fstab=no"
"$fstab" "$tmp/normal" "$tmp/early" "$tmp/late" 2>/dev/null
"$build/src/generators/urlboot-root-generator" "$tmp/normal" "$tmp/early" "$tmp/late"

check "systemd 252 fstab-generator writes a sysroot.mount for the device 'bind:...'" \
	"grep -qx 'What=bind:/run/machines/root' '$tmp/normal/sysroot.mount'"
check "urlboot-root-generator writes the bind mount into the early directory" \
	"grep -qx 'What=/run/machines/root' '$tmp/early/sysroot.mount' && grep -qx 'Options=rw,bind,suid,dev,exec' '$tmp/early/sysroot.mount'"

# The first directory of systemd's own search path that holds the unit is the one systemd loads.
first=""
while read -r dir; do
	case "$dir" in
	/run/systemd/generator.early) d="$tmp/early" ;;
	/run/systemd/generator) d="$tmp/normal" ;;
	/run/systemd/generator.late) d="$tmp/late" ;;
	*) continue ;;
	esac
	if [ -e "$d/sysroot.mount" ]; then first=$d; break; fi
done < <(systemd-analyze unit-paths)
check "systemd's unit search path finds our sysroot.mount first" "[ '$first' = '$tmp/early' ]"

# Both wrote the same requires link; either way it names sysroot.mount, which resolves to ours.
check "initrd-root-fs.target requires sysroot.mount" \
	"[ -L '$tmp/early/initrd-root-fs.target.requires/sysroot.mount' ]"
check "the root mount waits for the downloads" \
	"grep -qx 'After=urlboot-imports.target' '$tmp/early/sysroot.mount'"
tap_exit
