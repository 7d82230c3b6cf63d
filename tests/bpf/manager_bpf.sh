#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# End to end: fxtraced with tracectl record --kernel=bpf around the
# named-thread ping-pong, in streaming and oneshot modes; the archive
# must hold the ping-pong's switches, wakeups and names, and pass
# tracectl dump --strict. Then tracectl summary of a real trace (the
# example provider with BPF scheduling) against the independent
# computation from the same archive's dump (check_summary.py).
set -eu -o pipefail

: "${FXTRACED:?}" "${TRACECTL:?}" "${PINGPONG:?}" "${CHECK_KERNEL:?}" \
	"${EXAMPLE:?}" "${CHECK_SUMMARY:?}"
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi

T=$(mktemp -d /tmp/fxt-bpf-e2e-XXXXXX)
export FXTRACE_SOCKET="$T/manager.sock"
MGR=""
cleanup() {
	status=$?
	if [ -n "$MGR" ]; then kill "$MGR" 2>/dev/null || true; fi
	wait 2>/dev/null || true
	if [ "$status" -ne 0 ]; then
		echo "--- fxtraced log"; cat "$T/fxtraced.log" 2>/dev/null || true
	fi
	rm -rf "$T"
	exit "$status"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

"$FXTRACED" --socket "$FXTRACE_SOCKET" >"$T/fxtraced.log" 2>&1 &
MGR=$!
i=0
until "$TRACECTL" status >/dev/null 2>&1; do
	i=$((i + 1))
	[ "$i" -lt 1200 ] || fail "fxtraced did not answer"
	sleep 0.05
done

for mode in streaming oneshot; do
	"$TRACECTL" record -o "$T/$mode.fxt" --mode "$mode" --kernel=bpf -- \
		"$PINGPONG" 2000 0 >"$T/$mode.out" ||
		fail "tracectl record --kernel=bpf --mode $mode"
	ids=$(grep -o 'ping=[0-9]* pong=[0-9]* pid=[0-9]*' "$T/$mode.out") ||
		fail "no ping-pong output"
	set -- $(echo "$ids" | tr '=' ' ' | awk '{ print $2, $4, $6 }')
	"$CHECK_KERNEL" "$T/$mode.fxt" "$1" "$2" "$3" ||
		fail "$mode: kernel section check"
	"$TRACECTL" dump --strict "$T/$mode.fxt" >"$T/dump.out" 2>&1 ||
		{ tail "$T/dump.out"; fail "$mode: tracectl dump --strict"; }
done
# kernel:proc: a child that execs /bin/sh and exits 7 is forked, exec'd
# and exits with its code on its own thread; kernel:proc alone leaves
# scheduling out.
for cats in kernel:sched,kernel:proc kernel:proc; do
	"$TRACECTL" record -o "$T/proc.fxt" --kernel=bpf --categories "$cats" \
		-- sh -c 'echo pid=$$; /bin/sh -c "exit 7"; true' \
		>"$T/proc.out" || fail "tracectl record --categories $cats"
	pid=$(sed -n 's/^pid=//p' "$T/proc.out")
	"$TRACECTL" dump --strict "$T/proc.fxt" >"$T/dump.out" 2>&1 ||
		{ tail "$T/dump.out"; fail "$cats: tracectl dump --strict"; }
	child=$(sed -n "s|.*thread=$pid/$pid category=\"kernel:proc\" name=\"fork\" child=koid(\([0-9]*\)).*|\1|p" \
		"$T/dump.out" | head -n 1)
	[ -n "$child" ] || fail "$cats: no fork on $pid"
	grep -q "thread=$child/$child category=\"kernel:proc\" name=\"exec\" filename=\"/bin/sh\"" \
		"$T/dump.out" || fail "$cats: no exec of /bin/sh by $child"
	grep -q "thread=$child/$child category=\"kernel:proc\" name=\"exit\" code=7\$" \
		"$T/dump.out" || fail "$cats: no exit code 7 of $child"
	# tracectl convert: thread-scoped instants on the child's track.
	"$TRACECTL" convert -o "$T/proc.json" "$T/proc.fxt" ||
		fail "$cats: tracectl convert"
	jq -e --argjson c "$child" '[.traceEvents[] |
		select(.cat == "kernel:proc" and .ph == "i" and .s == "t" and
			.pid == $c and .tid == $c)] |
		any(.name == "exec" and .args.filename == "/bin/sh") and
		any(.name == "exit" and .args.code == 7)' "$T/proc.json" \
		>/dev/null || fail "$cats: converted exec/exit of $child"
done
grep -q 'context_switch' "$T/dump.out" &&
	fail "kernel:proc alone recorded context switches"
# (start: record adds kernel:proc, which follows the command's forks)
"$TRACECTL" start -o "$T/sched.fxt" --kernel=bpf --categories kernel:sched \
	>/dev/null || fail "tracectl start --categories kernel:sched"
sh -c '/bin/sh -c "exit 7"; true'
"$TRACECTL" stop >/dev/null || fail "tracectl stop of kernel:sched"
"$TRACECTL" dump --strict "$T/sched.fxt" >"$T/dump.out" 2>&1 ||
	{ tail "$T/dump.out"; fail "kernel:sched: tracectl dump --strict"; }
grep -q 'context_switch' "$T/dump.out" || fail "kernel:sched: no switches"
grep -q 'category="kernel:proc"' "$T/dump.out" &&
	fail "kernel:sched alone recorded kernel:proc events"
"$TRACECTL" record -o "$T/bad.fxt" --kernel=bpf --categories kernel:nope \
	-- true >"$T/bad.out" 2>&1 && fail "an unknown kernel category was accepted"
grep -q "unknown kernel category 'kernel:nope'" "$T/bad.out" ||
	{ cat "$T/bad.out"; fail "no message for an unknown kernel category"; }

# A kernel buffer too small for the run: the drops are reported by stop
# and recorded in the archive as the kernel provider's buffer overflow.
"$TRACECTL" record -o "$T/drops.fxt" --mode oneshot --kernel=bpf \
	--kernel-buffer-size 8K -- "$PINGPONG" 20000 0 >"$T/drops.out" ||
	fail "tracectl record --kernel-buffer-size 8K"
awk '$1 == "kernel" && $5 > 0 { found = 1 } END { exit !found }' \
	"$T/drops.out" || { cat "$T/drops.out"; fail "stop reported no kernel drops"; }
"$TRACECTL" dump --strict "$T/drops.fxt" >"$T/dump.out" 2>&1 ||
	{ tail "$T/dump.out"; fail "drops: tracectl dump --strict"; }
grep -q 'provider_event .*buffer_overflow' "$T/dump.out" ||
	fail "drops: no buffer overflow record in the archive"

# The summary of a real trace (every process: the dump's computation
# follows no process tree) agrees with its dump.
FXTRACE_START_WAIT_MS=5000 "$TRACECTL" record -o "$T/trace.fxt" \
	--mode streaming --buffer-size 8M --kernel=bpf -- \
	"$EXAMPLE" --seconds 2 --threads 2 --iterations 1500 >"$T/record.out" ||
	fail "tracectl record --kernel=bpf"
"$TRACECTL" dump "$T/trace.fxt" >"$T/trace.dump" || fail "tracectl dump"
"$TRACECTL" summary --all --json "$T/trace.fxt" >"$T/summary.json" ||
	fail "tracectl summary --json"
python3 "$CHECK_SUMMARY" "$T/trace.dump" "$T/summary.json" ||
	fail "the summary disagrees with the dump"
"$TRACECTL" summary --top 10 "$T/trace.fxt" | tee "$T/table.txt"

# The example's workers ran, were woken after their sleeps, and their
# slices are there with self times below their totals where nested.
jq -e '[.threads[] | select(.name | test("^example-[01]$"))] | length == 2 and
	all(.cpu_ns > 0 and .switches > 0 and .wakeup_latency_ns.count > 0)' \
	"$T/summary.json" >/dev/null || fail "example threads missing or idle"
jq -e '[.slices[] | select(.category == "example" and
	.name == "compute-complete")][0] | .count > 0 and .self_ns < .total_ns' \
	"$T/summary.json" >/dev/null || fail "compute-complete self time"
jq -e '[.cpus[] | select(.busy_ns > 0)] | length > 0' "$T/summary.json" \
	>/dev/null || fail "no busy CPU"

kill -TERM "$MGR"
wait "$MGR" || fail "fxtraced exited with status $?"
MGR=""
echo "manager_bpf: ok"
