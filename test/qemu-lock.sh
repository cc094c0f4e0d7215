#!/bin/sh
# One VM at a time: TCG boots need both cores, and their timing checks assume so. The QEMU tests take this
# lock themselves (test/package/howto.sh too), so the host tests run beside them instead of after them.
exec flock /tmp/urlboot-qemu.lock "$@"
