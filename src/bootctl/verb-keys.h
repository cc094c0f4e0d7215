/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "command-table.h"

extern const CommandTable verb_enroll_mok_table;
extern const CommandTable verb_tls_ca_table;

/** urlbootctl enroll-mok: certificates into shim's MokList in an OVMF variable store. */
int verb_enroll_mok(int argc, char *argv[], const void *data);

/** urlbootctl tls-ca: the firmware's HTTPS CA list (TlsCaCertificate, or QEMU's fw_cfg file). */
int verb_tls_ca(int argc, char *argv[], const void *data);
