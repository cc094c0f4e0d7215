# Sourced by the unit-shell cases: services with the sandboxes the probes look into, in /run/systemd/system.
# ush_units_setup writes them and reloads the manager; ush_units_start starts the long-running ones.
ush_units_setup() {
	local d=/run/systemd/system
	mkdir -p "$d"
	# PrivateTmp=: a file only the service's /tmp has.
	printf '[Service]\nPrivateTmp=yes\nEnvironment=FOO=from-the-unit\nWorkingDirectory=/var\nExecStart=/bin/sh -c "echo hi >/tmp/x; exec sleep infinity"\n' >"$d/ush-tmp.service"
	printf '[Service]\nPrivateNetwork=yes\nExecStart=/bin/sleep infinity\n' >"$d/ush-net.service"
	printf '[Service]\nProtectSystem=strict\nStateDirectory=ush-strict\nExecStart=/bin/sleep infinity\n' >"$d/ush-strict.service"
	# RootDirectory=: a root of its own, with /usr of the system.
	rm -rf /srv/ush-root
	mkdir -p /srv/ush-root/usr
	for l in bin lib lib64 sbin; do ln -s "usr/$l" "/srv/ush-root/$l"; done
	echo "in the root" >/srv/ush-root/marker
	printf '[Service]\nRootDirectory=/srv/ush-root\nBindReadOnlyPaths=/usr\nExecStart=/usr/bin/sleep infinity\n' >"$d/ush-root.service"
	printf '[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=/bin/true\n' >"$d/ush-oneshot.service"
	printf '[Service]\nExecStart=/bin/sleep infinity\n' >"$d/ush-stopped.service"
	printf '[Service]\nDynamicUser=yes\nStateDirectory=ush-dyn\nExecStart=/bin/sleep infinity\n' >"$d/ush-dyn.service"
	printf '[Service]\nPrivateUsers=yes\nExecStart=/bin/sleep infinity\n' >"$d/ush-users.service"
	printf '[Service]\nProtectHostname=yes\nPrivateIPC=yes\nExecStart=/bin/sleep infinity\n' >"$d/ush-host.service"
	# Never started: the sandboxes of --new-sandbox.
	printf '[Service]\nDynamicUser=yes\nPrivateTmp=yes\nPrivateNetwork=yes\nProtectSystem=strict\nStateDirectory=ush-sb\nRuntimeDirectory=ush-sb\nEnvironment=FOO=bar\nWorkingDirectory=/var/lib/ush-sb\nExecStart=/bin/false\n' >"$d/ush-sb.service"
	printf '[Service]\nUser=nobody\nCapabilityBoundingSet=\nNoNewPrivileges=yes\nInaccessiblePaths=/etc/hostname\nTemporaryFileSystem=/mnt\nBindReadOnlyPaths=/usr/bin/true:/mnt/true\nExecStart=/bin/false\n' >"$d/ush-limits.service"
	systemctl daemon-reload
}

ush_units_start() {
	systemctl start ush-tmp ush-net ush-strict ush-root ush-oneshot ush-dyn ush-users ush-host
}

ush_units_remove() {
	systemctl stop ush-tmp ush-net ush-strict ush-root ush-oneshot ush-dyn ush-users ush-host 2>/dev/null
	rm -f /run/systemd/system/ush-*.service
	systemctl daemon-reload
	rm -rf /srv/ush-root
}
