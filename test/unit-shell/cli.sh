#!/bin/bash
# urlboot-unit-shell's command line on a machine without systemd as PID 1: every row of
# test/data/unit-shell-cli.tsv gives the exit status and stderr; rows marked "same" must also be what
# systemd-analyze unit-shell prints and exits with in the reference tree (systemd 262), which is skipped
# (with the reason) when that tree cannot be built. Prints TAP.
#
#   cli.sh URLBOOT-UNIT-SHELL SRCDIR
set -u
tool=$1 src=$2
table=$src/test/data/unit-shell-cli.tsv
tmp=$(mktemp -d /tmp/unit-shell-cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../tap.sh"

# Fields split at \x1f: read(1) would merge the tabs around an empty field.
grep -v '^#' "$table" | tr '\t' '\037' > "$tmp/cases"
n=$(wc -l < "$tmp/cases")
same=$(grep -c $'\037same$' "$tmp/cases")
echo "1..$((n + same))"

# stderr as one line: "program: " prefixes (ours, getopt's, systemd-analyze's) gone, lines joined by " | ".
normalize() { sed -e 's/^[^ ]*urlboot-unit-shell: //' -e 's/^systemd-analyze: //' | paste -sd$'\037' - | sed $'s/\037/ | /g'; }

# systemd-analyze, all "same" rows in one run of the reference tree: "@@ I RC" then stderr.
reference=yes
"$src/tools/reference/systemd-unstable" --version >/dev/null 2>"$tmp/ref-err"
case $? in
0)
	i=0
	while IFS=$'\037' read -r args environment _ _ v258; do
		i=$((i + 1))
		[ "$v258" = same ] || continue
		[ "$environment" = - ] && environment=
		echo "env $environment systemd-analyze unit-shell $args >/dev/null 2>/tmp/err; echo \"@@ $i \$?\"; cat /tmp/err"
	done < "$tmp/cases" > "$tmp/probes"
	"$src/tools/reference/systemd-unstable" --run /bin/bash -s < "$tmp/probes" > "$tmp/reference" 2>"$tmp/ref-err" ||
		reference="the reference tree (tools/reference/systemd-unstable) failed: $(tail -1 "$tmp/ref-err")"
	;;
77) reference="the reference tree cannot be built: $(tail -1 "$tmp/ref-err")" ;;
*) reference="the reference tree (tools/reference/systemd-unstable) failed: $(tail -1 "$tmp/ref-err")" ;;
esac

i=0
while IFS=$'\037' read -r args environment status expected v258; do
	i=$((i + 1))
	eval "set -- $args"
	[ "$environment" = - ] && environment=
	# shellcheck disable=SC2086 # environment holds env(1) arguments
	env URLBOOT_SYSTEMD_VERSION=252 env $environment "$tool" "$@" >/dev/null 2>"$tmp/err"
	rc=$?
	got=$(normalize < "$tmp/err")
	check "urlboot-unit-shell $args: exit $status, '$expected'" "[ $rc = $status ] && [ \"\$got\" = \"\$expected\" ]"
	[ "$rc" = "$status" ] && [ "$got" = "$expected" ] || echo "# got exit $rc: $got"

	[ "$v258" = same ] || continue
	if [ "$reference" != yes ]; then
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP $reference"
		continue
	fi
	theirs_rc=$(awk -v i="$i" '$1 == "@@" && $2 == i { print $3 }' "$tmp/reference")
	theirs=$(awk -v i="$i" '$1 == "@@" { on = ($2 == i); next } on' "$tmp/reference" | normalize)
	check "systemd-analyze unit-shell $args (262) agrees" \
		"[ '$theirs_rc' = $status ] && [ \"\$theirs\" = \"\$expected\" ]"
	[ "$theirs_rc" = "$status" ] && [ "$theirs" = "$expected" ] || echo "# systemd-analyze exited $theirs_rc: $theirs"
done < "$tmp/cases"

tap_exit
