#!/bin/bash
# The administrator's way to trust a new key: mokutil --import, with a password MokManager asks for at the
# next boot (here from a hash made beforehand, as a script would).
# guests: bookworm
# timeout: 60
echo "1..2"
mokutil --generate-hash="$URLBOOT_MOK_PASSWORD" > hash || { echo "not ok 1 - mokutil --generate-hash"; exit 0; }
if mokutil --import "$URLBOOT_CASE_DATA/key-b.der" --hash-file hash; then
	echo "ok 1 - mokutil --import KEY.der asked for the key's enrolment"
else
	echo "not ok 1 - mokutil --import KEY.der"
fi
if mokutil --list-new | grep -q 'urlboot test MOK B'; then
	echo "ok 2 - mokutil --list-new shows the key waiting for MokManager"
else
	echo "not ok 2 - mokutil --list-new shows the key waiting for MokManager"
	mokutil --list-new 2>&1 | sed 's/^/# /'
fi
