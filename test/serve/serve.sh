#!/bin/bash
# urlboot-serve against real clients, in a private network namespace (test/netns-run.sh): curl (HEAD, Range,
# If-Range, a sparse disk whose holes are not read), refusals (a client outside --allow=, a second connection
# over --per-client=, a method other than GET/HEAD, --max-seconds=), --rate=, HTTPS with a certificate of the
# test CA, urlboot-pull (a pinned digest; a mirror that dies mid-file, the peer taking over), the lazy boot's
# plugin (nbdkit, read through nbdfuse), nginx's proxy_cache in front; and this machine's boot served from fake
# EFI variables and command line: the booted UKI fetched once and kept only with the digest that booted, a kept
# download at the pull expression's path, a lazy copy answered 503 until urlboot-lazy's state says local.
#   serve.sh URLBOOT-SERVE URLBOOT-PULL URLBOOT-LAZY PLUGIN URLBOOTCTL SRCDIR
set -uo pipefail
serve=$1 pull=$2 lazy=$3 plugin=$4 ctl=$5 src=$6
for t in curl nginx; do
	command -v $t >/dev/null || { echo "1..0 # SKIP $t is not installed (packages curl, nginx-light)"; exit 0; }
done
tmp=$(mktemp -d /tmp/urlboot-serve.XXXXXX)
pids=()
cleanup() {
	for m in "$tmp"/*.mnt; do mountpoint -q "$m" 2>/dev/null && umount "$m"; done
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	[ -f "$tmp/nginx.pid" ] && kill "$(cat "$tmp/nginx.pid")" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
n=0 failed=0
check() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else failed=$((failed + 1)); echo "not ok $n - $1"; fi; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

# start NAME ARGS...: urlboot-serve in the background (its PID in $sp, its log in NAME.log); waits until it listens
start() {
	local name=$1
	shift
	"$serve" "$@" > /dev/null 2> "$tmp/$name.log" &
	sp=$!
	pids+=($sp)
	for _ in $(seq 100); do
		grep -q "Listening on" "$tmp/$name.log" 2>/dev/null && break
		kill -0 $sp 2>/dev/null || break
		sleep 0.05
	done
}
stop() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

# A 1 GiB sparse disk with data in three places, and a 4 MiB file of random bytes.
mkdir -p "$tmp/srv"
truncate -s 1G "$tmp/disk.img"
printf 'first' | dd of="$tmp/disk.img" bs=1 seek=4096 conv=notrunc status=none
head -c 65536 /dev/urandom | dd of="$tmp/disk.img" bs=65536 seek=8000 conv=notrunc status=none
printf 'last' | dd of="$tmp/disk.img" bs=1 seek=$(( (1 << 30) - 4 )) conv=notrunc status=none
head -c $((4 << 20)) /dev/urandom > "$tmp/srv/image.raw"

start disk --listen=127.0.0.1:8090 --allow=127.0.0.0/8 --disk="$tmp/disk.img" --disk="$tmp/srv/image.raw=/img/image.raw" --no-boot
p=$sp
u=http://127.0.0.1:8090
curl -s -D "$tmp/head" -I "$u/disk/disk.img" > /dev/null
check "HEAD: 200, the size, Accept-Ranges, an ETag and Last-Modified, no body" \
	'grep -q "^HTTP/1.1 200" "$tmp/head" && grep -qi "^Content-Length: 1073741824" "$tmp/head" && grep -qi "^Accept-Ranges: bytes" "$tmp/head" && grep -qi "^ETag: \"" "$tmp/head" && grep -qi "^Last-Modified: " "$tmp/head"'
read_before=$(awk '/^rchar/ { print $2 }' /proc/$p/io)
curl -s "$u/disk/disk.img" -o "$tmp/disk.out"
read_after=$(awk '/^rchar/ { print $2 }' /proc/$p/io)
check "GET of the 1 GiB sparse disk: byte for byte, and its holes not read ($(( (read_after - read_before) >> 10 )) KiB read)" \
	'cmp -s "$tmp/disk.out" "$tmp/disk.img" && [ $((read_after - read_before)) -lt $((16 << 20)) ]'
rm -f "$tmp/disk.out"
curl -s -D "$tmp/head" -r 4096-4100 "$u/disk/disk.img" -o "$tmp/part"
check "Range: 206 with Content-Range, exactly the bytes" \
	'grep -q "^HTTP/1.1 206" "$tmp/head" && grep -qi "^Content-Range: bytes 4096-4100/1073741824" "$tmp/head" && [ "$(cat "$tmp/part")" = first ]'
curl -s -r -4 "$u/disk/disk.img" -o "$tmp/part"
check "a suffix range: the last bytes" '[ "$(cat "$tmp/part")" = last ]'
check "a range past the end: 416 with 'bytes */SIZE'" \
	'[ "$(code -r 1073741824- "$u/disk/disk.img")" = 416 ] && curl -s -D - -o /dev/null -r 1073741824- "$u/disk/disk.img" | grep -qi "^Content-Range: bytes \*/1073741824"'
check "several ranges: the whole resource (200)" '[ "$(code -r 0-1,5-6 "$u/img/image.raw")" = 200 ]'
etag=$(curl -sI "$u/img/image.raw" | sed -n 's/^ETag: //Ip' | tr -d '\r')
check "If-Range with the current ETag: 206; with another: the whole file (200)" \
	'[ "$(code -r 0-9 -H "If-Range: $etag" "$u/img/image.raw")" = 206 ] && [ "$(code -r 0-9 -H "If-Range: \"other\"" "$u/img/image.raw")" = 200 ]'
check "PUT is refused (405, read-only) with a line in the log" \
	'[ "$(code -X PUT --data x "$u/img/image.raw")" = 405 ] && grep -q "Refused PUT /img/image.raw from 127.0.0.1: read-only" "$tmp/disk.log"'
check "what is not served: 404" '[ "$(code "$u/etc/passwd")" = 404 ] && [ "$(code --path-as-is "$u/disk/../../etc/passwd")" = 404 ]'

# urlboot-pull with the digest pinned; and with an origin that dies mid-file, the peer as its mirror
sha=$(sha256sum "$tmp/srv/image.raw" | cut -d' ' -f1)
mkdir -p "$tmp/pulled"
"$pull" raw --image-root="$tmp/pulled" --verify=sha256:$sha --progress=none -- "$u/img/image.raw" peer > /dev/null 2>&1
check "urlboot-pull from the peer with the digest pinned: byte for byte" 'cmp -s "$tmp/pulled/peer.raw" "$tmp/srv/image.raw"'
python3 "$src/test/http/server.py" --root "$tmp/srv" --port-file "$tmp/origin-port" >/dev/null 2>&1 & pids+=($!)
for _ in $(seq 100); do [ -e "$tmp/origin-port" ] && break; sleep 0.05; done
origin=http://127.0.0.1:$(cat "$tmp/origin-port")
"$pull" raw --image-root="$tmp/pulled" --verify=sha256:$sha --progress=none --retries=0 --mirror="$u/img/image.raw" \
	-- "$origin/f=reset-always:1000000/image.raw" mirrored > /dev/null 2> "$tmp/pull.log"
check "the origin dies mid-file (each answer reset at 1 MB): the peer as mirror takes over, byte for byte" \
	'cmp -s "$tmp/pulled/mirrored.raw" "$tmp/srv/image.raw" && grep -q "from mirror http://127.0.0.1:8090" "$tmp/pull.log"'

# the lazy boot's plugin (nbdkit) reads from the peer, through nbdfuse
if command -v nbdkit >/dev/null && command -v nbdfuse >/dev/null && [ -c /dev/fuse ]; then
	mkdir -p "$tmp/lazy.mnt"
	URLBOOT_NBDKIT_PLUGIN=$plugin "$lazy" serve --retries=1 "$u/img/image.raw" "$tmp/lazy.sock" 2> "$tmp/lazy.log" & lp=$!
	for _ in $(seq 200); do [ -S "$tmp/lazy.sock" ] && break; sleep 0.05; done
	nbdfuse -r "$tmp/lazy.mnt" --unix "$tmp/lazy.sock" 2>> "$tmp/lazy.log" & fp=$!
	for _ in $(seq 200); do [ -e "$tmp/lazy.mnt/nbd" ] && break; sleep 0.05; done
	check "the lazy boot's nbdkit plugin reads the peer's image with range requests: byte for byte" \
		'cmp -s "$tmp/lazy.mnt/nbd" "$tmp/srv/image.raw"'
	umount "$tmp/lazy.mnt" 2>/dev/null || kill $fp
	wait $fp 2>/dev/null
	stop $lp
else
	skip "the lazy boot's nbdkit plugin reads the peer's image" "nbdkit, nbdfuse or /dev/fuse missing"
fi

# nginx's proxy_cache in front of the peer: the second GET is the cache's
mkdir -p "$tmp/nginx/cache" "$tmp/nginx/tmp"
cat > "$tmp/nginx.conf" <<EOF
user root; daemon on; pid $tmp/nginx.pid; error_log $tmp/nginx/error.log; worker_processes 1;
events {}
http {
	access_log off; client_body_temp_path $tmp/nginx/tmp; proxy_temp_path $tmp/nginx/tmp;
	fastcgi_temp_path $tmp/nginx/tmp; uwsgi_temp_path $tmp/nginx/tmp; scgi_temp_path $tmp/nginx/tmp;
	proxy_cache_path $tmp/nginx/cache keys_zone=peers:1m;
	server {
		listen 127.0.0.1:8091;
		location / { proxy_pass $u; proxy_cache peers; proxy_cache_valid 200 10m; add_header X-Cache \$upstream_cache_status; }
	}
}
EOF
if nginx -c "$tmp/nginx.conf" -p "$tmp/nginx" 2> "$tmp/nginx-start.log"; then
	c1=$(curl -s -D - -o "$tmp/cached1" http://127.0.0.1:8091/img/image.raw | sed -n 's/^X-Cache: //Ip' | tr -d '\r')
	c2=$(curl -s -D - -o "$tmp/cached2" http://127.0.0.1:8091/img/image.raw | sed -n 's/^X-Cache: //Ip' | tr -d '\r')
	c3=$(curl -s -o "$tmp/cached3" -w '%{http_code}' -r 100-199 http://127.0.0.1:8091/img/image.raw)
	check "nginx proxy_cache in front: MISS then HIT, both byte for byte, and a range from the cache ($c1, $c2, $c3)" \
		'[ "$c1" = MISS ] && [ "$c2" = HIT ] && cmp -s "$tmp/cached1" "$tmp/srv/image.raw" && cmp -s "$tmp/cached2" "$tmp/srv/image.raw" && [ "$c3" = 206 ] && cmp -s "$tmp/cached3" <(tail -c +101 "$tmp/srv/image.raw" | head -c 100)'
	kill "$(cat "$tmp/nginx.pid")" 2>/dev/null
else
	skip "nginx proxy_cache in front" "nginx does not start here: $(head -1 "$tmp/nginx-start.log")"
fi
stop "$p"

# refusals: a client outside --allow=, a second connection from one address, an answer over --max-seconds=
start allow --listen=127.0.0.1:8092 --allow=10.9.9.0/24 --disk="$tmp/srv/image.raw" --no-boot
p=$sp
check "a client outside --allow= is refused, with a line naming it" \
	'[ "$(code --max-time 5 http://127.0.0.1:8092/disk/image.raw)" = 000 ] && grep -q "Refused a connection from 127.0.0.1: not in the networks of --allow=" "$tmp/allow.log"'
stop "$p"
start limits --listen=127.0.0.1:8093 --allow=any --disk="$tmp/srv/image.raw" --no-boot --per-client=1 --rate=512K --max-seconds=2
p=$sp
t0=$(date +%s.%N)
curl -s "http://127.0.0.1:8093/disk/image.raw" -o "$tmp/slow" & slow=$!
sleep 0.5
second=$(code --max-time 5 http://127.0.0.1:8093/disk/image.raw)
wait $slow
t=$(echo "$(date +%s.%N) - $t0" | bc)
got=$(stat -c %s "$tmp/slow" 2>/dev/null || echo 0)
check "--per-client=1: a second connection from the same address is refused (${second})" '[ "$second" = 000 ]'
check "--rate=512K and --max-seconds=2: about 1 MiB in 2 s, then the answer is stopped with a line ($got bytes, ${t%.*} s)" \
	'[ "$got" -gt $((700 << 10)) ] && [ "$got" -lt $((1600 << 10)) ] && grep -q "Stopped the answer to 127.0.0.1 for /disk/image.raw after 2 s" "$tmp/limits.log"'
stop "$p"

# HTTPS with a certificate of the test CA; refused by a client that trusts another CA
if "$src/tools/e2e/tls-pki" "$tmp/pki" "$ctl" > /dev/null 2>&1; then
	start tls --listen=127.0.0.1:8094 --allow=any --disk="$tmp/srv/image.raw" --no-boot --tls-cert="$tmp/pki/good.pem" --tls-key="$tmp/pki/good.key"
p=$sp
	check "HTTPS: a client trusting the test CA gets the image byte for byte" \
		'curl -s --cacert "$tmp/pki/ca.pem" https://127.0.0.1:8094/disk/image.raw -o "$tmp/tls.out" && cmp -s "$tmp/tls.out" "$tmp/srv/image.raw"'
	check "HTTPS: a client trusting another CA refuses the peer" \
		'! curl -s --cacert "$tmp/pki/other-ca.pem" https://127.0.0.1:8094/disk/image.raw -o /dev/null'
	"$pull" raw --image-root="$tmp/pulled" --verify=sha256:$sha --ca="$tmp/pki/ca.pem" --progress=none \
		-- https://127.0.0.1:8094/disk/image.raw tls > /dev/null 2>&1
	check "HTTPS: urlboot-pull with the pinned CA" 'cmp -s "$tmp/pulled/tls.raw" "$tmp/srv/image.raw"'
	stop "$p"
else
	skip "HTTPS" "tools/e2e/tls-pki failed (openssl?)"
fi

# This machine's boot: EFI variables and a command line as a network boot through urlboot's boot manager
# left them, an origin serving the UKI, a kept download, a lazy copy in progress.
ev() { # NAME VENDOR VALUE
	python3 -c "import sys; sys.stdout.buffer.write(b'\x06\0\0\0' + sys.argv[1].encode('utf-16-le') + b'\0\0')" "$3" \
		> "$tmp/efivars/$1-$2"
}
loader=4a67b082-0a4c-41cf-b6c7-440b29bb8c4f urlboot=3c0a4d1e-8b7f-4c55-9a1e-75726c626f6f
mkdir -p "$tmp/efivars" "$tmp/run/urlboot/downloads" "$tmp/run/machines" "$tmp/run/urlboot/lazy" "$tmp/srv/boot"
head -c 300000 /dev/urandom > "$tmp/srv/boot/uki.efi"
head -c 200000 /dev/urandom > "$tmp/srv/boot/urlbootx64.efi"
head -c 500000 /dev/urandom > "$tmp/run/urlboot/downloads/rootdisk"
head -c 800000 /dev/urandom > "$tmp/run/machines/lazydisk.raw"
printf 'NAME=lazydisk\nPHASE=copying\n' > "$tmp/run/urlboot/lazy/lazydisk.state"
ev LoaderDeviceURL $loader "$origin/boot/urlbootx64.efi"
ev StubDeviceURL $loader "$origin/boot/uki.efi"
# the boot manager writes the digest as ASCII hex, not UTF-16
{ printf '\006\000\000\000'; sha256sum "$tmp/srv/boot/uki.efi" | cut -c1-64 | tr -d '\n'; } \
	> "$tmp/efivars/UrlbootImageSHA256-$urlboot"
cmdline="rd.systemd.pull=raw,machine,blockdev,serve,bootorigin:rootdisk:image.raw.zst rd.urlboot.pull=raw,machine,blockdev,lazy,bootorigin:lazydisk:lazy.raw.xz roothash=00 rd.systemd.pull=raw,machine,bootorigin:plain:plain.raw.zst"
URLBOOT_EFIVARFS=$tmp/efivars SYSTEMD_PROC_CMDLINE=$cmdline start boot --listen=127.0.0.1:8095 --allow=any \
	--run-dir="$tmp/run" --boot-manager="$tmp/srv/boot/urlbootx64.efi"
p=$sp
b=http://127.0.0.1:8095
check "the booted UKI at its URL's path, fetched once from the origin and byte for byte (its digest is what booted)" \
	'curl -s "$b/boot/uki.efi" -o "$tmp/uki.out" && cmp -s "$tmp/uki.out" "$tmp/srv/boot/uki.efi" && curl -sI "$b/boot/uki.efi" | grep -qi "^ETag: \"sha256:"'
check "the boot manager (--boot-manager=) at LoaderDeviceURL's path" \
	'curl -s "$b/boot/urlbootx64.efi" -o "$tmp/mgr.out" && cmp -s "$tmp/mgr.out" "$tmp/srv/boot/urlbootx64.efi"'
check "a pull expression with 'serve': the download as kept, at its URL's path (bootorigin: beside the UKI)" \
	'curl -s "$b/boot/image.raw.zst" -o "$tmp/kept.out" && cmp -s "$tmp/kept.out" "$tmp/run/urlboot/downloads/rootdisk"'
check "one without 'serve' is not served (its unpacked image would not match its pins), and the log says why" \
	'[ "$(code "$b/boot/plain.raw.zst")" = 404 ] && grep -q "Not serving the image plain: urlboot-pull did not keep it" "$tmp/boot.log"'
check "a lazy copy still copying: 503 with Retry-After" \
	'[ "$(code "$b/boot/lazy.raw.xz")" = 503 ] && curl -sI "$b/boot/lazy.raw.xz" | grep -qi "^Retry-After: 30"'
printf 'NAME=lazydisk\nPHASE=local\n' > "$tmp/run/urlboot/lazy/lazydisk.state"
for _ in $(seq 80); do [ "$(code "$b/boot/lazy.raw.xz")" = 200 ] && break; sleep 0.1; done
check "... once urlboot-lazy says local: served, byte for byte" \
	'curl -s "$b/boot/lazy.raw.xz" -o "$tmp/lazy.out" && cmp -s "$tmp/lazy.out" "$tmp/run/machines/lazydisk.raw"'
stop "$p"
# the origin's UKI changed since the boot: not served
head -c 300000 /dev/urandom > "$tmp/srv/boot/uki.efi"
rm -rf "$tmp/run/urlboot-serve"
URLBOOT_EFIVARFS=$tmp/efivars SYSTEMD_PROC_CMDLINE=$cmdline start boot2 --listen=127.0.0.1:8096 --allow=any --run-dir="$tmp/run"
p=$sp
check "the origin's UKI is not what booted any more: not served, and the log says so" \
	'[ "$(code http://127.0.0.1:8096/boot/uki.efi)" = 404 ] && grep -q "has SHA-256 .* now, not the .* that booted" "$tmp/boot2.log"'
stop "$p"
rm -f "$tmp/efivars/UrlbootImageSHA256-$urlboot"
URLBOOT_EFIVARFS=$tmp/efivars SYSTEMD_PROC_CMDLINE=$cmdline start boot3 --listen=127.0.0.1:8097 --allow=any --run-dir="$tmp/run"
p=$sp
check "no record of the UKI's digest (the firmware started it): not served, and the log says why" \
	'[ "$(code http://127.0.0.1:8097/boot/uki.efi)" = 404 ] && grep -q "no boot manager recorded its SHA-256" "$tmp/boot3.log"'
stop "$p"
sed 's/^/# boot: /' "$tmp/boot.log"
sed 's/^/# pull: /' "$tmp/pull.log"
sed 's/^/# nginx: /' "$tmp/nginx/error.log" 2>/dev/null | tail -5

check "usage errors: no --listen= or no --allow= (exit status 2, one line)" \
	'"$serve" --allow=any --no-boot --disk=/dev/null 2>/dev/null; [ $? = 2 ] && [ "$("$serve" --listen=127.0.0.1:1 2>&1 | wc -l)" = 1 ]'
echo "1..$n"
[ $failed -eq 0 ]
