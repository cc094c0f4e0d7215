#!/bin/bash
# io.systemd.AskPassword in a booted system. Debian 12 (systemd 252): urlboot-ask-password.socket is
# enabled and listening on /run/systemd/io.systemd.AskPassword; a call through it (the client) becomes
# an ask file that starts 252's console agent (systemd-ask-password-console.path) and is answered by
# systemd-tty-ask-password-agent on a pseudo-terminal (script(1)); each connection gets its own
# urlboot-ask-password@ instance. Debian unstable (systemd 262): urlboot's socket stands aside
# (its condition fails) and the same client gets the same answers from systemd's own service.
# guests: bookworm sid
# timeout: 180
set -u
n=0
result() { # result STATUS DESCRIPTION [DIAGNOSTICS]
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
	[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
	return 0
}
socket=/run/systemd/io.systemd.AskPassword
version=$(systemctl --version | awk 'NR == 1 { print $2 }')
echo "1..8"

if [ "$version" -lt 258 ]; then
	systemctl is-active --quiet urlboot-ask-password.socket
	result $? "urlboot-ask-password.socket is active on systemd $version" "$(systemctl status urlboot-ask-password.socket 2>&1)"
	result $([ "$(stat -c %a "$socket" 2>/dev/null)" = 666 ]; echo $?) "$socket listens with mode 0666"
else
	systemctl is-active --quiet urlboot-ask-password.socket
	result $([ $? != 0 ]; echo $?) "urlboot-ask-password.socket stands aside on systemd $version" \
		"$(systemctl show -p ConditionResult -p ActiveState urlboot-ask-password.socket)"
	systemctl is-active --quiet systemd-ask-password.socket
	result $? "systemd's own systemd-ask-password.socket serves $socket"
fi

# Nothing cached, timeout 0: NoPasswordAvailable on stdout (--json), one line on stderr, exit 1.
out=$(urlboot-ask-password --cache-only --json 2>err); rc=$?
result $([ $rc = 1 ] && [ "$out" = '{"error":"io.systemd.AskPassword.NoPasswordAvailable"}' ] && [ "$(wc -l <err)" = 1 ]; echo $?) \
	"cache only: NoPasswordAvailable, exit 1" "exit $rc; stdout: $out; stderr: $(cat err)"

# A question answered by systemd's tty agent, typed on a pseudo-terminal.
urlboot-ask-password --timeout=60 --id=urlboot-case:ask-password "Guest case passphrase:" > answer 2> answer.err &
caller=$!
for i in $(seq 100); do ls /run/systemd/ask-password/ask.* >/dev/null 2>&1 && break; sleep 0.1; done
asked=$(cat /run/systemd/ask-password/ask.* 2>/dev/null)
result $(echo "$asked" | grep -qx 'Message=Guest case passphrase:'; echo $?) "the call became an ask file" "$asked"
if [ "$version" -lt 258 ]; then
	instances=$(systemctl list-units --no-legend --plain 'urlboot-ask-password@*' | wc -l)
	result $([ "$instances" -ge 1 ]; echo $?) "the connection runs in an urlboot-ask-password@ instance ($instances)"
else
	instances=$(systemctl list-units --no-legend --plain 'systemd-ask-password@*' | wc -l)
	result $([ "$instances" -ge 1 ]; echo $?) "the connection runs in a systemd-ask-password@ instance ($instances)"
fi
# The question starts the agents' path units. Once the system is up the wall agent takes over: its
# ExecStartPre= stops the console agent (systemd's own units, 252 and 262 alike), so the console agent
# shows up in the journal only, and the wall agent stays.
for i in $(seq 50); do systemctl is-active --quiet systemd-ask-password-wall.service && break; sleep 0.1; done
systemctl is-active --quiet systemd-ask-password-wall.service
result $? "the question reached the password agents (systemd-ask-password-wall.service runs)" \
	"$(journalctl -b -q --no-pager -u systemd-ask-password-console.service -u systemd-ask-password-wall.service 2>&1 | tail -8)"
(sleep 3; printf 'guest-secret\r'; sleep 3) | script -qec "systemd-tty-ask-password-agent --query" /dev/null > agent.out 2>&1
wait $caller
rc=$?
result $([ $rc = 0 ] && [ "$(cat answer)" = guest-secret ]; echo $?) "systemd-tty-ask-password-agent answered the call" \
	"$(cat answer.err agent.out | tr -d '\r')"
left=$(ls /run/systemd/ask-password/ 2>/dev/null | grep '^ask\.')
result $([ -z "$left" ]; echo $?) "the answered question's ask file is gone" "$left"
