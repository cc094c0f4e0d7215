# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by the urlboot-pull shell tests with their arguments BUILDDIR SRCDIR: TAP helpers, $build,
# $src, $pull, a temporary directory $tmp with the fixtures in $tmp/fx (make-fixtures.sh), and
# "serve PORTFILE [SERVER-ARGS...]" starting the test server on $tmp/fx/srv. Everything started and
# made here is gone when the test exits, also when it fails.
set -u
build=$(realpath "$1") src=$(realpath "$2")
. "$src/test/tap.sh"
tmp=$(mktemp -d)
pull="$build/src/pull/urlboot-pull"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
"$src/test/pull/make-fixtures.sh" "$src/tools" "$tmp/fx" >/dev/null 2>&1

serve() { # PORTFILE [ARGS...]
	local pf=$1; shift
	python3 "$src/test/http/server.py" --root "$tmp/fx/srv" --port-file "$pf" "$@" > /dev/null 2>&1 & pids+=($!)
	for i in $(seq 50); do [ -f "$pf" ] && break; sleep 0.1; done
}
