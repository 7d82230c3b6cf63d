#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every archive says where and when (tracectl(1), HOST AND CLOCK): a
# trace, a circular trace and its snapshot each hold the host record
# (/etc/machine-id, boot_id, uname) and two readings of the clocks that
# bracket the trace (clocks read by the test before and after lie outside
# them, every record's time between them); the snapshot has an id of its
# own and the trace's start reading. A trace resumed by a restarted
# manager keeps its start reading, and gets its host records again when
# the kill came before they were on disk. Then the manager and a provider
# in a time namespace whose CLOCK_BOOTTIME is 300 s ahead: the readings
# are 300 s ahead on BOOTTIME and agree with the host on REALTIME and
# CLOCK_MONOTONIC, as a merge of hosts relies on.
. "$(dirname "$0")/lib.sh"

CHECK_HC=(python3 "$(dirname "$0")/host_clock_check.py")
OFFSET_S=300
ERROR_MAX_NS=1000000
# The readings' REALTIME - BOOTTIME against the test's own: what a merge
# of hosts aligns by (1 ms, the alignment it promises).
OFFSET_TOL_NS=1000000

# clocks: "REALTIME BOOTTIME MONOTONIC" now, in ns.
clocks() {
	python3 -c 'import time
print(*(time.clock_gettime_ns(c) for c in
	(time.CLOCK_REALTIME, time.CLOCK_BOOTTIME, time.CLOCK_MONOTONIC)))'
}

# offset: REALTIME minus BOOTTIME now, in ns (of 20 reads, the one
# between the closest BOOTTIME reads).
offset() {
	python3 -c 'import time
B, R = time.CLOCK_BOOTTIME, time.CLOCK_REALTIME
best = None
for _ in range(20):
	b0 = time.clock_gettime_ns(B)
	r = time.clock_gettime_ns(R)
	b1 = time.clock_gettime_ns(B)
	if best is None or b1 - b0 < best[0]:
		best = (b1 - b0, r - (b0 + b1) // 2)
print(best[1])'
}

# summarize NAME: NAME.fxt checked (check-archive, dump --strict), its
# summary in NAME.json and NAME.txt, its dump in NAME.dump.
summarize() {
	check "$T/$1.fxt" >/dev/null
	"$TRACECTL" summary --json "$T/$1.fxt" >"$T/$1.json"
	"$TRACECTL" summary "$T/$1.fxt" >"$T/$1.txt"
	"$TRACECTL" dump "$T/$1.fxt" >"$T/$1.dump"
}

host_fields=(machine_id="$(cat /etc/machine-id)"
	boot_id="$(cat /proc/sys/kernel/random/boot_id)"
	hostname="$(uname -n)" kernel="$(uname -r)")

start_manager

# A trace of a provider, the test's clocks read before and after.
read -r real0 boot0 mono0 < <(clocks)
start_provider p --events 100
"$TRACECTL" start -o "$T/a.fxt" --kernel=off >/dev/null
wait_wrote p
"$TRACECTL" stop >/dev/null
read -r real1 boot1 mono1 < <(clocks)
summarize a
"${CHECK_HC[@]}" "$T/a.json" "${host_fields[@]}" real="$real0:$real1" \
	boot="$boot0:$boot1" mono="$mono0:$mono1" error_max=$ERROR_MAX_NS \
	offset="$(offset):$OFFSET_TOL_NS" dump="$T/a.dump"
grep -q "^host: $(uname -n), kernel $(uname -r), machine-id $(cat /etc/machine-id), trace [0-9a-f]\{32\}, from 20[0-9-]*T[0-9:.]*Z to 20[0-9-]*T[0-9:.]*Z, drift [-+][0-9.]* ppm$" \
	"$T/a.txt" || fail "summary lacks the host line: $(cat "$T/a.txt")"

# A circular trace and a snapshot of it.
read -r real0 boot0 mono0 < <(clocks)
start_provider q --events 100
"$TRACECTL" start -o "$T/c.fxt" --mode circular --kernel=off >/dev/null
wait_wrote q
read -r sreal0 sboot0 smono0 < <(clocks)
"$TRACECTL" snapshot -o "$T/s.fxt" >/dev/null
read -r sreal1 sboot1 smono1 < <(clocks)
"$TRACECTL" stop >/dev/null
read -r real1 boot1 mono1 < <(clocks)
summarize c
summarize s
"${CHECK_HC[@]}" "$T/c.json" "${host_fields[@]}" real="$real0:$real1" \
	boot="$boot0:$boot1" error_max=$ERROR_MAX_NS dump="$T/c.dump" \
	other_trace="$T/a.json"
# the snapshot: the trace's start, its own stop and id
"${CHECK_HC[@]}" "$T/s.json" "${host_fields[@]}" real="$real0:$sreal1" \
	boot="$boot0:$sboot1" error_max=$ERROR_MAX_NS dump="$T/s.dump" \
	same_start="$T/c.json" other_trace="$T/c.json"
# started before the snapshot was asked for, stopped after
python3 - "$T/s.json" "$sboot0" <<'PY' || fail "the snapshot's readings are not the trace's start and its own stop"
import json, sys
clock = json.load(open(sys.argv[1]))["clock"]
asked = int(sys.argv[2])
sys.exit(not clock["start"]["boottime"] < asked <= clock["stop"]["boottime"])
PY
stop_manager

# has_records FILE: FILE holds more than the magic number record.
has_records() {
	[ "$(stat -c %s "$1")" -gt 8 ]
}

# A manager killed and started again resumes the trace: its start reading
# comes back with its state (a snapshot carries it), and the host records
# are written again when the kill came before they reached the disk (the
# archive cut back to its magic number record).
for cut in keep magic; do
	start_manager --state-dir "$T/state"
	"$TRACECTL" start -o "$T/r-$cut.fxt" --mode circular --kernel=off \
		>/dev/null
	hidden=$(ls -a "$T" | grep -x "\.r-$cut\.fxt\.......*" | head -1)
	[ -n "$hidden" ] || fail "no hidden archive beside r-$cut.fxt"
	poll has_records "$T/$hidden"
	kill -KILL "$MGR"
	wait "$MGR" 2>/dev/null || true
	MGR=""
	[ "$cut" = keep ] || truncate -s 8 "$T/$hidden"
	start_manager --state-dir "$T/state"
	poll grep -q "resumed after a restart of fxtraced" "$T/fxtraced.log"
	"$TRACECTL" snapshot -o "$T/rs-$cut.fxt" >/dev/null
	"$TRACECTL" stop >/dev/null
	summarize "r-$cut"
	summarize "rs-$cut"
	"${CHECK_HC[@]}" "$T/r-$cut.json" "${host_fields[@]}" \
		error_max=$ERROR_MAX_NS
	"${CHECK_HC[@]}" "$T/rs-$cut.json" same_start="$T/r-$cut.json" \
		other_trace="$T/r-$cut.json"
	for what in 'name="host"' 'name="clock".*at="start"' \
		'name="clock".*at="stop"'; do
		n=$(grep -c "$what" "$T/r-$cut.dump" || true)
		[ "$n" = 1 ] || fail "r-$cut.fxt: $n records $what, expected 1"
	done
	stop_manager
done

# The manager and a provider in a time namespace, BOOTTIME 300 s ahead.
if [ "$(id -u)" -ne 0 ] ||
	! unshare --time --boottime $OFFSET_S --fork true 2>/dev/null; then
	echo "host_clock: no time namespace here; its part skipped"
	echo "host_clock: ok"
	exit 0
fi
# unshare ignores SIGTERM while it waits: the cleanup's SIGKILL of it
# takes its child along (--kill-child).
ns=(unshare --time --boottime $OFFSET_S --kill-child)
export FXTRACE_SOCKET="$T/ns.sock"
"${ns[@]}" "$FXTRACED" --socket "$FXTRACE_SOCKET" --allow-uid "$(id -u)" \
	>"$T/fxtraced.log" 2>&1 &
BG_PIDS="$BG_PIDS $!"
poll "$TRACECTL" status
read -r real0 boot0 mono0 < <(clocks)
: >"$T/n.out"
"${ns[@]}" "$PROTO_PROVIDER" --name n --events 100 >"$T/n.out" 2>&1 &
BG_PIDS="$BG_PIDS $!"
poll provider_connected n
"$TRACECTL" start -o "$T/n.fxt" --kernel=off >/dev/null
wait_wrote n
"$TRACECTL" stop >/dev/null
read -r real1 boot1 mono1 < <(clocks)
summarize n
ahead_ns=$((OFFSET_S * 1000000000))
"${CHECK_HC[@]}" "$T/n.json" "${host_fields[@]}" real="$real0:$real1" \
	boot="$((boot0 + ahead_ns)):$((boot1 + ahead_ns))" mono="$mono0:$mono1" \
	error_max=$ERROR_MAX_NS dump="$T/n.dump" \
	offset="$(($(offset) - ahead_ns)):$OFFSET_TOL_NS"
echo "host_clock: ok"
