#!/bin/bash
# urlboot-pull on a full file system: refused before the download when the compressed image does not
# fit, a clean named failure when the disk fills up mid-way. Small tmpfs mounts in a private mount
# namespace; the server in a private network namespace (run through test/netns-run.sh). Prints TAP.
. "$(dirname "$0")/setup.sh"
serve "$tmp/port"
url="http://127.0.0.1:$(cat "$tmp/port")/disk.raw.zst"
echo "1..4"

mkdir -p "$tmp/small" "$tmp/mid"
out=$(unshare -m --propagation private sh -c "mount -t tmpfs -o size=2m tmpfs '$tmp/small' && '$pull' raw --verify=no --progress=none --image-root='$tmp/small' '$url' img; echo rc=\$?; ls -A '$tmp/small' | sed 's/^/left: /'" 2>&1)
check "too little room: refused before the download, naming the RAM needed" \
	"grep -q 'rc=1' <<<'$out' && grep -q 'which lives in RAM' <<<'$out' && grep -q 'more RAM' <<<'$out'"
check "too little room: nothing left behind" "! grep -q '^left:' <<<'$out'"

# Room for the download (3 MiB) but not for the unpacked image (its allocated blocks are larger).
out=$(unshare -m --propagation private sh -c "mount -t tmpfs -o size=4m tmpfs '$tmp/mid' && '$pull' raw --verify=no --progress=none --image-root='$tmp/mid' '$url' img; echo rc=\$?; ls -A '$tmp/mid' | sed 's/^/left: /'" 2>&1)
check "disk full mid-way: a clean failure that says so" "grep -q 'rc=1' <<<'$out' && grep -q 'No space left' <<<'$out'"
check "disk full mid-way: no temporary, no image" "! grep -q '^left:' <<<'$out'"
tap_exit
