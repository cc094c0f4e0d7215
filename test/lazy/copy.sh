#!/bin/bash
# urlboot-lazy's background copy against nbdkit with urlboot's HTTP plugin, as urlboot-lazy runs them, from the
# test HTTP server: a verity image (make-disk-image --verity) whose file system holds data and a large zero file
# arrives byte for byte, its zero blocks (the verified tree names them) neither fetched nor stored, the local
# copy no larger in memory than the image has allocated; the same from a multi-block .xz of it; a server that
# does not clamp ranges past the end (the plugin asks exactly for each block: no request reaches past the end);
# a tree that does not match the pin, and a tampered compressed block, refused. Run in a private network
# namespace (test/netns-run.sh).
#   copy.sh URLBOOT-LAZY COPY-RUN SRCDIR PLUGIN
set -uo pipefail
lazy=$1 copyrun=$2 src=$3
export URLBOOT_NBDKIT_PLUGIN=$4
for t in nbdkit veritysetup xz nbdfuse; do
	command -v $t >/dev/null || { echo "1..0 # SKIP $t is not installed (packages nbdkit, cryptsetup-bin, xz-utils, libnbd-bin)"; exit 0; }
done
# The copy reads the disk through an nbd device of its own; this host's kernel has no nbd, so nbdfuse makes
# the same NBD connection to nbdkit's socket a file (the boots in test/e2e use the kernel's nbd).
[ -c /dev/fuse ] || { echo "1..0 # SKIP no /dev/fuse: nbdfuse cannot stand in for the kernel's nbd here"; exit 0; }
tmp=$(mktemp -d /var/tmp/urlboot-lazy-copy.XXXXXX)
pids=()
cleanup() {
	for m in "$tmp"/*.mnt; do mountpoint -q "$m" 2>/dev/null && umount "$m"; done
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
n=0 failed=0
check() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else failed=$((failed + 1)); echo "not ok $n - $1"; fi; }

mkdir -p "$tmp/tree/data" "$tmp/srv"
head -c $((6 << 20)) /dev/urandom > "$tmp/tree/data/random"
head -c $((24 << 20)) /dev/zero > "$tmp/tree/data/zeros"        # written blocks of zeros
"$src/tools/image/make-disk-image" --verity --size=48 "$tmp/tree" "$tmp/srv/disk.raw" > "$tmp/roothash"
roothash=$(sed -n 's/^roothash=//p' "$tmp/roothash")
size=$(stat -c %s "$tmp/srv/disk.raw")
allocated=$(( $(stat -c %b "$tmp/srv/disk.raw") * 512 ))
xz -T2 --block-size=1MiB -c "$tmp/srv/disk.raw" > "$tmp/srv/disk.raw.xz"
python3 "$src/test/http/server.py" --root "$tmp/srv" --port-file "$tmp/port" --verbose 2> "$tmp/server.log" & pids+=($!)
for _ in $(seq 100); do [ -e "$tmp/port" ] && break; sleep 0.05; done
port=$(cat "$tmp/port")

# copy URL NAME [ROOTHASH]: serve URL as urlboot-lazy does and copy it to NAME.out; "fetched N skipped M" in NAME.result
copy() {
	local url=$1 name=$2 sock=$tmp/$2.sock mnt=$tmp/$2.mnt p
	if [ -n "${CURL_PLUGIN:-}" ]; then      # nbdkit's own curl plugin, for comparison
		nbdkit --foreground --readonly --unix="$sock" curl "$url" timeout=4 2> "$tmp/$name.log" & p=$!
	else
		"$lazy" serve --retry-delay=1 --retries=3 "$url" "$sock" 2> "$tmp/$name.log" & p=$!
	fi
	for _ in $(seq 200); do [ -S "$sock" ] && break; sleep 0.05; done
	mkdir -p "$mnt"
	nbdfuse -r "$mnt" --unix "$sock" 2>> "$tmp/$name.log" & local f=$!
	for _ in $(seq 200); do [ -e "$mnt/nbd" ] && break; sleep 0.05; done
	if [ -n "${LAST_BLOCK:-}" ]; then       # only the image's last 4 KiB
		timeout "${COPY_TIMEOUT:-120}" dd if="$mnt/nbd" of="$tmp/$name.out" bs=4096 skip=$((size / 4096 - 1)) \
			count=1 status=none 2>> "$tmp/$name.log"
	else
		timeout "${COPY_TIMEOUT:-120}" "$copyrun" "$mnt/nbd" "$tmp/$name.out" "$size" ${3:+"$tmp/srv/disk.raw"} \
			${3:+"$3"} > "$tmp/$name.result" 2>> "$tmp/$name.log"
	fi
	local rc=$?
	# nbdfuse's connection first (nbdkit waits for its clients), then nbdkit
	umount "$mnt" 2>/dev/null || umount -l "$mnt"
	kill $f 2>/dev/null; wait $f 2>/dev/null
	kill $p; wait $p 2>/dev/null
	return $rc
}
field() { sed -n "s/.*$2 \([0-9]*\).*/\1/p" "$tmp/$1.result"; }

copy "http://127.0.0.1:$port/disk.raw" plain "$roothash"
check "a verity image arrives byte for byte" 'cmp -s "$tmp/plain.out" "$tmp/srv/disk.raw"'
check "its zero blocks (at least the 24 MiB file of zeros), named by the verified tree, are not fetched ($(field plain skipped) skipped, $(field plain fetched) fetched of $size)" \
	'[ "$(field plain skipped)" -ge $((24 << 20)) ] && [ $(( $(field plain fetched) + $(field plain skipped) )) -le $((size + 512)) ]'
stored=$(( $(stat -c %b "$tmp/plain.out") * 512 ))
check "the local copy takes no more memory than the image has allocated ($stored of $allocated bytes)" \
	'[ "$stored" -le "$allocated" ]'
copy "http://127.0.0.1:$port/disk.raw" unverified
check "without pins every byte is fetched, and zero pages are still not stored" \
	'cmp -s "$tmp/unverified.out" "$tmp/srv/disk.raw" && [ "$(field unverified fetched)" -eq $size ] && [ $(( $(stat -c %b "$tmp/unverified.out") * 512 )) -le "$allocated" ]'
bad=$(echo "$roothash" | tr 0-9a-f 1-9a-f0)
copy "http://127.0.0.1:$port/disk.raw" wrongpin "$bad"
check "a pin the image does not carry: refused before anything is copied" '[ ! -s "$tmp/wrongpin.result" ]'
copy "http://127.0.0.1:$port/disk.raw.xz" xz "$roothash"
check "from a multi-block .xz (read in place by the plugin): byte for byte, zero blocks not fetched" \
	'cmp -s "$tmp/xz.out" "$tmp/srv/disk.raw" && [ "$(field xz skipped)" -ge $((24 << 20)) ]'
# a peer (urlboot-serve) serves its decompressed copy under the .xz name: told by the first bytes, not the name
cp "$tmp/srv/disk.raw" "$tmp/srv/peer.raw.xz"
copy "http://127.0.0.1:$port/peer.raw.xz" peer "$roothash"
check "an uncompressed image under an .xz name (a peer's copy) is read as it is: byte for byte" \
	'cmp -s "$tmp/peer.out" "$tmp/srv/disk.raw"'
# nbdkit's own curl plugin asks for a byte past each block (1.32): against this server its last block waits
t0=$(date +%s)
CURL_PLUGIN=1 LAST_BLOCK=1 COPY_TIMEOUT=12 copy "http://127.0.0.1:$port/f=noclamp/disk.raw" noclamp-curl
t=$(( $(date +%s) - t0 ))
check "a server that does not clamp ranges past the end stalls nbdkit's curl plugin (its last range reaches past the end; ${t} s)" \
	'! cmp -s "$tmp/noclamp-curl.out" "$tmp/srv/disk.raw" && grep -q "noclamp: a range past the end" "$tmp/server.log"'
: > "$tmp/server.log"
t0=$(date +%s)
copy "http://127.0.0.1:$port/f=noclamp/disk.raw" noclamp
t=$(( $(date +%s) - t0 ))
check "... urlboot's plugin asks for exactly each block: the copy completes at once (${t} s), no request past the end" \
	'cmp -s "$tmp/noclamp.out" "$tmp/srv/disk.raw" && [ $t -lt 10 ] && ! grep -q "noclamp: a range past the end" "$tmp/server.log"'
# one byte of compressed data in the middle of the .xz changed (its bits flipped: test/flip-byte): the block's check refuses it, nbdkit stays up
cp "$tmp/srv/disk.raw.xz" "$tmp/srv/tampered.raw.xz"
"$src/test/flip-byte" "$tmp/srv/tampered.raw.xz"
copy "http://127.0.0.1:$port/tampered.raw.xz" tampered
before=$failed
check "a tampered compressed block: that read fails with one line saying where, and nbdkit stays up (not nbdkit's xz filter's abort)" \
	'[ ! -s "$tmp/tampered.result" ] && grep -qE "copy-run: reading [0-9]+ bytes at [0-9]+" "$tmp/tampered.log" && grep -q "does not decode or fails its CRC64 check" "$tmp/tampered.log" && ! grep -q "Assertion" "$tmp/tampered.log"'
[ $failed -eq $before ] || sed 's/^/# tampered: /' "$tmp/tampered.log" "$tmp/tampered.result"
echo "1..$n"
[ $failed -eq 0 ]
