#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A packager's build without gnu-efi: "meson setup -Defi=disabled" configures, builds no UEFI program, and
# the tests that boot or read them say that they skip and why (issue 33). Prints TAP.
#   build-without-efi.sh SRCDIR
set -u
src=$1
tmp=$(mktemp -d /tmp/urlboot-noefi.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
echo "1..3"
if meson setup "$tmp/b" "$src" -Defi=disabled >"$tmp/setup.log" 2>&1; then
	echo "ok 1 - meson setup -Defi=disabled"
else
	echo "not ok 1 - meson setup -Defi=disabled"; sed 's/^/# /' "$tmp/setup.log" | tail -5
	echo "ok 2 # SKIP not configured"; echo "ok 3 # SKIP not configured"; exit 1
fi
targets=$(meson introspect --targets "$tmp/b" | python3 -c 'import json,sys; print(" ".join(t["name"] for t in json.load(sys.stdin)))')
if ! grep -qw -e urlbootx64 -e urlboot-stubx64 <<<"$targets" && grep -qw urlbootctl <<<"$targets"; then
	echo "ok 2 - no UEFI program is built, urlbootctl is"
else
	echo "not ok 2 - targets: $targets"
fi
tests=$(meson introspect --tests "$tmp/b" | python3 -c 'import json,sys
for t in json.load(sys.stdin):
    if t["name"] in ("boot", "guests"):
        print(t["name"], t["cmd"][0].rsplit("/", 1)[-1], *t["cmd"][1:])')
if [ "$(grep -c 'skip.sh built without the UEFI programs' <<<"$tests")" = 2 ]; then
	echo "ok 3 - the boots and the guests skip, saying why"
else
	echo "not ok 3 - $tests"
fi
