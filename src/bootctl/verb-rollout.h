/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/** urlbootctl rollout: show, bless, reset, is-trial. */
int verb_rollout(int argc, char *argv[], const void *data);
