/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The NIC the firmware booted from, and networkd configuration that waits for it alone.
 *
 * UEFI names the boot option it started in BootCurrent; a network boot option's device path has a
 * MAC Address node for the NIC (PciRoot(0x0)/Pci(0x3,0x0)/MAC(525400123456,0x1)/IPv4(...)/Uri(...)).
 * Any loader chain (urlboot's or systemd's boot manager, a UKI booted directly) leaves it there.
 */
#pragma once

#include <stdint.h>

/**
 * The Ethernet address in the device path of the boot option named by BootCurrent.
 * @v ret_option  the option's number (Boot####), may be NULL
 * @ret 0, -ENOENT (not booted by a boot option, or the option's path has no Ethernet MAC node),
 *      -EBADMSG (malformed variable or path), other negative errno from reading efivarfs
 */
int boot_nic_find(uint8_t ret_mac[6], unsigned *ret_option);

/**
 * Write DIR/80-urlboot-boot-nic.network: the template (the dracut module's 90-urlboot-dhcp.network,
 * DHCP on every Ethernet link) narrowed to that NIC's address and required for online; and the drop-in
 * DIR/TEMPLATE.d/50-urlboot-boot-nic.conf making the links the template still gets (the others, as
 * networkd takes the first matching file) not required. With systemd-networkd-wait-online --any,
 * "online" then means the boot NIC is.
 * @ret 0 or negative errno (the template unreadable included)
 */
int boot_nic_write_network(const char *dir, const char *template_path, const uint8_t mac[6], unsigned option);
