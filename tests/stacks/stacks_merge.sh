#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl merge keeps each input's stacks: the workload recorded twice
# with kernel:sample and kernel:offcpu through fxtraced and BPF (the
# second run's process another pid, its ids from 1 again), the two
# archives merged:
# - merge leaves nothing out, dump --strict reads the output, summary
#   finds no stack id defined twice;
# - summary --json --pid of each run's process gives the same functions,
#   self and total samples, and the same off-CPU stacks, in the merged
#   archive (the second's pid with its host in bits 22 and up) as in
#   its own archive;
# - the merged archive holds the Perfetto blobs of both inputs (their
#   packets all, on two sequences), and every sample packet's
#   timestamp, pid and tid are those of one of the merged archive's FXT
#   sample records: on the output's clock and pids.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${STACK_WORKLOAD:?}" "${PERFETTO_BLOBS:?}"

start_manager
for run in a b; do
	"$TRACECTL" record -o "$T/$run.fxt" --kernel=bpf \
		--kernel-buffer-size 8M \
		--categories kernel:sample,kernel:offcpu --sample-rate 997 \
		-- "$STACK_WORKLOAD" --seconds 2 >"$T/$run.out" 2>&1 ||
		fail "$run: tracectl record"
	grep -q '^pid=' "$T/$run.out" || fail "$run: the workload did not start"
done

"$TRACECTL" merge "$T/a.fxt" "$T/b.fxt" -o "$T/both.fxt" 2>"$T/merge.err" ||
	{ cat "$T/merge.err"; fail "tracectl merge"; }
if grep 'left out' "$T/merge.err"; then
	fail "merge left records out"
fi
"$TRACECTL" dump --strict "$T/both.fxt" >"$T/both.dump" 2>&1 ||
	{ tail -20 "$T/both.dump"; fail "tracectl dump --strict of the merge"; }
"$TRACECTL" summary --all "$T/both.fxt" >"$T/both.txt" 2>&1 ||
	fail "summary of the merge"
if grep 'defined again' "$T/both.txt"; then
	fail "stack ids defined twice in the merge"
fi

# same RUN PID-IN-MERGE: run's functions and off-CPU stacks, alone and
# merged, all of them (--top: the default cuts between equal counts).
same() {
	# equal counts come in the order of their ids: sorted by name
	local pid view='{functions: ([.functions[] | {name, self, total}] |
		sort_by(.name)),
		offcpu: ([.offcpu.stacks[] | {stack, count, blocked_ns}] |
		sort_by(.stack))}'
	pid=$(sed -n 's/^pid=//p' "$T/$1.out")
	"$TRACECTL" summary --json --top 1000000 --pid "$pid" "$T/$1.fxt" |
		jq -S "$view" >"$T/$1.alone" || fail "$1: summary --json"
	"$TRACECTL" summary --json --top 1000000 --pid "$2" "$T/both.fxt" |
		jq -S "$view" >"$T/$1.merged" || fail "$1: summary --json merged"
	jq -e '.functions | map(.name) | index("burn_seventy") != null' \
		"$T/$1.alone" >/dev/null || fail "$1: no burn_seventy alone"
	diff -u "$T/$1.alone" "$T/$1.merged" ||
		fail "$1: its functions differ in the merge"
}
same a "$(sed -n 's/^pid=//p' "$T/a.out")"
same b $((1 << 22 | $(sed -n 's/^pid=//p' "$T/b.out")))

# blobs FILE: "blobs=N packets=N samples=N sequences=..."
blobs() {
	python3 "$PERFETTO_BLOBS" "$1" || fail "$1: Perfetto blobs unreadable"
}
a=$(blobs "$T/a.fxt")
b=$(blobs "$T/b.fxt")
both=$(blobs "$T/both.fxt")
echo "a: $a; b: $b; merged: $both"
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
[ "$(field "$a" blobs)" -gt 0 ] && [ "$(field "$b" blobs)" -gt 0 ] ||
	fail "an input has no Perfetto blob"
for f in packets samples; do
	[ "$(field "$both" $f)" = $(($(field "$a" $f) + $(field "$b" $f))) ] ||
		fail "merged $f: $(field "$both" $f), not the inputs' sum"
done
[ "$(field "$both" sequences)" = "1,$((1 << 24 | 1))" ] ||
	fail "merged sequences: $(field "$both" sequences)"
python3 "$PERFETTO_BLOBS" --on-samples "$T/a.fxt" ||
	fail "a: Perfetto samples off its FXT samples"
python3 "$PERFETTO_BLOBS" --on-samples "$T/both.fxt" ||
	fail "merged Perfetto samples off the merged FXT samples"
echo "stacks_merge: ok"
