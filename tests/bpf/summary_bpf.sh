#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl summary of a real trace: fxtraced records this machine's
# scheduling with --kernel=bpf around the example provider; the summary
# must agree with the independent computation from the same archive's
# dump (check_summary.py) and name the example's busy threads.
set -eu

: "${FXTRACED:?}" "${TRACECTL:?}" "${EXAMPLE:?}" "${CHECK_SUMMARY:?}"
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi

T=$(mktemp -d /tmp/fxt-bpf-summary-XXXXXX)
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

FXTRACE_START_WAIT_MS=5000 "$TRACECTL" record -o "$T/trace.fxt" \
	--mode streaming --buffer-size 8M --kernel=bpf -- \
	"$EXAMPLE" --seconds 2 --threads 2 --iterations 1500 >"$T/record.out" ||
	fail "tracectl record --kernel=bpf"
"$TRACECTL" dump "$T/trace.fxt" >"$T/dump.txt" || fail "tracectl dump"
"$TRACECTL" summary --json "$T/trace.fxt" >"$T/summary.json" ||
	fail "tracectl summary --json"
python3 "$CHECK_SUMMARY" "$T/dump.txt" "$T/summary.json" ||
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
echo "summary_bpf: ok"
