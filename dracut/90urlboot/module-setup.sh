#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# dracut module "urlboot": boot a root file system downloaded over HTTP in the initrd.
#
# Installs urlboot's generators, urlboot-pull (with its libraries, those it dlopen()s included, and
# the CA bundle), urlboot-loop, the udev probe and rules, the units, and network set-up (DHCP on
# every Ethernet link; the download units wait for network-online.target, so nothing waits for the
# network without a pull expression).
#
# Files are taken from the installed system, or from a staging tree in $URLBOOT_DRACUT_STAGE
# (what "meson install --destdir" wrote), so a build can be tested without installing it.
#
# Lazy boots ("lazy" pull expressions, urlboot-lazy) need nbdkit with urlboot's HTTP plugin, nbd-client, device-mapper (dmsetup's udev rules) and systemd-veritysetup, and the nbd
# and dm-verity modules. They are in the initrd whenever the build machine has them; in dracut.conf,
# urlboot_lazy=no leaves them out (a smaller initrd that cannot boot lazily), urlboot_lazy=yes makes
# their absence an error.
#
# urlboot_small=yes in dracut.conf makes a small network-boot initrd (docs/performance.md, "UKI size"):
# of the network drivers only those in _urlboot_small_nics and what they need stay (dracut's
# kernel-network-modules puts in all of drivers/net, most of the 12 MB of modules), firmware only
# for the drivers in the initrd, and no tarball support (libarchive needs libxml2 and ICU's 31 MB data
# file: 11 MB compressed) unless urlboot_tar=yes. Compress with zstd (compress="zstd").

check() {
    # Only when asked for (dracut -m / --add urlboot).
    return 255
}

# Whether the lazy pieces go in: wanted (not urlboot_lazy=no) and all there.
_urlboot_lazy() {
    local missing=
    [[ ${urlboot_lazy:-auto} == no ]] && return 1
    for b in nbdkit nbd-client dmsetup "$systemdutildir"/systemd-veritysetup; do
        [[ $b == /* ]] && [[ -x $dracutsysrootdir$b ]] && continue
        [[ $b != /* ]] && find_binary "$b" >/dev/null && continue
        missing+=" ${b##*/}"
    done
    [[ -x $(_urlboot_src /usr/bin/urlboot-lazy) ]] || missing+=" urlboot-lazy"
    [[ -f $(_urlboot_src /usr/lib/urlboot/nbdkit-urlboot-http-plugin.so) ]] || missing+=" nbdkit-urlboot-http-plugin.so"
    [[ -z $missing ]] && return 0
    if [[ ${urlboot_lazy:-auto} == yes ]]; then
        derror "urlboot: lazy boots need$missing (packages nbdkit, nbd-client, dmsetup, cryptsetup-bin)"
    fi
    return 1
}

depends() {
    echo systemd systemd-initrd systemd-networkd udev-rules base
    _urlboot_lazy && echo dm systemd-veritysetup
    return 0
}

# The NICs of the small initrd: virtual machines (virtio, e1000), Intel (e1000e, igb, igc, ixgbe, i40e,
# ice), Mellanox/NVIDIA ConnectX-4 and later (mlx5_core), Realtek (r8169), Broadcom (tg3, bnxt_en).
_urlboot_small_nics="virtio_net e1000 e1000e igb igc ixgbe i40e ice mlx5_core r8169 tg3 bnxt_en"
# The file systems and block drivers of the small initrd (with loop, nbd and dm-* for lazy boots).
_urlboot_small_block="ext4 xfs btrfs erofs squashfs vfat virtio_scsi nvme ahci sd_mod"

# Always in: the demo's and virtual machines' needs, and the hardware watchdog the boot manager arms for
# a rollout's version on trial (i6300esb; systemd.watchdog_sec= feeds it from the initrd on, so its
# driver must be there: src/fundamental/trial-watchdog.h), and overlay for a verified root's writes
# (systemd.volatile=overlay, the import generator's default with roothash=); for lazy boots, nbd and the
# dm targets.
_urlboot_base_modules="loop ext4 vfat efivarfs virtio_net virtio_pci virtio_blk af_packet e1000 e1000e i6300esb overlay"
_urlboot_lazy_modules="nbd dm-mod dm-verity dm-bufio"

installkernel() {
    hostonly='' instmods $_urlboot_base_modules
    if _urlboot_lazy; then
        hostonly='' instmods $_urlboot_lazy_modules
    fi
    if [[ ${urlboot_small:-no} == yes ]]; then
        hostonly='' instmods $_urlboot_small_block $_urlboot_small_nics
        _urlboot_prune_modules
        _urlboot_prune_firmware
    fi
}

# Modules named by modprobe --show-depends for NAME... (with their soft dependencies), as file names.
# The modules come from $srcmods (--kmoddir may name another tree's /lib/modules/VERSION).
_urlboot_module_closure() {
    local m base=${srcmods%/lib/modules/*}
    for m in "$@"; do
        modprobe -d "${base:-/}" -S "$kernel" --show-depends "$m" 2>/dev/null \
            | awk '$1 == "insmod" { n = split($2, p, "/"); print p[n] }'
    done
}

# Directories whose modules other dracut modules put in wholesale: all of drivers/net
# (kernel-network-modules) and drivers/md (dm), and what only those drivers needed (USB,
# Thunderbolt, MMC, PCMCIA, Hyper-V, bridges, VLANs, DLM, RAID). The small initrd keeps of them only
# the listed drivers and what those need; PHY and MDIO drivers all stay (the kernel loads them by the
# PHY's ID, no module names them). So md RAID, LVM's other targets and dm-crypt are not in the small
# initrd: a root on them boots with the general one.
_urlboot_small_prune_dirs="drivers/net drivers/md drivers/thunderbolt drivers/usb drivers/mmc
    drivers/ssb drivers/pcmcia drivers/mtd drivers/hv drivers/uio net/bridge net/8021q net/802
    net/llc net/tls fs/dlm lib/raid6 crypto/async_tx"

# Drop from those directories every module the lists do not need. Run from installkernel: dracut
# installs modules at once and runs depmod on the result at the end.
_urlboot_prune_modules() {
    local keep f d top=$initdir/lib/modules/$kernel/kernel
    keep=" $(_urlboot_module_closure $_urlboot_small_block $_urlboot_small_nics $_urlboot_base_modules \
        $(_urlboot_lazy && echo $_urlboot_lazy_modules) | tr '\n' ' ') "
    if [[ $keep != *" virtio_net.ko"* ]]; then
        derror "urlboot: urlboot_small: modprobe found none of the listed drivers in $srcmods; keeping all"
        return 0
    fi
    for d in $_urlboot_small_prune_dirs; do
        [[ -d $top/$d ]] || continue
        while IFS= read -r -d '' f; do
            [[ $keep == *" ${f##*/} "* ]] || rm -f "$f"
        done < <(find "$top/$d" -path "$top/drivers/net/phy" -prune -o -path "$top/drivers/net/mdio" -prune \
                     -o -name '*.ko*' -print0)
        find "$top/$d" -depth -type d -empty -delete
    done
}

# Keep only the firmware files a module in the initrd names (modinfo's firmware: lines).
_urlboot_prune_firmware() {
    local want=" " f m fw rel
    for fw in "$initdir"/lib/firmware "$initdir"/usr/lib/firmware; do
        [[ -d $fw && ! -L $fw ]] || continue
        if [[ $want == " " ]]; then
            while IFS= read -r -d '' m; do
                want+="$(modinfo -F firmware "$m" 2>/dev/null | tr '\n' ' ')"
            done < <(find "$initdir/lib/modules/$kernel" -name '*.ko*' -print0)
        fi
        while IFS= read -r -d '' f; do
            rel=${f#"$fw"/}
            rel=${rel%.xz}
            rel=${rel%.zst}
            [[ $want == *" $rel "* ]] || rm -f "$f"
        done < <(find "$fw" -type f -print0)
    done
}

# The file from the staging tree when there is one, else from the system.
_urlboot_src() {
    if [[ -n $URLBOOT_DRACUT_STAGE && -e $URLBOOT_DRACUT_STAGE$1 ]]; then
        echo "$URLBOOT_DRACUT_STAGE$1"
    else
        echo "$1"
    fi
}

_urlboot_inst() {
    local dst=$1
    inst_binary "$(_urlboot_src "$dst")" "$dst"
}

_urlboot_inst_file() {
    local dst=$1
    inst_simple "$(_urlboot_src "$dst")" "$dst"
}

# Libraries found by soname in the library directories, with their own dependencies (which
# dracut-install does not follow for a library that is not executable).
_urlboot_inst_dlopened() {
    local soname dir path dep
    for soname in "$@"; do
        path=
        for dir in $libdirs; do
            [[ -e $dracutsysrootdir$dir/$soname ]] && path=$dir/$soname && break
        done
        if [[ -z $path ]]; then
            dwarn "urlboot: $soname not found; urlboot-pull will not be able to use it"
            continue
        fi
        inst_library "$path"
        for dep in $(ldd "$dracutsysrootdir$path" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'); do
            inst_library "$dep"
        done
    done
}

# nbdkit, urlboot's plugin (loaded with dlopen(); it needs no nbdkit filter) and nbd-client.
_urlboot_inst_lazy() {
    local dep plugin=/usr/lib/urlboot/nbdkit-urlboot-http-plugin.so
    _urlboot_inst /usr/bin/urlboot-lazy
    inst_binary nbdkit
    inst_binary nbd-client
    inst_library "$(_urlboot_src "$plugin")" "$plugin"
    for dep in $(ldd "$dracutsysrootdir$(_urlboot_src "$plugin")" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'); do
        inst_library "$dep"
    done
    # Partitions of the nbd device would be a second, network-backed copy of the image's partitions
    # (and of their by-partuuid links): only the loop device on top has them.
    inst_simple "$moddir/urlboot-lazy-nbd.conf" /etc/modprobe.d/urlboot-lazy-nbd.conf
}

install() {
    _urlboot_inst /usr/bin/urlboot-pull
    _urlboot_inst /usr/bin/urlboot-loop
    _urlboot_inst /usr/lib/udev/urlboot-udev-probe
    _urlboot_inst /usr/lib/systemd/system-generators/urlboot-import-generator
    _urlboot_inst /usr/lib/systemd/system-generators/urlboot-root-generator
    # A rollout's version on trial reboots instead of waiting in emergency mode (and at its deadline).
    _urlboot_inst /usr/lib/systemd/system-generators/urlboot-rollout-generator
    inst_multiple -o systemctl
    _urlboot_inst_file /usr/lib/udev/rules.d/60-urlboot.rules
    _urlboot_inst_file /usr/lib/systemd/system/urlboot-imports.target
    _urlboot_inst_file /usr/lib/systemd/system/urlboot-imports-pre.target
    _urlboot_inst_file /usr/lib/systemd/system/urlboot-loop@.service
    mkdir -p "$initdir$systemdsystemunitdir/sysinit.target.wants"
    ln_r /usr/lib/systemd/system/urlboot-imports.target "$systemdsystemunitdir/sysinit.target.wants/urlboot-imports.target"

    # urlboot-pull loads these with dlopen() when it needs them (tarballs; sd_notify under
    # systemd), so the ELF dependency walk cannot find them.
    _urlboot_inst_dlopened libsystemd.so.0
    if [[ ${urlboot_small:-no} != yes || ${urlboot_tar:-no} == yes ]]; then
        _urlboot_inst_dlopened libarchive.so.13
    fi

    # The units run these; a plain systemd initrd lacks some of them.
    inst_multiple -o modprobe mount umount sfdisk blkid gpgv
    # HTTPS needs the CA store; verify=signature the keys that sign SHA256SUMS (systemd-importd's
    # places: put yours into /etc/systemd/import-pubring.gpg before building the initrd).
    inst_multiple -o /etc/ssl/certs/ca-certificates.crt
    inst_multiple -o /etc/systemd/import-pubring.gpg /usr/lib/systemd/import-pubring.gpg

    # DHCP on Ethernet without ip=dhcp, and "online" as soon as one link is (the boot NIC, when
    # urlboot-boot-nic found it: the others are then not required for online).
    inst_simple "$moddir/90-urlboot-dhcp.network" "$systemdnetwork/90-urlboot-dhcp.network"
    inst_simple "$moddir/urlboot-wait-online.conf" \
        "$systemdsystemunitdir/systemd-networkd-wait-online.service.d/50-urlboot-any.conf"
    # Network-online means the NIC the firmware booted from is online (when it booted from one).
    _urlboot_inst /usr/lib/urlboot/urlboot-boot-nic
    inst_simple "$moddir/urlboot-boot-nic.service" "$systemdsystemunitdir/urlboot-boot-nic.service"
    mkdir -p "$initdir$systemdsystemunitdir/systemd-networkd.service.wants"
    ln_r "$systemdsystemunitdir/urlboot-boot-nic.service" \
        "$systemdsystemunitdir/systemd-networkd.service.wants/urlboot-boot-nic.service"
    # Room for images in /run, before the first download.
    inst_simple "$moddir/urlboot-run-size.service" "$systemdsystemunitdir/urlboot-run-size.service"
    inst_script "$moddir/urlboot-run-size.sh" /usr/lib/urlboot/urlboot-run-size
    mkdir -p "$initdir$systemdsystemunitdir/urlboot-imports.target.wants"
    ln_r "$systemdsystemunitdir/urlboot-run-size.service" \
        "$systemdsystemunitdir/urlboot-imports.target.wants/urlboot-run-size.service"

    # A failed download starts emergency.target (OnFailure=), which needs emergency.service: without
    # dracut's own (module dracut-systemd, which the small profile leaves out) the job cannot even be
    # queued and the boot waits for a root device that cannot appear. systemd's units then.
    if ! dracut_module_included dracut-systemd; then
        inst_multiple -o "$systemdsystemunitdir"/emergency.service "$systemdsystemunitdir"/rescue.service \
            "$systemdutildir"/systemd-sulogin-shell sulogin
    fi

    if _urlboot_lazy; then
        _urlboot_inst_lazy
    fi
}
