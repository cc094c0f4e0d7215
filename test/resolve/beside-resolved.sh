#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# urlboot-resolve beside systemd-resolved 262 (beside-resolved.py). The reference tree is built (or
# found in its cache) here, where the Debian archive can be reached; the comparison then runs in a
# private network namespace. Prints TAP.
#   beside-resolved.sh URLBOOT-RESOLVE SRCDIR
set -u
binary=$1 src=$2
err=$(mktemp)
trap 'rm -f "$err"' EXIT
tree=$("$src/tools/reference/systemd-unstable" 2>"$err")
case $? in
0) ;;
77) echo "1..0 # SKIP the reference tree (systemd 262) cannot be built: $(tail -1 "$err")"; exit 0 ;;
*) echo "Bail out! tools/reference/systemd-unstable failed: $(tail -1 "$err")"; exit 1 ;;
esac
# exec drops the EXIT trap: the file goes now.
rm -f "$err"
exec "$src/test/netns-run.sh" python3 "$src/test/resolve/beside-resolved.py" "$binary" "$src" "$tree"
