#!/bin/sh
# Grow the initrd's /run to rd.urlboot.run_size= (a size or a percentage of RAM; default 75%), so that
# downloaded images fit. urlboot-pull checks the space against the image's size and names the RAM
# needed when it does not fit.
size=75%
for word in $(cat /proc/cmdline); do
    case "$word" in
    rd.urlboot.run_size=*|rd.urlboot.run-size=*) size=${word#*=} ;;
    esac
done
exec mount -o remount,size="$size" /run
