#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# urlboot-ask-password side by side with systemd 262's own systemd-ask-password in Varlink mode
# (socket-activated by hand with systemd-socket-activate --accept in the Debian unstable tree),
# each answered by the scripted agent: varlinkctl 262 calls both (info, introspect, call), then
# every case of test/data/ask-password/cases.jsonl must give the same replies, errors and ask
# files from both (intended differences are marked in the case file). Prints TAP.
#
#   differential.sh BUILDDIR SRCDIR [--record FILE]   (--record: write the reference's results)
set -u
build=$1 src=$2
bin=$build/src/ask-password/urlboot-ask-password
ref=$src/tools/reference/systemd-unstable
here=$src/test/ask-password
cases=$src/test/data/ask-password/cases.jsonl

if [ "${ASKPW_INSIDE:-}" != 1 ]; then
	if [ "$(id -u)" != 0 ]; then echo "1..0 # SKIP needs root (mount namespaces, chroot)"; exit 0; fi
	err=$(mktemp)
	tree=$("$ref" 2>"$err"); rc=$?
	if [ $rc = 77 ]; then echo "1..0 # SKIP the reference tree cannot be built: $(tail -1 "$err")"; rm -f "$err"; exit 0; fi
	if [ $rc != 0 ]; then echo "1..1"; echo "not ok 1 - build the reference tree"; sed 's/^/# /' "$err"; rm -f "$err"; exit 1; fi
	rm -f "$err"
	ASKPW_INSIDE=1 ASKPW_TREE=$tree exec unshare -m --propagation private "$0" "$@"
fi

tree=$ASKPW_TREE
# A private /run: our service uses the real paths (/run/systemd/...), nothing of the host's is touched.
mount -t tmpfs -o mode=0755 tmpfs /run || { echo "1..0 # SKIP cannot mount a private /run"; exit 0; }
mkdir -p /run/systemd/ask-password /run/ref/ask /run/logs/ours /run/logs/ref
# The tree sees this /run as /mnt; its own /run is a tmpfs of --run, where the reference's ask
# directory is bound from ours.
mount --rbind /run "$tree/mnt"
cat > /run/ref/inside.sh <<'INSIDE'
mkdir -p /run/systemd/ask-password && mount --bind /mnt/ref/ask /run/systemd/ask-password || exit 1
exec systemd-socket-activate --accept --fdname=varlink -l /mnt/ref/sock systemd-ask-password --system --no-tty
INSIDE

pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -- "$p" 2>/dev/null; done
	wait 2>/dev/null
	umount -l "$tree/mnt" 2>/dev/null
}
trap cleanup EXIT

"$bin" --listen=/run/systemd/io.systemd.AskPassword 2>/run/logs/ours.err & pids+=($!)
setsid "$ref" --run sh /mnt/ref/inside.sh 2>/run/logs/ref.err & pids+=(-$!)
python3 "$here/agent.py" /run/systemd/ask-password /run/logs/ours & pids+=($!)
python3 "$here/agent.py" /run/ref/ask /run/logs/ref & pids+=($!)
for i in $(seq 100); do [ -S /run/systemd/io.systemd.AskPassword ] && [ -S /run/ref/sock ] && break; sleep 0.1; done

if [ "${3:-}" = --record ]; then
	python3 "$here/run-cases.py" "${4}" --ref /run/ref/sock /run/ref/ask /run/logs/ref --record
	exit $?
fi

vl() { "$ref" --run varlinkctl "$@" 2>&1; echo "exit=$?"; }
# What legitimately differs: who we are.
norm() { sed -E 's/^( *(Vendor|Product|Version|URL):).*/\1 */'; }
ours=unix:/mnt/systemd/io.systemd.AskPassword theirs=unix:/mnt/ref/sock

tap=0 failed=0
same() { # DESCRIPTION OURS THEIRS; TAP lines collected until the plan is known
	tap=$((tap + 1))
	if [ "$2" = "$3" ] && [ -n "$2" ]; then echo "ok $tap - varlinkctl $1"; else
		echo "not ok $tap - varlinkctl $1"; failed=$((failed + 1))
		diff <(echo "$3") <(echo "$2") | sed 's/^/# /'
	fi >> /run/logs/varlinkctl.tap
}
echo "# varlinkctl: $("$ref" --run varlinkctl --version | head -1)"
same "info" "$(vl info $ours | norm)" "$(vl info $theirs | norm)"
# The interfaces' structure must be the same; their comments (documentation) are our own words.
nocomment() { grep -v '^[[:space:]]*#'; }
same "introspect" "$(vl introspect $ours | nocomment)" "$(vl introspect $theirs | nocomment)"
same "introspect io.systemd.AskPassword" "$(vl introspect $ours io.systemd.AskPassword | nocomment)" \
	"$(vl introspect $theirs io.systemd.AskPassword | nocomment)"
same "call Ask (an agent answers)" "$(vl call $ours io.systemd.AskPassword.Ask '{"message":"answer:vc","timeoutUSec":20000000}')" \
	"$(vl call $theirs io.systemd.AskPassword.Ask '{"message":"answer:vc","timeoutUSec":20000000}')"
same "call Ask --json=short (two passwords)" "$(vl call --json=short $ours io.systemd.AskPassword.Ask '{"message":"multi:p,q"}')" \
	"$(vl call --json=short $theirs io.systemd.AskPassword.Ask '{"message":"multi:p,q"}')"
same "call Ask, cache only" "$(vl call $ours io.systemd.AskPassword.Ask '{"timeoutUSec":0}')" \
	"$(vl call $theirs io.systemd.AskPassword.Ask '{"timeoutUSec":0}')"
same "call Ask, cancelled" "$(vl call $ours io.systemd.AskPassword.Ask '{"message":"cancel"}')" \
	"$(vl call $theirs io.systemd.AskPassword.Ask '{"message":"cancel"}')"
same "call Ask, bad echo" "$(vl call $ours io.systemd.AskPassword.Ask '{"echo":"loud"}')" \
	"$(vl call $theirs io.systemd.AskPassword.Ask '{"echo":"loud"}')"
same "call an unknown method" "$(vl call $ours io.systemd.AskPassword.Nope '{}')" "$(vl call $theirs io.systemd.AskPassword.Nope '{}')"

# Then every case, both services.
ncases=$(grep -vc '^#' "$cases")
echo "1..$((tap + ncases))"
cat /run/logs/varlinkctl.tap
python3 "$here/run-cases.py" "$cases" --number-from $((tap + 1)) --no-plan \
	--ours /run/systemd/io.systemd.AskPassword /run/systemd/ask-password /run/logs/ours \
	--ref /run/ref/sock /run/ref/ask /run/logs/ref
rc=$?
if [ $failed != 0 ] || [ $rc != 0 ]; then
	# what the services said, for the cases that differ
	for side in ours ref; do tail -n 15 "/run/logs/$side.err" | sed "s/^/# $side: /"; done
fi
[ $failed = 0 ] && [ $rc = 0 ]
