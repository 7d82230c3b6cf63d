#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# kernel:sample and kernel:offcpu with --kernel=bpf, end to end through
# fxtraced, checked at the level of the kernel side's raw records
# (include/fxt/ksample.h) in the archive (check-raw-samples):
# - the workload's worker thread, burning in burn_seventy() and
#   burn_thirty() 7 to 3, has on-CPU samples whose leaf user PC is in
#   one of them, ~70% in burn_seventy (55..85%);
# - its blocker thread, blocked in read() on a pipe fed every 20 ms, has
#   off-CPU records with blocked_ns > 0, kernel and user frames;
# - the same with the workload in a child that exits before the trace
#   stops; stop prints kernel:sample and kernel:offcpu rows;
# - --sample-rate and --offcpu-min are checked, out of range a usage
#   error; --offcpu-min 1s leaves no off-CPU record of 20 ms blocks.
# Note: once the manager turns raw records into stack records
# (include/fxt/stacks.h), they no longer reach the archive as they are,
# and this test is to read the stack records instead.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${STACK_WORKLOAD:?}" "${CHECK_RAW_SAMPLES:?}"

# range FUNCTION OUT: "runtime address,size" of FUNCTION, the address
# the workload printed in OUT, the size from the binary's symbols.
range() {
	addr=$(sed -n "s/^$1=//p" "$2")
	size=$(nm -S "$STACK_WORKLOAD" | awk -v f="$1" '$4 == f { print $2 }')
	[ -n "$addr" ] && [ -n "$size" ] || fail "$1: no address or size"
	echo "$addr,0x$size"
}

# record NAME ARGS...: the workload recorded into $T/NAME.fxt, its
# output in $T/NAME.out (tracectl's stop table included).
record() {
	name=$1
	shift
	"$TRACECTL" record -o "$T/$name.fxt" --kernel=bpf \
		--kernel-buffer-size 8M \
		--categories kernel:sample,kernel:offcpu "$@" >"$T/$name.out" 2>&1
}

# check NAME: the raw records of $T/NAME.fxt against the workload.
check() {
	out="$T/$1.out"
	pid=$(sed -n 's/^pid=//p' "$out")
	[ -n "$pid" ] || fail "$1: the workload did not start"
	"$CHECK_RAW_SAMPLES" "$T/$1.fxt" "$pid" \
		"$(sed -n 's/^worker=//p' "$out")" \
		"$(sed -n 's/^blocker=//p' "$out")" \
		"$(range burn_seventy "$out")" "$(range burn_thirty "$out")" ||
		fail "$1: raw samples"
}

start_manager

start_usage "--sample-rate 0: give 1 to 10000" --sample-rate 0
start_usage "--sample-rate 20000: give 1 to 10000" --sample-rate 20000
start_usage "--offcpu-min 5: give 0 or a duration" --offcpu-min 5

record own --sample-rate 997 -- "$STACK_WORKLOAD" --seconds 2 ||
	fail "own: tracectl record"
check own
for cat in kernel:sample kernel:offcpu; do
	awk -v c=$cat '$1 == c && $3 > 0 { f = 1 } END { exit !f }' \
		"$T/own.out" || fail "own: no $cat row with records at stop"
done

record child -- "$STACK_WORKLOAD" --child --seconds 2 ||
	fail "child: tracectl record"
check child

# 20 ms blocks are all shorter than 1 s: no off-CPU record of them.
record long --offcpu-min 1s -- "$STACK_WORKLOAD" --seconds 1 ||
	fail "long: tracectl record"
"$CHECK_RAW_SAMPLES" "$T/long.fxt" "$(sed -n 's/^pid=//p' "$T/long.out")" \
	"$(sed -n 's/^worker=//p' "$T/long.out")" \
	"$(sed -n 's/^blocker=//p' "$T/long.out")" \
	"$(range burn_seventy "$T/long.out")" \
	"$(range burn_thirty "$T/long.out")" >"$T/long.check" &&
	fail "long: off-CPU records of blocks shorter than --offcpu-min"
grep -q "of the blocker, 0 blocked" "$T/long.check" ||
	fail "long: $(cat "$T/long.check")"

stop_manager
echo "stacks_bpf: ok"
