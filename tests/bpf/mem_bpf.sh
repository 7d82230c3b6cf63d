#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# kernel:mem with --kernel=bpf, end to end through fxtraced, the archive
# read back (tracectl dump --strict, check_mem_dump.py):
# - rss: a process that grows to 300 MiB in 10 MiB steps has an anon
#   mem.rss counter that rises, never falling, in at least 30 steps to
#   within 5% of 300 MiB; stop prints a kernel:mem row; a process that
#   sleeps throughout has its counters from the start;
# - reclaim: in a memory cgroup limited to 64 MiB (made here: v1's
#   memory.limit_in_bytes, or v2's memory.max), reading a 200 MiB file
#   through the page cache gives memcg_reclaim slices on the reader's
#   thread, each begin with its order and end with the pages reclaimed;
# - oom: without swap, anonymous memory beyond that limit gets the
#   process killed, and the oom_kill instant names it (pid, name, RSS);
# - system: meminfo and vmstat counters on the kernel process, every
#   100 ms by default, none with fxtraced --mem-interval 0.
# tracectl convert has the counter; tracectl summary the process's peak
# RSS, the thread's stall time (within 10% of its slices' sum) and the
# OOM kill.
# The cgroup parts are skipped where no memory controller is mounted.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ] ||
	! command -v jq >/dev/null; then
	echo "skip: needs root, kernel BTF and jq"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${MEM_WORKLOAD:?}"
CHECK_MEM="$(dirname "$0")/check_mem_dump.py"
CG=""
cg_cleanup() {
	status=$?
	set +e
	if [ -n "$CG" ]; then
		for p in $(cat "$CG/cgroup.procs" 2>/dev/null); do
			kill -9 "$p"
		done
		poll rmdir "$CG"
	fi
	(exit "$status")
	cleanup
}
trap cg_cleanup EXIT

# record NAME CMD...: records kernel:mem around CMD into $T/NAME.fxt,
# its dump in $T/NAME.dump; CMD's output in $T/NAME.out.
record() {
	name=$1
	shift
	"$TRACECTL" record -o "$T/$name.fxt" --kernel=bpf --buffer-size 4M \
		--kernel-buffer-size 4M --categories kernel:mem -- "$@" \
		>"$T/$name.out" 2>&1
	rc=$?
	"$TRACECTL" dump --strict "$T/$name.fxt" >"$T/$name.dump" 2>&1 ||
		{ tail "$T/$name.dump"; fail "$name: tracectl dump --strict"; }
	return $rc
}

start_manager

# A process whose memory holds still has its counters at start.
sleep 600 &
still=$!
BG_PIDS="$BG_PIDS $still"
record grow "$MEM_WORKLOAD" grow 300 10 || fail "grow: tracectl record"
grep -q "thread=$still/$still category=\"kernel:mem\" name=\"mem.rss\" id=0 anon=" \
	"$T/grow.dump" || fail "grow: no RSS counter at start of $still"
pid=$(sed -n 's/^pid=//p' "$T/grow.out")
grep -q '^grown=300$' "$T/grow.out" || fail "grow: the workload did not grow"
awk '$1 == "kernel:mem" && $3 > 0 { found = 1 } END { exit !found }' \
	"$T/grow.out" || fail "grow: stop printed no kernel:mem row with records"
python3 "$CHECK_MEM" rss "$T/grow.dump" "$pid" 300 10 || fail "grow: RSS counter"
# The system counters, on the kernel process, every 100 ms by default:
# more than a few over the grow's second or more, vmstat's after the first.
awk '/thread=0\/0 category="kernel:mem" name="meminfo" .*available=[1-9]/ { m++ }
	/thread=0\/0 category="kernel:mem" name="vmstat" .*major_faults=/ { v++ }
	END { exit !(m >= 5 && v >= 4) }' "$T/grow.dump" ||
	fail "grow: no meminfo and vmstat counters on the kernel process"
# The same counter converted, and the summary's peak RSS of the process.
"$TRACECTL" convert -o "$T/grow.json" "$T/grow.fxt" || fail "grow: convert"
jq -e --argjson p "$pid" '[.traceEvents[] | select(.ph == "C" and
	.name == "mem.rss" and .pid == $p) | .args.anon // 0] | max |
	. >= 285 * 1048576 and . <= 315 * 1048576' "$T/grow.json" >/dev/null ||
	fail "grow: converted anon counter"
"$TRACECTL" summary --json "$T/grow.fxt" >"$T/grow.summary" ||
	fail "grow: tracectl summary --json"
jq -e --argjson p "$pid" '.memory.processes[] | select(.pid == $p) |
	.peak_rss >= 285 * 1048576 and .peak_rss <= 330 * 1048576' \
	"$T/grow.summary" >/dev/null || fail "grow: summary's peak RSS"
"$TRACECTL" summary "$T/grow.fxt" | grep "MEMORY: peak RSS by process" >/dev/null ||
	fail "grow: no MEMORY section in the summary"

# --mem-interval 0: no system counters; under 10ms: a usage error.
stop_manager
rc=0
"$FXTRACED" --socket "$T/never.sock" --mem-interval 5ms >"$T/interval.out" 2>&1 ||
	rc=$?
[ "$rc" -eq 2 ] || fail "--mem-interval 5ms: exit $rc, not a usage error"
grep -q -- "--mem-interval 5ms: give 0 (never) or 10ms..1h" "$T/interval.out" ||
	fail "--mem-interval 5ms: no reason given"
start_manager --mem-interval 0
record quiet sleep 0.5 || fail "quiet: tracectl record"
grep -q 'name="meminfo"' "$T/quiet.dump" && fail "--mem-interval 0: meminfo"

# A memory cgroup of 64 MiB, without swap beyond it.
if [ -w /sys/fs/cgroup/memory/cgroup.procs ]; then
	CG=/sys/fs/cgroup/memory/fxt-mem-$$
	mkdir "$CG" || fail "mkdir $CG"
	echo $((64 << 20)) >"$CG/memory.limit_in_bytes" || fail "v1 limit"
elif grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	CG=/sys/fs/cgroup/fxt-mem-$$
	mkdir "$CG" || fail "mkdir $CG"
	echo $((64 << 20)) >"$CG/memory.max" || fail "v2 limit"
	echo 0 >"$CG/memory.swap.max" 2>/dev/null
else
	echo "no memory cgroup controller: reclaim and oom skipped"
	stop_manager
	echo "mem_bpf: ok"
	exit 0
fi

# The file's pages are written back and dropped first: cached, they
# would not be charged to the reader's cgroup.
dd if=/dev/zero of="$T/big" bs=1M count=200 conv=fsync status=none || fail "dd"
record reclaim sh -c "echo \$\$ >$CG/cgroup.procs &&
	dd if=$T/big iflag=nocache count=0 status=none &&
	exec $MEM_WORKLOAD read $T/big" || fail "reclaim: tracectl record"
rm -f "$T/big"
pid=$(sed -n 's/^pid=//p' "$T/reclaim.out")
grep -q "^read=$((200 << 20))\$" "$T/reclaim.out" || fail "reclaim: no read"
python3 "$CHECK_MEM" reclaim "$T/reclaim.dump" "$pid" memcg_reclaim \
	>"$T/reclaim.check" || fail "reclaim: memcg_reclaim slices"
cat "$T/reclaim.check"
# The summary's stall time of the thread: within 10% of its slices' sum.
slices_ns=$(sed -n 's/^memcg_reclaim: .*, \([0-9]*\) ns$/\1/p' "$T/reclaim.check")
"$TRACECTL" summary --json "$T/reclaim.fxt" >"$T/reclaim.summary" ||
	fail "reclaim: tracectl summary --json"
jq -e --argjson t "$pid" --argjson sum "$slices_ns" '.memory.stalls[] |
	select(.tid == $t) | .memcg_reclaim.total_ns as $ns |
	$ns * 10 >= $sum * 9 and $ns * 10 <= $sum * 11' \
	"$T/reclaim.summary" >/dev/null || fail "reclaim: summary's stall time"

if [ "$(wc -l </proc/swaps)" -gt 1 ]; then
	echo "swap is on: oom skipped"
else
	record oom sh -c "echo \$\$ >$CG/cgroup.procs &&
		exec $MEM_WORKLOAD hog" && fail "oom: the hog was not killed"
	pid=$(sed -n 's/^pid=//p' "$T/oom.out")
	[ -n "$pid" ] || fail "oom: the hog did not start"
	python3 "$CHECK_MEM" oom "$T/oom.dump" "$pid" mem-workload ||
		fail "oom: oom_kill instant"
	"$TRACECTL" summary --json "$T/oom.fxt" >"$T/oom.summary" ||
		fail "oom: tracectl summary --json"
	jq -e --argjson p "$pid" '[.memory.oom_kills[] | select(.pid == $p and
		.name == "mem-workload" and .rss > 0)] | length == 1' \
		"$T/oom.summary" >/dev/null || fail "oom: summary's OOM kill"
fi

stop_manager
echo "mem_bpf: ok"
