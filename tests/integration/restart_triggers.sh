#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The triggers of a circular trace outlive a kill (SIGKILL) of fxtraced:
# under a service manager with a descriptor store (fdstore.py does what
# systemd does with FDSTORE=1 and LISTEN_FDS) the snapshot directory
# waits in the store, the names, delay and limit in the state file; the
# restarted manager arms them again, and a provider's trigger after the
# restart writes a snapshot (dump --strict) with the events of after the
# restart, after the delay. Without a store the directory is opened
# again by its name, only when it still is the directory armed. The stop
# empties the store.
if ! command -v python3 >/dev/null; then
	echo "skip: needs python3"
	exit 77
fi
. "$(dirname "$0")/lib.sh"

: "${TRIGGER_PROVIDER:?}"
export FXTRACE_START_WAIT_MS=60000
STORED="$T/stored"
STATE="$T/state"

no_manager() {
	! "$TRACECTL" status >/dev/null 2>&1
}

armed_again() {
	grep -q "Trace .*: its 2 trigger(s) armed again after the restart" "$T/fxtraced.log"
}

# The triggers after a restart: status, a snapshot after the delay.
check_rearmed() {
	local what=$1
	"$TRACECTL" status >"$T/status.out"
	grep -q "^State: tracing" "$T/status.out" &&
		grep -q "^Triggers: snapshots to $T/snaps" "$T/status.out" &&
		grep -Eq "^  trigger jank +fired 0" "$T/status.out" &&
		grep -Eq "^  trigger crash +fired 0" "$T/status.out" ||
		fail "$what: status after the restart: $(cat "$T/status.out")"
	grep -q "Armed 2 trigger(s) (first: jank), snapshots to $T/snaps, delay 300 ms, at most 3 per second each" \
		"$T/fxtraced.log" || fail "$what: delay or limit not kept: $(cat "$T/fxtraced.log")"
	run_provider instant:7 trigger:jank sleep:100 instant:8
	poll has_snapshot jank
	file=$(snapshots jank)
	check "$T/snaps/$file" >/dev/null
	# The delay is kept: the event 100 ms after the trigger is in it.
	[ "$(marks "$T/snaps/$file" | tr '\n' ' ')" = "7 8 " ] ||
		fail "$what: the snapshot after the restart: $(marks "$T/snaps/$file")"
	"$TRACECTL" status | grep -E "^  trigger jank +fired 1, 1 snapshots" >/dev/null ||
		fail "$what: status does not count the trigger after the restart"
}

mkdir "$T/snaps"

# With the store.
start_stored
"$TRACECTL" start -o "$T/trace.fxt" --mode circular --kernel=off \
	--name flight-recorder --trigger jank,crash --snapshot-dir "$T/snaps" \
	--trigger-delay 300ms --trigger-limit 3 >"$T/start.out" ||
	fail "start: $(cat "$T/start.out")"
poll grep -q "^fxt-snapshot-dir" "$STORED"
[ "$(grep -c "^fxt-snapshot-dir" "$STORED")" = 1 ] ||
	fail "the store keeps the snapshot directory more than once: $(cat "$STORED")"
run_provider instant:1 instant:2
kill -USR1 "$MGR"
poll no_manager
[ -z "$(snapshots jank)" ] || fail "a snapshot before any trigger"
kill -USR2 "$MGR"
poll "$TRACECTL" status
poll armed_again
check_rearmed store
"$TRACECTL" status | grep "^Name: flight-recorder" >/dev/null ||
	fail "the name is not kept across the restart"
"$TRACECTL" stop >/dev/null
check "$T/trace.fxt" >/dev/null
poll [ ! -s "$STORED" ]
kill "$MGR"
wait "$MGR" 2>/dev/null || true
MGR=""

# Without a store: the directory by its name, while it is the same one.
rm -f "$T/snaps"/*
for how in same replaced; do
	start_manager --state-dir "$STATE"
	"$TRACECTL" start -o "$T/$how.fxt" --mode circular --kernel=off \
		--trigger jank,crash --snapshot-dir "$T/snaps" \
		--trigger-delay 300ms --trigger-limit 3 >/dev/null
	kill -KILL "$MGR"
	wait "$MGR" 2>/dev/null || true
	MGR=""
	if [ "$how" = replaced ]; then
		mv "$T/snaps" "$T/snaps.armed"
		mkdir "$T/snaps"
	fi
	start_manager --state-dir "$STATE"
	if [ "$how" = same ]; then
		poll armed_again
		check_rearmed "$how"
		rm -f "$T/snaps"/*
	else
		poll grep -q "its triggers are not armed again: their snapshot directory $T/snaps is not the one they were armed with" \
			"$T/fxtraced.log"
		"$TRACECTL" status | grep "^Triggers" >/dev/null &&
			fail "triggers armed on a directory that replaced theirs"
		run_provider trigger:jank
		sleep 0.5
		[ -z "$(ls -A "$T/snaps")$(ls -A "$T/snaps.armed")" ] ||
			fail "a snapshot went to a directory not armed"
	fi
	"$TRACECTL" stop >/dev/null
	stop_manager
done
echo "restart_triggers: triggers armed again after a restart, with and without a store"
