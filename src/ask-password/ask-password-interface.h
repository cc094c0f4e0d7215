/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The io.systemd.AskPassword Varlink interface of systemd v258: its definition (what
 * GetInterfaceDescription shows and what calls are checked against) and its error names.
 */
#pragma once

#include "varlink-idl.h"

#define ASK_PASSWORD_ERROR_NO_PASSWORD "io.systemd.AskPassword.NoPasswordAvailable"
#define ASK_PASSWORD_ERROR_TIMEOUT "io.systemd.AskPassword.TimeoutReached"

extern const VarlinkInterface ask_password_interface;
