#!/bin/bash
# The guest reached multi-user.target with no failed unit, root on the image urlboot pulled.
# guests: bookworm sid
# timeout: 120
state=$(cat "$URLBOOT_GUEST_STATE/system-state")
echo "1..5"
# What the runner saw when the boot had finished, before any case could change it.
if [ "$state" = running ]; then
	echo "ok 1 - the boot finished with state 'running'"
else
	echo "not ok 1 - the boot finished with state '$state', not 'running'"
fi
if [ -s "$URLBOOT_GUEST_STATE/failed-units" ]; then
	echo "not ok 2 - no unit failed: $(awk '{ print $1 }' "$URLBOOT_GUEST_STATE/failed-units" | paste -sd' ' -)"
	for unit in $(awk '{ print $1 }' "$URLBOOT_GUEST_STATE/failed-units"); do
		systemctl status --no-pager --lines=15 "$unit" 2>&1 | sed 's/^/# /'
	done
else
	echo "ok 2 - no unit failed"
fi
# Root is the partition of the loop device urlboot attached to the pulled image.
root=$(findmnt -no SOURCE /)
backing=$(cat "/sys/class/block/${root#/dev/}/../loop/backing_file" 2>/dev/null)
if [[ $root == /dev/loop*p1 ]] && [ "$backing" = /run/machines/rootdisk.raw ]; then
	echo "ok 3 - root is $root on $backing"
else
	echo "not ok 3 - root is '$root' on '$backing', not a loop partition of /run/machines/rootdisk.raw"
fi
# The running kernel's modules are in the image (units that load modules depend on them).
if [ -f "/usr/lib/modules/$(uname -r)/modules.dep" ] && modprobe -n -q binfmt_misc; then
	echo "ok 4 - modules of $(uname -r) present"
else
	echo "not ok 4 - no modules for $(uname -r) in the image"
fi
# In the initrd the root mount waits for urlboot-imports.target: the root image's attach must have
# finished before it, or the switch root kills urlboot-loop while it still waits for udev (seen once in a
# bench boot: degraded, urlboot-loop@ failed by SIGTERM). The order of systemd's "unit started" entries.
started=$(journalctl -b -q --no-pager -o cat --output-fields=UNIT _PID=1 MESSAGE_ID=39f53479d3a045ac8e11786248231fbf 2>/dev/null)
loop_line=$(echo "$started" | grep -n -m1 -x 'urlboot-loop@run-machines-rootdisk.raw.service' | cut -d: -f1)
target_line=$(echo "$started" | grep -n -m1 -x 'urlboot-imports.target' | cut -d: -f1)
if [ -n "$loop_line" ] && [ -n "$target_line" ] && [ "$loop_line" -lt "$target_line" ]; then
	echo "ok 5 - the initrd attached the root image before urlboot-imports.target (the root mount's condition)"
else
	echo "not ok 5 - urlboot-loop@run-machines-rootdisk.raw.service started as entry '${loop_line:-none}', urlboot-imports.target as '${target_line:-none}'"
	echo "$started" | head -40 | sed 's/^/# /'
fi
