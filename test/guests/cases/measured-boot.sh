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
echo "1..6"
check() { # DESCRIPTION COMMAND...
	local what=$1; shift
	if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fi
}
line() { # TEXT: bootctl printed this line (leading blanks aside)
	awk -v want="$1" '{ sub(/^ +/, ""); sub(/^Features: /, "") } $0 == want { found = 1 } END { exit !found }' bootctl.txt
}

if urlbootctl event-log --events > event-log.txt 2>&1; then
	echo "ok - the event log replays to the TPM's PCRs ($(grep -c matches event-log.txt) values)"
else
	echo "not ok - the event log replays to the TPM's PCRs"
	sed 's/^/# /' event-log.txt
fi
check "the log has the stub's PCR 11 records (.linux name and data)" \
	test "$(awk '$1 == 11 && $3 == ".linux"' event-log.txt | wc -l)" = 2
check "bootctl $version: ✓ Measures kernel+command line+sysexts" line '✓ Measures kernel+command line+sysexts'
check "bootctl $version: ✓ Support for passing random seed to OS (stub)" \
	test "$(grep -c '✓ Support for passing random seed to OS' bootctl.txt)" -ge 1
if [ "${version%%.*}" -ge 258 ]; then
	check "bootctl $version: ✓ Loader reports active TPM2 PCR banks" line '✓ Loader reports active TPM2 PCR banks'
	check "bootctl $version: Measured UKI: yes" grep -qE '^ *Measured UKI: yes$' bootctl.txt
else
	echo "ok - bootctl shows the TPM2 banks line # SKIP bootctl $version predates LoaderTpm2ActivePcrBanks (systemd 258)"
	echo "ok - bootctl shows Measured UKI # SKIP bootctl $version does not print it"
fi
sed 's/^/# bootctl: /' bootctl.txt
grep -E '^ *1[123] ' event-log.txt | sed 's/^/# event-log: /'
