#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A provider whose threads all trace from their first instruction (they
# race to start the library's connection) keeps every event: under
# tracectl record, and run with a start wait while a trace runs. Each
# thread's events, its first one included, are in the archive; several
# runs, since the race goes one way or the other.
. "$(dirname "$0")/lib.sh"

: "${FIRST_EVENTS:?}"
EVENTS=13

# every_event FILE THREADS: each thread's EVENTS instants are in FILE.
every_event() {
	"$TRACECTL" dump --strict "$1" >"$T/dump.out" 2>&1 ||
		{ tail -20 "$T/dump.out"; fail "tracectl dump --strict $1"; }
	for w in $(seq 0 $(($2 - 1))); do
		got=$(grep -c "name=\"first-event\" worker=$w " "$T/dump.out" || true)
		[ "$got" -eq "$EVENTS" ] ||
			fail "$1: thread $w: $got of its $EVENTS events in the archive"
		grep -q "name=\"first-event\" worker=$w i=0\$" "$T/dump.out" ||
			fail "$1: thread $w: its first event is missing"
	done
}

start_manager
for run in 1 2 3 4 5; do
	threads=$((run % 2 ? 2 : 4))
	# record sets the start wait for its command; none of ours.
	env -u FXTRACE_START_WAIT_MS "$TRACECTL" record -o "$T/rec$run.fxt" \
		--kernel=off -- "$FIRST_EVENTS" "$threads" "$EVENTS" >"$T/rec.out"
	grep -q "^first-events: $((threads * EVENTS)) events$" "$T/rec.out" ||
		fail "bad run: $(cat "$T/rec.out")"
	grep -q "^The command's provider first-events (pid [0-9]*): [0-9]* records written, 0 dropped$" \
		"$T/rec.out" || fail "record: $(cat "$T/rec.out")"
	check "$T/rec$run.fxt" >/dev/null
	every_event "$T/rec$run.fxt" "$threads"
done

# A trace started first, the program run with a start wait of its own.
for run in 1 2 3; do
	"$TRACECTL" start -o "$T/started$run.fxt" --kernel=off >/dev/null
	FXTRACE_START_WAIT_MS=60000 "$FIRST_EVENTS" 3 "$EVENTS" >"$T/app.out" ||
		fail "first-events: $(cat "$T/app.out")"
	"$TRACECTL" stop >"$T/stop.out"
	every_event "$T/started$run.fxt" 3
done
stop_manager
echo "first_events: ok"
