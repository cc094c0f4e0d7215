#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# urlboot-ask-password on the host, in a private mount namespace with its own /run: every case of
# test/data/ask-password/cases.jsonl (results recorded from systemd 262) against the scripted
# agent; systemd 252's own tty agent answering on a pseudo-terminal; socket activation by
# systemd 252's systemd-socket-activate (Accept=yes, as the unit does); the user instance; polkit
# decisions for another user (pkcheck scripted); the client command. Prints TAP.
#
#   host.sh BUILDDIR SRCDIR
set -u
build=$1 src=$2
bin=$build/src/ask-password/urlboot-ask-password
here=$src/test/ask-password
cases=$src/test/data/ask-password/cases.jsonl

if [ "${ASKPW_INSIDE:-}" != 1 ]; then
	if [ "$(id -u)" != 0 ]; then echo "1..0 # SKIP needs root (a private /run in a mount namespace)"; exit 0; fi
	ASKPW_INSIDE=1 exec unshare -m --propagation private "$0" "$@"
fi
mount -t tmpfs -o mode=0755 tmpfs /run || { echo "1..0 # SKIP cannot mount a private /run"; exit 0; }
mkdir -p /run/systemd/ask-password /run/logs/agent /run/t
. "$src/test/tap.sh"

pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
}
trap cleanup EXIT
wait_socket() { for i in $(seq 100); do [ -S "$1" ] && return 0; sleep 0.05; done; return 1; }
# The pkcheck stand-in answers with the exit status in /run/t/pk and logs its arguments.
cat > /run/t/pkcheck <<'PK'
#!/bin/sh
echo "$@" >> /run/t/pk.log
exit $(cat /run/t/pk)
PK
chmod 755 /run/t/pkcheck

URLBOOT_PKCHECK=/run/t/pkcheck "$bin" --listen=/run/systemd/io.systemd.AskPassword 2>/run/logs/service.err & pids+=($!)
python3 "$here/agent.py" /run/systemd/ask-password /run/logs/agent & agent=$!
pids+=($agent)
wait_socket /run/systemd/io.systemd.AskPassword

ncases=$(grep -vc '^#' "$cases")
echo "1..$((ncases + 22))"
python3 "$here/run-cases.py" "$cases" --no-plan --ours /run/systemd/io.systemd.AskPassword /run/systemd/ask-password /run/logs/agent
[ $? = 0 ] || tap_failed=$((tap_failed + 1))
tap_n=$ncases

# The socket is v258's: mode 0666.
check "the listening socket has mode 0666" "[ \$(stat -c %a /run/systemd/io.systemd.AskPassword) = 666 ]"

# The client command.
out=$("$bin" answer:s3cret 2>&1); rc=$?
check "the client prints the password" "[ $rc = 0 ] && [ '$out' = s3cret ]"
out=$("$bin" --json multi:a,b 2>/dev/null)
check "--json prints the passwords as JSON" "python3 -c 'import json,sys; assert json.loads(sys.argv[1]) == {\"passwords\": [\"a\", \"b\"]}' '$out'"
out=$("$bin" --multiple -n multi:a,b 2>/dev/null)
check "--multiple -n prints all, without newlines (as systemd-ask-password)" "[ '$out' = ab ]"
"$bin" cancel 2>/run/t/err; rc=$?
check "a cancelled query exits 1 with one line" "[ $rc = 1 ] && [ \$(wc -l < /run/t/err) = 1 ] && grep -q 'cancelled' /run/t/err"
"$bin" --cache-only 2>/run/t/err; rc=$?
check "--cache-only without a cached password exits 1" "[ $rc = 1 ] && grep -q 'No password available' /run/t/err"
out=$("$bin" --json --timeout=1 ignore 2>/dev/null); rc=$?
check "--json on failure prints the Varlink error" "[ $rc = 1 ] && [ '$out' = '{\"error\":\"io.systemd.AskPassword.TimeoutReached\"}' ]"
"$bin" --frobnicate 2>/dev/null; rc=$?
"$bin" --help | grep -q '^Usage: urlboot-ask-password'; h=$?
check "--help works, unknown options exit 2" "[ $h = 0 ] && [ $rc = 2 ]"
"$bin" --address=/run/t/nothing answer:x 2>/run/t/err; rc=$?
check "no service: exit 1 naming the socket" "[ $rc = 1 ] && grep -q 'Failed to connect to /run/t/nothing' /run/t/err"
"$bin" "two
lines" 2>/run/t/err; rc=$?
check "a newline in the message is refused" "[ $rc = 1 ] && grep -q \"parameter 'message'\" /run/t/err"

# systemd 252's own tty agent answers (the scripted agent is stopped for this).
kill $agent; wait $agent 2>/dev/null
"$bin" --timeout=30 "Real agent passphrase:" > /run/t/real.out 2>/run/t/real.err & caller=$!
for i in $(seq 100); do ls /run/systemd/ask-password/ask.* >/dev/null 2>&1 && break; sleep 0.05; done
python3 "$here/tty-agent.py" hunter2 > /run/t/tty.out 2>&1; rc=$?
wait $caller; crc=$?
check "systemd-tty-ask-password-agent 252 answers the question" "[ $rc = 0 ] && [ $crc = 0 ] && [ \"\$(cat /run/t/real.out)\" = hunter2 ]"
check "it showed our message" "grep -q 'Real agent passphrase:' /run/t/tty.out"
check "the question is gone afterwards" "! ls /run/systemd/ask-password/ask.* >/dev/null 2>&1"
python3 "$here/agent.py" /run/systemd/ask-password /run/logs/agent & pids+=($!)

# Socket activation as the unit does it (Accept=yes, one process per connection).
systemd-socket-activate --accept --fdname=varlink -l /run/t/activated.sock "$bin" --system --no-tty 2>/run/t/sa.err & pids+=($!)
wait_socket /run/t/activated.sock
out=$("$bin" --address=/run/t/activated.sock answer:activated 2>&1)
check "socket-activated (\$LISTEN_FDS, Accept=yes) it answers" "[ '$out' = activated ]"
out=$("$bin" --address=/run/t/activated.sock answer:again 2>&1)
check "a second connection gets a process of its own" "[ '$out' = again ] && [ \$(grep -c 'Spawned' /run/t/sa.err) = 2 ]"

# The user instance: $XDG_RUNTIME_DIR/systemd/ask-password, socket mode 0600.
mkdir -p /run/t/xdg/systemd/ask-password
XDG_RUNTIME_DIR=/run/t/xdg "$bin" --user --listen=/run/t/xdg/systemd/io.systemd.AskPassword 2>/dev/null & pids+=($!)
python3 "$here/agent.py" /run/t/xdg/systemd/ask-password /run/t/xdg & pids+=($!)
wait_socket /run/t/xdg/systemd/io.systemd.AskPassword
out=$(XDG_RUNTIME_DIR=/run/t/xdg "$bin" --user answer:user 2>&1)
check "--user asks in \$XDG_RUNTIME_DIR/systemd/ask-password" "[ '$out' = user ] && ls /run/t/xdg/ask.* >/dev/null && [ \$(stat -c %a /run/t/xdg/systemd/io.systemd.AskPassword) = 600 ]"

# Another user: polkit decides (pkcheck scripted), root needs no polkit.
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
echo 0 > /run/t/pk; : > /run/t/pk.log
out=$(as_nobody "$bin" --json answer:allowed 2>/dev/null)
check "another user allowed by polkit gets the password" "[ '$out' = '{\"passwords\":[\"allowed\"]}' ] && grep -q 'action-id io.systemd.ask-password.ask --process [0-9]*,[0-9]*,65534\$' /run/t/pk.log"
echo 1 > /run/t/pk
out=$(as_nobody "$bin" --json answer:x 2>/dev/null)
check "denied by polkit: PermissionDenied" "[ '$out' = '{\"error\":\"org.varlink.service.PermissionDenied\"}' ]"
echo 2 > /run/t/pk; : > /run/t/pk.log
out=$(as_nobody "$bin" --json --interactive answer:x 2>/dev/null)
check "authentication needed: InteractiveAuthenticationRequired, interaction passed on" "[ '$out' = '{\"error\":\"io.systemd.InteractiveAuthenticationRequired\"}' ] && grep -q -- '--allow-user-interaction' /run/t/pk.log"
rm /run/t/pkcheck
out=$(as_nobody "$bin" --json answer:x 2>/dev/null)
check "no polkit at all: PermissionDenied" "[ '$out' = '{\"error\":\"org.varlink.service.PermissionDenied\"}' ]"

# Nothing is left behind, and no password reached the service's log.
check "no ask file or socket is left behind" "[ -z \"\$(ls -A /run/systemd/ask-password)\" ]"
check "passwords are never logged" "! grep -q -e s3cret -e hunter2 /run/logs/service.err"
tap_exit
