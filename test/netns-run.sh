#!/bin/sh
# Run a command in a private network namespace with only loopback up: tests that serve or fetch
# over HTTP never reach, or are reached from, any real network.
exec unshare -n -- sh -c 'ip link set lo up && exec "$@"' netns-run "$@"
