#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The sealing recipe of docs/measured-boot.md, run against a software TPM (swtpm): the PCR values
# urlbootctl measure predicts are what a TPM holds after extending the events it lists (the TPM's own
# arithmetic, not ours), a secret sealed with tpm2-tools to the predicted PCR 11 and 12 unseals with
# them, and no longer once PCR 12 changes. Run inside a network namespace (swtpm listens on 127.0.0.1).
#   seal-recipe.sh URLBOOTCTL STUB
set -u
ctl=$1 stub=$2
echo "1..4"
skip() { for i in 1 2 3 4; do echo "ok $i # SKIP $1"; done; exit 0; }
command -v swtpm >/dev/null && command -v tpm2_createpolicy >/dev/null || skip "swtpm or tpm2-tools is missing (tools/install-deps --e2e)"
[ -f "$stub" ] || skip "no stub built (gnu-efi missing)"
tmp=$(mktemp -d)
swtpm_pid=
trap '[ -n "$swtpm_pid" ] && kill "$swtpm_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp"
ip link set lo up 2>/dev/null

# hex of a JSON document's field, the same with or without jq
predicted() { # FILE PCR
	python3 -c 'import json,sys; print([p["sha256"] for p in json.load(open(sys.argv[1]))["pcrs"] if p["pcr"] == int(sys.argv[2])][0])' "$1" "$2"
}

head -c 200000 /dev/urandom > linux
printf 'ID=recipe\n' > osrel
"$ctl" build-uki --stub="$stub" --linux=linux --os-release=osrel --cmdline='console=ttyS0 quiet' \
	--output=uki.efi >/dev/null 2>&1 || { echo "Bail out! build-uki failed"; exit 1; }
echo 'a credential' > web.cred
"$ctl" measure --json --events uki.efi --options='root=/dev/vda2 ro' --smbios-extra='systemd.log_level=info' \
	--credential=web.cred > predicted.json || { echo "Bail out! measure failed"; exit 1; }

port=$((20000 + RANDOM % 20000))
swtpm socket --tpm2 --tpmstate dir="$tmp" --server type=tcp,port=$port,bindaddr=127.0.0.1 \
	--ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 --flags not-need-init,startup-clear &
swtpm_pid=$!
export TPM2TOOLS_TCTI=swtpm:host=127.0.0.1,port=$port
for i in $(seq 50); do tpm2_pcrread sha256:0 >/dev/null 2>&1 && break; sleep 0.1; done

# 1: the TPM, extended with each event's digest, holds the predicted values
python3 -c 'import json,sys; [print("%d:sha256=%s" % (e["pcr"], e["sha256"])) for e in json.load(open(sys.argv[1]))["events"]]' \
	predicted.json > events.txt
while read -r e; do tpm2_pcrextend "$e" || break; done < events.txt
ok=1
for p in 11 12; do
	tpm=$(tpm2_pcrread sha256:$p | awk -v p="$p:" '$1 == p { print tolower(substr($2, 3)) }')
	[ "$tpm" = "$(predicted predicted.json $p)" ] || { ok=0; echo "# PCR $p: TPM $tpm, predicted $(predicted predicted.json $p)"; }
done
[ $ok = 1 ] && echo "ok 1 - swtpm holds the predicted PCR 11 and 12 after the $(wc -l < events.txt) events" ||
	echo "not ok 1 - swtpm holds the predicted PCR 11 and 12"

# 2: the recipe (docs/measured-boot.md): the predicted values, in PCR order, as one binary file ...
for p in 11 12; do predicted predicted.json $p; done | python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex("".join(sys.stdin.read().split())))' > pcrs.bin
# ... a policy over them, a primary key, the secret sealed under both. (Without a resource manager, as
# with swtpm here, each step leaves its objects in the TPM: flush them.)
flush() { tpm2_flushcontext -t >/dev/null 2>&1; tpm2_flushcontext -s >/dev/null 2>&1; true; }
if tpm2_createpolicy --policy-pcr -l sha256:11,12 -f pcrs.bin -L policy.digest >/dev/null && flush &&
   tpm2_createprimary -C o -c primary.ctx >/dev/null && flush &&
   echo -n 'the disk key' | tpm2_create -C primary.ctx -L policy.digest -i - -u seal.pub -r seal.priv >/dev/null && flush &&
   tpm2_load -C primary.ctx -u seal.pub -r seal.priv -c seal.ctx >/dev/null && flush; then
	echo "ok 2 - sealed to the predicted PCR 11 and 12 with tpm2_createpolicy and tpm2_create"
else
	echo "not ok 2 - sealing with tpm2-tools"
fi

# 3: at boot the TPM's PCRs are those: it unseals
secret=$(tpm2_unseal -c seal.ctx -p pcr:sha256:11,12 2>/dev/null)
flush
[ "$secret" = "the disk key" ] && echo "ok 3 - unsealed with the booted PCRs" || echo "not ok 3 - unseal gave '$secret'"

# 4: another command line (one more PCR 12 event): it does not
tpm2_pcrextend 12:sha256=$(printf 'init=/bin/sh' | sha256sum | cut -c1-64) >/dev/null
if tpm2_unseal -c seal.ctx -p pcr:sha256:11,12 >/dev/null 2>&1; then
	echo "not ok 4 - unsealed after PCR 12 changed"
else
	echo "ok 4 - refused once PCR 12 changed"
fi
