"""Checks on a boot's serial console log (the kernel's messages on ttyS0) that hold for every boot: test/e2e
and test/guests apply them to each boot they make."""
import re


def loop_tables_read_twice(log):
    """Loop devices whose partition table the kernel read twice for one attach (a read prints "loopN: p1 p2",
    an attach "loopN: detected capacity change from 0 to N"): the second read removes and adds the partitions
    under whatever started on them (a root mount failing "Dependency failed"). An error text or None."""
    attached, twice = {}, []
    with open(log, errors='replace') as f:
        for line in f:
            if 'URLBOOT-CASE' in line:
                continue  # a guest case's output (it may print dmesg), not the kernel's
            if re.search(r'\] Linux version ', line):
                attached = {}  # a new kernel: every device starts unattached
            m = re.search(r'\] +(loop\d+): detected capacity change from 0 to ', line)
            if m:
                attached[m.group(1)] = 0
            m = re.search(r'\] +(loop\d+): p\d', line)
            if m:
                attached[m.group(1)] = attached.get(m.group(1), 0) + 1
                if attached[m.group(1)] == 2:
                    twice.append(line.strip())
    if twice:
        return 'a loop device\'s partition table was read twice after one attach: ' + '; '.join(twice)
    return None
