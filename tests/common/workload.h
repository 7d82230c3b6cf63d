/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Workloads of the overhead benchmarks (module in the guest, BPF on the
 * host), one per kernel category beyond scheduling.
 */
#ifndef FXT_TESTS_WORKLOAD_H
#define FXT_TESTS_WORKLOAD_H

/* kernel:syscall: rounds getppid() calls. Returns 0. */
int workload_syscalls(long rounds);
/*
 * kernel:irq: rounds one-byte UDP datagrams to itself over 127.0.0.1,
 * each received in the NET_RX softirq. Returns 0 or -errno.
 */
int workload_udp(long rounds);
/* Brings lo up (the guest's initramfs leaves it down); best effort. */
void workload_loopback_up(void);

#endif /* FXT_TESTS_WORKLOAD_H */
