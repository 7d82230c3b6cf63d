/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fields of another program's records (the kernel's perf records, a
 * JIT's jitdump) read at their byte offsets, in this machine's byte
 * order: memcpy, since nothing says the bytes are aligned.
 */
#ifndef FXT_UNALIGNED_H
#define FXT_UNALIGNED_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t u32_at(const uint8_t *p, size_t off)
{
	uint32_t v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

static inline uint64_t u64_at(const uint8_t *p, size_t off)
{
	uint64_t v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

#endif /* FXT_UNALIGNED_H */
