#!/bin/bash
# The directory quota table (test/data/dirquota-cases.tsv) against systemd's own functions in the reference
# tree (systemd 262, tools/reference/systemd-unstable): its value parser, boolean parser, SipHash, project
# ID reduction and size format must give every result the table holds (the table is what test-dirquota-values
# checks urlboot's code against). Prints TAP, one line per kind of case.
#
#   oracle-262.sh CC SRCDIR
set -u
cc=$1 src=$2
table=$src/test/data/dirquota-cases.tsv
tmp=$(mktemp -d /tmp/urlboot-dirquota-oracle.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

. "$src/test/reference-version.sh"
reference_version "$src"
major=${version%% *}

grep -v '^#' "$table" | grep -v '^$' > "$tmp/cases"
cut -f1,2 "$tmp/cases" > "$tmp/input"
# plain, without the build's sanitizers: the tree has no libasan
if ! "$cc" -O1 -o "$tmp/oracle" "$src/test/quota/oracle-262.c" -ldl 2>"$tmp/err"; then
	echo "1..1"
	echo "not ok 1 - the oracle does not compile"
	sed 's/^/# /' "$tmp/err"
	exit 1
fi
# The tree gets the oracle and the input through a pipe: nothing is written into the cached tree.
tar -C "$tmp" -cf - oracle input | "$src/tools/reference/systemd-unstable" --run /bin/sh -c '
	cd /tmp && tar xf - && lib=$(dirname /usr/lib/*/systemd/libsystemd-core-*.so) &&
	exec ./oracle "$lib" "$1" < input' sh "$major" > "$tmp/output" 2>"$tmp/err"
rc=$?
if [ $rc != 0 ] || [ "$(wc -l < "$tmp/output")" != "$(wc -l < "$tmp/cases")" ]; then
	echo "1..1"
	echo "not ok 1 - the oracle did not answer every case (exit $rc)"
	sed 's/^/# /' "$tmp/err"
	exit 1
fi

kinds=$(cut -f1 "$tmp/cases" | awk '!seen[$0]++')
echo "1..$(echo "$kinds" | wc -l)"
n=0 failed=0
for kind in $kinds; do
	n=$((n + 1))
	bad=$(paste "$tmp/cases" "$tmp/output" | awk -F'\t' -v k="$kind" '$1 == k && $3 != $4 { printf "%s \"%s\": table %s, systemd %s\n", $1, $2, $3, $4 }')
	count=$(awk -F'\t' -v k="$kind" '$1 == k' "$tmp/cases" | wc -l)
	if [ -z "$bad" ]; then
		echo "ok $n - $kind: $count cases as systemd $version"
	else
		echo "not ok $n - $kind: the table differs from systemd $version"
		echo "$bad" | sed 's/^/# /'
		failed=$((failed + 1))
	fi
done
exit $((failed > 0))
