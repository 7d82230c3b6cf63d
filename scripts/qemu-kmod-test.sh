#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds the fxt_sched module against Debian's cloud kernel headers and
# the static guest test programs, boots that kernel under qemu (TCG) with
# a busybox initramfs, runs the module's tests and benchmark there and
# prints one line: "kmod: N passed, M failed". Exit status: 0 if all
# passed. The serial log is kept in $FXT_QEMU_LOG (default: in the work
# directory, printed on failure).
#
# FXT_KMOD_TESTS="a b": run only these guest tests (no benchmark).
# FXT_QEMU_VERBOSE=1: boot without "quiet" (kernel messages on the log).
set -eu -o pipefail
cd "$(dirname "$0")/.."
top=$(pwd)

need() {
	command -v "$1" >/dev/null 2>&1 ||
		[ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ]
}
if ! need qemu-system-x86_64 || ! need cpio || [ ! -x /bin/busybox ] ||
	! ls -d /usr/src/linux-headers-*-cloud-amd64 >/dev/null 2>&1; then
	scripts/install-deps.sh
fi

kdir=$(ls -d /usr/src/linux-headers-*-cloud-amd64 | sort -V | tail -n 1)
kver=${kdir#/usr/src/linux-headers-}
vmlinuz=/boot/vmlinuz-$kver
if [ ! -r "$vmlinuz" ]; then
	echo "kmod: 0 passed, 1 failed ($vmlinuz missing: apt-get install linux-image-$kver)"
	exit 1
fi

work=$(mktemp -d /tmp/fxt-kmod.XXXXXX)
trap 'rm -rf "$work"' EXIT
log=${FXT_QEMU_LOG:-$work/serial.log}

# Build in a copy so the source tree stays free of kbuild output.
mkdir -p "$work/src" "$work/root/bin"
cp -r Kbuild kmod include "$work/src/"
if ! make -s -C "$kdir" M="$work/src" W=1 modules >"$work/build.log" 2>&1 ||
	grep -q "warning:" "$work/build.log"; then
	cat "$work/build.log"
	echo "kmod: 0 passed, 1 failed (module build against $kver)"
	exit 1
fi
cp "$work/src/kmod/fxt_sched.ko" "$work/root/"
# kernel:block's guest test writes to a loop device (a module there).
loop_ko=/lib/modules/$kver/kernel/drivers/block/loop.ko
[ -r "$loop_ko" ] && cp "$loop_ko" "$work/root/"

cflags="-static -O2 -std=gnu11 -Wall -Wextra -Werror -Iinclude -Idaemon/fxtraced/kernel -Itests/common"
# shellcheck disable=SC2086
if ! gcc $cflags -o "$work/root/bin/kmod_test" tests/kernel/kmod_test.c \
	tests/kernel/kring.c tests/kernel/krec.c tests/common/pingpong.c \
	tests/common/kdev_work.c daemon/fxtraced/kernel/backend_kmod.c -lpthread ||
	! gcc $cflags -o "$work/root/bin/kmod_bench" tests/kernel/bench.c \
	tests/kernel/kring.c tests/common/pingpong.c tests/common/workload.c \
	tests/common/kdev_work.c \
	-lpthread ||
	! gcc $cflags -o "$work/root/bin/kdev-workload" tests/bpf/kdev_workload.c \
	tests/common/kdev_work.c -lpthread ||
	! gcc $cflags -o "$work/root/bin/mem-workload" tests/bpf/mem_workload.c ||
	! gcc $cflags -fno-omit-frame-pointer -o "$work/root/bin/kstack_test" \
	tests/kernel/kstack_test.c tests/kernel/kring.c; then
	echo "kmod: 0 passed, 1 failed (guest test programs do not build)"
	exit 1
fi

# The manager's programs for the archive and end-to-end tests, and the
# BPF backend's benchmark (module, BPF and ftrace in one boot): dynamic
# (libsystemd has no static library), so they go in with their ldd
# dependencies and the loader. From the project's build if there is one.
build=${FXT_BUILD_DIR:-build}
progs="daemon/tracectl/tracectl daemon/fxtraced/fxtraced
tests/integration/proto-provider tests/kernel/check-kcat
tests/kernel/check-kmem tests/stacks/stack-workload
tests/stacks/check-stack-samples tests/bench/bpf/bpf_overhead
tests/stacks/unwind-workload-o2 tests/stacks/unwind-workload-g"
if [ ! -x "$build/daemon/tracectl/tracectl" ]; then
	build=$work/build
	# shellcheck disable=SC2086
	{ meson setup "$build" && ninja -C "$build" $progs; } \
		>"$work/meson.log" 2>&1 ||
		echo "qemu-kmod-test: manager programs do not build (see $work/meson.log)"
fi
for prog in $progs; do
	[ -x "$build/$prog" ] || continue
	cp "$build/$prog" "$work/root/bin/"
	for lib in $(ldd "$build/$prog" | grep -o '/[^ ]*'); do
		mkdir -p "$work/root$(dirname "$lib")"
		cp -L "$lib" "$work/root$lib"
	done
done
cp scripts/qemu/e2e_lib.sh "$work/root/bin/e2e_lib.sh"
cp scripts/qemu/e2e.sh "$work/root/bin/e2e.sh"
cp scripts/qemu/e2e_kcat.sh "$work/root/bin/e2e_kcat.sh"
cp scripts/qemu/e2e_latency.sh "$work/root/bin/e2e_latency.sh"
cp scripts/qemu/e2e_mem.sh "$work/root/bin/e2e_mem.sh"
cp scripts/qemu/e2e_stacks.sh "$work/root/bin/e2e_stacks.sh"
cp scripts/qemu/e2e_unwind.sh "$work/root/bin/e2e_unwind.sh"
# The guest has no nm: stack-workload's function sizes and ELF addresses
# from here.
[ ! -x "$build/tests/stacks/stack-workload" ] ||
	nm -S "$build/tests/stacks/stack-workload" |
	awk '$4 == "burn_seventy" || $4 == "burn_thirty" { print $4, $2, $1 }' \
		>"$work/root/stack-workload.sizes"

# libc's own functions (start_thread, __pthread_mutex_lock) are named by
# its debug file where the host has one (libc6-dbg), as on the host:
# e2e_unwind.sh's chains end there.
libc=$(ldd "$build/tests/stacks/unwind-workload-o2" 2>/dev/null |
	sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')
bid=$([ -z "$libc" ] || readelf -n "$libc" | sed -n 's/.*Build ID: //p')
dbg=/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug
if [ -n "$bid" ] && [ -r "$dbg" ]; then
	mkdir -p "$work/root${dbg%/*}"
	cp -L "$dbg" "$work/root$dbg"
fi

cp /bin/busybox "$work/root/bin/busybox"
cp scripts/qemu/init "$work/root/init"
mkdir -p "$work/root/proc" "$work/root/sys" "$work/root/dev"
(cd "$work/root" && find . | cpio -o -H newc --quiet) | gzip -1 >"$work/initrd.gz"

# A lockup or RCU stall ends the boot at once (panic=-1, -no-reboot).
# TCG's TSC is one counter for every vCPU, but the guest cannot calibrate
# it and falls back to the HPET (slow to read under TCG, and it moves
# ftrace to its global clock): tsc=reliable keeps both on the TSC as on
# real hardware. idle=halt avoids the AMD E400 idle routine that the TCG
# CPU model selects (broadcast timers; stalls seen under host load).
append="console=ttyS0 panic=-1 softlockup_panic=1 tsc=reliable idle=halt"
append="$append sysctl.kernel.panic_on_rcu_stall=1"
[ -z "${FXT_QEMU_VERBOSE:-}" ] && append="$append quiet"
[ -n "${FXT_KMOD_TESTS:-}" ] &&
	append="$append fxt_tests=$(echo "$FXT_KMOD_TESTS" | tr ' ' ,)"

# One TCG thread for both vCPUs (thread=single), not qemu's default
# multi-threaded TCG: under MTTCG the guest hangs while tracepoints are
# switched on and off, with or without this module. Enabling and
# disabling the ftrace sched_switch/sched_wakeup events 3000 times, the
# module not loaded ("Not tainted"), hung 6 boots out of 6 (after 500 to
# 2000 cycles), each the same way as start_stop_1000 did: CPU1 in
# text_poke_bp_batch() -> smp_call_function_many_cond(), waiting for CPU0
# to take the IPI that ends the live patch of the tracepoint's static
# call; CPU0, interrupts off, trapping again and again in exc_int3 at the
# sched_switch site in __schedule() (it keeps running the int3 that the
# patch already removed, as if its translated code were stale), then an
# RCU stall, soft lockup or a silent hang. With thread=single the same
# loop finished its 3000 cycles on every boot: cross-CPU code patching
# under MTTCG is qemu's problem, not the module's.
status=0
timeout "${FXT_QEMU_TIMEOUT:-1200}" qemu-system-x86_64 -accel tcg,thread=single \
	-m 1G -smp 2 -nographic \
	-no-reboot -nic none -kernel "$vmlinuz" -initrd "$work/initrd.gz" \
	-append "$append" </dev/null >"$log" 2>&1 ||
	status=$?

tr -d '\r' <"$log" | grep -E "^(PASS|FAIL|  |kmod-bench: |bpf-bench: )" || true
result=$(tr -d '\r' <"$log" | grep -o "kmod: [0-9]* passed, [0-9]* failed" | tail -n 1)
if [ -z "$result" ]; then
	tail -n 60 "$log"
	echo "kmod: 0 passed, 1 failed (no result from the guest; qemu status $status)"
	exit 1
fi
echo "$result"
case "$result" in
*" 0 failed") exit 0 ;;
*) exit 1 ;;
esac
