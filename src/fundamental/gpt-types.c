/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Discoverable Partitions Specification: partition type UUIDs and the automatic root choice.
 */
#include "assert-fundamental.h"
#include "gpt-types.h"
#include "string-fundamental.h"
#include "version.h"

const char *gpt_root_type_native(void) {
#if defined(__x86_64__)
        return GPT_ROOT_X86_64;
#elif defined(__aarch64__)
        return GPT_ROOT_ARM64;
#elif defined(__i386__)
        return GPT_ROOT_X86;
#elif defined(__arm__)
        return GPT_ROOT_ARM;
#elif defined(__riscv) && __riscv_xlen == 64
        return GPT_ROOT_RISCV64;
#else
        return NULL;
#endif
}

bool gpt_uuid_equal(const char *a, const char *b) {
        if (!a || !b)
                return false;
        for (; *a && *b; a++, b++)
                if (fascii_tolower(*a) != fascii_tolower(*b))
                        return false;
        return *a == *b;
}

int gpt_pick_root(const GptPartition *partitions, size_t n, const char *root_type) {
        int best = -1;

        fassert(partitions || n == 0);

        if (!root_type)
                return -1;
        for (size_t i = 0; i < n; i++) {
                const GptPartition *p = partitions + i;

                /* "_empty" marks a slot kept free for an update (systemd-sysupdate): never a root. */
                if (!gpt_uuid_equal(p->type, root_type) || (p->flags & GPT_FLAG_NO_AUTO) ||
                    (p->label && fstreq(p->label, "_empty")))
                        continue;
                /* Strictly newer only: among equal labels the first partition wins. */
                if (best < 0 || version_compare(p->label, partitions[best].label) > 0)
                        best = (int) i;
        }
        return best;
}
