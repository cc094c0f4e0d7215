#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# urlboot-ask-password against the attacks of the security review of 2026-12-05 (F1, F4), on the real
# service in a private PID and mount namespace with its own /run. Prints TAP.
#
# F1: a caller polkit refuses (uid 2000) connects, hands the socket to a child and exits; its PID is
# given to a process of a user polkit allows (uid 1000: the scripted pkcheck decides by the owner of the
# process behind the PID, as polkit's session lookup would) by writing ns_last_pid; then the child asks.
# Run with SO_PEERPIDFD (this kernel's) and without it (Debian 12's 6.1): refused both times.
# F4: a 16 MiB message is not taken (the frame limit is 64 KiB), half a message is hung up on.
# G5 (review of 2026-12-06): a caller that sends calls and never reads the replies is hung up on once a
# reply has waited the message timeout, and the service says so (debug log).
#
#   hostile.sh BUILDDIR SRCDIR
set -u
build=$1 src=$2
bin=$build/src/ask-password/urlboot-ask-password
here=$src/test/ask-password

if [ "${ASKPW_HOSTILE_INSIDE:-}" != 1 ]; then
	if [ "$(id -u)" != 0 ]; then echo "1..0 # SKIP needs root (PID and mount namespaces)"; exit 0; fi
	ASKPW_HOSTILE_INSIDE=1 exec unshare -m -p -f --mount-proc --propagation private "$0" "$@"
fi
mount -t tmpfs -o mode=0755 tmpfs /run || { echo "1..0 # SKIP cannot mount a private /run"; exit 0; }
mkdir -p /run/systemd/ask-password /run/logs/agent /run/t
chmod 1777 /run/t
. "$src/test/tap.sh"

pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
}
trap cleanup EXIT
wait_socket() { for i in $(seq 100); do [ -S "$1" ] && return 0; sleep 0.05; done; return 1; }
wait_file() { for i in $(seq 200); do [ -e "$1" ] && return 0; sleep 0.05; done; return 1; }
as_uid() { local u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }

# The pkcheck stand-in: allows exactly the processes of uid 1000, logs what it was given and what the
# process behind the PID really is (owner, field 22 of its stat file).
cat > /run/t/pkcheck <<'PK'
#!/bin/bash
subject=
while [ $# -gt 0 ]; do [ "$1" = --process ] && subject=$2; shift; done
IFS=, read -r pid start uid <<< "$subject"
owner=$(awk '/^Uid:/ {print $3}' /proc/$pid/status 2>/dev/null); owner=${owner:-gone}
real=$(sed 's/.*) //' /proc/$pid/stat 2>/dev/null | cut -d' ' -f20)
echo "subject=$pid,$start,$uid owner=$owner start22=$real" >> /run/t/pk.log
[ "$owner" = 1000 ]
PK
chmod 755 /run/t/pkcheck

python3 "$here/agent.py" /run/systemd/ask-password /run/logs/agent & pids+=($!)

start_service() { # SOCKET [ENV...]
	local sock=$1; shift
	env URLBOOT_PKCHECK=/run/t/pkcheck URLBOOT_LOG_LEVEL=debug "$@" "$bin" --listen="$sock" --message-timeout=2 \
		2>>/run/logs/service.err &
	pids+=($!)
	wait_socket "$sock"
}
start_service /run/t/pidfd.sock
start_service /run/t/nopidfd.sock URLBOOT_VARLINK_PEER_PIDFD=0

echo "1..11"

# The scripted polkit works both ways, so a refusal below is the fix's and not the stand-in's.
: > /run/t/pk.log
out=$(as_uid 2000 "$bin" --address=/run/t/pidfd.sock --json answer:direct 2>/dev/null)
check "uid 2000 asking itself is refused by polkit" "[ '$out' = '{\"error\":\"org.varlink.service.PermissionDenied\"}' ]"
out=$(as_uid 1000 "$bin" --address=/run/t/pidfd.sock --json answer:allowed 2>/dev/null)
check "uid 1000 asking itself is allowed by polkit" "[ '$out' = '{\"passwords\":[\"allowed\"]}' ]"
# pkcheck gets the process's real start time (field 22), not field 21 (always 0).
check "pkcheck's subject carries the real start time (field 22 of /proc/PID/stat)" \
	"grep -q 'subject=[0-9]*,\\([1-9][0-9]*\\),1000 owner=1000 start22=\\1\$' /run/t/pk.log"

# The attack: connect as 2000, hand the socket to a child, exit, PID reused by uid 1000, child asks.
handoff() { # SOCKET TAG [ENV...]: prints the reply the child got
	local sock=$1 d=/run/t/$2; shift 2
	mkdir -p "$d"; chmod 777 "$d"
	as_uid 2000 /usr/bin/python3 "$here/hostile-client.py" handoff "$sock" "$d" & local parent=$!
	wait_file "$d/pid" || { echo "no pid"; return; }
	local victim; victim=$(cat "$d/pid")
	sleep 0.5 # the service has taken the connection
	touch "$d/leave"; wait $parent
	# The next PID the kernel gives is the attacker's old one: to a process of uid 1000.
	echo $((victim - 1)) > /proc/sys/kernel/ns_last_pid
	setpriv --reuid=1000 --regid=1000 --clear-groups sleep 120 >/dev/null 2>&1 & local sleeper=$!
	if [ "$sleeper" = "$victim" ]; then
		touch "$d/go"
		wait_file "$d/reply" && cat "$d/reply"
	else
		echo "PID $victim not reused (got $sleeper)"
	fi
	kill $sleeper; wait $sleeper 2>/dev/null
}
out=$(handoff /run/t/pidfd.sock with-pidfd)
check "F1 with SO_PEERPIDFD: the reused PID of uid 1000 does not lend its rights" \
	"[ '$out' = '{\"error\":\"org.varlink.service.PermissionDenied\"}' ]" "$out"
out=$(handoff /run/t/nopidfd.sock without-pidfd)
check "F1 without SO_PEERPIDFD (Linux < 6.5): start time and UID taken at connect refuse it" \
	"[ '$out' = '{\"error\":\"org.varlink.service.PermissionDenied\"}' ]" "$out"
check "the agents were never asked for the attacker" "! grep -rq 'the-typed-passphrase' /run/logs/agent"

# F4: nothing large is read before anyone is known; a partial message is hung up on.
read -r taken how < <(as_uid 2000 /usr/bin/python3 "$here/hostile-client.py" large /run/t/pidfd.sock $((16 * 1024 * 1024)))
check "F4: a 16 MiB message is hung up on after at most 1 MiB, unanswered" \
	"[ '$how' = closed ] && [ '$taken' -lt $((1024 * 1024)) ]" "took $taken bytes, $how"
secs=$(as_uid 2000 /usr/bin/python3 "$here/hostile-client.py" partial /run/t/pidfd.sock)
check "F4: half a message is hung up on at the deadline (--message-timeout=2)" \
	"python3 -c 'import sys; assert 1.5 <= float(sys.argv[1]) <= 10' '$secs'" "after $secs s"

# G5: replies never read fill the socket; the service stops reading, and hangs up one message timeout
# (2 s) after the first reply the socket would not take (bounded here by 3x from the caller's stall).
read -r calls after total < <(as_uid 2000 /usr/bin/python3 "$here/hostile-client.py" nonreading /run/t/pidfd.sock)
check "G5: a caller that never reads is hung up on within 3x --message-timeout=2" \
	"[ '$after' != open ] && python3 -c 'import sys; assert float(sys.argv[1]) <= 6 and float(sys.argv[2]) >= 1.5' '$after' '$total'" \
	"$calls calls sent, hung up after ${after} s (${total} s from the first call)"
check "G5: the service logs why it hung up" \
	"grep -q 'did not read a reply within the message timeout' /run/logs/service.err"
out=$("$bin" --address=/run/t/pidfd.sock answer:after 2>&1)
check "the service still answers afterwards" "[ '$out' = after ]"
tap_exit
