#!/bin/bash
# urlboot-lazy check-verity and make-disk-image --verity against veritysetup (cryptsetup), on image
# files: no device-mapper needed.
#   verity-check.sh URLBOOT-LAZY SRCDIR
# The root hash urlboot-lazy computes from a tree's top block must be veritysetup's for every
# algorithm, block size and tree depth; a wrong pin and a tampered top block are refused with a
# message naming the hashes; a tampered lower block passes this check (only the top block is read)
# and is caught by veritysetup verify, as dm-verity catches it when the block is read.
set -uo pipefail
lazy=$1 src=$2
command -v veritysetup >/dev/null || { echo "1..0 # SKIP veritysetup (cryptsetup-bin) is not installed"; exit 0; }
tmp=$(mktemp -d /tmp/urlboot-verity-check.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
uuid() { echo "${1:0:8}-${1:8:4}-${1:12:4}-${1:16:4}-${1:20:12}"; }

# A GPT image holding DATA and HASH as root and root-verity partitions named by the root hash.
assemble() { # DATA HASH ROOTHASH OUT
	local dsec=$(( ($(stat -c %s "$1") + 511) / 512 )) hsec=$(( ($(stat -c %s "$2") + 511) / 512 )) h=$3
	local len=${#h}
	truncate -s 0 "$4"
	truncate -s $(( (2048 + dsec + hsec + 2048) * 512 )) "$4"
	printf 'label: gpt\nstart=2048, size=%d, type=4f68bce3-e8cd-4db1-96e7-fbcaf984b709, uuid=%s\nstart=%d, size=%d, type=2c7357ed-ebd2-46d9-aec1-23d437ec2bf5, uuid=%s\n' \
		"$dsec" "$(uuid "${h:0:32}")" $((2048 + dsec)) "$hsec" "$(uuid "${h:len-32:32}")" | sfdisk -q "$4"
	dd if="$1" of="$4" bs=512 seek=2048 conv=notrunc status=none
	dd if="$2" of="$4" bs=512 seek=$((2048 + dsec)) conv=notrunc status=none
}

# Trees of every depth, three algorithms, hash blocks of 512 and 4096 bytes, data blocks of 1 and 4 KiB.
for spec in sha256:4096:4096:1 sha256:4096:4096:2 sha256:4096:4096:128 sha256:4096:4096:129 sha256:4096:4096:2000 \
	sha256:4096:512:17 sha256:1024:512:300 sha1:4096:4096:300 sha1:4096:512:40 sha512:4096:4096:65 sha512:4096:1024:100; do
	IFS=: read -r alg dbs hbs blocks <<<"$spec"
	head -c $((dbs * blocks)) /dev/urandom > "$tmp/data"
	h=$(veritysetup format --hash="$alg" --data-block-size="$dbs" --hash-block-size="$hbs" "$tmp/data" "$tmp/hash" |
		awk '/^Root hash:/ { print $3 }')
	assemble "$tmp/data" "$tmp/hash" "$h" "$tmp/disk"
	out=$("$lazy" check-verity --roothash="$h" "$tmp/disk" 2>&1)
	check "$alg, $dbs-byte data blocks, $hbs-byte hash blocks, $blocks blocks: the pinned hash is the tree's" \
		'[ $? -eq 0 ] || { echo "# $out"; false; }'
done

# make-disk-image --verity: veritysetup verify agrees over the partitions, and urlboot-lazy does too.
mkdir -p "$tmp/root/etc"
echo hello > "$tmp/root/etc/hello"
out=$("$src/tools/image/make-disk-image" --verity --size=20 "$tmp/root" "$tmp/img.raw")
h=${out#roothash=}
check "make-disk-image --verity prints roothash=HEX" '[[ $out =~ ^roothash=[0-9a-f]{64}$ ]]'
parts=$(sfdisk -J "$tmp/img.raw")
field() { python3 -c "import json,sys; p=json.loads(sys.argv[1])['partitiontable']['partitions'][int(sys.argv[2])]; print(p[sys.argv[3]])" "$parts" "$1" "$2"; }
dd if="$tmp/img.raw" of="$tmp/p1" bs=512 skip="$(field 0 start)" count="$(field 0 size)" status=none
dd if="$tmp/img.raw" of="$tmp/p2" bs=512 skip="$(field 1 start)" count="$(field 1 size)" status=none
check "make-disk-image --verity: veritysetup verify accepts the partitions with the printed hash" \
	'veritysetup verify "$tmp/p1" "$tmp/p2" "$h"'
check "make-disk-image --verity: partition UUIDs are the hash's first and last 128 bits" \
	'[ "$(field 0 uuid | tr A-F a-f)" = "$(uuid "${h:0:32}")" ] && [ "$(field 1 uuid | tr A-F a-f)" = "$(uuid "${h:32:32}")" ]'
check "make-disk-image --verity: types root-x86-64 and root-x86-64-verity" \
	'[ "$(field 0 type)" = 4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709 ] && [ "$(field 1 type)" = 2C7357ED-EBD2-46D9-AEC1-23D437EC2BF5 ]'
check "make-disk-image --verity: ext4 with 4 KiB blocks (the verity device's sector size)" \
	'dumpe2fs -h "$tmp/p1" 2>/dev/null | grep -q "^Block size: *4096$"'
check "urlboot-lazy check-verity accepts the image with its hash" '"$lazy" check-verity --roothash="$h" "$tmp/img.raw" >/dev/null'

wrong=0000000000000000000000000000000000000000000000000000000000000000
out=$("$lazy" check-verity --roothash=$wrong "$tmp/img.raw" 2>&1)
check "a wrong roothash= is refused, naming it and the image's hash" \
	'[ $? -ne 0 ] && [[ $out == *"roothash=$wrong is not this image"* ]] && [[ $out == *"$h"* ]] || { echo "# $out"; false; }'

# One byte of the top hash block changed (the block after the 4 KiB superblock block).
cp "$tmp/img.raw" "$tmp/top.raw"
off=$(( $(field 1 start) * 512 + 4096 + 7 ))
"$src/test/flip-byte" "$tmp/top.raw" $off
out=$("$lazy" check-verity --roothash="$h" "$tmp/top.raw" 2>&1)
check "a changed top hash block is refused (the tree's root hash is named)" \
	'[ $? -ne 0 ] && [[ $out == *"does not match this image: the tree in its root-verity partition has root hash"* ]] || { echo "# $out"; false; }'

# One byte of data changed: the top block still matches; veritysetup verify (like dm-verity on reading) does not.
cp "$tmp/img.raw" "$tmp/data.raw"
"$src/test/flip-byte" "$tmp/data.raw" $(( $(field 0 start) * 512 + 8192 + 3 ))
dd if="$tmp/data.raw" of="$tmp/p1" bs=512 skip="$(field 0 start)" count="$(field 0 size)" status=none
check "a changed data block passes the top-block check, and veritysetup verify refuses it" \
	'"$lazy" check-verity --roothash="$h" "$tmp/data.raw" >/dev/null && ! veritysetup verify "$tmp/p1" "$tmp/p2" "$h" 2>/dev/null'

truncate -s 1M "$tmp/zero.raw"
out=$("$lazy" check-verity --roothash="$h" "$tmp/zero.raw" 2>&1)
check "a disk without a GPT: the pin cannot verify it" '[ $? -ne 0 ] && [[ $out == *"cannot verify this image: it has no GPT"* ]]'
out=$("$lazy" check-verity --usrhash="$h" "$tmp/img.raw" 2>&1)
check "usrhash= naming a root-verity partition is refused" \
	'[ $? -ne 0 ] && [[ $out == *"usrhash=$h names partition"*"which is not a usr-verity partition"* ]] || { echo "# $out"; false; }'
out=$("$lazy" check-verity --usrhash=$wrong "$tmp/img.raw" 2>&1)
check "usrhash= on an image with only root partitions: nothing to verify" \
	'[ $? -ne 0 ] && [[ $out == *"usrhash=$wrong cannot verify this image: it has a GPT"* ]] || { echo "# $out"; false; }'
"$lazy" check-verity --roothash=abc "$tmp/img.raw" >/dev/null 2>&1
check "a malformed hash is a usage error (exit status 2)" '[ $? -eq 2 ]'

echo "1..$n"
[ $failed -eq 0 ]
