#!/bin/bash
# nbdkit with the command line urlboot-lazy gives it (urlboot-lazy serve: urlboot's HTTP plugin), read by nbdcopy
# from the test HTTP server: the image arrives byte for byte through closed range requests, a server that stops
# answering for 4 s (only slower), a connection reset mid-answer (tried again), and as multi-block
# .xz and seekable .zst (read in place by the plugin; a .zst without a seek table refused), a read-ahead list
# beside the image (its blocks fetched before anything is read, none twice; the reads recorded). Run in a private
# network namespace (test/netns-run.sh).
#   serve.sh URLBOOT-LAZY SRCDIR URLBOOTCTL PLUGIN
set -uo pipefail
lazy=$1 src=$2 ctl=$3
export URLBOOT_NBDKIT_PLUGIN=$4
for t in nbdkit nbdcopy; do
	command -v $t >/dev/null || { echo "1..0 # SKIP $t is not installed (packages nbdkit, libnbd-bin)"; exit 0; }
done
tmp=$(mktemp -d /tmp/urlboot-lazy-serve.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
n=0 failed=0
check() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else failed=$((failed + 1)); echo "not ok $n - $1"; fi; }

mkdir "$tmp/srv"
head -c $((16 << 20)) /dev/urandom > "$tmp/srv/disk.raw"
xz -T2 --block-size=1MiB -c "$tmp/srv/disk.raw" > "$tmp/srv/disk.raw.xz"
"$lazy" compress --level=3 "$tmp/srv/disk.raw" "$tmp/srv/disk.raw.zst" > /dev/null
zstd -q -3 -c "$tmp/srv/disk.raw" > "$tmp/srv/plain.raw.zst"
python3 "$src/test/http/server.py" --root "$tmp/srv" --port-file "$tmp/port" >/dev/null 2>&1 & pids+=($!)
for _ in $(seq 100); do [ -e "$tmp/port" ] && break; sleep 0.05; done
port=$(cat "$tmp/port")

# copy URL NAME [OPTIONS...]: serve URL with urlboot-lazy's nbdkit command line, copy the export to NAME; prints seconds
copy() {
	local sock=$tmp/$2.sock url=$1 name=$2
	shift 2
	"$lazy" serve --retry-delay=1 "$@" "$url" "$sock" 2> "$tmp/$name.log" & local p=$!
	for _ in $(seq 200); do [ -S "$sock" ] && break; sleep 0.05; done
	local t0=$(date +%s.%N)
	timeout 120 nbdcopy "nbd+unix:///?socket=$sock" "$tmp/$name.out" 2>> "$tmp/$name.log"
	local rc=$?
	echo "$(date +%s.%N) - $t0" | bc
	kill $p; wait $p 2>/dev/null
	return $rc
}

s=$(copy "http://127.0.0.1:$port/disk.raw" plain)
check "the image arrives byte for byte (${s%.*} s)" 'cmp -s "$tmp/plain.out" "$tmp/srv/disk.raw"'
curl -s -X POST "http://127.0.0.1:$port/_reset" >/dev/null
s=$(copy "http://127.0.0.1:$port/f=pause:6000000:4/disk.raw" pause)
check "the server stops answering for 4 s mid-copy: the copy waits and completes intact (${s%.*} s)" \
	'cmp -s "$tmp/pause.out" "$tmp/srv/disk.raw" && [ "$(echo "$s >= 4" | bc)" = 1 ]'
s=$(copy "http://127.0.0.1:$port/f=reset:3000000/disk.raw" reset)
check "a connection reset mid-answer is retried, the image is intact" 'cmp -s "$tmp/reset.out" "$tmp/srv/disk.raw"'
curl -s -X POST "http://127.0.0.1:$port/_reset" >/dev/null
s=$(copy "http://127.0.0.1:$port/disk.raw.xz" xz)
check "a multi-block .xz is served decompressed" 'cmp -s "$tmp/xz.out" "$tmp/srv/disk.raw"'
# nbdcopy reads with several requests in flight, so two of them often need the same block at once: the second
# waits for the first one's block instead of fetching and decoding it again (each block crosses the network once).
xz_sent=$(curl -s "http://127.0.0.1:$port/_stats" | python3 -c 'import json,sys; print(sum(v["bytes"] for k, v in json.load(sys.stdin).items() if "disk.raw.xz" in k))')
xz_size=$(stat -c %s "$tmp/srv/disk.raw.xz")
check "each block of the .xz is fetched once ($xz_sent bytes sent for a file of $xz_size)" '[ "$xz_sent" -le $((xz_size + 4096)) ]'
s=$(copy "http://127.0.0.1:$port/disk.raw.zst" zst)
check "a seekable .zst (urlboot-lazy compress) is served decompressed" 'cmp -s "$tmp/zst.out" "$tmp/srv/disk.raw"'
zst_sent=$(curl -s "http://127.0.0.1:$port/_stats" | python3 -c 'import json,sys; print(sum(v["bytes"] for k, v in json.load(sys.stdin).items() if "disk.raw.zst" in k))')
zst_size=$(stat -c %s "$tmp/srv/disk.raw.zst")
check "each frame of the .zst is fetched once ($zst_sent bytes sent for a file of $zst_size)" '[ "$zst_sent" -le $((zst_size + 4096)) ]'
# The read-ahead list (boot-reads.h): IMAGE.readahead names frames 5, 9 and 2 (and 5 again). Connecting (nbdinfo
# reads nothing) starts the plugin, which fetches those three frames before any read; the copy then fetches
# each other frame once and none of these again; --record lists every frame read, once.
stats() { curl -s "http://127.0.0.1:$port/_stats" | python3 -c 'import json,sys; print(json.load(sys.stdin).get(sys.argv[1], {}).get("bytes", 0))' "$1"; }
curl -s -X POST "http://127.0.0.1:$port/_reset" >/dev/null
cp "$tmp/srv/disk.raw.zst" "$tmp/srv/ra.raw.zst"
printf '# frames 5, 9, 2\n5242880\n9437184\r\n2097152\n5242880\n' > "$tmp/srv/ra.raw.zst.readahead"
"$lazy" serve --record="$tmp/ra.reads" "http://127.0.0.1:$port/ra.raw.zst" "$tmp/ra.sock" 2> "$tmp/ra.log" & ra=$!
for _ in $(seq 200); do [ -S "$tmp/ra.sock" ] && break; sleep 0.05; done
nbdinfo --size "nbd+unix:///?socket=$tmp/ra.sock" > /dev/null
for _ in $(seq 100); do [ "$(stats /ra.raw.zst)" -ge $((3 << 20)) ] && break; sleep 0.05; done
ahead=$(stats /ra.raw.zst)
check "the list's three frames are fetched before anything is read ($ahead bytes: 3 frames and the seek table)" \
	'[ "$ahead" -ge $((3 << 20)) ] && [ "$ahead" -lt $((4 << 20)) ] && [ "$(stats /ra.raw.zst.readahead)" -gt 0 ]'
timeout 120 nbdcopy "nbd+unix:///?socket=$tmp/ra.sock" "$tmp/ra.out" 2>> "$tmp/ra.log"
kill $ra; wait $ra 2>/dev/null
ra_sent=$(stats /ra.raw.zst)
check "then the image arrives byte for byte, no frame fetched twice ($ra_sent bytes sent for a file of $zst_size)" \
	'cmp -s "$tmp/ra.out" "$tmp/srv/disk.raw" && [ "$ra_sent" -le $((zst_size + 4096)) ]'
check "--record lists each frame read once: 16 frames, by their image offsets" \
	'[ "$(sort -n "$tmp/ra.reads" | tr "\n" " ")" = "$(seq 0 1048576 15728640 | tr "\n" " ")" ]'
check "no line about the list in nbdkit's log (the list is good)" '! grep -q readahead "$tmp/ra.log"'
printf '5242880\nfive\n' > "$tmp/srv/ra.raw.zst.readahead"
copy "http://127.0.0.1:$port/ra.raw.zst" ra-bad >/dev/null
check "a list with a line that is no offset: one line saying which, and the image still arrives" \
	'cmp -s "$tmp/ra-bad.out" "$tmp/srv/disk.raw" && [ "$(grep -c "ra.raw.zst.readahead: line 2 is not an offset" "$tmp/ra-bad.log")" = 1 ]'
check "no list beside the image (404): nothing said about it" '! grep -q readahead "$tmp/zst.log"'
copy "http://127.0.0.1:$port/plain.raw.zst" plain-zst --retries=1 >/dev/null
check "a .zst made by zstd (one frame, no seek table) is refused with a line saying how to make one" \
	'[ ! -s "$tmp/plain-zst.out" ] && grep -q "no seek table.*urlboot-lazy compress" "$tmp/plain-zst.log"'
# F7 of the security review of 2026-12-05: a redirect to ftp:// is not followed (an FTP listener records
# what reaches it).
python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", 2121)); s.listen(4)
while True:
    c, _ = s.accept(); c.sendall(b"220 ftp\r\n"); c.settimeout(2)
    try:
        data = c.recv(4096)
    except OSError:
        data = b""
    open(sys.argv[1], "ab").write(data or b"(connected)\n"); c.close()
' "$tmp/ftp-server.log" & pids+=($!)
sleep 0.3
copy "http://127.0.0.1:$port/f=redirect-ftp:2121/disk.raw" ftp --retries=1 >/dev/null
check "F7: a redirect to ftp:// is not followed (nothing reached the FTP port, the copy fails)" \
	'[ ! -s "$tmp/ftp-server.log" ] && ! cmp -s "$tmp/ftp.out" "$tmp/srv/disk.raw" && grep -q "Unsupported protocol" "$tmp/ftp.log"'
# Issue 31: https with the pinned CA alone (tools/e2e/tls-pki: certificates from it that are wrong
# otherwise, and one from a CA nobody pins); nbdkit (libcurl with GnuTLS) refuses each, and an https URL
# redirected to plain http.
"$src/tools/e2e/tls-pki" "$tmp/pki" "$ctl" >/dev/null
for c in good expired wronghost other; do
	python3 "$src/test/http/server.py" --root "$tmp/srv" --port-file "$tmp/$c-port" \
		--tls-cert "$tmp/pki/$c.pem" --tls-key "$tmp/pki/$c.key" >/dev/null 2>&1 & pids+=($!)
done
for c in good expired wronghost other; do
	for _ in $(seq 100); do [ -e "$tmp/$c-port" ] && break; sleep 0.05; done
done
https() { echo "https://127.0.0.1:$(cat "$tmp/$1-port")/${2:-disk.raw}"; }
copy "$(https good)" tls-good --ca="$tmp/pki/ca.pem" >/dev/null
check "https with the pinned CA: the image arrives byte for byte" 'cmp -s "$tmp/tls-good.out" "$tmp/srv/disk.raw"'
for c in expired wronghost other; do
	copy "$(https $c)" "tls-$c" --ca="$tmp/pki/ca.pem" --retries=1 >/dev/null
done
check "an expired certificate from the pinned CA: refused, nothing copied" \
	'[ ! -s "$tmp/tls-expired.out" ] && grep -qi "expired" "$tmp/tls-expired.log"'
check "a certificate from the pinned CA for another host: refused, nothing copied" \
	'[ ! -s "$tmp/tls-wronghost.out" ] && grep -qiE "does not match|name" "$tmp/tls-wronghost.log"'
check "a certificate from another CA: refused (the system's store is not asked: capath= is empty)" \
	'[ ! -s "$tmp/tls-other.out" ] && grep -qiE "certificate|issuer|verif" "$tmp/tls-other.log"'
copy "$(https good "f=redirect-http:$port/disk.raw")" tls-downgrade --ca="$tmp/pki/ca.pem" --retries=1 >/dev/null
check "https redirected to plain http: not followed, nothing copied" \
	'[ ! -s "$tmp/tls-downgrade.out" ] && grep -qiE "protocol|redirect" "$tmp/tls-downgrade.log"'
URLBOOT_NBDKIT=/bin/echo "$lazy" serve --ca=/etc/x.pem https://127.0.0.1/a.raw /run/x.sock > "$tmp/argv-https"
check "the command line over https: protocols=https cainfo=FILE (the plugin then asks no other store)" \
	'grep -q -- "protocols=https cainfo=/etc/x.pem readahead=https://127.0.0.1/a.raw.readahead$" "$tmp/argv-https"'
URLBOOT_NBDKIT=/bin/echo "$lazy" serve http://127.0.0.1/a.raw /run/x.sock > "$tmp/argv"
check "the command line: @nbdkit --readonly PLUGIN url=... retries=... (no filter; no --exit-with-parent when serving)" \
	'grep -q -- "--foreground --readonly --log=stderr --unix=/run/x.sock $URLBOOT_NBDKIT_PLUGIN url=http://127.0.0.1/a.raw timeout=60 retries=1000 retry-delay=1" "$tmp/argv" && ! grep -q -- "exit-with-parent\|--filter" "$tmp/argv"'
echo "1..$n"
[ $failed -eq 0 ]
