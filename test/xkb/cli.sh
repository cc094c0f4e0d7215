#!/bin/bash
# urlboot-xkb on temporary roots, as a user runs it. Prints TAP.
set -u
xkb=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../tap.sh"
env_file() { echo "$1/etc/environment.d/90-xkb.conf"; }
x11_file() { echo "$1/etc/X11/xorg.conf.d/00-keyboard.conf"; }
echo "1..20"

# sync from the file localed 252 writes
r=$tmp/a
mkdir -p "$r/etc/X11/xorg.conf.d"
cp "$data/xkb/00-keyboard.conf" "$(x11_file "$r")"
"$xkb" --root="$r" sync 2>/dev/null
check "sync writes the environment file from the X11 file" "cmp -s '$(env_file "$r")' '$data/xkb/90-xkb.conf'"
check "the environment file has mode 0644" "[ \$(stat -c %a '$(env_file "$r")') = 644 ]"
check "no temporary is left behind" "[ \$(ls -A '$r/etc/environment.d' | wc -l) = 1 ]"

# same content: not rewritten (the inode would change with a rename)
before=$(stat -c %i "$(env_file "$r")")
out=$("$xkb" --root="$r" sync 2>&1)
check "unchanged settings do not rewrite the file" "[ \$(stat -c %i '$(env_file "$r")') = $before ] && [ -z '$out' ]"

# removal
rm "$(x11_file "$r")"
"$xkb" --root="$r" sync 2>/dev/null
check "no keyboard settings remove the environment file" "[ ! -e '$(env_file "$r")' ]"
"$xkb" --root="$r" sync 2>/dev/null
rc=$?
check "syncing nothing twice is fine" "[ $rc = 0 ]"

# set writes both files, comma lists kept
r=$tmp/b
"$xkb" --root="$r" set us,de pc105 ,nodeadkeys grp:alt_shift_toggle 2>"$tmp/set.err"
check "set writes the X11 file as localed does" "cmp -s '$(x11_file "$r")' '$data/xkb/00-keyboard.conf'"
check "set writes the environment file" "cmp -s '$(env_file "$r")' '$data/xkb/90-xkb.conf'"
check "known names give no warning" "! grep -q Unknown '$tmp/set.err'"
"$xkb" --root="$r" set xx 2>"$tmp/set.err"
check "unknown layouts are written with a warning" "grep -q \"Unknown keyboard layout 'xx'\" '$tmp/set.err' && grep -q 'XKB_DEFAULT_LAYOUT=\"xx\"' '$(env_file "$r")'"

# hostile values are refused and change nothing
cp "$(env_file "$r")" "$tmp/env.before"
for bad in 'us"' $'us\nXKB_DEFAULT_MODEL=evil' 'us$(id)' $'us\x01'; do
	"$xkb" --root="$r" set "$bad" 2>/dev/null
	rc=$?
	[ $rc = 2 ] && cmp -s "$(env_file "$r")" "$tmp/env.before" || { rc=fail; break; }
done
check "quotes, newlines, \$ and control characters are refused (exit 2, nothing written)" "[ '$rc' = 2 ]"

# a hostile X11 file is not copied
printf 'Section "InputClass"\n  Option "XkbLayout" "us$(reboot)"\nEndSection\n' > "$(x11_file "$r")"
"$xkb" --root="$r" sync 2>"$tmp/sync.err"
rc=$?
check "sync refuses unsafe values from the X11 file" "[ $rc = 1 ] && grep -q 'not copying' '$tmp/sync.err' && cmp -s '$(env_file "$r")' '$tmp/env.before'"

# Debian's /etc/default/keyboard
r=$tmp/c
mkdir -p "$r/etc/default"
cp "$data/xkb/keyboard.debian" "$r/etc/default/keyboard"
"$xkb" --root="$r" sync 2>/dev/null
check "sync reads Debian's /etc/default/keyboard when it exists" "grep -qx 'XKB_DEFAULT_LAYOUT=\"us\"' '$(env_file "$r")' && grep -q 'from /etc/default/keyboard' '$(env_file "$r")'"
"$xkb" --root="$r" set de pc105 nodeadkeys 2>/dev/null
check "set updates /etc/default/keyboard in place" "grep -qx 'XKBLAYOUT=\"de\"' '$r/etc/default/keyboard' && grep -qx 'BACKSPACE=\"guess\"' '$r/etc/default/keyboard'"
json=$("$xkb" --root="$r" show --json)
check "show --json is valid JSON and in sync" "python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d[\"inSync\"] and d[\"keyboard\"][\"variant\"]==\"nodeadkeys\"' '$json'"
"$xkb" --root="$r" --source=x11 sync 2>/dev/null
check "--source=x11 overrides the Debian file" "grep -q 'from /etc/X11' '$(env_file "$r")'"

# a read-only target: clear error, nothing lost (a read-only mount in a private mount namespace)
r=$tmp/d
mkdir -p "$r/etc/X11/xorg.conf.d" "$r/etc/environment.d"
cp "$data/xkb/00-keyboard.conf" "$(x11_file "$r")"
echo 'XKB_DEFAULT_LAYOUT="old"' > "$(env_file "$r")"
unshare -m --propagation private sh -c "mount --bind '$r/etc/environment.d' '$r/etc/environment.d' && mount -o remount,bind,ro '$r/etc/environment.d' && '$xkb' --root='$r' sync" 2>"$tmp/ro.err"
rc=$?
check "a read-only directory fails with exit 1" "[ $rc = 1 ]"
check "the error names the file and the reason" "grep -q 'Failed to write $r/etc/environment.d/90-xkb.conf: Read-only file system' '$tmp/ro.err'"
check "the old file is intact" "[ \"\$(cat '$(env_file "$r")')\" = 'XKB_DEFAULT_LAYOUT=\"old\"' ]"

# usage
"$xkb" --help | grep -q '^Usage: urlboot-xkb'
h=$?
"$xkb" frobnicate 2>/dev/null
rc=$?
check "--help works and unknown commands exit 2" "[ $h = 0 ] && [ $rc = 2 ]"
tap_exit
