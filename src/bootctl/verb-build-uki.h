/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl build-uki: a UKI from a stub, a kernel, initrds, a command line and os-release.
 */
#pragma once

int verb_build_uki(int argc, char *argv[], const void *data);
