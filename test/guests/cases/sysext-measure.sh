#!/bin/bash
# Activated system extensions measured into PCR 13 on Debian 12 (systemd 252): systemd-sysext.service,
# restarted with two extensions that match the OS (a directory in /run/extensions, a raw ext4 image in
# /var/lib/extensions) and one that does not, runs urlboot-sysext-measure first (the unit's drop-in):
# the two are merged and measured, the third neither; PCR 13 then equals `urlbootctl measure --sysext=`'s
# prediction and `urlbootctl event-log`'s replay of the firmware log and urlboot's log; a second restart
# measures nothing new; a secret sealed to the predicted PCR 13 unseals.
# guests: bookworm
# needs: tpm
# timeout: 180
echo "1..7"
check() { # DESCRIPTION COMMAND...
	local what=$1; shift
	if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fi
}
pcr13() { tr A-F a-f < /sys/class/tpm/tpm0/pcr-sha256/13; }
. /etc/os-release
mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security
before=$(pcr13)

# the extensions: a directory, a raw image, one for another OS
mkdir -p /run/extensions/tools/usr/lib/extension-release.d /run/extensions/tools/usr/share/urlboot-tools
printf 'ID=%s\nVERSION_ID=%s\n' "$ID" "$VERSION_ID" > /run/extensions/tools/usr/lib/extension-release.d/extension-release.tools
echo tools > /run/extensions/tools/usr/share/urlboot-tools/hello
mkdir -p tree/usr/lib/extension-release.d tree/usr/share/urlboot-debug
printf 'ID=%s\nVERSION_ID=%s\n' "$ID" "$VERSION_ID" > tree/usr/lib/extension-release.d/extension-release.debug
echo debug > tree/usr/share/urlboot-debug/hello
mkdir -p /var/lib/extensions
mkfs.ext4 -q -d tree -L debug /var/lib/extensions/debug.raw 8M
mkdir -p /run/extensions/other/usr/lib/extension-release.d /run/extensions/other/usr/share/urlboot-other
printf 'ID=fedora\nVERSION_ID=41\n' > /run/extensions/other/usr/lib/extension-release.d/extension-release.other

systemctl restart systemd-sysext.service
check "systemd-sysext merged the two that match (tools, debug), not the other" \
	test -e /usr/share/urlboot-tools/hello -a -e /usr/share/urlboot-debug/hello -a ! -e /usr/share/urlboot-other
journalctl -b -u systemd-sysext.service -o cat | grep -i 'measur' | sed 's/^/# /'
log=/run/log/urlboot/tpm2-measure.log
check "urlboot's log has one record each for debug and tools, none for other" \
	test "$(grep -c 'sysext:debug:sha256:' $log)/$(grep -c 'sysext:tools:tree:' $log)/$(grep -c 'sysext:other' $log)" = 1/1/0

urlbootctl measure --json --sysext=/run/extensions/tools --sysext=/var/lib/extensions/debug.raw > predicted.json
predicted=$(jq -r '.pcrs[] | select(.pcr == 13) | .sha256' predicted.json)
after=$(pcr13)
if [ "$before" = 0000000000000000000000000000000000000000000000000000000000000000 ]; then
	check "PCR 13 is urlbootctl measure --sysext='s prediction ($predicted)" test "$after" = "$predicted"
else
	echo "not ok - PCR 13 was not zero before the extensions ($before): the stub measured something"
fi
urlbootctl event-log --pcr=13 > event-log.txt 2>&1
check "urlbootctl event-log replays PCR 13 from the firmware log and urlboot's log to the TPM's value" \
	awk '$1 == 13 && $2 == "sha256" && $3 == "matches" { found = 1 } END { exit !found }' event-log.txt
grep -q matches event-log.txt || sed 's/^/# /' event-log.txt

systemctl restart systemd-sysext.service
check "a second restart measures nothing new (PCR 13 unchanged, two records)" \
	test "$(pcr13)" = "$after" -a "$(grep -c $'^\x1e' $log)" = 2

# a secret sealed to the predicted PCR 13 (tpm2-tools' policy from the predicted value) unseals now
printf "$(echo "$predicted" | sed 's/../\\x&/g')" > pcr13.bin
ok=0
if tpm2_createprimary -Q -C o -c primary.ctx &&
   tpm2_createpolicy -Q --policy-pcr -l sha256:13 -f pcr13.bin -L policy.dat &&
   echo 'sealed to the extensions' | tpm2_create -Q -C primary.ctx -L policy.dat -i- -u seal.pub -r seal.priv &&
   tpm2_load -Q -C primary.ctx -u seal.pub -r seal.priv -c seal.ctx &&
   [ "$(tpm2_unseal -c seal.ctx -p pcr:sha256:13 2>/dev/null)" = 'sealed to the extensions' ]; then
	ok=1
fi
check "a secret sealed to the predicted PCR 13 unseals" test $ok = 1

# one more extension: the old prediction no longer holds, the secret stays sealed
mkdir -p /run/extensions/extra/usr/lib/extension-release.d
printf 'ID=_any\n' > /run/extensions/extra/usr/lib/extension-release.d/extension-release.extra
systemctl restart systemd-sysext.service
check "with a third extension merged the secret stays sealed" \
	test "$(tpm2_unseal -c seal.ctx -p pcr:sha256:13 2>/dev/null)" != 'sealed to the extensions'
systemctl stop systemd-sysext.service
rm -rf /run/extensions /var/lib/extensions/debug.raw
tpm2_flushcontext -t >/dev/null 2>&1
true
