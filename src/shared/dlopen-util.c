/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Loading an optional library only when it is needed.
 */
#include <assert.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "dlopen-util.h"

static pthread_mutex_t dlopen_lock = PTHREAD_MUTEX_INITIALIZER;

static int load(DlOnce *once, const char *soname, const DlSymbol *symbols, size_t n_symbols) {
        void *found[n_symbols ?: 1];
        void *handle;

        handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
                snprintf(once->error, sizeof once->error, "%s", dlerror());
                return -EOPNOTSUPP;
        }
        for (size_t i = 0; i < n_symbols; i++) {
                found[i] = dlsym(handle, symbols[i].name);
                if (!found[i]) {
                        snprintf(once->error, sizeof once->error, "%s lacks %s", soname, symbols[i].name);
                        dlclose(handle);
                        return -EOPNOTSUPP;
                }
        }
        /* All or nothing; the handle stays open for the life of the process. */
        for (size_t i = 0; i < n_symbols; i++)
                *symbols[i].pointer = found[i];
        return 1;
}

int dlopen_symbols(DlOnce *once, const char *soname, const DlSymbol *symbols, size_t n_symbols,
                   const char **ret_error) {
        int state;

        assert(once);
        assert(soname);
        assert(symbols || n_symbols == 0);

        pthread_mutex_lock(&dlopen_lock);
        if (once->state == 0)
                once->state = load(once, soname, symbols, n_symbols);
        state = once->state;
        pthread_mutex_unlock(&dlopen_lock);
        if (ret_error)
                *ret_error = state < 0 ? once->error : NULL;
        return state < 0 ? state : 0;
}
