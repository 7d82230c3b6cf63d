// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kvm-clock's page, read where the kernel's vDSO reads it. Under
 * kvm-clock, the kernel maps vCPU 0's pvclock_vcpu_time_info into every
 * process when the host set PVCLOCK_TSC_STABLE_BIT at boot (its vDSO
 * then reads the TSC and scales it with the page's mul and shift): the
 * first page of [vvar_vclock] since Linux 6.13, the second of [vvar]
 * before. The kernel answers a read of it with SIGBUS when it is not
 * in use, so the page is first copied through a pipe, where such a read
 * fails with EFAULT instead.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pvclock.h"

#define PAGE 4096ul
#define READ_TRIES 1000

/* The page's address from /proc/self/maps, or 0. */
static uintptr_t page_address(void)
{
	uintptr_t vclock = 0, vvar = 0;
	char line[256];
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		if (strstr(line, "[vvar_vclock]"))
			vclock = lo;
		else if (strstr(line, "[vvar]") && hi - lo >= 2 * PAGE)
			vvar = lo + PAGE;
	}
	fclose(f);
	return vclock ? vclock : vvar;
}

/* Readable without a signal: the kernel copies it, or says EFAULT. */
static bool readable(const volatile void *p)
{
	char copy[sizeof(struct fxt_pvclock_page)];
	bool ok;
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) < 0)
		return false;
	ok = write(fds[1], (const void *)p, sizeof(copy)) ==
		     (ssize_t)sizeof(copy) &&
	     read(fds[0], copy, sizeof(copy)) == (ssize_t)sizeof(copy);
	close(fds[0]);
	close(fds[1]);
	return ok;
}

const volatile struct fxt_pvclock_page *fxt_pvclock_find(void)
{
	uintptr_t a = page_address();

	if (!a || !readable((const void *)a))
		return NULL;
	return (const volatile struct fxt_pvclock_page *)a;
}

bool fxt_pvclock_read(const volatile struct fxt_pvclock_page *p,
		      struct fxt_pvclock *out)
{
	int tries;

	for (tries = 0; tries < READ_TRIES; tries++) {
		uint32_t v = p->version;

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		out->version = v;
		out->mul = p->tsc_to_system_mul;
		out->shift = p->tsc_shift;
		out->flags = p->flags;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (!(v & 1) && p->version == v)
			return true;
	}
	return false;
}

bool fxt_pvclock_usable(const struct fxt_pvclock *pv)
{
	return (pv->flags & FXT_PVCLOCK_TSC_STABLE_BIT) && pv->mul &&
	       pv->shift >= -31 && pv->shift <= 31 && fxt_pvclock_mult(pv);
}

uint64_t fxt_pvclock_mult(const struct fxt_pvclock *pv)
{
	if (pv->shift >= 0)
		return (uint64_t)pv->mul << pv->shift;
	return (uint64_t)pv->mul >> -pv->shift;
}

bool fxt_pvclock_changed(const struct fxt_pvclock *was,
			 const struct fxt_pvclock *now)
{
	return was->version != now->version || was->mul != now->mul ||
	       was->shift != now->shift || was->flags != now->flags;
}
