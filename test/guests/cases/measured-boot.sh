#!/bin/bash
# Measured boot in a real guest, with a TPM: the firmware's event log holds the stub's records and
# replays to the TPM's PCRs (urlbootctl event-log), systemd's own bootctl shows the measurement
# feature lines of urlboot's stub and boot manager as ✓, and systemd 262 takes the boot for a measured
# UKI ("Measured UKI: yes", from StubPcrKernelImage). docs/measured-boot.md has the table of every line.
# guests: bookworm sid
# needs: tpm
# timeout: 120
SYSTEMD_PAGER= bootctl status --no-pager > bootctl.txt 2>&1
version=$(bootctl --version | awk 'NR == 1 { print $2 }')
mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security
echo "1..10"
check() { # DESCRIPTION COMMAND...
	local what=$1; shift
	if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fi
}
line() { # TEXT: bootctl printed this line (leading blanks aside)
	awk -v want="$1" '{ sub(/^ +/, ""); sub(/^Features: /, "") } $0 == want { found = 1 } END { exit !found }' bootctl.txt
}

# The firmware's log accounts for every PCR it extends but 11, which systemd-pcrphase extends from
# userspace after the stub (a barrier per boot phase: its words are in the journal, PCR=11 MEASURING=).
urlbootctl event-log --events > event-log.txt 2>&1
matches=$(awk '$3 == "matches"' event-log.txt | wc -l)
if [ "$(awk '$3 == "DIFFERS" && $1 != 11' event-log.txt | wc -l)" = 0 ] && [ "$matches" -gt 0 ]; then
	echo "ok - the event log replays to the TPM's PCRs, 11 aside ($matches values)"
else
	echo "not ok - the event log replays to the TPM's PCRs, 11 aside"
	sed 's/^/# /' event-log.txt
fi
words=$(journalctl -b PCR=11 -o verbose | sed -n 's/^ *MEASURING=//p')
want=$(awk '$1 == 11 && $2 == "sha256" { print $4 }' event-log.txt)
for word in $words; do
	digest=$(printf '%s' "$word" | sha256sum | cut -c1-64)
	want=$(printf "$(echo "$want$digest" | sed 's/../\\x&/g')" | sha256sum | cut -c1-64)
done
check "PCR 11 is the log's replay extended by systemd-pcrphase's words ($(echo $words))" \
	test "$want" = "$(tr A-F a-f < /sys/class/tpm/tpm0/pcr-sha256/11)"
check "the log has the stub's PCR 11 records (.linux name and data)" \
	test "$(awk '$1 == 11 && $3 == ".linux"' event-log.txt | wc -l)" = 2
check "bootctl $version: ✓ Measures kernel+command line+sysexts" line '✓ Measures kernel+command line+sysexts'
# the boot manager's line, and the stub's where bootctl knows the flag (253 and later)
check "bootctl $version: ✓ Support for passing random seed to OS ($(grep -c '✓ Support for passing random seed' bootctl.txt) lines)" \
	eval "grep -q '✓ Support for passing random seed to OS' bootctl.txt && ! grep -q '✗ Support for passing random seed' bootctl.txt"
for what in credentials 'system extension images'; do
	check "bootctl $version: ✓ Picks up $what from boot partition" line "✓ Picks up $what from boot partition"
done
if [ "${version%%.*}" -ge 254 ]; then
	check "bootctl $version: ✓ Picks up configuration extension images from boot partition" \
		line '✓ Picks up configuration extension images from boot partition'
else
	echo "ok - bootctl shows the configuration extension line # SKIP bootctl $version predates it (systemd 254)"
fi
if [ "${version%%.*}" -ge 258 ]; then
	check "bootctl $version: ✓ Loader reports active TPM2 PCR banks" line '✓ Loader reports active TPM2 PCR banks'
	check "bootctl $version: Measured UKI: yes" grep -qE '^ *Measured UKI: yes$' bootctl.txt
else
	echo "ok - bootctl shows the TPM2 banks line # SKIP bootctl $version predates LoaderTpm2ActivePcrBanks (systemd 258)"
	echo "ok - bootctl shows Measured UKI # SKIP bootctl $version does not print it"
fi
sed 's/^/# bootctl: /' bootctl.txt
grep -E '^ *1[123] ' event-log.txt | sed 's/^/# event-log: /'
