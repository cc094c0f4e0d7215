#!/bin/bash
# urlbootctl --vars-file= on OVMF variable stores made here (security review 2026-12-06, G6): a file whose
# headers are not an OVMF variable store is refused before anything is read or written (exit 1, one line
# naming the file and what is wrong, the file byte for byte and inode for inode the same); good stores,
# authenticated and plain, take the record in their own layout behind untouched headers. Prints TAP.
#   vars-file.sh BUILDDIR SRCDIR
set -u
build=$(realpath "$1") src=$(realpath "$2")
. "$src/test/tap.sh"
ctl=$build/src/bootctl/urlbootctl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..16"

# A 64 KiB volume of 4096 blocks of 16 bytes, the variable store behind its header (offsets as in
# OVMF_VARS_4M.fd); KEY=VALUE changes one field after the store is laid out.
store() { # PATH [hl=N] [fvlen=N] [guid=plain|other] [format=N] [state=N] [size=N] [map2=N]
	python3 - "$@" <<'PY'
import struct, sys, uuid
path, args = sys.argv[1], dict(a.split('=') for a in sys.argv[2:])
guids = {'auth': 'aaf32c78-947b-439a-a180-2e144ec37792', 'plain': 'ddcf3616-3275-4164-98b6-fe85707ffe7d',
         'other': '00000000-0000-0000-0000-000000000001'}
d = bytearray(b'\xff' * 65536)
d[0:16] = bytes(16)
d[16:32] = uuid.UUID('fff12b8d-7696-4c8b-a985-2747075b4f50').bytes_le   # the NV data FV's GUID
struct.pack_into('<Q4sIHHHBB', d, 32, len(d), b'_FVH', 0x0004feff, 72, 0, 0, 0, 2)
struct.pack_into('<IIII', d, 56, 4096, 16, 0, 0)                           # block map and its end
d[72:88] = uuid.UUID(guids[args.get('guid', 'auth')]).bytes_le
struct.pack_into('<IBBHI', d, 88, 0x8000 - 72, 0x5a, 0xfe, 0, 0)
fields = {'hl': ('<H', 48), 'fvlen': ('<Q', 32), 'format': ('<B', 92), 'state': ('<B', 93), 'size': ('<I', 88),
          'map2': ('<I', 64)}
for k, v in args.items():
    if k in fields:
        struct.pack_into(fields[k][0], d, fields[k][1], int(v, 0))
open(path, 'wb').write(d)
PY
}

# The records after the store header at 72, read independently: "LAYOUT ATTRIBUTES DATA-HEX" of the
# live record NAME, in the layout the store's GUID says (authenticated: 60-byte header, plain: 32).
record() { # PATH NAME
	python3 - "$@" <<'PY'
import struct, sys, uuid
d, name = open(sys.argv[1], 'rb').read(), sys.argv[2].encode('utf-16-le') + b'\0\0'
plain = d[72:88] == uuid.UUID('ddcf3616-3275-4164-98b6-fe85707ffe7d').bytes_le
hsize, sizes = (32, 8) if plain else (60, 36)
off, found = 100, 'none'
while off + hsize <= len(d) and struct.unpack_from('<H', d, off)[0] == 0x55aa:
    state, attrs = d[off + 2], struct.unpack_from('<I', d, off + 4)[0]
    nsize, dsize = struct.unpack_from('<II', d, off + sizes)
    if state == 0x3f and d[off + hsize:off + hsize + nsize] == name:
        found = '%s %d %s' % ('plain' if plain else 'authenticated', attrs, d[off + hsize + nsize:off + hsize + nsize + dsize].hex())
    off = (off + hsize + nsize + dsize + 3) & ~3
print(found)
PY
}

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=vars-file-test -days 2 \
	-keyout "$tmp/key.pem" -out "$tmp/ca.pem" 2>/dev/null

# A refusal: exit 1, the one line, and the file as it was (same bytes, not even rewritten).
refused() { # WANT-REASON FILE COMMAND...
	local want=$1 f=$2; shift 2
	local before inode_before status
	before=$(sha256sum < "$f") inode_before=$(stat -c %i.%Y.%Z "$f")
	"$@" > /dev/null 2> "$tmp/err"
	status=$?
	[ $status = 1 ] || { echo "exit $status: $(cat "$tmp/err")"; return 1; }
	[ "$(wc -l < "$tmp/err")" = 1 ] && grep -qF "$f is not an OVMF variable store: $want" "$tmp/err" ||
		{ echo "said: $(cat "$tmp/err")"; return 1; }
	[ "$(sha256sum < "$f")" = "$before" ] && [ "$(stat -c %i.%Y.%Z "$f")" = "$inode_before" ] ||
		{ echo "the file changed"; return 1; }
}

# The control: the same store with its real header length takes the record behind its headers.
store "$tmp/good.fd"
head -c 100 "$tmp/good.fd" > "$tmp/good.head"
check "a store made here (header length 72) takes TlsCaCertificate: exit 0" \
	"$ctl tls-ca $tmp/ca.pem --vars-file=$tmp/good.fd > /dev/null"
check "... in the authenticated layout right after the store header, attributes NV|BS" \
	"[ \"\$(record $tmp/good.fd TlsCaCertificate | cut -d' ' -f1,2)\" = 'authenticated 3' ]"
check "... and the volume and store headers are unchanged" "cmp -s -n 100 $tmp/good.fd $tmp/good.head"

# G6: header length 40. The old code took the store header at 40 and wrote the record at 68, over the
# end of the block map and the real store header (exit 0, a file OVMF no longer reads).
store "$tmp/hl40.fd" hl=40
reason='the firmware volume header length 40 is below 72'
out=$(refused "$reason" "$tmp/hl40.fd" "$ctl" tls-ca "$tmp/ca.pem" --vars-file="$tmp/hl40.fd")
check "G6: header length 40: tls-ca refuses (exit 1, one line naming the file), the file untouched" '[ -z "$out" ]' "$out"
out=$(refused "$reason" "$tmp/hl40.fd" "$ctl" enroll-mok "$tmp/ca.pem" --vars-file="$tmp/hl40.fd")
check "G6: header length 40: enroll-mok refuses, the file untouched" '[ -z "$out" ]' "$out"
out=$(refused "$reason" "$tmp/hl40.fd" "$ctl" add-uri http://10.0.2.2/uki.efi --vars-file="$tmp/hl40.fd")
check "G6: header length 40: add-uri refuses, the file untouched" '[ -z "$out" ]' "$out"
out=$(refused "$reason" "$tmp/hl40.fd" "$ctl" remove-uri http://10.0.2.2/uki.efi --vars-file="$tmp/hl40.fd")
check "G6: header length 40: remove-uri refuses (it said 'No boot entry' and rewrote it), untouched" '[ -z "$out" ]' "$out"

# Every other header check, each with its reason.
while IFS='|' read -r what fields reason; do
	# shellcheck disable=SC2086 # fields are separate words
	store "$tmp/bad.fd" $fields
	out=$(refused "$reason" "$tmp/bad.fd" "$ctl" add-uri http://10.0.2.2/uki.efi --vars-file="$tmp/bad.fd")
	check "refused: $what" '[ -z "$out" ]' "$out"
done <<'EOF'
an odd header length (73)|hl=73|the firmware volume header length 73 is odd
a header length past the volume|hl=65530|the firmware volume header length 65530 leaves no room for a variable store header
a volume longer than the file|fvlen=0x20000|the firmware volume claims 131072 bytes, the file has 65536
a block map without its end inside the header|map2=1|the firmware volume's block map does not end within its 72-byte header
a store header with another GUID|guid=other|no variable store GUID (authenticated or plain)
an unformatted store (format 0xff)|format=0xff|the variable store is not formatted (0xff, not 0x5a)
a store that is not healthy (state 0xff)|state=0xff|the variable store is not healthy (state 0xff, not 0xfe)
a store larger than the volume|size=0x10000|the variable store's size 65536 does not fit the 65464 bytes
EOF

# Older OVMF built without Secure Boot has a plain store: records with the 32-byte VARIABLE_HEADER.
store "$tmp/plain.fd" guid=plain
check "a plain store (gEfiVariableGuid) takes a boot entry in its own 32-byte record layout" \
	"$ctl add-uri http://10.0.2.2/uki.efi --vars-file=$tmp/plain.fd > /dev/null &&
	 [ \"\$(record $tmp/plain.fd BootOrder)\" = 'plain 7 0000' ]"
tap_exit
