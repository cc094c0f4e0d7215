/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "conf-line.h"
#include "extension-release.h"
#include "macro.h"
#include "string-util.h"

const char *release_field(char *const *fields, const char *key) {
        size_t n = strlen(key);

        for (char *const *f = fields; f && *f; f++)
                if (strncmp(*f, key, n) == 0 && (*f)[n] == '=')
                        return *f + n + 1;
        return NULL;
}

int release_fields_parse(const char *text, size_t size, char ***ret) {
        _cleanup_strv_free_ char **fields = NULL;
        size_t pos = 0;
        ConfLine l;

        assert(ret);
        while (text && conf_line_next(text, size, &pos, "=", &l)) {
                char *f = NULL;
                if (asprintf(&f, "%.*s=%.*s", (int) l.key_len, l.key, (int) l.value_len, l.value) < 0 ||
                    strv_consume(&fields, f) < 0)
                        return -ENOMEM;
        }
        *ret = TAKE_PTR(fields);
        return 0;
}

/* SYSEXT_SCOPE: a list of words, "system portable" when absent. */
static bool scope_allows(const char *list, const char *scope) {
        size_t n = strlen(scope);

        if (!list)
                return streq(scope, "system") || streq(scope, "portable");
        for (const char *p = list; *p;) {
                size_t w = strcspn(p, " \t\n");
                if (w == n && strncmp(p, scope, n) == 0)
                        return true;
                p += w;
                p += strspn(p, " \t\n");
        }
        return false;
}

static int no(const char **ret_reason, const char *why) {
        if (ret_reason)
                *ret_reason = why;
        return 0;
}

int extension_release_matches(char *const *fields, const HostRelease *host, const char **ret_reason) {
        const char *arch, *id, *level, *version;

        assert(host);
        assert(!isempty(host->id));

        if (ret_reason)
                *ret_reason = NULL;
        if (!fields || !*fields)
                return no(ret_reason, "it has no extension-release data");
        if (host->scope && !scope_allows(release_field(fields, "SYSEXT_SCOPE"), host->scope))
                return no(ret_reason, "its SYSEXT_SCOPE= leaves this scope out");
        arch = release_field(fields, "ARCHITECTURE");
        if (!isempty(arch) && !streq(arch, "_any") && !streq_ptr(arch, host->architecture))
                return no(ret_reason, "its ARCHITECTURE= is another one");
        id = release_field(fields, "ID");
        if (isempty(id))
                return no(ret_reason, "its extension-release has no ID=");
        if (streq(id, "_any"))
                return 1;
        if (!streq(id, host->id))
                return no(ret_reason, "its ID= names another OS");
        if (isempty(host->version_id) && isempty(host->sysext_level))
                return 1;       /* a rolling release: the ID is enough */
        level = release_field(fields, "SYSEXT_LEVEL");
        if (!isempty(host->sysext_level) && !isempty(level))
                return streq(level, host->sysext_level) ? 1 : no(ret_reason, "its SYSEXT_LEVEL= is not the host's");
        if (isempty(host->version_id))
                return 1;
        version = release_field(fields, "VERSION_ID");
        if (isempty(version))
                return no(ret_reason, "its extension-release has no VERSION_ID=");
        return streq(version, host->version_id) ? 1 : no(ret_reason, "its VERSION_ID= is not the host's");
}

const char *host_architecture(void) {
        static const struct { const char *machine, *name; } table[] = {
                { "x86_64", "x86-64" }, { "aarch64", "arm64" }, { "i686", "x86" }, { "i586", "x86" },
                { "i386", "x86" }, { "armv7l", "arm" }, { "riscv64", "riscv64" }, { "ppc64le", "ppc64-le" },
                { "s390x", "s390x" }, { "loongarch64", "loongarch64" },
        };
        static struct utsname u;

        if (uname(&u) < 0)
                return NULL;
        for (size_t i = 0; i < ELEMENTSOF(table); i++)
                if (streq(u.machine, table[i].machine))
                        return table[i].name;
        return NULL;
}
