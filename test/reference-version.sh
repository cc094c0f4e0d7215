# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by the tests that ask systemd 262 in the reference tree (tools/reference/systemd-unstable):
# "reference_version SRCDIR" sets $version ("262 (262.1-1)"), building the tree if it is not yet. Without the
# Debian archive it ends the test as a TAP skip with the reason; when the tree fails otherwise, as one failed
# test with what it said.
reference_version() {
	local err rc
	err=$(mktemp)
	version=$("$1/tools/reference/systemd-unstable" --version 2>"$err")
	rc=$?
	if [ $rc = 77 ]; then
		echo "1..0 # SKIP the reference tree cannot be built: $(tail -1 "$err")"
		rm -f "$err"
		exit 0
	elif [ $rc != 0 ]; then
		echo "1..1"
		echo "not ok 1 - the reference tree (tools/reference/systemd-unstable) failed:"
		sed 's/^/# /' "$err"
		rm -f "$err"
		exit 1
	fi
	rm -f "$err"
}
