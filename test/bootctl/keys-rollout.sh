#!/bin/bash
# urlbootctl tls-ca, enroll-mok and rollout on files and a fake efivarfs (URLBOOT_EFIVARFS). The signature
# lists are read back by an independent Python reader (UEFI 2.10 32.4.1); shim reading them is the e2e's
# shim-mok-chain-tpm, the firmware's TLS the https-* boots. Prints TAP.
#   keys-rollout.sh BUILDDIR SRCDIR
set -u
build=$(realpath "$1") src=$(realpath "$2")
. "$src/test/tap.sh"
ctl=$build/src/bootctl/urlbootctl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
guid=3c0a4d1e-8b7f-4c55-9a1e-75726c626f6f
echo "1..22"

"$src/tools/e2e/tls-pki" "$tmp/pki" "$ctl" >/dev/null
openssl x509 -in "$tmp/pki/ca.pem" -outform der -out "$tmp/ca.der"
fp=$(sha256sum < "$tmp/ca.der" | cut -d' ' -f1)
# the lists: type X.509, sizes that add up, each certificate's DER; the owner GUID printed
esl() {
	python3 - "$@" <<'PY'
import struct, sys, uuid
d = open(sys.argv[1], 'rb').read()
x509 = uuid.UUID('a5c059a1-94e4-4aa7-87b5-ab155c2bf072').bytes_le
off, out = 0, []
while off < len(d):
    t = d[off:off + 16]
    lsize, hsize, ssize = struct.unpack_from('<III', d, off + 16)
    assert t == x509 and hsize == 0 and lsize == 28 + ssize, 'not one X.509 list'
    owner, der = d[off + 28:off + 44], d[off + 44:off + lsize]
    out.append(f'{uuid.UUID(bytes_le=owner)} {der.hex()}')
    off += lsize
assert off == len(d)
print('\n'.join(out))
PY
}
"$ctl" tls-ca "$tmp/pki/ca.pem" "$tmp/pki/other-ca.pem" --output="$tmp/two.esl" > "$tmp/fps"
check "tls-ca --output: one X.509 list per certificate, PEM read, the DER as openssl writes it" \
	"[ \"\$(esl $tmp/two.esl | head -1 | cut -d' ' -f2)\" = \"\$(xxd -p $tmp/ca.der | tr -d '\n')\" ] && [ \$(esl $tmp/two.esl | wc -l) = 2 ]"
check "tls-ca prints each certificate's SHA-256 (of its DER)" "[ \"\$(head -1 $tmp/fps)\" = $fp ]"
check "tls-ca --json" "[ \"\$($ctl tls-ca --json $tmp/ca.der)\" = '{\"sha256\":[\"$fp\"]}' ]"
check "a file without a certificate: exit 1, the message names it" \
	"$ctl tls-ca /etc/hostname 2> $tmp/err; [ \$? = 1 ] && grep -q 'hostname holds no X.509 certificate' $tmp/err"
check "no certificate at all: a usage error (exit 2)" "$ctl tls-ca 2>/dev/null; [ \$? = 2 ]"

cp /usr/share/OVMF/OVMF_VARS_4M.fd "$tmp/vars.fd"
"$ctl" enroll-mok "$tmp/ca.der" --vars-file="$tmp/vars.fd" >/dev/null
"$ctl" tls-ca "$tmp/pki/ca.pem" --vars-file="$tmp/vars.fd" >/dev/null
# The store read back by name, vendor and attributes (OVMF's authenticated variable record layout).
vars_get() { # NAME VENDOR → "ATTRIBUTES HEX"
	python3 - "$tmp/vars.fd" "$1" "$2" <<'PY'
import struct, sys, uuid
d, name, vendor = open(sys.argv[1], 'rb').read(), sys.argv[2].encode('utf-16-le') + b'\0\0', uuid.UUID(sys.argv[3]).bytes_le
found = None
off = d.find(b'\xaa\x55')
while off >= 0 and off + 60 <= len(d):
    start, state, _, attrs = struct.unpack_from('<HBBI', d, off)
    nsize, dsize = struct.unpack_from('<II', d, off + 36)
    guid = d[off + 44:off + 60]
    if start == 0x55aa and nsize < 4096 and dsize < (1 << 24):
        if state == 0x3f and guid == vendor and d[off + 60:off + 60 + nsize] == name:
            found = (attrs, d[off + 60 + nsize:off + 60 + nsize + dsize])
        off = (off + 60 + nsize + dsize + 3) & ~3
    else:
        off = d.find(b'\xaa\x55', off + 1)
print(f'{found[0]} {found[1].hex()}' if found else 'none')
PY
}
mok=$(vars_get MokList 605dab50-e046-4300-abb6-3dd810dd8b23)
check "enroll-mok: MokList non-volatile and boot-services only (attributes 3), as shim requires" "[ \"\${mok%% *}\" = 3 ]"
echo "${mok#* }" | xxd -r -p > "$tmp/moklist.esl"
check "enroll-mok: one X.509 list, owner shim's GUID, the certificate" \
	"[ \"\$(esl $tmp/moklist.esl)\" = \"605dab50-e046-4300-abb6-3dd810dd8b23 \$(xxd -p $tmp/ca.der | tr -d '\n')\" ]"
tls=$(vars_get TlsCaCertificate fd2340d0-3dab-4349-a6c7-3b4f12b48eae)
check "tls-ca --vars-file: TlsCaCertificate, attributes 3, the certificate" \
	"[ \"\${tls%% *}\" = 3 ] && [ \"\$(echo \${tls#* } | xxd -r -p | wc -c)\" = \$(( 44 + \$(wc -c < $tmp/ca.der) )) ]"
check "enroll-mok without --vars-file: a usage error that says to use mokutil" \
	"$ctl enroll-mok $tmp/ca.der 2> $tmp/err; [ \$? = 2 ] && grep -q 'mokutil --import' $tmp/err"

# rollout on a fake efivarfs: the boot manager's variables as it writes them
efi=$tmp/efivars
mkdir -p "$efi"
pin42=4242424242424242424242424242424242424242424242424242424242424242
pin43=4343434343434343434343434343434343434343434343434343434343434343
printf '\007\000\000\000image-42.conf\ntrial\nfallback: image-43.conf used up its tries\n%s' $pin42 > "$efi/UrlbootRolloutChoice-$guid"
printf '\007\000\000\000image-43.conf trial 0 1\nimage-42.conf trial 2 1\nimage-41.conf good 0 1\nimage-40.conf trial 3 0 5\n' \
	> "$efi/UrlbootRollout-$guid"
printf '\007\000\000\000%s' $pin43 > "$efi/UrlbootImageSHA256-$guid"
made=$(( $(date +%s) - 9 * 86400 ))
printf '\007\000\000\000generation 44\nmade %s\nmax-age 604800\nsource kept-refused-older\nrefused 41\n' $made \
	> "$efi/UrlbootRolloutList-$guid"
export URLBOOT_EFIVARFS=$efi
json=$("$ctl" rollout --json 2> "$tmp/warn")
check "rollout --json: running version, why and pin; each version good/trial/bad/unreachable with its tries" \
	"python3 -c 'import json,sys; j=json.loads(sys.argv[1]); assert j[\"running\"]==dict(id=\"image-42.conf\",why=\"fallback: image-43.conf used up its tries\",sha256=\"$pin42\"), j; v={x[\"id\"]:(x[\"state\"],x[\"triesLeft\"],x[\"triesDone\"],x[\"fetchFailures\"]) for x in j[\"versions\"]}; assert v=={\"image-43.conf\":(\"bad\",0,1,0),\"image-42.conf\":(\"trial\",2,1,0),\"image-41.conf\":(\"good\",0,1,0),\"image-40.conf\":(\"unreachable\",3,0,5)}, v' '$json'"
check "rollout --json: the list in use, generation 44, kept after refusing generation 41, expired" \
	"python3 -c 'import json,sys; l=json.loads(sys.argv[1])[\"list\"]; assert (l[\"generation\"],l[\"source\"],l[\"refusedGeneration\"],l[\"maxAge\"],l[\"expired\"])==(44,\"kept-refused-older\",41,604800,True), l' '$json'"
"$ctl" rollout > "$tmp/show" 2> "$tmp/warn"
check "rollout: the list's generation, source and age; a warning past its max-age (a frozen server)" \
	"grep -q '^List: generation 44 (kept-refused-older), made .* UTC, 1w 2d ago (max-age 1w); refused an older generation 41$' $tmp/show && grep -q 'older than its max-age' $tmp/warn"
check "status: the rollout list line, and the same warning" \
	"$ctl status 2> $tmp/warn | grep -q '^  Rollout List: generation 44 (kept-refused-older)' && grep -q 'older than its max-age' $tmp/warn"
check "rollout is-trial: 0 while the running version is on trial" "$ctl rollout is-trial --quiet"
check "rollout bless: refused when the UKI that ran is not the one its entry pins (exit 1, both digests named)" \
	"$ctl rollout bless 2> $tmp/err; [ \$? = 1 ] && grep -q '$pin43, but image-42.conf pins $pin42: not blessed' $tmp/err && grep -q '^image-42.conf trial 2 1$' $efi/UrlbootRollout-$guid"
printf '\007\000\000\000%s' $pin42 > "$efi/UrlbootImageSHA256-$guid"
"$ctl" rollout bless 2> "$tmp/bless"
check "rollout bless marks the running version good when what ran is what it pins, and says after how many starts" \
	"grep -q '^image-42.conf good 2 1$' $efi/UrlbootRollout-$guid && grep -q 'marked good after 1 start' $tmp/bless"
check "rollout is-trial: 1 once it is blessed" "! $ctl rollout is-trial --quiet"
check "status: the version, its state now (good), and why it was chosen" \
	"$ctl status 2>/dev/null | grep -qx '       Rollout: image-42.conf, good (fallback: image-43.conf used up its tries)'"
printf '\007\000\000\000image-42.conf\ntrial\nnewest version' > "$efi/UrlbootRolloutChoice-$guid"
printf '\007\000\000\000image-42.conf trial 2 1\n' > "$efi/UrlbootRollout-$guid"
check "rollout bless: a version whose entry pins nothing is not blessed (exit 1)" \
	"$ctl rollout bless 2> $tmp/err; [ \$? = 1 ] && grep -q 'pins no UKI' $tmp/err && grep -q '^image-42.conf trial 2 1$' $efi/UrlbootRollout-$guid"
printf '\007\000\000\000image-43.conf trial 0 1\nimage-42.conf good 2 1\n' > "$efi/UrlbootRollout-$guid"
"$ctl" rollout reset image-43.conf
check "rollout reset forgets a version (new again, with all its tries)" "! grep -q image-43 $efi/UrlbootRollout-$guid"
check "rollout reset of an unknown version: exit 1, says so" \
	"$ctl rollout reset image-99.conf 2> $tmp/err; [ \$? = 1 ] && grep -q 'does not know image-99.conf' $tmp/err"
"$ctl" rollout reset-generation 2> "$tmp/out"
check "rollout reset-generation: asks the boot manager (UrlbootRolloutReset, non-volatile) to forget generation 44" \
	"[ \"\$(xxd -p $efi/UrlbootRolloutReset-$guid)\" = 0700000031 ] && grep -q 'forgets entry list generation 44' $tmp/out"
tap_exit
