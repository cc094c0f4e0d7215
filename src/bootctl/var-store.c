/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * EFI variables through efivarfs or an OVMF variable store file.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "efivars.h"
#include "error-buf.h"
#include "fileio.h"
#include "log.h"
#include "ovmf-vars.h"
#include "var-store.h"

#define VARS_FILE_MAX (64 * 1024 * 1024)
#define PERSISTENT EFI_VARIABLE_PERSISTENT_DEFAULT

int target_open(Target *t, const char *vars_path, const char *vendor) {
        char error[ERROR_BUF_MIN];
        int r;

        assert(t);

        *t = (Target) { .vars_path = vars_path, .vendor = vendor };
        r = efi_guid_from_string(vendor, t->guid);
        if (r < 0)
                return r;
        if (!vars_path)
                return 0;
        r = read_full_file(vars_path, VARS_FILE_MAX, &t->vars, &t->vars_size);
        if (r < 0)
                return log_error_errno(r, "Failed to read %s: %m", vars_path);
        /* Checked before anything is read or written: a file that is not a store stays untouched. */
        r = ovmf_vars_check((uint8_t *) t->vars, t->vars_size, error, sizeof error);
        if (r < 0) {
                log_error("%s is not an OVMF variable store: %s.", vars_path, error);
                t->vars = mfree(t->vars);
                return r;
        }
        return 0;
}

int target_get(Target *t, const char *name, void **ret, size_t *ret_size) {
        assert(t);
        assert(name);
        assert(ret);
        assert(ret_size);

        if (t->vars) {
                const uint8_t *d;
                size_t n;
                int r = ovmf_vars_get((uint8_t *) t->vars, t->vars_size, name, t->guid, &d, &n);
                if (r < 0)
                        return r;
                *ret = malloc(n ? n : 1);
                if (!*ret)
                        return -ENOMEM;
                memcpy(*ret, d, n);
                *ret_size = n;
                return 0;
        }
        return efi_get_variable(name, t->vendor, NULL, ret, ret_size);
}

int target_set(Target *t, const char *name, const void *data, size_t size) {
        assert(t);
        assert(name);
        assert(data || size == 0);

        return target_set_attributes(t, name, PERSISTENT, data, size);
}

int target_set_attributes(Target *t, const char *name, uint32_t attributes, const void *data, size_t size) {
        assert(t);
        assert(name);
        assert(data || size == 0);

        if (t->vars) {
                int r = ovmf_vars_set((uint8_t *) t->vars, t->vars_size, name, t->guid, attributes, data, size);
                if (r == -EBADMSG)
                        log_error("%s is not an OVMF variable store.", t->vars_path);
                else if (r == -ENOSPC)
                        log_error("The variable store in %s is full.", t->vars_path);
                return r;
        }
        return efi_set_variable(name, t->vendor, attributes, data, size);
}

int target_close(Target *t) {
        int r = 0;

        assert(t);

        if (t->vars) {
                /* QEMU's NVRAM is often 0600 and owned by its user: keep both (and a symlink). */
                r = write_file_replace(t->vars_path, t->vars, t->vars_size);
                if (r < 0)
                        log_error_errno(r, "Failed to write %s: %m", t->vars_path);
        }
        free(t->vars);
        return r;
}
