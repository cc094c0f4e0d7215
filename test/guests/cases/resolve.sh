#!/bin/bash
# RefuseRecordTypes= and fast A/AAAA side by side: on Debian 12 resolved 252 with urlboot-resolve (front
# stub in resolv.conf, upstream filter as DNS=), on Debian unstable resolved 262 by itself; both ask the
# same test DNS server (resolve.d/dns-server.pl: AAAA for noaaaa.test never answered) and must answer
# the same: REFUSED for AAAA with v258's flags, IPv4 only from resolvectl and getent, and an AF_UNSPEC
# lookup of noaaaa.test ending with IPv4 after about 6 s (v258's expedited timeout) instead of 120 s.
# On unstable urlboot-resolve's stub only relays (systemd 262 does this itself).
# guests: bookworm sid
# timeout: 240
set -u
data=$URLBOOT_CASE_DATA
n=0
result() { # result STATUS DESCRIPTION [DIAGNOSTICS]
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
	[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
	return 0
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
seconds() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
between() { awk -v t="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(t >= lo && t <= hi) }'; }
addresses() { grep -oE '192\.0\.2\.1|2001:db8::1' | sort -u | paste -sd' ' -; }

if ! systemctl cat systemd-resolved.service >/dev/null 2>&1; then
	echo "1..0 # SKIP systemd-resolved is not installed in the $URLBOOT_GUEST guest (tools/guest/packages-$URLBOOT_GUEST)"
	exit 0
fi
echo "1..13"

cp -a /etc/resolv.conf /run/resolv.conf.before-case 2>/dev/null || true
cleanup() {
	rm -f /run/systemd/resolved.conf.d/50-urlboot-case.conf /etc/default/urlboot-resolve-filter
	rm -rf /run/systemd/system/urlboot-resolve-filter.service.d
	ip link del urlboot-case0 2>/dev/null
	systemctl daemon-reload
	systemctl stop urlboot-resolve-stub.socket urlboot-resolve-stub.service \
		urlboot-resolve-filter.socket urlboot-resolve-filter.service 2>/dev/null
	rm -f /etc/resolv.conf
	cp -a /run/resolv.conf.before-case /etc/resolv.conf 2>/dev/null || true
	systemctl restart systemd-resolved
	kill "$server" 2>/dev/null
}
trap cleanup EXIT

perl "$data/dns-server.pl" 127.0.0.1 5300 >/run/urlboot-case-dns.out 2>&1 &
server=$!
# The filter's debug lines (the sibling rule's NODATA) in the journal, for the diagnostics.
if [ "$URLBOOT_GUEST" = bookworm ]; then
	mkdir -p /run/systemd/system/urlboot-resolve-filter.service.d
	printf '[Service]\nEnvironment=URLBOOT_LOG_LEVEL=debug\n' >/run/systemd/system/urlboot-resolve-filter.service.d/50-urlboot-case.conf
	systemctl daemon-reload
fi

# resolved's configuration: the test server (directly on 262, through the filter on 252), nothing else.
configure() { # configure REFUSE-RECORD-TYPES
	mkdir -p /run/systemd/resolved.conf.d
	{
		echo "[Resolve]"
		if [ "$URLBOOT_GUEST" = bookworm ]; then echo "DNS=127.0.0.154"; else echo "DNS=127.0.0.1:5300"; fi
		echo "Domains=~."
		echo "LLMNR=no"
		echo "MulticastDNS=no"
		echo "DNSSEC=no"
		echo "Cache=no"
		echo "RefuseRecordTypes=$1"
	} >/run/systemd/resolved.conf.d/50-urlboot-case.conf
	if [ "$URLBOOT_GUEST" = bookworm ]; then
		echo 'URLBOOT_RESOLVE_UPSTREAMS="--upstream=127.0.0.1:5300"' >/etc/default/urlboot-resolve-filter
		# Stopped and started again, so that the next query starts them with the new configuration.
		systemctl stop urlboot-resolve-filter.service urlboot-resolve-stub.service \
			urlboot-resolve-filter.socket urlboot-resolve-stub.socket 2>/dev/null
		systemctl start urlboot-resolve-filter.socket urlboot-resolve-stub.socket
		rm -f /etc/resolv.conf
		echo "nameserver 127.0.0.153" >/etc/resolv.conf
	else
		systemctl start urlboot-resolve-stub.socket
		rm -f /etc/resolv.conf
		echo "nameserver 127.0.0.53" >/etc/resolv.conf
	fi
	systemctl restart systemd-resolved
	for _ in $(seq 50); do resolvectl query -t A x.test >/dev/null 2>&1 && break; sleep 0.2; done
}

configure AAAA

# 1-3: the stub clients' view (resolv.conf): v258's REFUSED, the rest answered.
out=$(dig +tries=1 +time=5 x.test AAAA 2>&1)
head=$(printf '%s\n' "$out" | grep -E 'status:|flags:|EDNS:' | sed 's/id: [0-9]*/id: ID/')
expected=$';; ->>HEADER<<- opcode: QUERY, status: REFUSED, id: ID
;; flags: qr rd ra; QUERY: 1, ANSWER: 0, AUTHORITY: 0, ADDITIONAL: 1
; EDNS: version: 0, flags:; udp: 65494'
[ "$head" = "$expected" ]
result $? "dig AAAA through resolv.conf: REFUSED, flags qr rd ra, OPT with 65494" "$head"
out=$(dig +tries=1 +time=5 +short x.test A 2>&1)
[ "$out" = 192.0.2.1 ]
result $? "dig A through resolv.conf: 192.0.2.1" "$out"
out=$(dig +tries=1 +time=5 +noedns +dnssec +cd x.test AAAA 2>&1 | grep -E 'status:|flags:' | sed 's/id: [0-9]*/id: ID/')
printf '%s\n' "$out" | grep -q 'status: REFUSED' && printf '%s\n' "$out" | grep -q 'flags: qr rd ra cd;'
result $? "dig +dnssec +cd AAAA: REFUSED with cd" "$out"

# 4-6: resolved's own clients.
out=$(resolvectl query x.test 2>&1); rc=$?
[ $rc = 0 ] && [ "$(printf '%s\n' "$out" | addresses)" = 192.0.2.1 ]
result $? "resolvectl query x.test: IPv4 only" "$out"
out=$(resolvectl query -t AAAA x.test 2>&1); rc=$?
[ $rc != 0 ]
result $? "resolvectl query -t AAAA x.test fails (252 with the filter: no AAAA record; 262: refused)" "$out"
out=$(getent ahosts x.test 2>&1)
[ "$(printf '%s\n' "$out" | addresses)" = 192.0.2.1 ]
result $? "getent ahosts x.test: IPv4 only" "$out"

# 7-8: on 262 urlboot-resolve's stub stands aside: it relays, resolved refuses.
if [ "$URLBOOT_GUEST" = sid ]; then
	out=$(dig +tries=1 +time=5 @127.0.0.153 x.test AAAA 2>&1 | grep -E 'status:|flags:' | sed 's/id: [0-9]*/id: ID/')
	printf '%s\n' "$out" | grep -q 'status: REFUSED'
	result $? "systemd 262: dig AAAA @127.0.0.153 is REFUSED by resolved through urlboot-resolve" "$out"
	journal=$(journalctl -b -u urlboot-resolve-stub.service --no-pager 2>&1 | tail -5)
	printf '%s\n' "$journal" | grep -q 'refuses record types and expedites A/AAAA itself: relaying everything'
	result $? "systemd 262: urlboot-resolve says it only relays" "$journal"
else
	out=$(journalctl -b -u systemd-resolved.service --no-pager 2>&1 | grep -c 'RefuseRecordTypes' || true)
	result 0 "systemd 252: resolved ignores RefuseRecordTypes= itself ($out log lines name it)"
	out=$(urlboot-resolve show-config --json 2>&1)
	printf '%s\n' "$out" | grep -q '"refuseRecordTypes":\[{"type":28,"name":"AAAA"}\]'
	result $? "systemd 252: urlboot-resolve show-config --json reads AAAA from the drop-in" "$out"
fi

# 9-12: nothing refused, AAAA of noaaaa.test never answered: v258's expedited timeout (natively on 262,
# through the filter on 252) ends the AF_UNSPEC lookup with IPv4 after about 6 s.
configure ""
start=$(seconds); out=$(timeout 60 resolvectl query noaaaa.test 2>&1); rc=$?; t=$(elapsed "$start" "$(seconds)")
[ $rc = 0 ] && [ "$(printf '%s\n' "$out" | addresses)" = 192.0.2.1 ]
result $? "resolvectl query noaaaa.test: IPv4 in ${t} s" "$out"
between "$t" 4.5 12
result $? "... after about 6 s (${t} s; bounds 4.5-12 s), not 120 s"
if [ "$URLBOOT_GUEST" = bookworm ]; then
	# Which one ended it: the filter's sibling rule, or resolved 252 giving up on the AAAA by itself.
	fired=$(journalctl -b -q -o cat --no-pager -u urlboot-resolve-filter.service 2>/dev/null |
		grep -c 'No AAAA answer for noaaaa\.test\./1 6 s after')
	[ "$fired" -ge 1 ]
	result $? "the filter answered noaaaa.test's AAAA with NODATA 6 s after the A ($fired times)" \
		"$(awk '$2 == "noaaaa.test" { print $1, $3 == 28 ? "AAAA" : "A" }' /run/urlboot-case-dns.out | uniq -c | paste -sd' ' -)"
else
	skip "the filter's sibling rule ended the lookup" "systemd 262 expedites by itself"
fi
if [ "$URLBOOT_GUEST" = bookworm ]; then
	# getent ahosts asks with AI_ADDRCONFIG: glibc asks for AAAA only when the machine has an IPv6
	# address other than loopback and link-local. The guest has none (QEMU's user network): give it one.
	ip link add urlboot-case0 type dummy && ip link set urlboot-case0 up &&
		ip -6 addr add 2001:db8:5::1/64 dev urlboot-case0 nodad
	name=noaaaa.getent.test
	start=$(seconds); out=$(timeout 60 getent ahosts $name 2>&1); rc=$?; t=$(elapsed "$start" "$(seconds)")
	asked=$(awk -v n=$name '$2 == n { print $3 == 28 ? "AAAA" : $3 == 1 ? "A" : $3 }' /run/urlboot-case-dns.out | sort | uniq -c | paste -sd' ' -)
	[ $rc = 0 ] && [ "$(printf '%s\n' "$out" | addresses)" = 192.0.2.1 ]
	result $? "getent ahosts $name (with an IPv6 address): IPv4 in ${t} s (the server was asked: $asked)" "$out"
	between "$t" 4.5 12
	result $? "... after about 6 s (${t} s; bounds 4.5-12 s)" \
		"$(journalctl -b -q -o short-precise --no-pager -u urlboot-resolve-filter.service 2>&1 | grep -i "$name\|NODATA" | tail -5)"
	ip link del urlboot-case0
else
	# v258 expedites multi-key queries only (D-Bus, Varlink, nss-resolve); resolv.conf clients ask the
	# stub one type at a time, and this guest has no nss-resolve.
	start=$(seconds); out=$(timeout 60 getent ahosts noaaaa.test 2>&1); t=$(elapsed "$start" "$(seconds)")
	skip "getent ahosts noaaaa.test (through the stub: ${t} s, $(printf '%s\n' "$out" | addresses))" \
		"v258 leaves stub clients unchanged"
	skip "... after about 6 s" "v258 leaves stub clients unchanged"
fi
