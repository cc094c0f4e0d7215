/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The interfaces every systemd Varlink service implements: org.varlink.service (GetInfo,
 * GetInterfaceDescription and the standard errors) and io.systemd (its errors, System above
 * all), with the comments of their IDL text as systemd serves it, so introspection of our
 * services reads the same.
 */
#pragma once

#include "varlink-idl.h"

#define VARLINK_ERROR_INTERFACE_NOT_FOUND "org.varlink.service.InterfaceNotFound"
#define VARLINK_ERROR_METHOD_NOT_FOUND "org.varlink.service.MethodNotFound"
#define VARLINK_ERROR_METHOD_NOT_IMPLEMENTED "org.varlink.service.MethodNotImplemented"
#define VARLINK_ERROR_INVALID_PARAMETER "org.varlink.service.InvalidParameter"
#define VARLINK_ERROR_PERMISSION_DENIED "org.varlink.service.PermissionDenied"
#define VARLINK_ERROR_EXPECTED_MORE "org.varlink.service.ExpectedMore"
#define VARLINK_ERROR_SYSTEM "io.systemd.System"
#define VARLINK_ERROR_INTERACTIVE_AUTHENTICATION_REQUIRED "io.systemd.InteractiveAuthenticationRequired"
/* Synthesized by clients, never sent. */
#define VARLINK_ERROR_DISCONNECTED "io.systemd.Disconnected"
#define VARLINK_ERROR_TIMEOUT "io.systemd.TimedOut"
#define VARLINK_ERROR_PROTOCOL "io.systemd.Protocol"

extern const VarlinkInterface varlink_interface_org_varlink_service;
extern const VarlinkInterface varlink_interface_io_systemd;

/** "ECANCELED" for ECANCELED (either sign); NULL if unknown. */
const char *varlink_errno_name(int error);
/** The errno for "ECANCELED"; -EINVAL if unknown. */
int varlink_errno_from_name(const char *name);
