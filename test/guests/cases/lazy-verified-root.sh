#!/bin/bash
# Debian 12 booted lazily with the documented expression alone (rd.urlboot.pull=...,lazy,... roothash=):
# a clean system on a verified root whose writes go to the overlay's tmpfs, the copy going on past the
# switch under the real root's systemd until the disk is local.
# guests: bookworm-lazy
# timeout: 900
state=$(cat "$URLBOOT_GUEST_STATE/system-state")
echo "1..10"
if [ "$state" = running ]; then
	echo "ok - the boot finished with state 'running'"
else
	echo "not ok - the boot finished with state '$state', not 'running'"
fi
if [ -s "$URLBOOT_GUEST_STATE/failed-units" ]; then
	echo "not ok - no unit failed: $(awk '{ print $1 }' "$URLBOOT_GUEST_STATE/failed-units" | paste -sd' ' -)"
	for unit in $(awk '{ print $1 }' "$URLBOOT_GUEST_STATE/failed-units"); do
		systemctl status --no-pager --lines=15 "$unit" 2>&1 | sed 's/^/# /'
	done
else
	echo "ok - no unit failed"
fi

# / is an overlay whose lower layer is dm-verity's /dev/mapper/root, its upper a tmpfs.
fstype=$(findmnt -no FSTYPE /)
lower=$(findmnt -no FSTYPE /sysroot 2>/dev/null)
target=$(dmsetup table root 2>/dev/null | awk '{ print $3 }')
if [ "$fstype" = overlay ] && [ "$target" = verity ] && grep -q ' roothash=' /proc/cmdline; then
	echo "ok - / is an overlay over dm-verity's root (systemd.volatile=overlay, the default with roothash=)"
else
	echo "not ok - / is '$fstype' (want overlay), /dev/mapper/root's target '$target' (want verity) ${lower:+/sysroot $lower}"
	findmnt -o TARGET,SOURCE,FSTYPE,OPTIONS | sed 's/^/# /'
fi

# /etc and /var take writes; they land in memory (the overlay's statfs is its tmpfs's, which urlboot-lazy
# status shows), the verified device stays read-only.
writes() { urlboot-lazy status --json | jq -r '.[0].rootWrites.used // 0'; }
before=$(writes)
if echo lazy > /etc/urlboot-lazy-case && mkdir -p /var/lib/urlboot-lazy-case &&
	head -c $((4 << 20)) /dev/urandom > /var/lib/urlboot-lazy-case/x && sync &&
	[ "$(cat /etc/urlboot-lazy-case)" = lazy ] && [ "$(blockdev --getro /dev/mapper/root)" = 1 ] &&
	[ $(( $(writes) - before )) -ge $((4 << 20)) ]; then
	echo "ok - /etc and /var are writable, their writes in memory ($(( ($(writes) - before) >> 10 )) KiB more), the verified device read-only"
else
	echo "not ok - /etc and /var are writable, their writes in memory (root writes $before, then $(writes) bytes), the verified device read-only"
fi
rm -rf /etc/urlboot-lazy-case /var/lib/urlboot-lazy-case
# The copy goes on until the disk is local (each quarter is logged).
unit=$(systemctl list-units --all --plain --no-legend 'urlboot-lazy@*' | awk '{ print $1 }' | head -1)
phase=
for _ in $(seq 800); do
	phase=$(urlboot-lazy status --json | jq -r '.[0].phase // "none"')
	[ "$phase" = local ] || [ "$phase" = failed ] && break
	sleep 1
done
json=$(urlboot-lazy status --json)
echo "# $json"
urlboot-lazy status | sed 's/^/# /'
if [ "$phase" = local ]; then
	echo "ok - the copy completed: status says local"
else
	echo "not ok - the copy completed: status says '$phase'"
fi

# It went on past the switch: the real root's systemd kept the initrd's unit (the file urlboot-lazy left
# in /run/systemd/system), and the disk became local after the real root's systemd started.
userspace=$(systemctl show -P UserspaceTimestampMonotonic)
local_usec=$(jq -r '.[0].localUSec // 0' <<< "$json")
followed=$(journalctl -b -o cat -u "$unit" | grep -m1 'followed the switch to the real root')
echo "# $unit: $(systemctl show -P ActiveState "$unit")/$(systemctl show -P SubState "$unit"), result $(systemctl show -P Result "$unit"); $followed"
if [ -f "/run/systemd/system/$unit" ] && [ "$(systemctl show -P FragmentPath "$unit")" = "/run/systemd/system/$unit" ] &&
	[ "$(systemctl show -P Result "$unit")" = success ]; then
	echo "ok - the real root's systemd kept $unit (from /run/systemd/system) and it ended well"
else
	echo "not ok - the real root's systemd kept $unit: fragment '$(systemctl show -P FragmentPath "$unit")', result '$(systemctl show -P Result "$unit")'"
fi
if [ "${local_usec:-0}" -gt "${userspace:-0}" ] && [[ $followed == *"(copying)"* ]]; then
	echo "ok - the copy went on past the switch (local at $((local_usec / 1000000)) s, the real root's systemd from $((userspace / 1000000)) s)"
else
	echo "not ok - the copy went on past the switch (local at ${local_usec} us, the real root's systemd from ${userspace} us; '$followed')"
fi

# Memory: the local copy holds what the image allocates, not its size; the root's writes are shown.
stored=$(jq -r '.[0].stored // 0' <<< "$json") size=$(jq -r '.[0].size' <<< "$json") zero=$(jq -r '.[0].zero' <<< "$json")
if [ "$stored" -gt 0 ] && [ "$stored" -le $((size - zero)) ]; then
	echo "ok - the local copy holds $((stored >> 20)) MiB of a $((size >> 20)) MiB image ($((zero >> 20)) MiB of zero blocks left as holes)"
else
	echo "not ok - the local copy holds $stored bytes, at most $((size - zero)) ($size less $zero of zero blocks)"
fi
used=$(jq -r '.[0].rootWrites.used // 0' <<< "$json") max=$(jq -r '.[0].rootWrites.max // 0' <<< "$json")
if [ "$used" -gt 0 ] && [ "$max" -gt 0 ]; then
	echo "ok - the root's writes are shown: $((used >> 10)) KiB in memory, at most $((max >> 20)) MiB"
else
	echo "not ok - the root's writes are shown (rootWrites: $(jq -c '.[0].rootWrites' <<< "$json"))"
fi

# The read-ahead list for the next boots (urlboot-lazy(8)): the plugin recorded each block the boot read,
# once, by its offset in the image.
reads=/run/urlboot/lazy/rootdisk.reads
n=$(grep -c . "$reads" 2>/dev/null || echo 0)
if [ "$n" -ge 10 ] && ! grep -qv '^[0-9]\+$' "$reads" && [ "$(sort -u "$reads" | wc -l)" = "$n" ] &&
	[ "$(sort -n "$reads" | tail -1)" -lt "$size" ]; then
	echo "ok - the blocks the boot read are recorded for a read-ahead list ($n in $reads, each once, within the image)"
else
	echo "not ok - the blocks the boot read are recorded in $reads ($n lines: $(head -c 200 "$reads" 2>&1 | tr '\n' ' '))"
fi
