#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl why on why-workload's slowest request (the one the hog
# delays), recorded with kernel:sched, kernel:sample and kernel:offcpu:
# the path R -> W (pipe) -> C (mutex); C running crunch(), W running
# transform() and R waiting for its CPU behind the hog each within 5
# points of the share the program timed; the shares add up to the wall
# time. With kernel:sched alone: the same threads and states, no
# function, and what would tell more.
set -eu -o pipefail

if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${WHY_WORKLOAD:?}"
[ "$(nproc)" -ge 2 ] || { echo "skip: needs 2 CPUs"; exit 77; }

start_manager
"$TRACECTL" record -o "$T/full.fxt" --kernel=bpf --kernel-buffer-size 8M \
	--categories app,kernel:sched,kernel:sample,kernel:offcpu,kernel:irq,kernel:mem \
	--sample-rate 997 -- "$WHY_WORKLOAD" >"$T/w.out" 2>"$T/w.err" ||
	fail "tracectl record: $(cat "$T/w.err")"
"$TRACECTL" record -o "$T/sched.fxt" --kernel=bpf \
	--categories app,kernel:sched -- "$WHY_WORKLOAD" >"$T/s.out" 2>&1 ||
	fail "tracectl record (kernel:sched)"
stop_manager
cat "$T/w.out"

"$TRACECTL" why --slice request --top 1 "$T/full.fxt" | tee "$T/why.txt" ||
	fail "tracectl why"
"$TRACECTL" why --slice request --top 10 --json "$T/full.fxt" >"$T/why.json" ||
	fail "tracectl why --json"
"$TRACECTL" why --slice request --top 10 --json "$T/sched.fxt" >"$T/sched.json" ||
	fail "tracectl why --json (kernel:sched)"
python3 "$(dirname "$0")/check_why.py" "$T/w.out" "$T/why.json" full ||
	fail "the critical path with samples"
python3 "$(dirname "$0")/check_why.py" "$T/s.out" "$T/sched.json" sched ||
	fail "the critical path with kernel:sched alone"
grep -q "path: R (" "$T/why.txt" || fail "no path line"

# --annotate: the archive, then per hop a "why" slice and instant on the
# hop's thread and a flow from the hop before; dump --strict reads it.
"$TRACECTL" why --slice request --top 1 --json --annotate "$T/ann.fxt" \
	"$T/full.fxt" >"$T/top1.json" || fail "tracectl why --annotate"
"$TRACECTL" dump --strict "$T/ann.fxt" >"$T/ann.dump" || fail "dump --strict of --annotate"
hops=$(jq '.instances[0].path | length' "$T/top1.json")
[ "$hops" -ge 3 ] || fail "a path of $hops hops"
[ "$(grep -c 'duration_complete .*category="why"' "$T/ann.dump")" -eq "$hops" ] &&
	[ "$(grep -c 'instant .*category="why"' "$T/ann.dump")" -eq "$hops" ] &&
	[ "$(grep -c 'flow_begin .*category="why"' "$T/ann.dump")" -eq $((hops - 1)) ] &&
	[ "$(grep -c 'flow_end .*category="why"' "$T/ann.dump")" -eq $((hops - 1)) ] ||
	fail "the annotated archive lacks a hop's slice, instant or flow"
cmp -n "$(stat -c %s "$T/full.fxt")" "$T/full.fxt" "$T/ann.fxt" ||
	fail "the annotated archive does not start with the archive"
grep -q "running: C (.*crunch" "$T/why.txt" || fail "C running crunch not shown"

# --category alone: the slowest slice of the category, named.
"$TRACECTL" why --category app --top 1 --json "$T/full.fxt" |
	jq -e '.instances[0].slice == "request"' >/dev/null ||
	fail "why --category app"

# Usage: no slice or thread is exit 2; a slice that is not there is
# said, with no instance (as summary --slice).
rc=0
"$TRACECTL" why "$T/full.fxt" 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "why without --slice exited $rc"
"$TRACECTL" why --slice nosuch --json "$T/full.fxt" 2>"$T/err" >"$T/none.json" &&
	grep -q "no slice called 'nosuch'" "$T/err" &&
	jq -e '.instances == []' "$T/none.json" >/dev/null ||
	fail "a missing slice: $(cat "$T/err")"
echo "why: ok"
