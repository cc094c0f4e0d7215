#!/bin/bash
# urlbootctl list and status on a fake ESP, SMBIOS tables and efivarfs. Prints TAP.
set -u
build=$(realpath "$1") src=$(realpath "$2")
. "$src/test/tap.sh"
ctl=$build/src/bootctl/urlbootctl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..37"

esp=$tmp/esp
mkdir -p "$esp/loader/entries" "$esp/EFI/Linux" "$tmp/smbios/11-0" "$tmp/efivars"
printf 'title Debian 6.1\nsort-key debian\nversion 6.1.0-13\nlinux /vmlinuz\noptions root=/dev/sda1\n' > "$esp/loader/entries/debian-6.1.0-13.conf"
printf 'title Debian 6.1 (old)\nsort-key debian\nversion 6.1.0-9\nlinux /vmlinuz-9\n' > "$esp/loader/entries/debian-6.1.0-9.conf"
printf 'title Counted\nuki /EFI/Linux/x.efi\n' > "$esp/loader/entries/counted+3-1.conf"
printf 'title Broken\nlinux /a\nefi /b\n' > "$esp/loader/entries/broken.conf"
printf 'ID=demo\nPRETTY_NAME="Demo OS"\nVERSION_ID=42\n' > "$tmp/osrel"
head -c 4096 /dev/zero > "$tmp/linux"
stub=$build/src/boot/urlboot-stubx64.efi
if [ ! -f "$stub" ]; then
	# A build without gnu-efi: a PE32+ of headers only takes the sections as well (list reads them, not code).
	stub=$tmp/headers-only.efi
	python3 - "$stub" <<'PY'
import struct, sys
p = bytearray(4096)
p[0:2], p[0x3c:0x40] = b'MZ', struct.pack('<I', 0x40)
p[0x40:0x44] = b'PE\0\0'
struct.pack_into('<HHIIIHH', p, 0x44, 0x8664, 0, 0, 0, 0, 240, 0x22)
struct.pack_into('<H', p, 0x58, 0x20b)                      # PE32+
struct.pack_into('<II', p, 0x58 + 32, 4096, 512)            # section and file alignment
struct.pack_into('<II', p, 0x58 + 56, 4096, 4096)           # SizeOfImage, SizeOfHeaders
struct.pack_into('<H', p, 0x58 + 68, 10)                    # subsystem: EFI application
struct.pack_into('<I', p, 0x58 + 108, 16)
open(sys.argv[1], 'wb').write(p)
PY
fi
"$ctl" build-uki --stub="$stub" --linux="$tmp/linux" --os-release="$tmp/osrel" \
	--cmdline="quiet rd.systemd.pull=x" --output="$esp/EFI/Linux/demo-os.efi" 2>/dev/null
# One type 11 structure: header (type 11, length 5, handle, count) then the strings.
python3 - "$tmp/smbios/11-0/raw" <<'PY'
import sys
s = [b'io.systemd.boot.entries-extra:net.conf=title Network UKI\nuki-url :uki.efi\n', b'unrelated=1']
open(sys.argv[1], 'wb').write(bytes([11, 5, 0, 0, len(s)]) + b''.join(x + b'\0' for x in s) + b'\0')
PY
python3 -c "import sys; sys.stdout.buffer.write(b'\x06\0\0\0' + 'http://10.0.2.2:8080/dir/urlbootx64.efi'.encode('utf-16-le') + b'\0\0')" \
	> "$tmp/efivars/LoaderDeviceURL-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"

json=$(URLBOOT_SMBIOS_DIR=$tmp/smbios URLBOOT_EFIVARFS=$tmp/efivars "$ctl" list --json --esp="$esp" 2>"$tmp/err")
check "list --json is JSON" "python3 -c 'import json,sys; json.loads(sys.argv[1])' '$json'"
check "sort-key entries first, newest version first, then by ID" \
	"python3 -c 'import json,sys; ids=[e[\"id\"] for e in json.loads(sys.argv[1])]; assert ids[:2]==[\"debian-6.1.0-13.conf\",\"debian-6.1.0-9.conf\"], ids; assert set(ids[2:])=={\"net.conf\",\"demo-os.efi\",\"counted.conf\"}, ids' '$json'"
check "the relative uki-url is resolved against LoaderDeviceURL" \
	"python3 -c 'import json,sys; e=[e for e in json.loads(sys.argv[1]) if e[\"id\"]==\"net.conf\"][0]; assert e[\"target\"]==\"http://10.0.2.2:8080/dir/uki.efi\" and e[\"source\"]==\"smbios\"' '$json'"
# Type #2 IDs keep ".efi", as systemd-boot's do.
check "a Type #2 UKI shows its .osrel title, version and .cmdline" \
	"python3 -c 'import json,sys; e=[e for e in json.loads(sys.argv[1]) if e[\"id\"]==\"demo-os.efi\"][0]; assert e[\"title\"]==\"Demo OS\" and e[\"version\"]==\"42\" and e[\"options\"].startswith(\"quiet\")' '$json'"
check "an entry with two loader keys is left out with a warning" "! grep -q broken <<<'$json' && grep -q 'broken.conf' '$tmp/err'"
# XBOOTLDR, loader.conf's default, titles made unique (test/differential/bootctl-list.py compares all of
# this with systemd 262's bootctl list).
mkdir -p "$tmp/xbootldr/loader/entries"
printf 'title Debian 6.1\nversion 6.1.0-13\nefi /EFI/tools/tool.efi\n' > "$tmp/xbootldr/loader/entries/tool+1.conf"
printf 'default tool*\ntimeout 3\n' > "$esp/loader/loader.conf"
json=$(URLBOOT_SMBIOS_DIR=$tmp/none URLBOOT_EFIVARFS=$tmp/none "$ctl" list --json --esp-path="$esp" --boot-path="$tmp/xbootldr" 2>/dev/null)
check "--boot-path adds the XBOOTLDR entries, with their counter" \
	"python3 -c 'import json,sys; e=[e for e in json.loads(sys.argv[1]) if e[\"id\"]==\"tool.conf\"][0]; assert e[\"source\"]==\"xbootldr\" and e[\"triesLeft\"]==1 and e[\"triesDone\"]==0' '$json'"
check "loader.conf's default pattern marks the default entry (and only it)" \
	"python3 -c 'import json,sys; d=[e[\"id\"] for e in json.loads(sys.argv[1]) if e[\"isDefault\"]]; assert d==[\"tool.conf\"], d' '$json'"
check "titles shown are made unique as in the menu (version, then ID)" \
	"python3 -c 'import json,sys; t={e[\"id\"]:e[\"showTitle\"] for e in json.loads(sys.argv[1])}; assert t[\"tool.conf\"]==\"Debian 6.1 (6.1.0-13) (tool.conf)\" and t[\"debian-6.1.0-13.conf\"]==\"Debian 6.1 (6.1.0-13) (debian-6.1.0-13.conf)\", t' '$json'"
rm "$esp/loader/loader.conf"
text=$(URLBOOT_SMBIOS_DIR=$tmp/smbios URLBOOT_EFIVARFS=$tmp/efivars "$ctl" list --esp="$esp")
check "without LoaderDeviceURL the relative entry is marked hidden" \
	"URLBOOT_SMBIOS_DIR=$tmp/smbios URLBOOT_EFIVARFS=$tmp/none '$ctl' list --esp='$esp' | grep -q 'hidden: relative'"
python3 -c "import sys; sys.stdout.buffer.write(b'\x06\0\0\0' + 'urlboot-stub 0.1'.encode('utf-16-le') + b'\0\0')" \
	> "$tmp/efivars/StubInfo-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
status=$(URLBOOT_EFIVARFS=$tmp/efivars "$ctl" status)
check "status shows the stub and the loader's Net Boot URL" \
	"grep -q 'Product: urlboot-stub 0.1' <<<'$status' && grep -q 'Net Boot URL: http://10.0.2.2:8080/dir/urlbootx64.efi' <<<'$status'"
# add-uri / remove-uri on a fake efivarfs
has_utf16() { python3 -c "import sys; d = open(sys.argv[1], 'rb').read(); sys.exit(all(w.encode('utf-16-le') in d for w in sys.argv[2:]) == 0)" "$@"; }
ev=$tmp/boot-efivars
mkdir -p "$ev"
G=8be4df61-93ca-11d2-aa0d-00e098032b8c
URLBOOT_EFIVARFS=$ev "$ctl" add-uri http://10.0.2.2:8080/uki.efi --title=Net >/dev/null
python3 - "$tmp/expected" <<'PY'
import struct, sys
url = b'http://10.0.2.2:8080/uki.efi'
node = bytes([3, 24]) + struct.pack('<H', 4 + len(url)) + url + bytes([0x7f, 0xff, 4, 0])
desc = 'Net'.encode('utf-16-le') + b'\0\0'
data = struct.pack('<IH', 1, len(node)) + desc + node
open(sys.argv[1], 'wb').write(struct.pack('<I', 7) + data)   # attributes NV|BS|RT, then the option
PY
check "add-uri writes Boot0000 byte for byte" "cmp -s '$ev/Boot0000-$G' '$tmp/expected'"
URLBOOT_EFIVARFS=$ev "$ctl" add-uri http://10.0.2.2:8080/other.efi --first >/dev/null
URLBOOT_EFIVARFS=$ev "$ctl" add-uri http://10.0.2.2:8080/once.efi --next >/dev/null
check "BootOrder: --first goes first, the plain one after it; --next sets BootNext only" \
	"[ \"\$(od -An -tx1 '$ev/BootOrder-$G' | tr -s ' ')\" = ' 07 00 00 00 01 00 00 00' ] && [ \"\$(od -An -tx1 '$ev/BootNext-$G' | tr -s ' ')\" = ' 07 00 00 00 02 00' ]"
URLBOOT_EFIVARFS=$ev "$ctl" remove-uri http://10.0.2.2:8080/other.efi >/dev/null
check "remove-uri removes the entry and its place in BootOrder" \
	"[ ! -e '$ev/Boot0001-$G' ] && [ \"\$(od -An -tx1 '$ev/BootOrder-$G' | tr -s ' ')\" = ' 07 00 00 00 00 00' ]"
# docs/security.md L5: the same URL again reuses its slot.
slot=$(URLBOOT_EFIVARFS=$ev "$ctl" add-uri http://10.0.2.2:8080/uki.efi --title=Renamed 2>/dev/null)
check "add-uri of a URL that has an entry rewrites that entry, no duplicate" \
	"[ '$slot' = Boot0000 ] && [ ! -e '$ev/Boot0001-$G' ] && [ \"\$(od -An -tx1 '$ev/BootOrder-$G' | tr -s ' ')\" = ' 07 00 00 00 00 00' ] && has_utf16 '$ev/Boot0000-$G' Renamed"
# L4: entries far up (firmware uses Boot2001...) and entries that are not Uri() do not confuse remove-uri.
python3 - "$ev/Boot2001-$G" "$ev/Boot0003-$G" <<'PY'
import struct, sys
def option(desc, path):
    return struct.pack('<I', 7) + struct.pack('<IH', 1, len(path)) + desc.encode('utf-16-le') + b'\0\0' + path
url = b'http://10.0.2.2:8080/far.efi'
open(sys.argv[1], 'wb').write(option('Far', bytes([3, 24]) + struct.pack('<H', 4 + len(url)) + url + bytes([0x7f, 0xff, 4, 0])))
open(sys.argv[2], 'wb').write(option('Disk', bytes([0x7f, 0xff, 4, 0])))
PY
URLBOOT_EFIVARFS=$ev "$ctl" remove-uri http://10.0.2.2:8080/far.efi >"$tmp/out" 2>&1; rc=$?
check "remove-uri finds Boot2001 past gaps and non-Uri entries, and exits 0 once it removed it" \
	"[ $rc = 0 ] && [ ! -e '$ev/Boot2001-$G' ] && [ -e '$ev/Boot0003-$G' ] && grep -q 'Removed Boot2001' '$tmp/out' && ! grep -qi fail '$tmp/out'"
URLBOOT_EFIVARFS=$ev "$ctl" remove-uri http://10.0.2.2:8080/nothing.efi >"$tmp/out" 2>&1; rc=$?
check "remove-uri of a URL without an entry says so and exits 0" "[ $rc = 0 ] && grep -q 'No boot entry' '$tmp/out'"
URLBOOT_EFIVARFS=$ev "$ctl" add-uri ftp://x/y 2>/dev/null; rc=$?
check "add-uri refuses what is not an http(s) URL (exit 2)" "[ $rc = 2 ]"

# set-default / set-oneshot / set-timeout(-oneshot): NV|BS|RT UTF-16 strings of the loader vendor
L=4a67b082-0a4c-41cf-b6c7-440b29bb8c4f
URLBOOT_EFIVARFS=$ev "$ctl" set-default 'debian-*' && URLBOOT_EFIVARFS=$ev "$ctl" set-timeout-oneshot menu-force
python3 -c "import sys; sys.stdout.buffer.write(b'\x07\0\0\0' + 'debian-*'.encode('utf-16-le') + b'\0\0')" > "$tmp/want-default"
check "set-default writes LoaderEntryDefault byte for byte" "cmp -s '$ev/LoaderEntryDefault-$L' '$tmp/want-default'"
check "set-timeout-oneshot writes its keyword" \
	"[ \"\$(tail -c +5 '$ev/LoaderConfigTimeoutOneShot-$L' | iconv -f UTF-16LE -t UTF-8 | tr -d '\\0')\" = menu-force ]"
URLBOOT_EFIVARFS=$ev "$ctl" set-default ''
check "an empty value removes the variable" "[ ! -e '$ev/LoaderEntryDefault-$L' ]"
URLBOOT_EFIVARFS=$ev "$ctl" set-timeout soon 2>"$tmp/err"; rc=$?
check "set-timeout refuses what is not a timeout (exit 2, says what is allowed)" "[ $rc = 2 ] && grep -q menu-force '$tmp/err'"
cp /usr/share/OVMF/OVMF_VARS_4M.fd "$tmp/vars.fd" 2>/dev/null || python3 -c "open('$tmp/vars.fd','wb')"
"$ctl" set-oneshot local-uki.conf --vars-file="$tmp/vars.fd" 2>/dev/null; rc=$?
check "set-oneshot --vars-file writes into an OVMF store (or says it is not one)" \
	"if [ -s /usr/share/OVMF/OVMF_VARS_4M.fd ]; then [ $rc = 0 ] && has_utf16 '$tmp/vars.fd' LoaderEntryOneShot local-uki.conf; else [ $rc = 1 ]; fi"
# L6: QEMU's NVRAM keeps its mode, owner and symlink.
mkdir -p "$tmp/nvram" && cp "$tmp/vars.fd" "$tmp/nvram/vm_VARS.fd" && chmod 0600 "$tmp/nvram/vm_VARS.fd"
chown 1234:5678 "$tmp/nvram/vm_VARS.fd" && ln -s nvram/vm_VARS.fd "$tmp/vm.fd"
"$ctl" add-uri http://10.0.2.2:8080/uki.efi --vars-file="$tmp/vm.fd" >/dev/null 2>&1
check "--vars-file keeps the file's mode and owner, and a symlink stays a symlink" \
	"[ -L '$tmp/vm.fd' ] && [ \"\$(stat -c '%a %u %g' '$tmp/nvram/vm_VARS.fd')\" = '600 1234 5678' ]"
# An empty command line (issue 42): no .cmdline section of size 0, which shim refuses; a profile's empty one
# beside the base's cannot be said (it would inherit the base's): refused with one line.
"$ctl" build-uki --stub="$stub" --linux="$tmp/linux" --os-release="$tmp/osrel" --cmdline=@/dev/null \
	--profile=/dev/null --profile-cmdline= --output="$tmp/empty.efi" 2>"$tmp/err"; rc=$?
check "build-uki --cmdline=@EMPTY writes no .cmdline section" \
	"[ $rc = 0 ] && ! objdump -h '$tmp/empty.efi' | grep -q ' .cmdline '"
"$ctl" build-uki --stub="$stub" --linux="$tmp/linux" --os-release="$tmp/osrel" --cmdline=quiet \
	--profile=/dev/null --profile-cmdline=@/dev/null --output="$tmp/empty2.efi" 2>"$tmp/err"; rc=$?
check "an empty profile command line beside the base's is refused with one line" \
	"[ $rc != 0 ] && [ \$(wc -l <'$tmp/err') = 1 ] && grep -q 'is empty' '$tmp/err' && [ ! -e '$tmp/empty2.efi' ]"
m1=$("$ctl" measure --json --profile=4294967295 "$tmp/empty.efi" 2>&1); m2=$("$ctl" measure --json --options=@4294967295 "$tmp/empty.efi" 2>&1)
"$ctl" measure --profile=4294967296 "$tmp/empty.efi" >/dev/null 2>&1; rc=$?
check "measure --profile= takes up to 4294967295 (the base sections alone), as '@N' in the options does" \
	"[ -n '$m1' ] && [ '$m1' = '$m2' ] && [ $rc = 2 ]"
# systemd's conventions (issue 42): no verb is status, a help verb, a typo answered with the verb meant.
ev_none=$tmp/no-efivars-here
a=$(URLBOOT_EFIVARFS=$ev_none "$ctl" 2>&1); b=$(URLBOOT_EFIVARFS=$ev_none "$ctl" status 2>&1)
check "no verb runs status; without EFI variables it says 'Not booted with EFI' (exit 0, as bootctl)" \
	"[ '$a' = '$b' ] && grep -q 'Not booted with EFI' <<<'$a'"
"$ctl" stauts 2>"$tmp/err"; rc=$?
check "a verb a typo away: 'did you mean' it, exit 2" \
	"[ $rc = 2 ] && grep -qx \"urlbootctl: Unknown command verb 'stauts', did you mean 'status'?\" '$tmp/err'"
check "the help verb prints the help" "'$ctl' help | grep -q '^Usage: urlbootctl'"
# build-uki --image= (issue 41): the image in the initrd as /urlboot/images/NAME, byte for byte, and
# rd.urlboot.loop= for it on the command line.
head -c 300000 /dev/urandom > "$tmp/rootdisk.raw"
"$ctl" build-uki --stub="$stub" --linux="$tmp/linux" --os-release="$tmp/osrel" --cmdline="root=gpt-auto" \
	--image="$tmp/rootdisk.raw" --output="$tmp/carry.efi" 2>/dev/null; rc=$?
python3 - "$tmp/carry.efi" "$tmp/carry" <<'PY' 2>/dev/null
import struct, sys
d = open(sys.argv[1], 'rb').read()
h = struct.unpack_from('<I', d, 0x3c)[0]
n, opt = struct.unpack_from('<H', d, h + 6)[0], struct.unpack_from('<H', d, h + 20)[0]
for i in range(n):
    s = h + 24 + opt + 40 * i
    name = d[s:s + 8].rstrip(b'\0').decode()
    if name in ('.initrd', '.cmdline'):
        vsize, _, rsize, roff = struct.unpack_from('<IIII', d, s + 8)
        open(sys.argv[2] + name, 'wb').write(d[roff:roff + min(vsize, rsize)])
PY
mkdir -p "$tmp/unpacked" && (cd "$tmp/unpacked" && cpio -id --quiet < "$tmp/carry.initrd" 2>/dev/null)
check "build-uki --image= carries the image as /urlboot/images/NAME and names it with rd.urlboot.loop=" \
	"[ $rc = 0 ] && cmp -s '$tmp/rootdisk.raw' '$tmp/unpacked/urlboot/images/rootdisk.raw' && [ \"\$(tr -d '\\0' < '$tmp/carry.cmdline')\" = 'root=gpt-auto rd.urlboot.loop=/urlboot/images/rootdisk.raw' ]"
"$ctl" build-uki --stub="$stub" --linux="$tmp/linux" --os-release="$tmp/osrel" --image="$tmp/rootdisk.raw" \
	--cmdline="rd.urlboot.loop=/urlboot/images/rootdisk.raw2" --output="$tmp/carry3.efi" 2>/dev/null
python3 - "$tmp/carry3.efi" "$tmp/carry3" <<'PY' 2>/dev/null
import struct, sys
d = open(sys.argv[1], 'rb').read()
h = struct.unpack_from('<I', d, 0x3c)[0]
n, opt = struct.unpack_from('<H', d, h + 6)[0], struct.unpack_from('<H', d, h + 20)[0]
for i in range(n):
    s = h + 24 + opt + 40 * i
    if d[s:s + 8].rstrip(b'\0') == b'.cmdline':
        vsize, _, rsize, roff = struct.unpack_from('<IIII', d, s + 8)
        open(sys.argv[2] + '.cmdline', 'wb').write(d[roff:roff + min(vsize, rsize)])
PY
check "build-uki --image= adds its rd.urlboot.loop= beside a longer name that only starts alike" \
	"grep -q 'rootdisk.raw2 rd.urlboot.loop=/urlboot/images/rootdisk.raw' '$tmp/carry3.cmdline'"
"$ctl" build-uki --stub="$stub" --linux="$tmp/linux" --image="$tmp/rootdisk.raw" --image="$tmp/../$(basename "$tmp")/rootdisk.raw" \
	--output="$tmp/carry2.efi" 2>"$tmp/err"; rc=$?
check "two --image= files of one name are a usage error" "[ $rc = 2 ] && grep -q 'loop reference' '$tmp/err'"
"$ctl" list --esp-path="$tmp/no-such-esp" 2>"$tmp/err"; rc=$?
check "list --esp-path= that is not there: exit 1, one line (as bootctl)" \
	"[ $rc = 1 ] && [ \$(wc -l <'$tmp/err') = 1 ] && grep -q 'no-such-esp: No such file' '$tmp/err'"
p=$(URLBOOT_EFIVARFS=$ev_none "$ctl" status --json=pretty); q=$(URLBOOT_EFIVARFS=$ev_none "$ctl" status --json=short)
o=$(URLBOOT_EFIVARFS=$ev_none "$ctl" status --json=off)
"$ctl" status --json=loud 2>/dev/null; rc=$?
check "--json=pretty|short|off as systemd's tools: the same document indented or on one line, off the text; others exit 2" \
	"[ \$(wc -l <<<'$p') -gt 5 ] && [ \$(wc -l <<<'$q') = 1 ] && python3 -c 'import json,sys; assert json.loads(sys.argv[1]) == json.loads(sys.argv[2])' '$p' '$q' && grep -q 'Not booted with EFI' <<<'$o' && [ $rc = 2 ]"
# A pager on a terminal (script(1) gives a real pty), none with --no-pager; colour on a terminal unless NO_COLOR.
evc=$tmp/efivars-color && mkdir -p "$evc"
python3 -c "import sys; sys.stdout.buffer.write(b'\x06\0\0\0' + (3).to_bytes(8, 'little'))" > "$evc/LoaderFeatures-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
script -qec "URLBOOT_EFIVARFS=$evc SYSTEMD_PAGER='cat > $tmp/paged' '$ctl' status" /dev/null > "$tmp/tty-out"
script -qec "URLBOOT_EFIVARFS=$evc SYSTEMD_PAGER='cat > $tmp/paged2' '$ctl' status --no-pager" /dev/null > "$tmp/tty-out2"
script -qec "URLBOOT_EFIVARFS=$evc NO_COLOR=1 SYSTEMD_PAGER=cat '$ctl' status" /dev/null > "$tmp/tty-out3"
# (less itself then shows it: a "q" typed on the terminal ends it)
printf 'q' | timeout 20 script -qec "URLBOOT_EFIVARFS=$evc SUDO_UID=1000 SYSTEMD_PAGER='cat > $tmp/paged-sudo' '$ctl' status" /dev/null > /dev/null 2>&1
check "under sudo \$SYSTEMD_PAGER is not run (only less, in secure mode)" "[ ! -e '$tmp/paged-sudo' ]"
check "on a terminal status goes through \$SYSTEMD_PAGER, not with --no-pager; ticks green unless NO_COLOR" \
	"grep -q '^System:' '$tmp/paged' && [ ! -e '$tmp/paged2' ] && grep -q '^System:' '$tmp/tty-out2' && grep -q \$'\033\\[0;32m✓' '$tmp/paged' && grep -q '✓' '$tmp/tty-out3' && ! grep -q \$'\033\\[' '$tmp/tty-out3'"
# A host copy of a FAT ESP whose directories are written in another case: list finds them as the firmware would.
mkdir -p "$tmp/esp-case/efi/linux" && cp "$esp/EFI/Linux/demo-os.efi" "$tmp/esp-case/efi/linux/"
check "list finds EFI/Linux on an ESP copy written as efi/linux (FAT's names match whatever their case)" \
	"URLBOOT_EFIVARFS=$ev_none '$ctl' list --json --esp-path='$tmp/esp-case' 2>/dev/null | grep -q demo-os"
tap_exit
