#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What users see of real stack samples: the workload (burn_seventy() and
# burn_thirty() 7 to 3 on its worker thread, block_on_pipe() blocking in
# read() on its blocker thread) recorded with kernel:sample and
# kernel:offcpu through fxtraced and BPF, then:
# - tracectl summary --json: the worker's top functions by self samples
#   are burn_seventy and burn_thirty, burn_seventy with 65..75% of the two
#   (within 5 points of 70%); main, running none itself,
#   is in the totals of more than 100; a blocking stack runs
#   from the kernel's pipe read (leaf first) through libc's read() and
#   block_on_pipe() to the blocker thread's start (read() keeps no
#   frame: the frame-pointer walk skips its caller, which the manager
#   finds from read()'s call frame information and the stack words);
# - tracectl convert: every sample's sf and every parent resolve, the
#   blocked slices of the blocker carry sf;
# - tracectl report: its flame graph data holds both functions and the
#   blocker's thread start;
# - summary --json --pid of the workload alone, in the process and in a
#   child that exited before the stop: 70/30 within 5 points, and the
#   longest off-CPU stack is block_on_pipe()'s, from the pipe read.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
. "$(dirname "$0")/../common/report_data.sh"
: "${STACK_WORKLOAD:?}"

start_manager
"$TRACECTL" record -o "$T/w.fxt" --kernel=bpf --kernel-buffer-size 8M \
	--categories kernel:sample,kernel:offcpu --sample-rate 997 \
	-- "$STACK_WORKLOAD" --seconds 2 >"$T/w.out" 2>&1 ||
	fail "tracectl record"
worker=$(sed -n 's/^worker=//p' "$T/w.out")
blocker=$(sed -n 's/^blocker=//p' "$T/w.out")
[ -n "$worker" ] && [ -n "$blocker" ] || fail "the workload did not start"

# check FILE JQ-EXPR WHAT (with $worker and $blocker as numbers)
check() {
	jq -e --argjson w "$worker" --argjson b "$blocker" "$2" "$1" >/dev/null ||
		fail "$3"
}

"$TRACECTL" summary --json "$T/w.fxt" >"$T/sum.json" || fail "summary --json"
check "$T/sum.json" '.stacks.samples > 100 and .stacks.offcpu_samples > 0' \
	"too few samples"
check "$T/sum.json" '[.thread_functions[] | select(.tid == $w)][0].functions |
	any(.name == "main" and .self == 0 and .total > 100)' "main in too few totals"
check "$T/sum.json" '[.thread_functions[] | select(.tid == $w)][0].functions |
	map({(.name): .self}) | add | (.burn_seventy // 0) as $s | (.burn_thirty // 0) as $t |
	$s + $t > 100 and $s * 100 >= ($s + $t) * 65 and $s * 100 <= ($s + $t) * 75' \
	"burn_seventy is not 65..75% of the worker's samples in the two"
check "$T/sum.json" '[.offcpu.stacks[] | select(.stack[0] | test("pipe_read"))][0] |
	.blocked_ns > 0 and .count > 0 and (.stack | index("start_thread")) > 0' \
	"no blocking stack from a pipe read to a thread start"
check "$T/sum.json" '[.offcpu.stacks[] | select(.stack[0] | test("pipe_read"))][0].stack |
	index("block_on_pipe") as $i | $i != null and (.[$i - 1] | test("read")) and
	.[$i + 1] == "blocker"' \
	"the pipe read's blocking stack lacks block_on_pipe() under read()"

# profile NAME: the measure on $T/NAME.fxt, the workload's process
# alone (summary --pid): its two burners within 5 points of 70/30 by self
# samples, and block_on_pipe() in its longest off-CPU stack, whose leaf is
# the kernel's pipe read, named.
profile() {
	local pid
	pid=$(sed -n 's/^pid=//p' "$T/$1.out")
	"$TRACECTL" summary --json --pid "$pid" "$T/$1.fxt" >"$T/$1.sum" ||
		fail "$1: summary --json --pid"
	jq -e '.functions | map({(.name): .self}) | add |
		(.burn_seventy // 0) as $s | (.burn_thirty // 0) as $t |
		$s + $t > 100 and $s * 100 >= ($s + $t) * 65 and
		$s * 100 <= ($s + $t) * 75' "$T/$1.sum" >/dev/null ||
		fail "$1: burn_seventy is not 65..75% of the two burners"
	jq -e '.offcpu.stacks | max_by(.blocked_ns).stack |
		(.[0] | test("pipe_read")) and index("block_on_pipe") != null' \
		"$T/$1.sum" >/dev/null ||
		fail "$1: the longest off-CPU stack is not block_on_pipe's pipe read"
}
cp "$T/w.out" "$T/main.out"
cp "$T/w.fxt" "$T/main.fxt"
profile main
# A child that exits before the stop: its stacks are named all the same.
"$TRACECTL" record -o "$T/child.fxt" --kernel=bpf --kernel-buffer-size 8M \
	--categories kernel:sample,kernel:offcpu --sample-rate 997 \
	-- "$STACK_WORKLOAD" --child --seconds 2 >"$T/child.out" 2>&1 ||
	fail "child: tracectl record"
profile child

"$TRACECTL" summary "$T/w.fxt" >"$T/sum.txt" || fail "summary"
grep -q 'burn_seventy (stack-workload)' "$T/sum.txt" ||
	{ cat "$T/sum.txt"; fail "no burn_seventy row in the table"; }

"$TRACECTL" convert "$T/w.fxt" -o "$T/w.json" || fail "convert"
check "$T/w.json" '[.stackFrames as $f | $f[] | select(.parent != null and ($f[.parent] == null))] | length == 0' \
	"a stackFrames parent names no frame"
check "$T/w.json" '(.samples | length > 100) and ([.stackFrames as $f | .samples[] | select($f[.sf | tostring] == null)] | length == 0)' \
	"samples without a frame"
check "$T/w.json" '[.traceEvents[] | select(.name == "blocked" and .tid == $b and .sf != null)] | length > 0' \
	"no blocked slice of the blocker with its stack"

"$TRACECTL" report "$T/w.fxt" -o "$T/w.html" || fail "report"
report_data "$T/w.html" >"$T/data.json"
jq -e '[.flame.functions[][0]] | index("burn_seventy") and index("burn_thirty") and index("start_thread")' \
	"$T/data.json" >/dev/null || fail "the flame graphs lack the workload's functions"
echo "stacks_views: ok"
