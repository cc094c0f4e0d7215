#!/bin/bash
# The real systemd-localed of this machine (Debian 12: 252, with Debian's /etc/default/keyboard patch)
# is told over D-Bus to set a keymap, exactly as "localectl set-x11-keymap" does; then urlboot-xkb sync
# must produce the Wayland file. Runs in a private mount namespace with /etc overlaid, so the machine's
# own /etc is never touched. Prints TAP.
set -u
xkb=$1
echo "1..3"
localed=/lib/systemd/systemd-localed
if [ ! -x "$localed" ] || ! command -v dbus-daemon >/dev/null || [ "$(id -u)" != 0 ]; then
	echo "ok 1 # SKIP needs root, dbus-daemon and systemd-localed"
	echo "ok 2 # SKIP"
	echo "ok 3 # SKIP"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{upper,work,bus}

cat > "$tmp/inside.sh" <<INSIDE
set -u
mount -t overlay overlay -o lowerdir=/etc,upperdir=$tmp/upper,workdir=$tmp/work /etc || exit 1
mkdir -p /run/dbus && mount -t tmpfs tmpfs /run/dbus || exit 1
dbus-daemon --system --nofork --nopidfile & bus=\$!
for i in \$(seq 50); do [ -S /run/dbus/system_bus_socket ] && break; sleep 0.1; done
$localed & localed=\$!
for i in \$(seq 50); do busctl status org.freedesktop.locale1 >/dev/null 2>&1 && break; sleep 0.1; done
busctl call org.freedesktop.locale1 /org/freedesktop/locale1 org.freedesktop.locale1 SetX11Keyboard ssssbb \
	us,de pc105 ,nodeadkeys grp:alt_shift_toggle false false >/dev/null
sleep 0.5
$xkb sync 2>/dev/null; echo "sync=\$?"
cat /etc/environment.d/90-xkb.conf 2>/dev/null
ls /etc/default/keyboard /etc/X11/xorg.conf.d/00-keyboard.conf 2>/dev/null | sed 's/^/written: /'
kill \$localed \$bus 2>/dev/null
wait 2>/dev/null
INSIDE
out=$(timeout 60 unshare -m --propagation private bash "$tmp/inside.sh" 2>&1)

if echo "$out" | grep -q '^sync=0$'; then echo "ok 1 - urlboot-xkb sync after localed set the keymap"; else echo "not ok 1 - sync failed"; fi
if echo "$out" | grep -qx 'XKB_DEFAULT_LAYOUT="us,de"' && echo "$out" | grep -qx 'XKB_DEFAULT_VARIANT=",nodeadkeys"' &&
	echo "$out" | grep -qx 'XKB_DEFAULT_OPTIONS="grp:alt_shift_toggle"' && echo "$out" | grep -qx 'XKB_DEFAULT_MODEL="pc105"'; then
	echo "ok 2 - the Wayland file carries what localed stored"
else
	echo "not ok 2 - the Wayland file is wrong"
	echo "$out" | sed 's/^/# /'
fi
echo "$out" | grep '^written: ' | sed 's/^/# localed /'
if echo "$out" | grep -q '^written: '; then echo "ok 3 - localed wrote its file"; else echo "not ok 3 - localed wrote nothing"; fi
