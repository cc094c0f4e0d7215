#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# urlboot-sysext-measure against a software TPM (swtpm): a directory and a raw image measured into
# PCR 13 leave the TPM (its own arithmetic, every bank it has) holding what `urlbootctl measure --sysext=`
# predicts and what `urlbootctl event-log` replays from the log; measuring the same set again changes
# nothing; a changed image is measured once more; a verity root hash names an image. Run inside a network
# namespace (swtpm listens on 127.0.0.1).
#   measure-swtpm.sh URLBOOT-SYSEXT-MEASURE URLBOOTCTL
set -u
measure=$1 ctl=$2
n=7
echo "1..$n"
skip() { for i in $(seq $n); do echo "ok $i # SKIP $1"; done; exit 0; }
command -v swtpm >/dev/null && command -v tpm2_pcrread >/dev/null || skip "swtpm or tpm2-tools is missing (tools/install-deps --e2e)"
tmp=$(mktemp -d)
swtpm_pid=
trap '[ -n "$swtpm_pid" ] && kill "$swtpm_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp"
ip link set lo up 2>/dev/null

mkdir -p ext/tools/usr/lib/extension-release.d ext/tools/usr/bin
echo ID=_any > ext/tools/usr/lib/extension-release.d/extension-release.tools
printf '#!/bin/sh\necho tool\n' > ext/tools/usr/bin/tool
chmod 755 ext/tools/usr/bin/tool
ln -s tool ext/tools/usr/bin/tool-link
head -c 1048576 /dev/urandom > ext/debug.raw

port=$((20000 + RANDOM % 20000))
swtpm socket --tpm2 --tpmstate dir="$tmp" --server type=tcp,port=$port,bindaddr=127.0.0.1 \
	--ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 --flags not-need-init,startup-clear &
swtpm_pid=$!
tcti=swtpm:host=127.0.0.1,port=$port
export TPM2TOOLS_TCTI=$tcti
for i in $(seq 50); do tpm2_pcrread sha256:0 >/dev/null 2>&1 && break; sleep 0.1; done

tpm_pcr() { # BANK: PCR 13 in lowercase hex
	tpm2_pcrread "$1:13" | awk '$1 == "13:" { print tolower(substr($2, 3)) }'
}
field() { # FILE BANK: PCR 13 of a measure or event-log JSON document
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for p in d["pcrs"]:
    if p["pcr"] == 13:
        print(p.get(sys.argv[2]) or p.get("replayed") if "bank" not in p or p["bank"] == sys.argv[2] else "", end="")' "$1" "$2"
}
agree() { # TEXT PATHS...: the TPM, the prediction and the replay agree, sha1 and sha256
	local text=$1 ok=1 b
	shift
	local args=()
	for p in "$@"; do args+=("--sysext=$p"); done
	"$ctl" measure --json --bank=sha1 --bank=sha256 "${args[@]}" > predicted.json || ok=0
	"$ctl" event-log --json --sysfs= --pcr=13 --userspace-log=log no-firmware-log > replayed.json 2> event-log.err || ok=0
	for b in sha1 sha256; do
		local tpm predicted replayed
		tpm=$(tpm_pcr $b)
		predicted=$(field predicted.json $b)
		replayed=$(python3 -c 'import json,sys; print([p["replayed"] for p in json.load(open(sys.argv[1]))["pcrs"] if p["pcr"] == 13 and p["bank"] == sys.argv[2]][0])' replayed.json $b 2>/dev/null)
		if [ -z "$tpm" ] || [ "$tpm" != "$predicted" ] || [ "$tpm" != "$replayed" ]; then
			ok=0
			echo "# $b: TPM '$tpm', predicted '$predicted', replayed '$replayed'"
		fi
	done
	[ $ok = 1 ] && echo "ok - $text" || echo "not ok - $text"
}

# 1-2: two extensions measured, in name order, every bank
"$measure" --tpm2-device="$tcti" --log=log --json=short --image=ext/tools --image=ext/debug.raw > out.json 2> err.txt
outcomes=$(python3 -c 'import json; print(" ".join(e["name"] + "=" + e["outcome"] for e in json.load(open("out.json"))))' 2>/dev/null)
[ "$outcomes" = "debug=measured tools=measured" ] && echo "ok - both extensions measured, debug before tools" ||
	{ echo "not ok - both extensions measured, debug before tools"; echo "# got '$outcomes'"; sed 's/^/# /' err.txt; }
agree "PCR 13 in the TPM = urlbootctl measure --sysext= = urlbootctl event-log's replay of the log" ext/tools ext/debug.raw

# 3: the same set again: nothing measured, nothing changed
before=$(tpm_pcr sha256)
"$measure" --tpm2-device="$tcti" --log=log --json=short --image=ext/debug.raw --image=ext/tools > again.json 2>/dev/null
records=$(grep -c $'^\x1e' log)
[ "$(tpm_pcr sha256)" = "$before" ] && [ "$records" = 2 ] && grep -q already-measured again.json &&
	echo "ok - measuring the same extensions again changes nothing (2 records)" ||
	echo "not ok - measuring the same extensions again changes nothing ($records records)"

# 4: a changed file in the tree is a new digest, measured once more
echo changed >> ext/tools/usr/bin/tool
"$measure" --tpm2-device="$tcti" --log=log --image=ext/tools 2>/dev/null
records=$(grep -c $'^\x1e' log)
[ "$(tpm_pcr sha256)" != "$before" ] && [ "$records" = 3 ] && echo "ok - a changed extension is measured again" ||
	echo "not ok - a changed extension is measured again ($records records)"

# 5: a verity root hash names the raw image (NAME.roothash beside NAME.raw)
echo 8f3d0a4c9b51e27d6a0f4c3b2e1d0c9b8a7f6e5d4c3b2a1908f7e6d5c4b3a291 > ext/debug.roothash
text=$("$measure" --dry-run --image=ext/debug.raw | cut -f2)
[ "$text" = "sysext:debug:verity:8f3d0a4c9b51e27d6a0f4c3b2e1d0c9b8a7f6e5d4c3b2a1908f7e6d5c4b3a291" ] &&
	echo "ok - a .roothash sidecar names the image by its verity root hash" ||
	echo "not ok - a .roothash sidecar names the image by its verity root hash ('$text')"

# 6: the log replays to the TPM after all of that (three records, the changed tree last)
"$measure" --tpm2-device="$tcti" --log=log --image=ext/debug.raw 2>/dev/null
"$ctl" event-log --json --sysfs= --pcr=13 --userspace-log=log no-firmware-log > replayed.json 2>/dev/null
replayed=$(python3 -c 'import json,sys; print([p["replayed"] for p in json.load(open("replayed.json"))["pcrs"] if p["pcr"] == 13 and p["bank"] == "sha256"][0])' 2>/dev/null)
[ "$replayed" = "$(tpm_pcr sha256)" ] && [ "$(grep -c $'^\x1e' log)" = 4 ] &&
	echo "ok - the log of four measurements replays to the TPM's PCR 13" ||
	echo "not ok - the log of four measurements replays to the TPM's PCR 13 ('$replayed')"

# 7: a log that does not parse costs only the check for what was measured: one warning, measured, exit 0
printf 'not a record\n' > bad.log
before=$(tpm_pcr sha256)
"$measure" --tpm2-device="$tcti" --log=bad.log --image=ext/tools > /dev/null 2> bad.err
rc=$?
[ $rc = 0 ] && grep -q 'does not parse (record 1); measuring anyway' bad.err && [ "$(tpm_pcr sha256)" != "$before" ] &&
	echo "ok - a log that does not parse: one warning, measured anyway" ||
	{ echo "not ok - a log that does not parse: one warning, measured anyway (exit $rc)"; sed 's/^/# /' bad.err; }
