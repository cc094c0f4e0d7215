#!/bin/bash
# urlboot-rollout-generator on fake efivarfs trees (URLBOOT_EFIVARFS), in the initrd and in the system
# (SYSTEMD_IN_INITRD), with kernel command lines (SYSTEMD_PROC_CMDLINE): what it writes for a version on
# trial, nothing otherwise, and every unit it writes passes systemd-analyze verify (252). Prints TAP.
#   rollout-generator.sh GENERATOR
set -u
gen=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
check() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else failed=$((failed + 1)); echo "not ok $n - $1"; fi; }
guid=3c0a4d1e-8b7f-4c55-9a1e-75726c626f6f

# run NAME CHOICE STORE INITRD CMDLINE: the generator's output in $tmp/NAME/out, its messages in $tmp/NAME/err
run() {
	local d=$tmp/$1
	mkdir -p "$d/efi" "$d/out/normal" "$d/out/early" "$d/out/late"
	[ -n "$2" ] && printf '\007\000\000\000%b' "$2" > "$d/efi/UrlbootRolloutChoice-$guid"
	[ -n "$3" ] && printf '\007\000\000\000%b' "$3" > "$d/efi/UrlbootRollout-$guid"
	URLBOOT_EFIVARFS=$d/efi SYSTEMD_IN_INITRD=$4 SYSTEMD_PROC_CMDLINE=$5 \
		"$gen" "$d/out/normal" "$d/out/early" "$d/out/late" 2> "$d/err"
	echo $? > "$d/rc"
}
files() { (cd "$tmp/$1/out/normal" && find . \( -type f -o -type l \) | sort | tr '\n' ' '); }

run none "" "" 0 "quiet"
check "no rollout: nothing written, exit 0" "[ -z \"\$(files none)\" ] && [ \$(cat $tmp/none/rc) = 0 ]"
run good 'image-41.conf\ngood\nnewest version' 'image-41.conf good 0 1\n' 0 "quiet"
check "a version already good: nothing written" "[ -z \"\$(files good)\" ]"
run unknown 'image-42.conf\ntrial\nnewest version' 'image-41.conf good 0 1\n' 0 "quiet"
check "a version the store does not know (reset by hand): nothing written" "[ -z \"\$(files unknown)\" ]"
run broken 'image-42.conf\x1b[2J\ntrial\nx' 'image-42.conf trial 1 1\n' 0 "quiet"
check "a broken choice variable: nothing written, one warning, exit 0" \
	"[ -z \"\$(files broken)\" ] && grep -q 'not what the boot manager writes' $tmp/broken/err && [ \$(cat $tmp/broken/rc) = 0 ]"

run system 'image-42.conf\ntrial\nnewest version' 'image-42.conf trial 1 1\nimage-41.conf good 0 1\n' 0 \
	"quiet urlboot.rollout_timeout=60"
want='./basic.target.wants/urlboot-rollout-bless.service ./emergency.target.d/50-urlboot-rollout.conf ./rescue.target.d/50-urlboot-rollout.conf ./sysinit.target.wants/urlboot-rollout-deadline.timer ./urlboot-rollout-deadline.service ./urlboot-rollout-deadline.timer ./urlboot-rollout-failed.service '
check "on trial, in the system: failure reboot, deadline timer, blessing" "[ \"\$(files system)\" = \"$want\" ]"
check "in the system the deadline is urlboot.rollout_timeout= seconds from its start" \
	"grep -qx 'OnActiveSec=60' $tmp/system/out/normal/urlboot-rollout-deadline.timer && ! grep -q '^After=' $tmp/system/out/normal/urlboot-rollout-deadline.timer"
check "in the system the deadline asks whether the version was blessed since" \
	"grep -qx 'ExecCondition=/usr/bin/urlbootctl rollout is-trial --quiet' $tmp/system/out/normal/urlboot-rollout-deadline.service"
check "emergency and rescue mode want the reboot" \
	"grep -qx 'Wants=urlboot-rollout-failed.service' $tmp/system/out/normal/emergency.target.d/50-urlboot-rollout.conf"
check "the reboot's description names the version and the tries left" \
	"grep -qx 'Description=urlboot: image-42.conf is on trial and failed; rebooting to count the try (1 left)' $tmp/system/out/normal/urlboot-rollout-failed.service"

run initrd 'image-42.conf\ntrial\nnewest version' 'image-42.conf trial 1 1\n' 1 "quiet"
check "on trial, in the initrd: no blessing, no condition on the deadline, the default 900 s" \
	"! [ -e $tmp/initrd/out/normal/basic.target.wants ] && ! grep -q ExecCondition $tmp/initrd/out/normal/urlboot-rollout-deadline.service && grep -qx 'OnActiveSec=900' $tmp/initrd/out/normal/urlboot-rollout-deadline.timer"
check "in the initrd the deadline starts once the image is in place (after urlboot-imports.target), not at boot" \
	"grep -qx 'After=urlboot-imports.target' $tmp/initrd/out/normal/urlboot-rollout-deadline.timer && ! grep -q OnBootSec $tmp/initrd/out/normal/urlboot-rollout-deadline.timer"
run nodeadline 'image-42.conf\ntrial\nx' 'image-42.conf trial 1 1\n' 0 "urlboot.rollout_timeout=0"
check "urlboot.rollout_timeout=0: no deadline" "! [ -e $tmp/nodeadline/out/normal/urlboot-rollout-deadline.timer ]"
run badtimeout 'image-42.conf\ntrial\nx' 'image-42.conf trial 1 1\n' 0 "urlboot.rollout_timeout=soon"
check "a timeout that is not a number: a warning, the default" \
	"grep -q 'not a number of seconds' $tmp/badtimeout/err && grep -qx 'OnActiveSec=900' $tmp/badtimeout/out/normal/urlboot-rollout-deadline.timer"

# systemd-analyze verify: urlbootctl is not installed on the build host; the bless unit from units/ beside.
v=$tmp/verify
mkdir -p "$v"
for f in "$tmp"/system/out/normal/*.service "$tmp"/system/out/normal/*.timer; do
	sed 's#/usr/bin/urlbootctl#/usr/bin/true#g' "$f" > "$v/$(basename "$f")"
done
cp "$tmp/initrd/out/normal/urlboot-rollout-deadline.timer" "$v/urlboot-rollout-deadline-initrd.timer"
cp "$tmp/initrd/out/normal/urlboot-rollout-deadline.service" "$v/urlboot-rollout-deadline-initrd.service"
out=$(cd "$v" && SYSTEMD_UNIT_PATH="$v:" systemd-analyze verify --man=no ./*.service ./*.timer 2>&1)
check "every unit it writes passes systemd-analyze verify" "[ -z \"\$out\" ]" || echo "$out" | sed 's/^/# /'
echo "1..$n"
exit $((failed > 0))
