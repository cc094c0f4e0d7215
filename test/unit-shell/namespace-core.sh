#!/bin/bash
# urlboot-unit-shell's namespace core (target PID -> join -> run) against targets made with unshare, as
# systemd-analyze unit-shell v258 behaves (reference: systemd-v258-companions.md §1.2). No service manager
# is needed: unit-shell-at-pid is urlboot-unit-shell after the MainPID lookup. Needs root. Prints TAP.
set -u
at_pid=$1
tmp=$(mktemp -d /tmp/unit-shell-test.XXXXXX)
. "$(dirname "$0")/../tap.sh"

if [ "$(id -u)" != 0 ] || ! unshare --pid --fork true 2>/dev/null; then
	echo "1..0 # SKIP needs root and unshare(2) for pid namespaces"
	exit 0
fi

targets=()
# Every process a test starts goes into targets (killed at the end) and writes nowhere: a leftover
# holding our stdout would keep the test harness waiting.
cleanup() {
	for p in "${targets[@]}"; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# The process inside an "unshare --fork" (the child of PID $1) once it runs $2: its setup is done then.
inner_process() {
	local c
	for _ in $(seq 100); do
		c=$(pgrep -P "$1" | head -1)
		[ -n "$c" ] && [ "$(cat "/proc/$c/comm" 2>/dev/null)" = "$2" ] && { echo "$c"; return 0; }
		sleep 0.1
	done
	return 1
}

# shellcheck disable=SC2034 # out, err and rc are read by the checks' eval
run() { out=$("$at_pid" "$@" 2>"$tmp/err"); rc=$?; err=$(cat "$tmp/err"); }

echo "1..29"
outer_host=$(hostname)

# A service with PrivateTmp=, PrivateNetwork=, its own pids and host name.
unshare --pid --mount --net --uts --fork --kill-child --mount-proc --propagation private \
	sh -c 'mount -t tmpfs t /tmp && echo hi >/tmp/f && hostname inner && exec sleep 600' </dev/null >/dev/null 2>&1 &
u=$!
targets+=("$u")
t=$(inner_process "$u" sleep) || { echo "Bail out! the unshare target did not start"; exit 1; }

run "$t" t.service cat /tmp/f
check "the mount namespace is the target's: /tmp/f says hi" "[ \$rc = 0 ] && [ \"\$out\" = hi ] && [ -z \"\$err\" ]"
run "$t" t.service ip -o link
check "the network namespace is the target's: only lo" "[ \$rc = 0 ] && [ \$(echo \"\$out\" | wc -l) = 1 ] && echo \"\$out\" | grep -q '^1: lo:'"
run "$t" t.service ps -e -o pid=,comm=
check "the pid namespace is the target's: ps shows PID 1 (sleep) and itself, nothing of ours" \
	"[ \$rc = 0 ] && [ \"\$(echo \"\$out\" | awk '{print \$1\" \"\$2}' | sort | head -1)\" = '1 sleep' ] && [ \$(echo \"\$out\" | wc -l) = 2 ] && ! echo \"\$out\" | grep -q unit-shell"
run "$t" t.service hostname
check "the UTS namespace is not joined: hostname is the outer one ($outer_host), not 'inner'" "[ \$rc = 0 ] && [ \"\$out\" = '$outer_host' ]"
run "$t" t.service sh -c 'for n in ipc uts cgroup time; do readlink /proc/self/ns/$n; done'
ours=$(for n in ipc uts cgroup time; do readlink /proc/self/ns/$n; done)
check "ipc, uts, cgroup and time namespaces stay the caller's" "[ \$rc = 0 ] && [ \"\$out\" = \"\$ours\" ]"
run "$t" t.service sh -c 'for n in pid mnt net; do readlink /proc/self/ns/$n; done'
theirs=$(for n in pid mnt net; do readlink "/proc/$t/ns/$n"; done)
check "pid, mount and network namespaces are the target's" "[ \$rc = 0 ] && [ \"\$out\" = \"\$theirs\" ]"
MARKER=kept run "$t" t.service sh -c 'echo "$MARKER:$(pwd)"'
check "the caller's environment is kept and the working directory is /" "[ \"\$out\" = kept:/ ]"
run "$t" t.service sh -c 'echo "$@"' sh -l --foo -M x
check "arguments after the command go to it verbatim" "[ \"\$out\" = '-l --foo -M x' ]"

run "$t" t.service sh -c 'exit 7'
check "the command's exit status is passed through (7), with v258's message" \
	"[ \$rc = 7 ] && [ \"\$err\" = 'urlboot-unit-shell: '\''(unit-shell)'\'' failed with exit status 7.' ]"
run "$t" t.service true
check "exit status 0: no message" "[ \$rc = 0 ] && [ -z \"\$err\" ]"
run "$t" t.service sh -c 'kill -TERM $$'
check "a command killed by a signal: the middle child exits 1, as in v258" \
	"[ \$rc = 1 ] && [ \"\$err\" = 'urlboot-unit-shell: '\''(unit-shell)'\'' failed with exit status 1.' ]"
run "$t" t.service no-such-command-here
check "a missing command: v258's two messages, exit 1" \
	"[ \$rc = 1 ] && [ \"\$err\" = \"urlboot-unit-shell: Failed to execute 'no-such-command-here': No such file or directory
urlboot-unit-shell: '(unit-shell)' failed with exit status 1.\" ]"
out=$(printf 'echo "$0"; exit 3\n' | "$at_pid" "$t" t.service 2>"$tmp/err"); rc=$?
check "no command: a login shell, -bash (exit status passed on)" "[ \$rc = 3 ] && [ \"\$out\" = -bash ]"

# The fork structure: tool -> (unit-shell-ns) outside the pid namespace -> command inside it.
"$at_pid" "$t" t.service sleep 600 </dev/null >/dev/null 2>&1 &
tool=$!
targets+=("$tool")
middle=$(inner_process "$tool" '(unit-shell-ns)')
grand=$( [ -n "$middle" ] && inner_process "$middle" sleep)
check "the middle child is named (unit-shell-ns) and is not in the target's pid namespace" \
	"[ -n \"\$middle\" ] && [ \"\$(readlink /proc/\$middle/ns/pid)\" = \"\$(readlink /proc/self/ns/pid)\" ] && [ \"\$(tr -d '\\0' </proc/\$middle/cmdline)\" = '(unit-shell-ns)' ]"
check "the command is the middle child's child, in the target's pid namespace" \
	"[ -n \"\$grand\" ] && [ \"\$(readlink /proc/\$grand/ns/pid)\" = \"\$(readlink /proc/\$t/ns/pid)\" ] && [ \$(awk '/^NSpid:/ {print NF}' /proc/\$grand/status) = 3 ]"
kill -KILL "$tool"
wait "$tool" 2>/dev/null
gone=no
for _ in $(seq 100); do
	[ -n "$grand" ] && ! kill -0 "$grand" 2>/dev/null && ! kill -0 "$middle" 2>/dev/null && { gone=yes; break; }
	sleep 0.1
done
check "killing the tool ends the middle child (SIGTERM) and with it the command (SIGKILL)" "[ \$gone = yes ]"

# A service with RootDirectory=: the root is the target's.
root=$tmp/root
mkdir -p "$root/usr" && echo chrooted >"$root/marker"
for l in bin lib lib64 sbin; do ln -s "usr/$l" "$root/$l"; done
unshare --mount --fork --kill-child --propagation private sh -c 'mount --bind /usr "$1/usr" && exec chroot "$1" sleep 600' sh "$root" </dev/null >/dev/null 2>&1 &
u=$!
targets+=("$u")
t=$(inner_process "$u" sleep) || { echo "Bail out! the chroot target did not start"; exit 1; }
run "$t" t.service ls /
check "the root directory is the target's: ls / lists its root" "[ \$rc = 0 ] && [ \"\$(echo \$out)\" = 'bin lib lib64 marker sbin usr' ]"
run "$t" t.service cat /marker
check "files are read below the target's root" "[ \"\$out\" = chrooted ]"

# User namespaces: the shell becomes root in them.
unshare --user --map-root-user --fork --kill-child sleep 600 </dev/null >/dev/null 2>&1 &
u=$!
targets+=("$u")
t=$(inner_process "$u" sleep) || { echo "Bail out! the user namespace target did not start"; exit 1; }
run "$t" t.service sh -c 'id -u; readlink /proc/self/ns/user'
check "a user namespace (--map-root-user) is joined: id -u is 0" "[ \$rc = 0 ] && [ \"\$out\" = \"0
\$(readlink /proc/\$t/ns/user)\" ]"

unshare --user --fork --kill-child sleep 600 </dev/null >/dev/null 2>&1 &
u=$!
targets+=("$u")
t=$(inner_process "$u" sleep) || { echo "Bail out! the second user namespace target did not start"; exit 1; }
echo "0 100000 65536" >"/proc/$t/uid_map" && echo "0 100000 65536" >"/proc/$t/gid_map"
run "$t" t.service sh -c 'id -u; id -g; id -G; cat /proc/self/uid_map'
check "a user namespace where our uid is not mapped: the shell still becomes uid and gid 0 there, no other groups" \
	"[ \$rc = 0 ] && [ \"\$(echo \$out)\" = '0 0 0 0 100000 65536' ]"
# Becoming root there (uid 100000 outside) changes the middle child's effective UID, which clears its death
# signal: it must be set again, or the command outlives a killed tool.
"$at_pid" "$t" t.service sleep 600 </dev/null >/dev/null 2>&1 &
tool=$!
targets+=("$tool")
middle=$(inner_process "$tool" '(unit-shell-ns)')
grand=$( [ -n "$middle" ] && inner_process "$middle" sleep)
kill -KILL "$tool"
wait "$tool" 2>/dev/null
gone=no
for _ in $(seq 100); do
	# A zombie counts as ended: the orphaned command is reaped by whoever inherits it, maybe never.
	[ -n "$grand" ] && { ! kill -0 "$grand" 2>/dev/null || grep -q '^State:.*Z' "/proc/$grand/status"; } && { gone=yes; break; }
	sleep 0.1
done
check "a user namespace where root is uid 100000: killing the tool still ends the middle child and the command" "[ \$gone = yes ]"

unshare --user --map-user=1000 --map-group=1000 --fork --kill-child sleep 600 </dev/null >/dev/null 2>&1 &
u=$!
targets+=("$u")
t=$(inner_process "$u" sleep) || { echo "Bail out! the third user namespace target did not start"; exit 1; }
run "$t" t.service touch "$tmp/ran-unmapped"
check "a user namespace without a root mapping: becoming root fails, exit 1 (fatal in v258), nothing run" \
	"[ \$rc = 1 ] && [ \"\$err\" = 'urlboot-unit-shell: '\''(unit-shell)'\'' failed with exit status 1.' ] && [ ! -e \"\$tmp/ran-unmapped\" ]"

# Targets that are gone.
sh -c 'exit 0' &
dead=$!
wait "$dead"
run "$dead" t.service touch "$tmp/ran-dead"
check "a target that died before the open: v258's message, exit 1, nothing run" \
	"[ \$rc = 1 ] && [ \"\$err\" = 'urlboot-unit-shell: Failed to retrieve FDs of namespaces of t.service: No such process' ] && [ ! -e \"\$tmp/ran-dead\" ]"
# The shell has long exec'd sleep (which never reaps) when its child ends: dash reaps finished
# children only while it runs.
sh -c 'sleep 1 & echo $! >"$1"; exec sleep 600' sh "$tmp/zombie" </dev/null >/dev/null 2>&1 &
targets+=("$!")
zombie=no
for _ in $(seq 100); do
	[ -s "$tmp/zombie" ] && grep -q '^State:.*Z' "/proc/$(cat "$tmp/zombie")/status" 2>/dev/null && { zombie=yes; break; }
	sleep 0.1
done
run "$(cat "$tmp/zombie")" t.service touch "$tmp/ran-zombie"
check "a target that exited but was not reaped (zombie): fails before the fork, nothing run" \
	"[ \$zombie = yes ] && [ \$rc = 1 ] && echo \"\$err\" | grep -q '^urlboot-unit-shell: Failed to retrieve FDs of namespaces of t.service: ' && [ ! -e \"\$tmp/ran-zombie\" ]"

# In the caller's own namespaces (a service without any sandboxing): works, the user namespace is skipped.
run $$ t.service sh -c 'id -u; pwd'
check "a target without sandboxing (our own namespaces): runs, as root, in /" "[ \$rc = 0 ] && [ \"\$(echo \$out)\" = '0 /' ]"

# No shell at all in the target's root: v258's last message.
empty=$tmp/empty
mkdir -p "$empty/usr"
ln -s usr/lib "$empty/lib" && ln -s usr/lib64 "$empty/lib64"
unshare --mount --fork --kill-child --propagation private sh -c 'mount --bind /usr "$1/usr" && exec chroot "$1" /usr/bin/sleep 600' sh "$empty" </dev/null >/dev/null 2>&1 &
u=$!
targets+=("$u")
t=$(inner_process "$u" sleep) || { echo "Bail out! the empty-root target did not start"; exit 1; }
run "$t" t.service
check "no /bin/bash or /bin/sh in the root: v258's message naming all three, exit 1" \
	"[ \$rc = 1 ] && [ \"\$err\" = \"urlboot-unit-shell: Failed to execute '/bin/bash', '/bin/bash', and '/bin/sh': No such file or directory
urlboot-unit-shell: '(unit-shell)' failed with exit status 1.\" ]"

# Only /bin/sh (busybox-static, if installed) in the root.
mkdir -p "$tmp/shonly/bin"
t=
if [ -x /usr/bin/busybox ] && cp /usr/bin/busybox "$tmp/shonly/bin/sh" && ln "$tmp/shonly/bin/sh" "$tmp/shonly/bin/sleep"; then
	unshare --mount --fork --kill-child --propagation private chroot "$tmp/shonly" /bin/sleep 600 </dev/null >/dev/null 2>&1 &
	u=$!
	targets+=("$u")
	t=$(inner_process "$u" sleep)
fi
if [ -n "$t" ]; then
	out=$(printf 'echo "$0"\n' | "$at_pid" "$t" t.service 2>"$tmp/err"); rc=$?
	check "only /bin/sh in the root: the fallback is a login /bin/sh (-sh)" "[ \$rc = 0 ] && [ \"\$out\" = -sh ]"
else
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP no static busybox (busybox-static) to be the only /bin/sh of a root"
fi

# F10 of the security review of 2026-12-05: the PID came from the manager; the process pinned must still
# be in the unit's control group (here a group of the name=systemd hierarchy, as the manager's would be).
group=/urlboot-f10-$$.service
hier=/sys/fs/cgroup/systemd
[ -d "$hier" ] || hier=/sys/fs/cgroup/unified
if mkdir "$hier$group" 2>/dev/null; then
	sleep 600 </dev/null >/dev/null 2>&1 &
	inside=$!
	targets+=("$inside")
	echo "$inside" > "$hier$group/cgroup.procs"
	sleep 600 </dev/null >/dev/null 2>&1 &
	outside=$!
	targets+=("$outside")
	run --cgroup="$group" "$outside" t.service true
	check "F10: a PID that is no longer in the unit's control group (reused) is refused, nothing run" \
		"[ \$rc = 1 ] && echo \"\$err\" | grep -q \"Process $outside is no longer the main process of t.service\"" "$err"
	run --cgroup="$group" "$inside" t.service sh -c 'echo in'
	check "F10: the process in the unit's control group is entered" "[ \$rc = 0 ] && [ \"\$out\" = in ]" "$err"
	kill -KILL "$inside" 2>/dev/null; wait "$inside" 2>/dev/null
	rmdir "$hier$group"
else
	for w in refused entered; do
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP F10 $w: cannot make a control group here ($hier not writable)"
	done
fi

tap_exit
