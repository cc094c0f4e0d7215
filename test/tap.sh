# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by the shell tests: TAP output. "check DESCRIPTION SHELL-CONDITION" prints one test line;
# "check DESCRIPTION SHELL-CONDITION DETAIL" also prints DETAIL as a TAP comment when it fails.
# "tap_exit" ends the script with status 1 if any check failed.
tap_n=0
tap_failed=0
check() {
	tap_n=$((tap_n + 1))
	if eval "$2"; then
		echo "ok $tap_n - $1"
	else
		echo "not ok $tap_n - $1"
		[ -n "${3:-}" ] && echo "# $3"
		tap_failed=$((tap_failed + 1))
	fi
}
tap_exit() {
	exit $((tap_failed > 0))
}
