#!/bin/bash
# What the booted version says about the rollout (test/guests/rollout.py judges it): urlbootctl's view
# (JSON and status), systemd 252's bootctl's (Secure Boot) and the Boot Loader Interface's
# LoaderEntrySelected (which v258's bootctl shows as "Current Entry"; 252's only with an ESP).
# guests: bookworm
# timeout: 60
echo "1..1"
systemctl is-active --quiet urlboot-rollout-bless.service && bless=active || bless=$(systemctl is-active urlboot-rollout-bless.service)
echo "ROLLOUT-BLESS $bless"
echo "ROLLOUT-JSON $(urlbootctl rollout --json)"
urlbootctl status | sed -n 's/^/ROLLOUT-STATUS /p'
SYSTEMD_PAGER= bootctl status --no-pager 2>/dev/null | grep -E 'Current Entry|Secure Boot' | sed 's/^/ROLLOUT-BOOTCTL /'
echo "ROLLOUT-ENTRY-SELECTED $(cat /sys/firmware/efi/efivars/LoaderEntrySelected-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f | tail -c +5 | tr -d '\000')"
# who fed the hardware watchdog: systemd in the initrd, then in the system (the journal keeps both)
journalctl -b --no-pager -o cat | grep -E "^Using hardware watchdog 'i6300ESB|^Switching root" | sed 's/^/ROLLOUT-WATCHDOG /'
echo "ok 1 - reported"
