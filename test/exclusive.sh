#!/bin/sh
# Host tests that must not run beside each other (network namespaces with fixed names, loop devices
# counted, timing checks) take this lock. Not meson's is_parallel: false, in the plain build: that would make
# them wait for the boots, which run for most of an hour; with the lock they run beside the boots (each boot
# holds the QEMU lock and one of meson's two slots) but never beside each other.
#
#   exclusive.sh LOCKFILE COMMAND [ARG...]
lock=$1; shift
exec flock "$lock" "$@"
