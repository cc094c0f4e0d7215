#!/bin/bash
# urlboot-pull over HTTPS with --ca (a CA made here, a server certificate for 127.0.0.1), and its
# progress reporting: a bar on a terminal (a real pty from script(1)), nothing when stderr is a file,
# STATUS= messages to a NOTIFY_SOCKET as under systemd. The servers listen on 127.0.0.1 in a private
# network namespace (run through test/netns-run.sh). Prints TAP.
. "$(dirname "$0")/setup.sh"
want=$(sha256sum "$tmp/fx/srv/disk.raw" | cut -d' ' -f1)

# A CA, a certificate it signed for 127.0.0.1, and an unrelated CA.
cd "$tmp"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=urlboot-test-ca -keyout ca.key -out ca.pem 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other-ca -keyout other.key -out other.pem 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout srv.key -out srv.csr 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' > san.ext
openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext -out srv.pem 2>/dev/null

serve "$tmp/tls-port" --tls-cert srv.pem --tls-key srv.key
serve "$tmp/port"
# Issue 31: certificates from the right CA that are wrong otherwise (tools/e2e/tls-pki), and the CA
# pinned in the UKI's initrd (/etc/urlboot/tls-ca.pem) taken as the default.
"$src/tools/e2e/tls-pki" "$tmp/pki" "$build/src/bootctl/urlbootctl" >/dev/null
serve "$tmp/expired-port" --tls-cert "$tmp/pki/expired.pem" --tls-key "$tmp/pki/expired.key"
serve "$tmp/wronghost-port" --tls-cert "$tmp/pki/wronghost.pem" --tls-key "$tmp/pki/wronghost.key"
serve "$tmp/pki-port" --tls-cert "$tmp/pki/good.pem" --tls-key "$tmp/pki/good.key"
tls_port=$(cat "$tmp/tls-port") port=$(cat "$tmp/port")
https="https://127.0.0.1:$tls_port/disk.raw.zst"
echo "1..19"

run() { # NAME ARGS... → rc=N and the messages in $tmp/NAME.err
	local name=$1; shift
	mkdir -p "$tmp/root-$name"
	"$pull" raw --verify=no --image-root="$tmp/root-$name" "$@" img > "$tmp/$name.out" 2> "$tmp/$name.err"
	echo $?
}

rc=$(run noca --progress=none "$https")
check "https without the CA: refused (exit 1), the message names the certificate problem" \
	"[ $rc = 1 ] && grep -qi 'certificate' '$tmp/noca.err' && [ -z \"\$(ls -A '$tmp/root-noca')\" ]"
rc=$(run ca --progress=none --ca="$tmp/ca.pem" "$https")
check "https with --ca: the image arrives intact" \
	"[ $rc = 0 ] && [ \"\$(sha256sum < '$tmp/root-ca/img.raw' | cut -d' ' -f1)\" = $want ]"
rc=$(run otherca --progress=none --ca="$tmp/other.pem" "$https")
check "https with the wrong CA: refused, nothing left behind" "[ $rc = 1 ] && [ -z \"\$(ls -A '$tmp/root-otherca')\" ]"
# docs/security.md L15: an https URL is not followed to plain http unless asked.
down="https://127.0.0.1:$tls_port/f=redirect-http:$port/disk.raw.zst"
rc=$(run downgrade --progress=none --ca="$tmp/ca.pem" "$down")
check "https redirected to plain http: refused (exit 1), the message says so and how to allow it" \
	"[ $rc = 1 ] && grep -q 'plain http' '$tmp/downgrade.err' && grep -q -- '--allow-http-redirect' '$tmp/downgrade.err' && [ -z \"\$(ls -A '$tmp/root-downgrade')\" ]"
rc=$(run downgrade-ok --progress=none --ca="$tmp/ca.pem" --allow-http-redirect "$down")
check "--allow-http-redirect follows it" \
	"[ $rc = 0 ] && [ \"\$(sha256sum < '$tmp/root-downgrade-ok/img.raw' | cut -d' ' -f1)\" = $want ]"
rc=$(run noca-file --progress=none --ca="$tmp/missing.pem" "$https")
check "--ca naming a missing file: a failure that names the file" "[ $rc != 0 ] && grep -q 'missing.pem' '$tmp/noca-file.err'"

rc=$(run expired --progress=none --ca="$tmp/pki/ca.pem" "https://127.0.0.1:$(cat "$tmp/expired-port")/disk.raw.zst")
check "an expired certificate from the pinned CA: refused (exit 1), the message says it expired" \
	"[ $rc = 1 ] && grep -qi 'expired' '$tmp/expired.err' && [ -z \"\$(ls -A '$tmp/root-expired')\" ]"
rc=$(run wronghost --progress=none --ca="$tmp/pki/ca.pem" "https://127.0.0.1:$(cat "$tmp/wronghost-port")/disk.raw.zst")
check "a certificate from the pinned CA for another host: refused (exit 1), the message names the host" \
	"[ $rc = 1 ] && grep -qiE 'host|name|127\.0\.0\.1' '$tmp/wronghost.err' && [ -z \"\$(ls -A '$tmp/root-wronghost')\" ]"
# The pinned CA file of the initrd is the default (URLBOOT_TLS_CA overrides the path for this test only).
rc=$(URLBOOT_TLS_CA="$tmp/pki/ca.pem" run pinned-default --progress=none "https://127.0.0.1:$(cat "$tmp/pki-port")/disk.raw.zst")
check "the pinned CA file is the default: the image arrives" \
	"[ $rc = 0 ] && [ \"\$(sha256sum < '$tmp/root-pinned-default/img.raw' | cut -d' ' -f1)\" = $want ]"

# OpenSSL reads ahead (several TLS records per receive call) only when the server promised to close
# the connection after the answer: records read ahead wait unseen by libcurl until the socket wakes it,
# and a closing server's end of stream does (src/pull/tls-read-ahead.h). Counted with strace.
records=$(( $(stat -c %s "$tmp/fx/srv/disk.raw.zst") / 16384 ))
recv_calls() { # NAME URL → the receive calls of one pull with the pinned CA (killed after 60 s: a stall)
	mkdir -p "$tmp/root-$1"
	# In the sanitizer build: LeakSanitizer ptraces the process at its exit, which it cannot while strace
	# does (the other pulls of this test check for leaks).
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 timeout 60 strace -f -qq -e trace=recvfrom,read -o "$tmp/$1.strace" "$pull" raw --verify=no --progress=none \
		--ca="$tmp/pki/ca.pem" --image-root="$tmp/root-$1" "$2" img > /dev/null 2> "$tmp/$1.err" || { echo failed; return; }
	grep -c 'recvfrom(' "$tmp/$1.strace"
}
pki_port=$(cat "$tmp/pki-port")
calls=$(recv_calls ahead "https://127.0.0.1:$pki_port/disk.raw.zst")
check "https from a server that says it closes: fewer receive calls than TLS records ($calls for $records), the image intact" \
	"[ '$calls' != failed ] && [ '$calls' -lt $records ] && cmp -s '$tmp/root-ahead/img.raw' '$tmp/fx/srv/disk.raw'"
calls=$(recv_calls keep "https://127.0.0.1:$pki_port/f=keepalive/disk.raw.zst")
check "https from a server that keeps the connection and does not say so: no read-ahead ($calls calls for $records records), the image arrives without waiting for a close" \
	"[ '$calls' != failed ] && [ '$calls' -ge $records ] && cmp -s '$tmp/root-keep/img.raw' '$tmp/fx/srv/disk.raw'"
# nginx keeps connections open unless asked, and then says it closes: read-ahead, and no wait at the
# end of any body (a 20-byte file, one smaller than a record, the image).
python3 "$src/test/http/nginx.py" --root "$tmp/fx/srv" --pki "$tmp/pki" --run-dir "$tmp/nginx" \
	--ready-file "$tmp/nginx.ready" > /dev/null 2>&1 & pids+=($!)
for i in $(seq 100); do [ -f "$tmp/nginx.ready" ] && break; sleep 0.1; done
printf 'twenty bytes of text' > "$tmp/fx/srv/small.raw"
head -c 9000 /dev/urandom > "$tmp/fx/srv/record.raw"
calls=$(recv_calls nginx https://127.0.0.1:8443/disk.raw.zst)
small=$(recv_calls nginx-small https://127.0.0.1:8443/small.raw)
record=$(recv_calls nginx-record https://127.0.0.1:8443/record.raw)
check "https from nginx: read-ahead ($calls calls for $records records), the image intact; a 20-byte and a 9000-byte file arrive whole" \
	"[ '$calls' != failed ] && [ '$calls' -lt $records ] && cmp -s '$tmp/root-nginx/img.raw' '$tmp/fx/srv/disk.raw' && \
	 [ '$small' != failed ] && cmp -s '$tmp/root-nginx-small/img.raw' '$tmp/fx/srv/small.raw' && \
	 [ '$record' != failed ] && cmp -s '$tmp/root-nginx-record/img.raw' '$tmp/fx/srv/record.raw'"
# Offered HTTP/2 as well, urlboot-pull asks for HTTP/1.1 (libcurl reads HTTP/2 in small pieces: more
# receive calls than records) and reads ahead.
calls=$(recv_calls nginx-h2 https://127.0.0.1:8449/disk.raw.zst)
check "https from nginx offering HTTP/2: HTTP/1.1 asked and read ahead ($calls calls for $records records), the image intact" \
	"[ '$calls' != failed ] && [ '$calls' -lt $records ] && cmp -s '$tmp/root-nginx-h2/img.raw' '$tmp/fx/srv/disk.raw' && \
	 grep -q '^8449 .* \"GET /disk.raw.zst HTTP/1.1\" 200 ' '$tmp/nginx/access.log'"

# Progress: slow enough (1 MB/s) for several updates.
slow="http://127.0.0.1:$port/f=slow:1000000/disk.raw.zst"
mkdir -p "$tmp/root-tty"
script -qefc "'$pull' raw --verify=no --image-root='$tmp/root-tty' --progress=auto '$slow' img" "$tmp/tty.log" > /dev/null 2>&1
check "on a terminal: one line rewritten in place, with bytes, rate and time left" \
	"grep -q \$'\\r' '$tmp/tty.log' && grep -aEq '[0-9.]+ (KiB|MiB) of [0-9.]+ MiB \\([0-9]+%\\), [0-9.]+ (KiB|MiB)/s, [0-9]+:[0-9]{2} left' '$tmp/tty.log'"
check "on a terminal: a bar drawn before the figures ([###---] as the download goes)" \
	"grep -aEq '\\[#+-*\\] [0-9.]+ (KiB|MiB) of ' '$tmp/tty.log'"
check "on a terminal: the line is cleared at the end" "tail -c 200 '$tmp/tty.log' | grep -aq \$'\\r\\033\\[K'"
rc=$(run file --progress=auto "$slow")
check "stderr a file (not under systemd): no progress at all" "[ $rc = 0 ] && ! grep -q 'of .* left' '$tmp/file.err'"
rc=$(run none --progress=none "$slow")
check "--progress=none: no progress lines (only the final result)" "[ $rc = 0 ] && ! grep -Eq 'Downloading|left|%' '$tmp/none.err' && [ \$(wc -l < '$tmp/none.err') -le 1 ]"

# Under systemd: STATUS= datagrams to NOTIFY_SOCKET.
python3 - "$tmp/notify.sock" "$tmp/notify.log" <<'PY' & pids+=($!)
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], 'w') as log:
    while True:
        log.write(s.recv(4096).decode() + '\n')
        log.flush()
PY
for i in $(seq 50); do [ -S "$tmp/notify.sock" ] && break; sleep 0.1; done
mkdir -p "$tmp/root-notify"
NOTIFY_SOCKET="$tmp/notify.sock" "$pull" raw --verify=no --image-root="$tmp/root-notify" --progress=auto "$slow" img \
	> /dev/null 2> "$tmp/notify.err"
sleep 0.5
check "under systemd: STATUS= messages with the progress, and log lines instead of a bar" \
	"grep -Eq '^STATUS=Downloading .*[0-9]+%' '$tmp/notify.log' && ! grep -q \$'\\r' '$tmp/notify.err'"
tap_exit
