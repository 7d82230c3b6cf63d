/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A shared trace buffer mapped at a 2 MiB boundary, by the provider and
 * by the manager: the provider's library makes the buffer's whole 2 MiB
 * ranges huge pages (libprovider/buffer.c), which a mapping takes as one
 * entry each only where it is aligned. On VMs with shadow page tables a
 * process's first access to each entry costs microseconds: 512 times
 * fewer entries, 512 times fewer of those.
 */
#ifndef FXT_MAP_HUGE_H
#define FXT_MAP_HUGE_H

#include <stdint.h>
#include <sys/mman.h>

#define FXT_HUGE_PAGE (2ull << 20)

/*
 * mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | flags, fd, 0),
 * at a 2 MiB boundary when size is 2 MiB or more; MAP_FAILED and errno
 * as mmap's.
 */
static inline void *fxt_map_huge_aligned(int fd, uint64_t size, int flags)
{
	uint8_t *span, *at;
	uintptr_t aligned;

	if (size < FXT_HUGE_PAGE)
		return mmap(NULL, size, PROT_READ | PROT_WRITE,
			    MAP_SHARED | flags, fd, 0);
	span = (uint8_t *)mmap(NULL, size + FXT_HUGE_PAGE, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			       -1, 0);
	if (span == MAP_FAILED)
		return MAP_FAILED;
	aligned = ((uintptr_t)span + FXT_HUGE_PAGE - 1) &
		  ~(uintptr_t)(FXT_HUGE_PAGE - 1);
	at = (uint8_t *)mmap((void *)aligned, size, PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_FIXED | flags, fd, 0);
	if (at == MAP_FAILED) {
		munmap(span, size + FXT_HUGE_PAGE);
		return MAP_FAILED;
	}
	/* The reservation around it given back. */
	if (at > span)
		munmap(span, (size_t)(at - span));
	munmap(at + size, (size_t)(span + FXT_HUGE_PAGE - at));
	return at;
}

#endif /* FXT_MAP_HUGE_H */
