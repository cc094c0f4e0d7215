/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Confidential VM detection with CPUID (and AMD's SEV_STATUS MSR). SEV, TDX and Hyper-V's isolation
 * are x86 features; on other machines no VM counts as confidential, as for systemd-stub 262.
 */
#include <stdint.h>

#include "efi-vmm.h"

#if defined(__x86_64__)
#include <cpuid.h>

#include "string-fundamental.h"

#define CPUID_HYPERVISOR_BIT (1U << 31)          /* leaf 1, ECX */
#define CPUID_SEV_LEAF 0x8000001fU
#define CPUID_SEV_BIT (1U << 1)                  /* leaf 0x8000001f, EAX */
#define MSR_AMD64_SEV 0xc0010131U
#define MSR_SEV_ENABLED_BITS 0x7U                /* SEV, SEV-ES, SEV-SNP */
#define CPUID_TDX_LEAF 0x21U
#define CPUID_HYPERV_LEAF 0x40000000U
#define CPUID_HYPERV_FEATURES 0x40000003U
#define CPUID_HYPERV_ISOLATION 0x4000000cU
#define HYPERV_ISOLATION_BIT (1U << 22)          /* features leaf, EBX */
#define HYPERV_CPU_MANAGEMENT_BIT (1U << 12)
#define HYPERV_ISOLATION_SNP 2U
#define HYPERV_ISOLATION_TDX 3U

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]) {
        __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

static uint64_t rdmsr(uint32_t msr) {
        uint32_t lo, hi;

        __asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
        return (uint64_t) hi << 32 | lo;
}

/* The 12-byte signature a leaf spells in EBX and then EDX, ECX (edx_first: the vendor leaf 0, TDX's) or
 * ECX, EDX (hypervisor leaves). */
static bool signature_is(uint32_t leaf, bool edx_first, const char *want, uint32_t *ret_eax) {
        uint32_t r[4];
        char sig[12];

        cpuid(leaf, 0, r);
        fmemcpy(sig, &r[1], 4);
        fmemcpy(sig + 4, edx_first ? &r[3] : &r[2], 4);
        fmemcpy(sig + 8, edx_first ? &r[2] : &r[3], 4);
        if (ret_eax)
                *ret_eax = r[0];
        return fmemcmp(sig, want, 12) == 0;
}

static bool hyperv_isolated(uint32_t type) {
        uint32_t max, r[4];

        if (!signature_is(CPUID_HYPERV_LEAF, false, "Microsoft Hv", &max) || max < 0x40000005U || max > 0x4000ffffU)
                return false;
        cpuid(CPUID_HYPERV_FEATURES, 0, r);
        if (!(r[1] & HYPERV_ISOLATION_BIT) || (r[1] & HYPERV_CPU_MANAGEMENT_BIT))
                return false;
        cpuid(CPUID_HYPERV_ISOLATION, 0, r);
        return (r[1] & 0xfU) == type;
}

static bool sev(void) {
        uint32_t r[4];

        cpuid(0x80000000U, 0, r);
        if (r[0] < CPUID_SEV_LEAF)
                return false;
        cpuid(CPUID_SEV_LEAF, 0, r);
        /* the MSR only exists where CPUID says SEV is there */
        if (r[0] & CPUID_SEV_BIT)
                return (rdmsr(MSR_AMD64_SEV) & MSR_SEV_ENABLED_BITS) != 0;
        return hyperv_isolated(HYPERV_ISOLATION_SNP);
}

static bool tdx(void) {
        uint32_t max, r[4];

        cpuid(0, 0, r);
        max = r[0];
        if (max >= CPUID_TDX_LEAF && signature_is(CPUID_TDX_LEAF, true, "IntelTDX    ", NULL))
                return true;
        return hyperv_isolated(HYPERV_ISOLATION_TDX);
}

bool is_confidential_vm(void) {
        uint32_t r[4];

        cpuid(1, 0, r);
        if (!(r[2] & CPUID_HYPERVISOR_BIT))
                return false;
        if (signature_is(0, true, "AuthenticAMD", NULL))
                return sev();
        if (signature_is(0, true, "GenuineIntel", NULL))
                return tdx();
        return false;
}

#else

bool is_confidential_vm(void) {
        return false;
}

#endif
