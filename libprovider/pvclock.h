/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kvm-clock page a KVM host keeps for its guest (pvclock.c), as the
 * kernel's vDSO reads it: what the trace clock needs to know whether the
 * TSC may stand in for CLOCK_BOOTTIME under kvm-clock, and at what rate.
 */
#ifndef FXT_PROVIDER_PVCLOCK_H
#define FXT_PROVIDER_PVCLOCK_H

#include <stdbool.h>
#include <stdint.h>

/*
 * struct pvclock_vcpu_time_info (the kernel's asm/pvclock-abi.h, an ABI
 * between host and guest): vCPU 0's is the first of the vDSO's pvclock
 * page. ns = system_time + ((tsc - tsc_timestamp) <<> tsc_shift) *
 * tsc_to_system_mul >> 32; version is odd while the host updates it.
 */
struct fxt_pvclock_page {
	uint32_t version;
	uint32_t pad0;
	uint64_t tsc_timestamp;
	uint64_t system_time;
	uint32_t tsc_to_system_mul;
	int8_t tsc_shift;
	uint8_t flags;
	uint8_t pad[2];
} __attribute__((__packed__));

/* The host's promise: one TSC, synchronised across the vCPUs. */
#define FXT_PVCLOCK_TSC_STABLE_BIT (1u << 0)

/* A consistent copy of what the re-anchors compare. */
struct fxt_pvclock {
	uint32_t version;
	uint32_t mul;
	int8_t shift;
	uint8_t flags;
};

/* The page mapped in this process, or NULL (not kvm-clock's vDSO mode). */
const volatile struct fxt_pvclock_page *fxt_pvclock_find(void);
/* A copy taken between two equal even versions; false: none came. */
bool fxt_pvclock_read(const volatile struct fxt_pvclock_page *p,
		      struct fxt_pvclock *out);
/* Stable, and a scale the TSC line can use. */
bool fxt_pvclock_usable(const struct fxt_pvclock *pv);
/* ns per TSC tick << 32, as struct fxt_internal_clock's mult. */
uint64_t fxt_pvclock_mult(const struct fxt_pvclock *pv);
/* The host changed the page since `was`: re-calibrate. */
bool fxt_pvclock_changed(const struct fxt_pvclock *was,
			 const struct fxt_pvclock *now);

#endif /* FXT_PROVIDER_PVCLOCK_H */
