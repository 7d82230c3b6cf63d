#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# kernel:sample and kernel:offcpu with --kernel=bpf, end to end through
# fxtraced, checked in the archive's form (include/fxt/stacks.h) by
# check-stack-samples:
# - no raw record of the kernel side reaches the archive, no word of it
#   lies in the kernel's text (/proc/kallsyms), tracectl dump --strict
#   reads it;
# - the workload's worker thread, burning in burn_seventy() and
#   burn_thirty() 7 to 3, has on-CPU samples whose leaf user frame is in
#   one of them, ~70% in burn_seventy (65..75%);
# - its blocker thread, blocked in read() on a pipe fed every 20 ms, has
#   off-CPU samples with blocked_ns > 0, kernel and user frames;
# - the same with the workload in a child that exits before the trace
#   stops; stop prints kernel:sample and kernel:offcpu rows;
# - a snapshot of a circular trace is complete by itself: the same
#   checks on the snapshot, taken after the workload ran;
# - --sample-rate and --offcpu-min are checked, out of range a usage
#   error; --offcpu-min 1s leaves no off-CPU sample of 20 ms blocks;
# - with every kernel category in 64K rings, circular and streaming,
#   the archive reads back strictly, samples in it, no raw record;
# - the stack losses (include/fxt/stacks_losses.h): every reason in
#   tracectl status while a trace runs, none fewer at stop; the archive's
#   record in summary --json and its text line, each count the same as
#   stop's line and fxtraced's journal say; samples_dropped the DROPS of
#   stop's kernel:sample row.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${STACK_WORKLOAD:?}" "${CHECK_STACK_SAMPLES:?}"

# range FUNCTION OUT: "runtime address,size,ELF address" of FUNCTION, the
# address the workload printed in OUT, the others from its symbols.
range() {
	addr=$(sed -n "s/^$1=//p" "$2")
	sym=$(nm -S "$STACK_WORKLOAD" | awk -v f="$1" '$4 == f { print "0x" $2 ",0x" $1 }')
	[ -n "$addr" ] && [ -n "$sym" ] || fail "$1: no address or size"
	echo "$addr,${sym#*,}" | awk -F, -v s="${sym%%,*}" '{ print $1 "," s "," $2 }'
}

# samples NAME: check-stack-samples on $T/NAME.fxt against the workload.
samples() {
	out="$T/$1.out"
	"$CHECK_STACK_SAMPLES" "$T/$1.fxt" /proc/kallsyms \
		"$(sed -n 's/^pid=//p' "$out")" \
		"$(sed -n 's/^worker=//p' "$out")" \
		"$(sed -n 's/^blocker=//p' "$out")" \
		"$(range burn_seventy "$out")" "$(range burn_thirty "$out")"
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

# check NAME: $T/NAME.fxt read strictly, its samples against the workload.
check() {
	grep -q '^pid=' "$T/$1.out" || fail "$1: the workload did not start"
	"$TRACECTL" dump --strict "$T/$1.fxt" >"$T/$1.dump" 2>&1 ||
		{ tail -20 "$T/$1.dump"; fail "$1: tracectl dump --strict"; }
	samples "$1" >"$T/$1.check" ||
		{ cat "$T/$1.check"; fail "$1: stack samples"; }
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

# losses_check: the stack losses of losses.fxt, as said above.
losses_check() {
	local n during after said
	for n in samples_dropped offcpu_dropped kernel_depth_limit \
		user_depth_limit user_read_fault leaf_caller_unread \
		junk_frame_word mappings_dropped mappings_lost unnamed_unreadable \
		unnamed_unopened unnamed_too_large unnamed_over_budget; do
		during=$(awk -v n=$n 'f && $1 == n { print $2 }
			/^Stack losses:$/ { f = 1 }' "$T/losses.status")
		[ -n "$during" ] || fail "losses: status shows no $n"
		after=$(jq -er --arg n $n '.stack_losses[$n]' "$T/losses.sum") ||
			fail "losses: summary --json has no stack_losses.$n"
		[ "$after" -ge "$during" ] ||
			fail "losses: $n $after at stop, $during before"
		said=$(awk -v n=$n '/^Stack losses: / { gsub(/,/, "")
			for (i = 3; i < NF; i++) if ($i == n) print $(i + 1) }' \
			"$T/losses.stop")
		[ "${said:-0}" -eq "$after" ] ||
			fail "losses: stop says $n ${said:-0}, the archive $after"
		if [ "$after" -gt 0 ]; then
			grep -q "^Stack losses (counted while recording): .*$n $after" \
				"$T/losses.text" || fail "losses: summary's line lacks $n $after"
		fi
	done
	jq -e '.stack_losses.recorded and .stack_losses.unknown == 0' \
		"$T/losses.sum" >/dev/null || fail "losses: no record in the archive"
	# fxtraced's journal at stop: the same counts, when it says them.
	said=$(sed -n "$1,\$ s/.* \([0-9]*\) stack samples lack the caller.*/\1/p" \
		"$T/fxtraced.log")
	[ "${said:-0}" -eq "$(jq .stack_losses.leaf_caller_unread "$T/losses.sum")" ] ||
		fail "losses: the journal says ${said:-0} callers unread"
	said=$(sed -n "$1,\$ s/.*walks cut short: \([0-9]*\) user stacks at the depth limit, \([0-9]*\) user stacks not readable.*, \([0-9]*\) ended at a junk word.*/\1 \2 \3/p" \
		"$T/fxtraced.log")
	[ "${said:-0 0 0}" = "$(jq -r '.stack_losses | "\(.user_depth_limit) \(.user_read_fault) \(.junk_frame_word)"' "$T/losses.sum")" ] ||
		fail "losses: the journal says walks cut: ${said:-none}"
	drops=$(awk '$1 == "kernel:sample" { print $5 }' "$T/losses.stop")
	[ "$drops" = "$(jq .stack_losses.samples_dropped "$T/losses.sum")" ] ||
		fail "losses: stop's kernel:sample drops $drops"
}

# losses_seen: status while the trace runs counts some loss (the
# workload's libc leaves without a frame pointer make some every run).
losses_seen() {
	"$TRACECTL" status >"$T/losses.status" 2>&1 &&
		awk 'f { n += $2 } /^Stack losses:$/ { f = 1 } END { exit !n }' \
			"$T/losses.status"
}

# Streaming: the rings are drained while the trace runs, so status's
# counts grow with it.
log_from=$(($(wc -l <"$T/fxtraced.log") + 1))
"$TRACECTL" start -o "$T/losses.fxt" --kernel=bpf --kernel-buffer-size 8M \
	--mode streaming --categories kernel:sample,kernel:offcpu \
	>"$T/losses.start" 2>&1 || fail "losses: $(cat "$T/losses.start")"
"$STACK_WORKLOAD" --seconds 1 >"$T/losses.out" ||
	fail "losses: the workload failed"
poll losses_seen || fail "losses: status counts none: $(cat "$T/losses.status")"
"$TRACECTL" stop >"$T/losses.stop" 2>&1 ||
	fail "losses: $(cat "$T/losses.stop")"
"$TRACECTL" summary --json "$T/losses.fxt" >"$T/losses.sum" ||
	fail "losses: summary --json"
"$TRACECTL" summary "$T/losses.fxt" >"$T/losses.text" ||
	fail "losses: summary"
losses_check "$log_from"

record child -- "$STACK_WORKLOAD" --child --seconds 2 ||
	fail "child: tracectl record"
check child

# A snapshot holds the tables of the stacks it holds, and no raw record.
"$TRACECTL" start -o "$T/circ.fxt" --mode circular --kernel=bpf \
	--kernel-buffer-size 8M --categories kernel:sample,kernel:offcpu \
	>"$T/circ.start" 2>&1 || fail "circular: $(cat "$T/circ.start")"
"$STACK_WORKLOAD" --seconds 2 >"$T/snap.out" ||
	fail "circular: the workload failed"
"$TRACECTL" snapshot -o "$T/snap.fxt" >>"$T/snap.out" 2>&1 ||
	fail "circular: $(cat "$T/snap.out")"
"$TRACECTL" stop >"$T/circ.stop" 2>&1 || fail "circular: $(cat "$T/circ.stop")"
check snap
# Each holds its stack losses, the snapshot its own.
for f in snap circ; do
	"$TRACECTL" summary --json "$T/$f.fxt" >"$T/$f.sum" || fail "$f: summary"
	jq -e '.stack_losses.recorded' "$T/$f.sum" >/dev/null ||
		fail "$f: no stack losses record"
done

# 20 ms blocks are all shorter than 1 s: no off-CPU sample of them.
record long --offcpu-min 1s -- "$STACK_WORKLOAD" --seconds 1 ||
	fail "long: tracectl record"
samples long >"$T/long.check" &&
	fail "long: off-CPU samples of blocks shorter than --offcpu-min"
grep -q "of the blocker, 0 blocked" "$T/long.check" ||
	fail "long: $(cat "$T/long.check")"

# Every kernel category at once in small rings, each buffering mode
# (circular overwrites long records whole): an archive that reads back
# without a problem, samples in it.
for mode in circular streaming; do
	"$TRACECTL" record -o "$T/$mode.fxt" --kernel=bpf --mode $mode \
		--kernel-buffer-size 64K --categories \
		kernel:sched,kernel:proc,kernel:irq,kernel:syscall,kernel:sample,kernel:offcpu \
		-- "$STACK_WORKLOAD" --seconds 1 >"$T/$mode.out" 2>&1 ||
		fail "$mode: tracectl record"
	"$TRACECTL" dump --strict "$T/$mode.fxt" >"$T/$mode.dump" 2>&1 ||
		{ grep 'tracectl dump' "$T/$mode.dump" | head; fail "$mode: dump --strict"; }
	grep -q 'name="cpu_sample"' "$T/$mode.dump" || fail "$mode: no sample"
	grep 'name="cpu_sample"' "$T/$mode.dump" | grep -qv ' size=0$' &&
		fail "$mode: a raw sample record in the archive"
done

stop_manager
echo "stacks_bpf: ok"
