#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Table-driven unwinding (.eh_frame) of user stacks without frame
# pointers: unwind-workload built -O2 -fomit-frame-pointer -g0 (its hot
# functions out of line) and -O2 -g (inlined into work()), each recorded
# with kernel:sample and kernel:offcpu through fxtraced and BPF, then
# checked by unwind_chains.py on tracectl summary --json --pid and
# tracectl convert:
# - off-CPU stacks name the whole chain, leaf first, other frames
#   allowed between: the lock (pthread_mutex_lock or __lll_lock_wait,
#   as libc names them) <- update_shared_state <- worker <- start_thread;
#   nanosleep <- usleep <- worker <- start_thread; read <- wait_on_pipe
#   <- worker <- start_thread;
# - hot_seventy and hot_thirty hold the main thread's self samples in the
#   split the program timed itself, within 5 points (in the -g build
#   named through their inline frames), and most of their samples'
#   callers reach work then main;
# - no stack of the workload has a kernel frame ("[kernel]", a junk word
#   a walk took for a return) between user frames.
# Every check runs for both builds before the test fails, and the figures
# (shares, samples, the chains found or what stands in their place) are
# printed, with the stack losses tracectl summary shows (not checked).
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${UNWIND_WORKLOAD_O2:?}" "${UNWIND_WORKLOAD_G:?}"
CHAINS="$(dirname "$0")/unwind_chains.py"

# Built as said: the -g build's hot functions have no symbol, the -O2
# build's do (else the checks below would test another program).
syms=$(nm "$UNWIND_WORKLOAD_G")
! grep -qw 'hot_seventy\|hot_thirty' <<<"$syms" ||
	fail "unwind-workload-g: the hot functions were not inlined"
syms=$(nm "$UNWIND_WORKLOAD_O2")
for f in hot_seventy hot_thirty work update_shared_state wait_on_pipe \
	worker; do
	grep -qw "$f" <<<"$syms" || fail "unwind-workload-o2: no symbol $f"
done

start_manager

# run BUILD WORKLOAD: recorded into $T/BUILD.fxt, its summaries and
# conversion beside it, checked; 0 when every check held.
run() {
	local b=$1 out="$T/$1.out" pid worker seventy thirty

	echo "=== $b: $(basename "$2")"
	"$TRACECTL" record -o "$T/$b.fxt" --kernel=bpf \
		--kernel-buffer-size 8M \
		--categories kernel:sample,kernel:offcpu --sample-rate 997 \
		-- "$2" --seconds 3 >"$out" 2>&1 || fail "$b: tracectl record"
	pid=$(sed -n 's/^pid=//p' "$out")
	worker=$(sed -n 's/^worker=//p' "$out")
	seventy=$(sed -n 's/^seventy_ns=//p' "$out")
	thirty=$(sed -n 's/^thirty_ns=//p' "$out")
	[ -n "$pid" ] && [ -n "$worker" ] && [ -n "$seventy" ] &&
		[ -n "$thirty" ] || fail "$b: the workload did not run"
	echo "$b: pid $pid, worker $worker, seventy_ns $seventy," \
		"thirty_ns $thirty, $(grep '^blocks=' "$out")"

	# --top: every off-CPU stack of the workload, not the first 10.
	"$TRACECTL" summary --json --top 200 --pid "$pid" "$T/$b.fxt" \
		>"$T/$b.json" || fail "$b: summary --json"
	"$TRACECTL" summary --top 20 --pid "$pid" "$T/$b.fxt" >"$T/$b.text" ||
		fail "$b: summary"
	"$TRACECTL" convert "$T/$b.fxt" -o "$T/$b.trace.json" ||
		fail "$b: convert"

	echo "--- $b: tracectl summary, off-CPU"
	sed -n '/^Off-CPU: /,/^$/p' "$T/$b.text"
	echo "--- $b: stack losses (not checked)"
	grep '^Stack losses' "$T/$b.text" || echo "(summary shows none)"
	jq -c '.stack_losses' "$T/$b.json"
	echo "--- $b: checks"
	python3 "$CHAINS" "$b" "$T/$b.json" "$T/$b.trace.json" "$pid" \
		"$worker" "$seventy" "$thirty"
}

failed=""
run o2 "$UNWIND_WORKLOAD_O2" || failed="$failed o2"
run g "$UNWIND_WORKLOAD_G" || failed="$failed g"
stop_manager
[ -z "$failed" ] || fail "checks failed in the build(s):$failed"
echo "stacks_unwind: ok"
