#!/bin/bash
# urlboot-lazy compress against the stock zstd CLI, a seek table parsed here, and urlboot's own reader (TAP).
#   compress.sh URLBOOT-LAZY ZSTD-IMAGE-READ
# zstd -dc decodes every frame and skips the skippable one holding the table: what it prints must be
# the image. The table is read back with python3's struct, independently of urlboot's reader, and each
# frame on its own must decode to its slice of the image and carry zstd's content checksum (the reader
# refuses frames without one). Then ZSTD-IMAGE-READ (test/lazy/zstd-image-read.c) reads the file frame by
# frame as the lazy boot's plugin does.
set -uo pipefail
lazy=$1 reader=$2
command -v zstd >/dev/null || { echo "1..0 # SKIP zstd is not installed"; exit 0; }
tmp=$(mktemp -d /tmp/urlboot-lazy-compress.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../tap.sh"     # check counts before it evaluates: a command's status is kept in rc
MiB=1048576

# A sparse image of 5 MiB + 5000 bytes: random bytes, text, holes, a few bytes at its very end (a short last frame).
truncate -s $((5 * MiB + 5000)) "$tmp/img"
head -c 700000 /dev/urandom | dd of="$tmp/img" bs=4096 seek=25 conv=notrunc status=none
yes 'a line of text' | head -c 300000 | dd of="$tmp/img" bs=4096 seek=700 conv=notrunc status=none
printf 'the end' | dd of="$tmp/img" bs=1 seek=$((5 * MiB + 4993)) conv=notrunc status=none

# The seek table and frames of FILE for an image of SIZE bytes in frames of FRAME bytes: one line per
# problem, nothing when all is well.
table_check() { # FILE SIZE FRAME
	python3 - "$@" <<'EOF'
import struct, sys
path, size, frame = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = open(path, 'rb').read()
frames, descriptor, magic = struct.unpack('<IBI', data[-9:])
expected = -(-size // frame)
if magic != 0x8F92EAB1 or descriptor != 0 or frames != expected:
    sys.exit(f'footer: magic {magic:#x}, descriptor {descriptor}, {frames} frames (expected {expected})')
table = 8 + 8 * frames + 9
skip_magic, content = struct.unpack('<II', data[-table:-table + 8])
if skip_magic != 0x184D2A5E or content != table - 8:
    sys.exit(f'table header: magic {skip_magic:#x}, {content} bytes (expected {table - 8})')
offset = image = 0
for i in range(frames):
    compressed, decompressed = struct.unpack('<II', data[-table + 8 + 8 * i:-table + 16 + 8 * i])
    if decompressed != min(frame, size - image):
        sys.exit(f'frame {i}: {decompressed} bytes of the image (expected {min(frame, size - image)})')
    head = data[offset:offset + 5]
    if head[:4] != b'\x28\xb5\x2f\xfd':
        sys.exit(f'frame {i}: no zstd frame at byte {offset}')
    if not head[4] & 0x04:
        sys.exit(f'frame {i}: no content checksum (descriptor {head[4]:#04x})')
    print(f'{offset} {compressed} {image} {decompressed}')
    offset += compressed
    image += decompressed
if offset + table != len(data) or image != size:
    sys.exit(f'frames: {offset} bytes of {len(data) - table} before the table, {image} of {size} image bytes')
EOF
}

# Each frame alone (OFFSET COMPRESSED IMAGE-OFFSET SIZE lines from table_check) decodes to its slice of IMAGE.
frames_check() { # FILE IMAGE LINES
	local off len ioff size
	while read -r off len ioff size; do
		cmp -s <(tail -c +$((off + 1)) "$1" | head -c "$len" | zstd -dc) \
			<(tail -c +$((ioff + 1)) "$2" | head -c "$size") || { echo "# the frame at $off is not bytes $ioff+$size"; return 1; }
	done <<<"$3"
}

out=$("$lazy" compress --frame-size=1M "$tmp/img" "$tmp/img.zst" 2>&1); rc=$?
check "compress --frame-size=1M of a sparse 5 MiB + 5000 byte image succeeds" \
	'[ $rc -eq 0 ] || { echo "# $out"; false; }'
check "it says what it wrote ($out)" '[[ $out == "$tmp/img.zst: 6 frames of 1.0 MiB, "*" from 5.0 MiB ("*" allocated)." ]]'
check "zstd -dc decodes it to exactly the image" 'cmp -s <(zstd -dc "$tmp/img.zst") "$tmp/img"'
lines=$(table_check "$tmp/img.zst" $((5 * MiB + 5000)) $MiB 2>&1); rc=$?
check "its seek table: 6 frames (the last of 5000 bytes), sizes adding up to the file and the image, each frame with zstd's content checksum" \
	'[ $rc -eq 0 ] || { echo "# $lines"; false; }'
check "each frame decodes on its own to its slice of the image" 'frames_check "$tmp/img.zst" "$tmp/img" "$lines"'
out=$("$reader" "$tmp/img.zst" 2>&1 >"$tmp/read"); rc=$?
check "urlboot's reader takes its table and decodes its 6 frames one by one to the image" \
	'[ $rc -eq 0 ] && [ "$out" = "6 $((5 * MiB + 5000))" ] && cmp -s "$tmp/read" "$tmp/img" || { echo "# $out"; false; }'
rm -f "$tmp/read"
check "nothing else is left in the directory" '[ "$(ls -A "$tmp")" = "$(printf "img\nimg.zst")" ]'

# Many small frames over several batches (each thread takes frames of a batch): still in their order.
head -c 300000 /dev/urandom > "$tmp/small"
"$lazy" compress --frame-size=4K --level=3 "$tmp/small" "$tmp/small.zst" >/dev/null
check "74 frames of 4 KiB at --level=3 decode in their order" 'cmp -s <(zstd -dc "$tmp/small.zst") "$tmp/small"'
lines=$(table_check "$tmp/small.zst" 300000 4096 2>&1); rc=$?
check "their seek table adds up" '[ $rc -eq 0 ] || { echo "# $lines"; false; }'
check "urlboot's reader decodes them to the image" 'cmp -s <("$reader" "$tmp/small.zst" 2>/dev/null) "$tmp/small"'

# A hole at the end (frames wholly in it are zeros without being read, the last one short).
head -c $((MiB + 4096)) /dev/urandom > "$tmp/tail"
truncate -s $((4 * MiB + 100)) "$tmp/tail"
"$lazy" compress --level=3 "$tmp/tail" "$tmp/tail.zst" >/dev/null
check "an image ending in a hole decodes to its bytes (zstd, urlboot's reader)" \
	'cmp -s <(zstd -dc "$tmp/tail.zst") "$tmp/tail" && cmp -s <("$reader" "$tmp/tail.zst" 2>/dev/null) "$tmp/tail"'
rm -f "$tmp/tail" "$tmp/tail.zst"

# One frame, shorter than --frame-size=: the table's only entry.
printf 'x%.0s' {1..10000} > "$tmp/one"
"$lazy" compress --frame-size=64M "$tmp/one" "$tmp/one.zst" >/dev/null
check "a 10000-byte image in frames of 64M: one frame, read back by zstd and urlboot's reader" \
	'cmp -s <(zstd -dc "$tmp/one.zst") "$tmp/one" && cmp -s <("$reader" "$tmp/one.zst" 2>/dev/null) "$tmp/one"'
rm -f "$tmp/one" "$tmp/one.zst"

json=$("$lazy" compress --json "$tmp/img" "$tmp/img.zst")
check "--json prints the output, frames, frame size, compressed and image bytes" \
	'python3 -c "import json, os, sys; j = json.loads(sys.argv[1]); sys.exit(not (j[\"output\"] == sys.argv[2] and j[\"frames\"] == 6 and j[\"frameSize\"] == 1048576 and j[\"compressedBytes\"] == os.path.getsize(sys.argv[2]) and j[\"imageBytes\"] == 5 * 1048576 + 5000))" "$json" "$tmp/img.zst" || { echo "# $json"; false; }'

for bad in --frame-size=3000 --frame-size=0 --frame-size=128M --frame-size=1X --level=0 --level=23; do
	err=$("$lazy" compress "$bad" "$tmp/img" "$tmp/bad.zst" 2>&1); rc=$?
	check "$bad is a usage error (exit 2, one line: ${err:0:60})" '[ $rc -eq 2 ] && [ ! -e "$tmp/bad.zst" ] && [ "$(wc -l <<<"$err")" -eq 1 ]'
done

sum=$(sha256sum < "$tmp/img.zst")
: > "$tmp/empty"
err=$("$lazy" compress "$tmp/empty" "$tmp/img.zst" 2>&1); rc=$?
check "an empty image is refused (exit 1: $err)" '[ $rc -eq 1 ] && [[ $err == *"empty"* ]]'
err=$("$lazy" compress "$tmp/missing" "$tmp/img.zst" 2>&1); rc=$?
check "a missing image is refused (exit 1: $err)" '[ $rc -eq 1 ] && [[ $err == *"$tmp/missing"* ]]'
check "OUTPUT is unchanged after those failures, and no temporary file is left" \
	'[ "$(sha256sum < "$tmp/img.zst")" = "$sum" ] && [ "$(ls -A "$tmp")" = "$(printf "empty\nimg\nimg.zst\nsmall\nsmall.zst")" ]'
err=$("$lazy" compress "$tmp/img" "$tmp/nodir/img.zst" 2>&1); rc=$?
check "an OUTPUT in a missing directory is refused (exit 1: $err)" '[ $rc -eq 1 ] && [[ $err == *"$tmp/nodir/img.zst"* ]]'
err=$("$lazy" compress "$tmp/img" 2>&1); rc=$?
check "a missing OUTPUT is a usage error (exit 2)" '[ $rc -eq 2 ]'

echo "1..$tap_n"
tap_exit
