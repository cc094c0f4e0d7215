/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Loading an optional library only when it is needed.
 *
 * A library linked in is mapped, relocated and initialised in every run, whether the run needs it
 * or not; its pages count in the process's memory. Libraries that only some runs need (libarchive
 * for tarballs, libsystemd under systemd) are loaded with dlopen() at first use instead, and their
 * functions called through pointers named sym_FUNCTION, declared with DLSYM_PROTOTYPE().
 */
#pragma once

#include <stddef.h>

/** Declares (or, with DLSYM_DEFINE, defines) the pointer sym_NAME with NAME's exact type. */
#define DLSYM_PROTOTYPE(name) extern typeof(name) *sym_##name
#define DLSYM_DEFINE(name) typeof(name) *sym_##name = NULL

typedef struct DlSymbol {
        const char *name;
        void **pointer;
} DlSymbol;

/** One row of a DlSymbol table: the function NAME into the pointer sym_NAME. */
#define DLSYM_ENTRY(name) { #name, (void **) &sym_##name }

/** Whether a library was loaded yet, and how it failed. */
typedef struct DlOnce {
        int state;              /* 0 not tried, 1 loaded, <0 the failure */
        char error[160];
} DlOnce;

/**
 * Opens soname and resolves every symbol of the table, once: later calls return the first
 * result. Safe to call from several threads. On failure no pointer is set.
 * @v once  kept by the caller, zero-initialised (static)
 * @ret 0, or -EOPNOTSUPP (the library or a symbol is missing; *ret_error says which)
 */
int dlopen_symbols(DlOnce *once, const char *soname, const DlSymbol *symbols, size_t n_symbols,
                   const char **ret_error);
