#!/bin/bash
# urlboot-pull loads libarchive (tarballs) and libsystemd (sd_notify under systemd) only when a run
# needs them. Checked: neither is linked; with each hidden (an empty file bind-mounted over it in a
# private mount namespace) raw pulls still work, and a tar pull fails with one line naming the
# package, leaving nothing behind. file:// URLs: no network needed. Prints TAP.
. "$(dirname "$0")/setup.sh"
srv="file://$tmp/fx/srv"
echo "1..6"

needed=$(readelf -d "$pull" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
check "libarchive and libsystemd are not linked" "! grep -qE 'libarchive|libsystemd' <<<'$needed'"
check "libcurl, liblzma, libzstd and libcrypto are" \
	"grep -q libcurl <<<'$needed' && grep -q liblzma <<<'$needed' && grep -q libzstd <<<'$needed' && grep -q libcrypto <<<'$needed'"

# Runs "urlboot-pull ARGS..." with LIBRARY hidden; prints its stderr, rc=N and what it left.
without() {
	local lib=$1 path; shift
	path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ { print $NF; exit }')
	[ -n "$path" ] || { echo "no $lib here"; return; }
	rm -rf "$tmp/out"; mkdir -p "$tmp/out"; : > "$tmp/empty"
	unshare -m --propagation private sh -c "mount --bind '$tmp/empty' '$(realpath "$path")' &&
		'$pull' --progress=none --verify=no --image-root='$tmp/out' $*; echo rc=\$?" 2>&1
	ls -A "$tmp/out" | sed 's/^/left: /'
}

out=$(without libarchive.so.13 tar "$srv/root.tar.zst" root)
check "tar without libarchive: exit 1, one line naming the package" \
	"grep -q '^rc=1$' <<<'$out' && [ \$(grep -c 'install libarchive13' <<<'$out') = 1 ]"
check "tar without libarchive: nothing left behind" "! grep -q '^left:' <<<'$out'"

out=$(without libarchive.so.13 raw "$srv/disk.raw.zst" img)
check "raw without libarchive: pulled" "grep -q '^rc=0$' <<<'$out' && cmp -s '$tmp/out/img.raw' '$tmp/fx/srv/disk.raw'"

out=$(NOTIFY_SOCKET=/nonexistent without libsystemd.so.0 raw "$srv/disk.raw.zst" img)
check "under systemd without libsystemd: pulled" "grep -q '^rc=0$' <<<'$out' && cmp -s '$tmp/out/img.raw' '$tmp/fx/srv/disk.raw'"
tap_exit
