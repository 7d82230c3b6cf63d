/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kernel:block records as the kernel side writes them, one definition
 * for the kernel module and the BPF program: an async begin event per
 * block_rq_issue and an async end event when block_rq_complete finishes
 * the request, both on the kernel process (include/fxt/kdev.h) so that
 * readers pair them, named by the operation ("block_read", ...).
 *
 * The async id names the request without showing its address: SipHash-2-4
 * of the struct request pointer under a key drawn at random per session.
 * The same request has the same id at issue and completion; a struct
 * reused later for another request is a later, separate slice.
 *
 * Each block_rq_complete ends the slice: a driver that completes a
 * request in parts (rare: SCSI on partial errors) ends it at the first
 * part, and the later parts are ends that match nothing, which readers
 * ignore. A requeued request begins again under the same id.
 */
#ifndef FXT_KBLOCK_H
#define FXT_KBLOCK_H

#include "fxt.h"
#include "kdev.h"

#define FXT_KBLOCK_BEGIN_WORDS 10u
#define FXT_KBLOCK_END_WORDS 6u

/* The operation in a request's cmd_flags (enum req_op, since 4.10). */
#define FXT_KBLOCK_REQ_OP_MASK 0xffu
#define FXT_KBLOCK_REQ_OP_READ 0u
#define FXT_KBLOCK_REQ_OP_WRITE 1u
#define FXT_KBLOCK_REQ_OP_FLUSH 2u
#define FXT_KBLOCK_REQ_OP_DISCARD 3u
/* Driver private (passthrough) requests: no sector, as blktrace says. */
#define FXT_KBLOCK_REQ_OP_DRV_IN 34u
#define FXT_KBLOCK_REQ_OP_DRV_OUT 35u

static inline __u16 fxt_kblock_op_name(__u32 cmd_flags)
{
	switch (cmd_flags & FXT_KBLOCK_REQ_OP_MASK) {
	case FXT_KBLOCK_REQ_OP_READ:
		return FXT_KDEV_STR_BLOCK_READ;
	case FXT_KBLOCK_REQ_OP_WRITE:
		return FXT_KDEV_STR_BLOCK_WRITE;
	case FXT_KBLOCK_REQ_OP_FLUSH:
		return FXT_KDEV_STR_BLOCK_FLUSH;
	case FXT_KBLOCK_REQ_OP_DISCARD:
		return FXT_KDEV_STR_BLOCK_DISCARD;
	default:
		return FXT_KDEV_STR_BLOCK_OTHER;
	}
}

static inline int fxt_kblock_is_passthrough(__u32 cmd_flags)
{
	__u32 op = cmd_flags & FXT_KBLOCK_REQ_OP_MASK;

	return op == FXT_KBLOCK_REQ_OP_DRV_IN || op == FXT_KBLOCK_REQ_OP_DRV_OUT;
}

static inline __u64 fxt_kblock_rotl(__u64 v, unsigned int n)
{
	return (v << n) | (v >> (64 - n));
}

#define FXT_KBLOCK_SIPROUND(v0, v1, v2, v3)                                \
	do {                                                               \
		v0 += v1;                                                  \
		v1 = fxt_kblock_rotl(v1, 13);                              \
		v1 ^= v0;                                                  \
		v0 = fxt_kblock_rotl(v0, 32);                              \
		v2 += v3;                                                  \
		v3 = fxt_kblock_rotl(v3, 16);                              \
		v3 ^= v2;                                                  \
		v0 += v3;                                                  \
		v3 = fxt_kblock_rotl(v3, 21);                              \
		v3 ^= v0;                                                  \
		v2 += v1;                                                  \
		v1 = fxt_kblock_rotl(v1, 17);                              \
		v1 ^= v2;                                                  \
		v2 = fxt_kblock_rotl(v2, 32);                              \
	} while (0)

/* SipHash-2-4 of one little-endian 64-bit word m under key (k0, k1). */
static inline __u64 fxt_kblock_siphash(__u64 m, __u64 k0, __u64 k1)
{
	__u64 v0 = k0 ^ 0x736f6d6570736575ull;
	__u64 v1 = k1 ^ 0x646f72616e646f6dull;
	__u64 v2 = k0 ^ 0x6c7967656e657261ull;
	__u64 v3 = k1 ^ 0x7465646279746573ull;
	__u64 b = 8ull << 56;	/* message length in the last block */

	v3 ^= m;
	FXT_KBLOCK_SIPROUND(v0, v1, v2, v3);
	FXT_KBLOCK_SIPROUND(v0, v1, v2, v3);
	v0 ^= m;
	v3 ^= b;
	FXT_KBLOCK_SIPROUND(v0, v1, v2, v3);
	FXT_KBLOCK_SIPROUND(v0, v1, v2, v3);
	v0 ^= b;
	v2 ^= 0xff;
	FXT_KBLOCK_SIPROUND(v0, v1, v2, v3);
	FXT_KBLOCK_SIPROUND(v0, v1, v2, v3);
	FXT_KBLOCK_SIPROUND(v0, v1, v2, v3);
	FXT_KBLOCK_SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

/*
 * Begin: uint32 "major" and "minor" of the disk, uint64 "sector" (0 for
 * driver private requests), uint32 "bytes", then the async id.
 */
static inline void fxt_kblock_write_begin(__u64 *w, __u64 ts, __u32 cmd_flags,
					  __u32 major, __u32 minor,
					  __u64 sector, __u32 bytes, __u64 id)
{
	w[0] = fxt_event_header(FXT_KBLOCK_BEGIN_WORDS, FXT_EVENT_ASYNC_BEGIN,
				4, 0, FXT_KDEV_STR_CAT_BLOCK,
				fxt_kblock_op_name(cmd_flags));
	w[1] = ts;
	w[2] = FXT_KDEV_KERNEL_KOID;
	w[3] = FXT_KDEV_KERNEL_KOID;
	w[4] = fxt_kdev_uint32_arg(FXT_KDEV_STR_MAJOR, major);
	w[5] = fxt_kdev_uint32_arg(FXT_KDEV_STR_MINOR, minor);
	w[6] = fxt_arg_header(FXT_ARG_UINT64, 2, FXT_KDEV_STR_SECTOR, 0);
	w[7] = fxt_kblock_is_passthrough(cmd_flags) ? 0 : sector;
	w[8] = fxt_kdev_uint32_arg(FXT_KDEV_STR_BYTES, bytes);
	w[9] = id;
}

/* End: uint32 "status", the blk_status_t the request ended with (0 = ok). */
static inline void fxt_kblock_write_end(__u64 *w, __u64 ts, __u32 cmd_flags,
					__u32 status, __u64 id)
{
	w[0] = fxt_event_header(FXT_KBLOCK_END_WORDS, FXT_EVENT_ASYNC_END, 1, 0,
				FXT_KDEV_STR_CAT_BLOCK,
				fxt_kblock_op_name(cmd_flags));
	w[1] = ts;
	w[2] = FXT_KDEV_KERNEL_KOID;
	w[3] = FXT_KDEV_KERNEL_KOID;
	w[4] = fxt_kdev_uint32_arg(FXT_KDEV_STR_STATUS, status);
	w[5] = id;
}

#endif /* FXT_KBLOCK_H */
