#!/bin/bash
# docs/howto-netboot.md as written, in a Debian 12 tree where urlboot's packages are installed (from
# test/package/run.sh): the build steps with the Debian archive, then nginx and dnsmasq on a private
# bridge (a network namespace) and a QEMU+OVMF machine on a tap device on that bridge, which must
# HTTP-boot through them, verify the signed image and reach a login prompt. Prints TAP lines from
# number FIRST on (4 of them).
#   howto.sh TREE SRCDIR FIRST
set -u
tree=$(realpath "$1") src=$(realpath "$2") n=$3
tmp=$(mktemp -d /var/tmp/urlboot-howto.XXXXXX)
pids=()
cleanup() {
	for f in "$tree"/run/nginx.pid "$tree"/run/netboot-dnsmasq.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
tap() { # RESULT DESCRIPTION [LOG]
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; [ -n "${3:-}" ] && tail -25 "$3" | sed 's/^/# /'; fi
	n=$((n + 1))
}
skip_rest() { while [ "$n" -le "$last" ]; do echo "ok $n # SKIP $1"; n=$((n + 1)); done; exit 0; }
fail_rest() { while [ "$n" -le "$last" ]; do echo "not ok $n - not tried: $1"; n=$((n + 1)); done; exit 1; }
last=$((n + 3))

in_tree() {
	unshare --mount --propagation private -- /bin/sh -c '
		t=$1; shift
		mount -t proc proc "$t/proc" && mount --rbind /sys "$t/sys" && mount --rbind /dev "$t/dev" || exit 1
		exec chroot "$t" "$@"' sh "$tree" "$@"
}

python3 "$src/test/package/howto-blocks.py" "$src/docs/howto-netboot.md" "$tree/root/howto-build.sh" \
	"$tree/root/howto-serve.sh" > /dev/null
# apt in the tree resolves the archive as the host does.
cp -L /etc/resolv.conf "$tree/etc/resolv.conf"
in_tree env IFACE=br0 SERVER=10.0.3.1 SUBNET=10.0.3 bash /root/howto-build.sh > "$tmp/build.log" 2>&1
rc=$?
if [ $rc != 0 ] && grep -qiE 'could not resolve|failed to fetch|unable to connect|temporary failure' "$tmp/build.log"; then
	skip_rest "the Debian archive cannot be reached"
fi
tap $rc "the how-to's build steps run as written (root file system, image, signed SHA256SUMS, initrd, UKI, boot manager)" "$tmp/build.log"
[ $rc = 0 ] || fail_rest "the build steps failed"

# The boot network: a bridge with the server's address, a tap for the machine; nginx and dnsmasq
# started by the how-to's own commands, inside this namespace.
cat > "$tmp/boot.sh" <<'BOOT'
set -u
tree=$1 tmp=$2 src=$3
ip link set lo up
ip link add br0 type bridge && ip addr add 10.0.3.1/24 dev br0 && ip link set br0 up
ip tuntap add tap0 mode tap && ip link set tap0 master br0 && ip link set tap0 up
unshare --mount --propagation private -- /bin/sh -c '
	t=$1; mount -t proc proc "$t/proc" && mount --rbind /sys "$t/sys" && mount --rbind /dev "$t/dev" &&
	chroot "$t" env IFACE=br0 SERVER=10.0.3.1 SUBNET=10.0.3 bash /root/howto-serve.sh' sh "$tree" > "$tmp/serve.log" 2>&1
echo "serve=$?" > "$tmp/serve.rc"
cp /usr/share/OVMF/OVMF_VARS_4M.fd "$tmp/vars.fd"
# This VM runs beside the e2e chain (which takes /tmp/urlboot-qemu.lock in turn): waiting for that lock would
# put its boot after 50 minutes of others. Its time limit is generous for that reason.
# PXE off, so OVMF goes to HTTP boot at once (../shared/notes/qemu-uefi-http-boot.md).
timeout 900 qemu-system-x86_64 -machine q35 -accel tcg -m 3072 -smp 2 \
	-nographic -nodefaults -no-reboot -serial "file:$tmp/serial.log" \
	-drive if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd \
	-drive if=pflash,format=raw,unit=1,file="$tmp/vars.fd" \
	-fw_cfg name=opt/org.tianocore/IPv4PXESupport,string=no \
	-fw_cfg name=opt/org.tianocore/IPv6PXESupport,string=no \
	-fw_cfg name=opt/org.tianocore/IPv6Support,string=no \
	-netdev tap,id=n0,ifname=tap0,script=no,downscript=no -device virtio-net-pci,netdev=n0,romfile= 2>"$tmp/qemu.err" &
qemu=$!
for i in $(seq 900); do
	grep -aq ' login: *$\|login:' "$tmp/serial.log" 2>/dev/null && break
	kill -0 $qemu 2>/dev/null || break
	sleep 1
done
echo "seconds=$i" > "$tmp/boot.time"
kill $qemu 2>/dev/null
wait $qemu 2>/dev/null
BOOT
unshare -n bash "$tmp/boot.sh" "$tree" "$tmp" "$src"
grep -q serve=0 "$tmp/serve.rc" 2>/dev/null
tap $? "the how-to's steps on the boot network run as written (nginx, dnsmasq)" "$tmp/serve.log"
grep -aq 'Downloaded http://10.0.3.1:8080/image.raw.zst' "$tmp/serial.log" 2>/dev/null ||
	grep -aq 'Finished urlboot-import@run-machines-rootdisk.raw.service' "$tmp/serial.log" 2>/dev/null
tap $? "the machine HTTP-booted the boot manager (DHCP from dnsmasq), the UKI, and pulled the signed image" "$tmp/serial.log"
grep -aq 'login:' "$tmp/serial.log" 2>/dev/null
tap $? "the image booted to a login prompt ($(cat "$tmp/boot.time" 2>/dev/null))" "$tmp/serial.log"
