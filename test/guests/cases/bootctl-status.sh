#!/bin/bash
# systemd's own bootctl in the guest (252 in bookworm, 262 in sid) shows urlboot's boot loader and stub
# and, from systemd 258 on, both Net Boot URLs; urlbootctl shows the URLs everywhere and agrees with
# bootctl on every feature line both print. The feature lines themselves are recorded as comments
# (what urlboot does not offer yet is ✗).
# guests: bookworm sid
# timeout: 120
SYSTEMD_PAGER= bootctl status --no-pager > bootctl.txt 2>&1
urlbootctl status > urlbootctl.txt 2>&1
version=$(bootctl --version | awk 'NR == 1 { print $2 }')

section() { # HEADER FILE: one "Header:" block of the status output, up to its blank line
	awk -v h="$1" '$0 == h { on = 1; next } on && /^$/ { exit } on' "$2"
}
check() { # DESCRIPTION COMMAND...
	local what=$1; shift
	if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fi
}
has() { # TEXT ERE: some line of TEXT matches
	grep -qE "$2" <<<"$1"
}
has_line() { # TEXT LINE: some line of TEXT is LINE, leading blanks aside
	awk -v want="$2" '{ sub(/^ +/, "") } $0 == want { found = 1 } END { exit !found }' <<<"$1"
}

echo "1..6"
loader=$(section 'Current Boot Loader:' bootctl.txt)
# 252 lists the stub inside the loader's block; 258 on give it a block of its own.
stub=$(section 'Current Stub:' bootctl.txt)
check "bootctl $version names urlboot's boot loader" has "$loader" '^ *Product: urlboot [0-9]'
check "bootctl $version names urlboot's stub" has "$loader"$'\n'"$stub" '^ *(Stub|Product): urlboot-stub [0-9]'
if [ "${version%%.*}" -ge 258 ]; then
	check "bootctl $version shows the loader's Net Boot URL" has_line "$loader" "Net Boot URL: $URLBOOT_LOADER_URL"
	check "bootctl $version shows the stub's Net Boot URL" has_line "$stub" "Net Boot URL: $URLBOOT_UKI_URL"
else
	echo "ok - bootctl shows the loader's Net Boot URL # SKIP bootctl $version predates LoaderDeviceURL (systemd 258)"
	echo "ok - bootctl shows the stub's Net Boot URL # SKIP bootctl $version predates StubDeviceURL (systemd 258)"
fi
if has_line "$(section 'Current Boot Loader:' urlbootctl.txt)" "Net Boot URL: $URLBOOT_LOADER_URL" &&
	has_line "$(section 'Current Stub:' urlbootctl.txt)" "Net Boot URL: $URLBOOT_UKI_URL"; then
	echo "ok - urlbootctl shows both Net Boot URLs"
else
	echo "not ok - urlbootctl shows both Net Boot URLs"
	sed 's/^/# urlbootctl: /' urlbootctl.txt
fi
# Every feature line both tools print, by label: the same mark.
compare=$(awk '
	function split_line(s) { if (!match(s, /(✓|✗) /)) return 0; mark = substr(s, RSTART, RLENGTH - 1); label = substr(s, RSTART + RLENGTH); return 1 }
	NR == FNR { if (split_line($0)) ours[label] = mark; next }
	split_line($0) && (label in ours) { n++; if (ours[label] != mark) { print "differs: " label; bad = 1 } }
	END { print n " compared"; exit (bad || n < 5) }' urlbootctl.txt bootctl.txt)
agree=$?
check "bootctl $version and urlbootctl agree on the feature lines both print ($(tail -1 <<<"$compare"))" \
	test $agree = 0
sed -n 's/^differs: /# differs: /p' <<<"$compare"

# The record: what this bootctl says about urlboot, mark by mark.
echo "# bootctl $version feature lines: $(grep -c '✓' bootctl.txt) ✓, $(grep -c '✗' bootctl.txt) ✗"
awk '/^Current Boot Loader:/ { s = "loader" } /^Current Stub:/ { s = "stub" } /^ *Stub: / { s = "stub" } /^$/ { s = "" }
	s && match($0, /(✓|✗) .*/) { print "# " s " feature: " substr($0, RSTART) }' bootctl.txt
sed 's/^/# bootctl: /' bootctl.txt
