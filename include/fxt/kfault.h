/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kernel:fault records as the kernel side writes them, one definition
 * for the kernel module and the BPF program: an instant event
 * "page_fault" per exceptions:page_fault_user on the faulting thread
 * (pid = tgid, tid = pid, inline), with the faulting address as a
 * pointer argument and the CPU's error code.
 */
#ifndef FXT_KFAULT_H
#define FXT_KFAULT_H

#include "fxt.h"
#include "kdev.h"

#define FXT_KFAULT_WORDS 7u

/*
 * A user fault on a kernel address (a bad pointer into the upper half)
 * is recorded at address 0: a record never carries a kernel address.
 * User addresses have the top bit clear on every 64-bit Linux.
 */
static inline __u64 fxt_kfault_user_address(__u64 address)
{
	return address >> 63 ? 0 : address;
}

static inline void fxt_kfault_write(__u64 *w, __u64 ts, __u64 pid, __u64 tid,
				    __u64 address, __u32 error_code)
{
	w[0] = fxt_event_header(FXT_KFAULT_WORDS, FXT_EVENT_INSTANT, 2, 0,
				FXT_KDEV_STR_CAT_FAULT,
				FXT_KDEV_STR_PAGE_FAULT);
	w[1] = ts;
	w[2] = pid;
	w[3] = tid;
	w[4] = fxt_arg_header(FXT_ARG_POINTER, 2, FXT_KDEV_STR_ADDRESS, 0);
	w[5] = fxt_kfault_user_address(address);
	w[6] = fxt_kdev_uint32_arg(FXT_KDEV_STR_ERROR_CODE, error_code);
}

#endif /* FXT_KFAULT_H */
