#!/bin/sh
# The arm64 boots (aa64-boot.py): what they need from Debian's archive first, here (the private network
# namespace of the boots has no route to it), then the boots in that namespace. TAP.
#   aa64-boot.sh BUILDDIR SRCDIR
"$2/test/e2e/aa64-boot.py" --fetch-only "$1" "$2" || exit
exec "$2/test/netns-run.sh" "$2/test/e2e/aa64-boot.py" "$1" "$2"
