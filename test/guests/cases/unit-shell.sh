#!/bin/bash
# urlboot-unit-shell with a real service manager: the sandboxes of running services (PrivateTmp=,
# PrivateNetwork=, ProtectSystem=strict, RootDirectory=, DynamicUser=, PrivateUsers=, ...), units without
# a main process, exit statuses, refused options; and --new-sandbox for services that are not running.
# On Debian 12 (systemd 252) urlboot-unit-shell answers the probes of unit-shell.d/running.tsv; on Debian
# unstable (systemd 262) systemd-analyze unit-shell must give the same answers (and urlboot-unit-shell
# too, after its notice that systemd-analyze has this natively). unit-shell.d/new-sandbox.tsv runs on both.
# guests: bookworm sid
# timeout: 600
set -u
data=$URLBOOT_CASE_DATA
. "$data/units.sh"
trap ush_units_remove EXIT

case $URLBOOT_GUEST in
bookworm) tools=("urlboot-unit-shell") ;;
*) tools=("systemd-analyze unit-shell" "urlboot-unit-shell") ;;
esac

rows() { grep -v '^#' "$1" | grep -v '^$' | tr '\t' '\037'; }
running=$(rows "$data/running.tsv" | wc -l)
sandbox=$(rows "$data/new-sandbox.tsv" | wc -l)
echo "1..$(( ${#tools[@]} * running + sandbox + 9 ))"
n=0
result() { # result OK DESCRIPTION [DIAGNOSTICS]
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; [ -n "${3:-}" ] && echo "$3" | sed 's/^/# /'; fi
}
# One line each: our prefix, our notice on systemd >= 258 and the transient unit's random name normalized.
join_lines() { paste -sd$'\037' - | sed $'s/\037/ | /g'; }
normalize_err() {
	grep -v '^urlboot-unit-shell: systemd [0-9]* is installed: "systemd-analyze unit-shell" does the same natively\.$' |
		sed -e 's/^urlboot-unit-shell: //' -e 's/urlboot-unit-shell-[A-Za-z0-9:_.-]*-[0-9a-f]\{8\}\.service/TRANSIENT/g' |
		join_lines
}

ush_units_setup
ush_units_start
export USH_HOST_PID
USH_HOST_PID=$(systemctl show -P MainPID ush-host)

# probe TOOL ROW: runs one row of a table with TOOL, reports it.
probe() {
	local tool=$1 name stdin args status out err rc got_out got_err
	IFS=$'\037' read -r name stdin args status out err <<<"$2"
	eval "set -- $args"
	if [ "$stdin" = - ]; then
		$tool "$@" </dev/null >stdout 2>stderr
	else
		printf '%b' "$stdin" | $tool "$@" >stdout 2>stderr
	fi
	rc=$?
	got_out=$(join_lines <stdout)
	got_err=$(normalize_err <stderr)
	# The table holds systemd 262's text ('(unit-shell)' quoted); v258 did not quote the process name.
	if [ "$tool" != urlboot-unit-shell ] && [ "$(systemctl --version | awk 'NR == 1 { print $2 }')" -lt 259 ]; then
		err=$(sed -e "s/'(unit-shell)' failed with/(unit-shell) failed with/" \
			-e "s/'(unit-shell)' terminated by/(unit-shell) terminated by/" <<<"$err")
	fi
	[ "$rc" = "$status" ] && [ "$got_out" = "$out" ] && [ "$got_err" = "$err" ]
	result $? "$tool: $name" "exit $rc (expected $status)
stdout: $got_out
expected: $out
stderr: $got_err
expected: $err"
}

for tool in "${tools[@]}"; do
	while read -r row; do probe "$tool" "$row"; done < <(rows "$data/running.tsv")
done
while read -r row; do probe urlboot-unit-shell "$row"; done < <(rows "$data/new-sandbox.tsv")

# When the manager refuses the transient unit, say which copied property it refuses: each one alone
# in a transient unit of its own (busctl), with the value the manager reported.
if ! urlboot-unit-shell --new-sandbox ush-sb true >/dev/null 2>&1; then
	echo "# --new-sandbox ush-sb failed; the properties copied, each alone:"
	i=0
	for name in $(URLBOOT_LOG_LEVEL=debug urlboot-unit-shell --new-sandbox ush-sb true 2>&1 | sed -n 's/.*Copying \([A-Za-z]*\)=\.$/\1/p'); do
		i=$((i + 1))
		value=$(busctl get-property org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/ush_2dsb_2eservice \
			org.freedesktop.systemd1.Service "$name" 2>&1 | sed "s/^\([^ ]*\)/'\1'/")
		out=$(eval "busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager \
			StartTransientUnit 'ssa(sv)a(sa(sv))' ush-probe-$i.service fail 2 \
			ExecStart 'a(sasb)' 1 /bin/true 1 /bin/true false $name $value 0" 2>&1)
		echo "# $name=$value: ${out:0:200}"
	done
	systemctl reset-failed 'ush-probe-*' 2>/dev/null
fi

# What the probes cannot say in a table.
[ ! -e /tmp/x ]
result $? "the service's /tmp/x is not in the caller's /tmp"
urlboot-unit-shell ush-tmp true 2>stderr
notices=$(grep -c 'is installed: "systemd-analyze unit-shell" does the same natively' stderr)
if [ "$URLBOOT_GUEST" = bookworm ]; then
	[ "$notices" = 0 ]
	result $? "systemd 252: no notice about systemd-analyze"
else
	[ "$notices" = 1 ]
	result $? "systemd 262: one notice that systemd-analyze unit-shell does this natively" "$(cat stderr)"
fi
[ -d /var/lib/private/ush-sb ] && [ "$(cat /var/lib/private/ush-sb/probe 2>/dev/null)" = kept ]
result $? "--new-sandbox: the dynamic user's state directory is the service's (/var/lib/private/ush-sb)"
[ -d /run/ush-sb ]
result $? "--new-sandbox: RuntimeDirectory= is kept when the shell ends (it may be a running instance's)"
left=$(systemctl list-units --all --plain --no-legend 'urlboot-unit-shell-*')
[ -z "$left" ]
result $? "--new-sandbox: no transient unit is left behind" "$left"
systemctl is-active -q ush-sb
[ $? != 0 ]
result $? "--new-sandbox: the unit itself was not started"

# Terminals: script(1) gives the tool one.
script -qec "urlboot-unit-shell ush-tmp sh -c 'tty; exit 3'" /dev/null </dev/null >typescript
rc=$?
# script(1)'s NUL at the end of its input is echoed as ^@ by the program's own terminal (see below)
out=$(tr -d '\r' <typescript | sed 's/^\^@//')
[ "$rc" = 3 ] && grep -q '^/dev/pts/[0-9]*$' <<<"$out"
result $? "a running service: the shell gets a terminal of its own (not the caller's: security review G4), exit status passed on" "exit $rc, output: $out"
script -qec "urlboot-unit-shell --new-sandbox ush-sb sh -c 'tty; exit 3'" /dev/null </dev/null >typescript
rc=$?
# At the end of its input, script(1) (util-linux 2.38) sends a NUL byte to a terminal in raw mode (ours
# is, while the service has its own): the service's new terminal echoes it as ^@.
out=$(tr -d '\r' <typescript | sed 's/^\^@//')
[ "$rc" = 3 ] && grep -q '^/dev/pts/[0-9]*$' <<<"$out"
result $? "--new-sandbox on a terminal: a terminal of its own (--pty), exit status passed on" "exit $rc, output: $out"
printf 'echo "shell: $0"\nexit 6\n' | script -qec "urlboot-unit-shell --new-sandbox ush-sb" /dev/null >typescript
rc=$?
out=$(tr -d '\r' <typescript)
[ "$rc" = 6 ] && grep -q '^shell: -bash$' <<<"$out"
result $? "--new-sandbox on a terminal: an interactive login shell reads what is typed" "exit $rc, output: $out"
