#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Interrupts inside the BPF programs' writers: a thread's 100000 system
# calls (kernel:syscall writes at each entry and exit, interrupts on)
# beside a thread on the same CPU woken by its timer's interrupt every
# 50 us (its wakeup written from inside the interrupt, often while a
# system call's record is). In a oneshot trace with room for all of it,
# no kernel record is dropped: the interrupted writer writes the
# interrupt's record after its own; every wakeup of the napper is in the
# archive, in the dump's strict order.
set -eu -o pipefail

if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${KDEV_WORKLOAD:?}"

start_manager
"$TRACECTL" record -o "$T/nested.fxt" --kernel=bpf --mode oneshot \
	--kernel-buffer-size 64M --categories kernel:sched,kernel:syscall \
	-- "$KDEV_WORKLOAD" nested 100000 >"$T/record.out" ||
	fail "tracectl record"
grep -q "^syscalls=100000$" "$T/record.out" || fail "the workload did not run"
drops=$(awk '$1 == "kernel" { print $5 }' "$T/record.out")
[ "$drops" = 0 ] || fail "$drops kernel records dropped with room for all"
grep -q "^Warning" "$T/record.out" && fail "a warning: $(grep '^Warning' "$T/record.out")"
"$TRACECTL" dump --strict "$T/nested.fxt" >"$T/dump.out" || fail "dump --strict"
echo "nested: $(grep -c ' thread_wakeup ' "$T/dump.out") wakeups," \
	"$(grep -c 'category="kernel:syscall"' "$T/dump.out") system call records, no drop"
stop_manager
echo "nested: ok"
