/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl set-default, set-oneshot, set-timeout, set-timeout-oneshot: the Boot Loader Interface
 * variables the OS sets for the next boots, as systemd's bootctl writes them.
 */
#pragma once

/** argv[0] is the verb. */
int verb_set_loader_variable(int argc, char *argv[]);
