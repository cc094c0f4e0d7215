#!/bin/bash
# Every man page renders without warnings. Prints TAP.
set -u
pages=$(ls "$1"/*.[0-9])
echo "1..$(echo "$pages" | wc -l)"
n=0 failed=0
for p in $pages; do
	n=$((n + 1))
	out=$(LC_ALL=C.UTF-8 groff -man -ww -z -Tutf8 "$p" 2>&1)
	if [ -z "$out" ]; then echo "ok $n - $(basename "$p")"; else echo "not ok $n - $(basename "$p")"; echo "$out" | sed 's/^/# /'; failed=$((failed + 1)); fi
done
exit $((failed > 0))
