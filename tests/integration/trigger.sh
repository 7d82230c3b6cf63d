#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Provider triggers of a circular trace, with a real libfxt-provider
# program: fxt_trigger() of an armed name writes DIR/NAME-<time>.fxt, a
# complete archive (check-archive, dump --strict) holding the events
# written before the trigger; with --trigger-delay also those written
# after it. A name not armed does nothing. Ten triggers in a row give one
# snapshot and nine suppressed, as status says; status lists the
# snapshot. Misused options are usage errors; nothing is left half
# written in the directory. --trigger-latency: its usage errors, and
# refused without kernel capture.
. "$(dirname "$0")/lib.sh"

: "${TRIGGER_PROVIDER:?}"
# The provider's first event waits until it joined the trace.
export FXTRACE_START_WAIT_MS=60000

start_manager
mkdir "$T/snaps"

start_usage "needs --mode circular" --trigger jank --snapshot-dir "$T/snaps"
start_usage "needs --mode circular and --snapshot-dir" --mode circular --trigger jank
start_usage "go with --trigger" --mode circular --snapshot-dir "$T/snaps"
start_usage "a name is" --mode circular --trigger a/b --snapshot-dir "$T/snaps"
start_usage "trigger-delay" --mode circular --trigger jank --snapshot-dir "$T/snaps" \
	--trigger-delay soon
"$TRACECTL" start --help | grep -- "--trigger NAME" >/dev/null ||
	fail "start --help does not describe --trigger"
# The wakeup-latency trigger (with a kernel: tests/bpf/latency_bpf.sh).
start_usage "give a wait" --mode circular --trigger-latency soon \
	--snapshot-dir "$T/snaps"
start_usage "give a wait" --mode circular --trigger-latency 0 \
	--snapshot-dir "$T/snaps"
start_usage "trigger-latency needs --mode circular" --trigger-latency 10ms \
	--snapshot-dir "$T/snaps"
start_usage "trigger-latency needs --mode circular and --snapshot-dir" \
	--mode circular --trigger-latency 10ms
"$TRACECTL" start --help | grep -- "--trigger-latency T" >/dev/null ||
	fail "start --help does not describe --trigger-latency"

# No kernel capture: the trigger cannot be armed, and says why.
set +e
"$TRACECTL" start -o "$T/off.fxt" --mode circular --kernel=off \
	--trigger-latency 10ms --snapshot-dir "$T/snaps" >"$T/off.out" 2>&1
status=$?
set -e -o pipefail
[ $status -eq 1 ] && grep -q "needs kernel capture" "$T/off.out" ||
	fail "--kernel=off: exit $status: $(cat "$T/off.out")"
"$TRACECTL" stop >/dev/null || fail "stop"
# "off" (the flight recorder's settings file): no latency trigger armed.
"$TRACECTL" start -o "$T/off.fxt" --mode circular --kernel=off \
	--trigger jank --trigger-latency off --snapshot-dir "$T/snaps" \
	>/dev/null || fail "start --trigger-latency off"
"$TRACECTL" status >"$T/status.out"
grep -q "trigger jank" "$T/status.out" &&
	! grep -q "trigger latency" "$T/status.out" ||
	fail "--trigger-latency off: $(grep trigger "$T/status.out")"
"$TRACECTL" stop >/dev/null || fail "stop"

set +e
"$TRACECTL" start -o "$T/never.fxt" --mode circular --kernel=off \
	--trigger jank --snapshot-dir "$T/missing" >"$T/usage.out" 2>&1
status=$?
set -e
[ $status -eq 1 ] && grep -q "snapshot-dir" "$T/usage.out" ||
	fail "a missing snapshot directory: exit $status: $(cat "$T/usage.out")"
"$TRACECTL" status | grep "^State: idle" >/dev/null ||
	fail "a start refused for its snapshot directory left a trace running"

"$TRACECTL" start -o "$T/trace.fxt" --mode circular --kernel=off \
	--trigger jank --trigger burst --snapshot-dir "$T/snaps" \
	>"$T/start.out" || fail "start with triggers: $(cat "$T/start.out")"
grep -q "^Triggers armed: snapshots to $T/snaps" "$T/start.out" ||
	fail "start does not say the triggers are armed: $(cat "$T/start.out")"

# Events, a name not armed, then the armed one; the snapshot comes from
# the manager reading the triggers in order, so "nope" was seen first.
run_provider instant:1 instant:2 instant:3 trigger:nope trigger:jank
poll has_snapshot jank
file=$(snapshots jank)
[ "$(echo "$file" | wc -l)" -eq 1 ] || fail "one trigger, snapshots: $file"
echo "$file" | grep -E '^jank-[0-9]{8}T[0-9]{6}\.[0-9]{3}Z\.fxt$' >/dev/null ||
	fail "snapshot name $file is not NAME-<UTC time>.fxt"
check "$T/snaps/$file" >/dev/null
[ "$(marks "$T/snaps/$file" | tr '\n' ' ')" = "1 2 3 " ] ||
	fail "the snapshot does not hold the events before the trigger: $(marks "$T/snaps/$file")"
[ "$(ls -A "$T/snaps" | wc -l)" -eq 1 ] ||
	fail "the name not armed or the writing left files: $(ls -A "$T/snaps")"
"$TRACECTL" status >"$T/status.out"
grep -q "nope" "$T/status.out" && fail "status lists a name not armed"
grep -Eq "^  trigger jank +fired 1, 1 snapshots, 0 suppressed" "$T/status.out" ||
	fail "status does not count the trigger: $(cat "$T/status.out")"
size=$(stat -c %s "$T/snaps/$file")
grep -Eq "^  snapshot jank +[0-9-]+ [0-9:]+Z $file $size$" "$T/status.out" ||
	fail "status does not list the snapshot $file ($size bytes): $(cat "$T/status.out")"
grep -q "Trigger jank of trigger-provider\[[0-9]*\]: snapshot $T/snaps/$file, $size bytes" \
	"$T/fxtraced.log" || fail "the snapshot is not logged"

# Ten in a row: within one second, one snapshot, nine suppressed.
steps=""
for i in $(seq 1 10); do steps="$steps trigger:burst"; done
run_provider instant:4 $steps
burst_fired() {
	"$TRACECTL" status | grep -E "^  trigger burst +fired 10," >/dev/null
}
poll burst_fired
poll has_snapshot burst
"$TRACECTL" status >"$T/status.out"
grep -Eq "^  trigger burst +fired 10, 1 snapshots, 9 suppressed" "$T/status.out" ||
	fail "ten triggers in a row: $(grep burst "$T/status.out")"
[ "$(snapshots burst | wc -l)" -eq 1 ] ||
	fail "ten triggers in a row gave $(snapshots burst | wc -l) snapshots"
check "$T/snaps/$(snapshots burst)" >/dev/null
"$TRACECTL" stop >/dev/null
check "$T/trace.fxt" >/dev/null

# The delay: what the provider writes after the trigger is in it too.
rm -f "$T/snaps"/*
"$TRACECTL" start -o "$T/delayed.fxt" --mode circular --kernel=off \
	--trigger late --snapshot-dir "$T/snaps" --trigger-delay 1s \
	--trigger-limit 5 >/dev/null
run_provider instant:10 trigger:late sleep:200 instant:20
poll has_snapshot late
file=$(snapshots late)
check "$T/snaps/$file" >/dev/null
[ "$(marks "$T/snaps/$file" | tr '\n' ' ')" = "10 20 " ] ||
	fail "the delayed snapshot does not hold the events after the trigger: $(marks "$T/snaps/$file")"
"$TRACECTL" stop >/dev/null

# Not tracing: a no-op that returns 0.
run_provider trigger:late
[ "$(ls -A "$T/snaps" | wc -l)" -eq 1 ] ||
	fail "a trigger without a trace wrote a snapshot"

echo "trigger: snapshots on trigger, with a delay, one of ten in a second"
