#!/bin/sh
# Fails when the freestanding build of src/fundamental references a symbol that UEFI programs lack.
# Allowed: the allocation contract (fmalloc/ffree) and what compilers emit for plain C (mem*).
set -eu
# Usage: check-freestanding.sh LIBRARY CC...   (CC: the compiler the library was built with, a cross one too)
lib="$1"
shift
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# Link all objects together first, so references between them resolve.
"$@" -nostdlib -r -Wl,--whole-archive "$lib" -o "$tmp"
undefined=$(nm --undefined-only --format=posix "$tmp" | awk '{print $1}' | sort -u)
bad=""
for s in $undefined; do
	case "$s" in
	fmalloc|ffree|memcpy|memset|memmove|memcmp) ;;
	*) bad="$bad $s" ;;
	esac
done
if [ -n "$bad" ]; then
	echo "src/fundamental needs symbols a UEFI program does not have:$bad" >&2
	exit 1
fi
echo "freestanding: only allowed external symbols ($(echo $undefined | wc -w))"
