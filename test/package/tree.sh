# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by test/package/run.sh and arm64.sh (after test/tap.sh, with $src, $tmp and $mirror set): the
# steps both take with a fresh Debian 12 tree that the packages are installed into.

# After a check: the end of a log when that check failed.
shown=0
show_if_failed() { # FILE [LINES]
	[ $tap_failed -gt $shown ] && tail -"${2:-20}" "$1" | sed 's/^/# /'
	shown=$tap_failed
}

# A copy of the source tree as git sees it (committed and new files, no build directories) in $tmp/urlboot.
copy_source() {
	mkdir "$tmp/urlboot"
	(cd "$src" && git ls-files -z -co --exclude-standard | grep -zv '^build' | tar --null -cf - -T -) | tar -xf - -C "$tmp/urlboot"
}

# $tmp/tree: a Debian 12 tree of ARCH with the packages DEB... installed, only what they pull in
# themselves plus what a booted Debian 12 has (no recommends); the log in $tmp/mmdebstrap.log.
# @ret mmdebstrap's status, 77 when the archive cannot be reached
install_tree() { # ARCH DEB...
	local arch=$1 rc
	shift
	mkdir "$tmp/debs" && cp "$@" "$tmp/debs/"
	mmdebstrap --arch="$arch" --variant=minbase --include=systemd-sysv,udev,dbus \
		--customize-hook="copy-in $tmp/debs /tmp" \
		--customize-hook='chroot "$1" sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/debs/*.deb && rm -rf /tmp/debs"' \
		bookworm "$tmp/tree" "$mirror" > "$tmp/mmdebstrap.log" 2>&1
	rc=$?
	if [ $rc != 0 ] && grep -qiE 'could not resolve|failed to fetch|unable to connect|temporary failure' "$tmp/mmdebstrap.log"; then
		return 77
	fi
	return $rc
}

in_tree() { # COMMAND...: in the tree, with /proc, /sys and /dev, in a mount namespace of its own
	unshare --mount --propagation private -- /bin/sh -c '
		t=$1; shift
		mount -t proc proc "$t/proc" && mount --rbind /sys "$t/sys" && mount --rbind /dev "$t/dev" &&
		mount -t tmpfs tmpfs "$t/tmp" || exit 1
		exec chroot "$t" "$@"' sh "$tmp/tree" "$@"
}

# The tools among TOOLS that do not run in the tree (--help), or nothing.
TOOLS="urlboot-pull urlboot-loop urlbootctl urlboot-mkimage urlboot-xkb urlboot-unit-shell urlboot-dirquota urlboot-ask-password urlboot-resolve urlboot-serve urlboot-lazy"
tools_failing() {
	local t bad=
	for t in $TOOLS; do in_tree "$t" --help > /dev/null 2>&1 || bad="$bad $t"; done
	echo "$bad"
}

# urlboot-pull installs a random image from a file: URL in the tree ($tmp/tree/var/tmp/disk.raw, copied to
# /var/tmp/images/disk.raw there: the caller compares them).
pull_in_tree() { # LOG
	head -c 3M /dev/urandom > "$tmp/tree/var/tmp/disk.raw" && zstd -q "$tmp/tree/var/tmp/disk.raw"
	in_tree urlboot-pull raw --verify=no --image-root=/var/tmp/images file:///var/tmp/disk.raw.zst disk > "$1" 2>&1
}
