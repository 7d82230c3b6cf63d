#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A provider whose threads all trace from their first instruction (they
# race to start the library's connection) keeps every event: under
# tracectl record, and run with a start wait while a trace runs. Each
# thread's events, its first one included, are in the archive; several
# runs, since the race goes one way or the other. Without a start wait,
# the events before it joined are counted as dropped, none lost uncounted,
# and stop says what to do; an idle manager tells a provider at once
# that there is no trace to wait for.
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
# No start wait: every event written or counted (DROPS), never lost
# uncounted; stop names the start wait when some were missed.
for run in 1 2 3; do
	"$TRACECTL" start -o "$T/nowait$run.fxt" --kernel=off >/dev/null
	env -u FXTRACE_START_WAIT_MS "$FIRST_EVENTS" 4 2000 >"$T/app.out" ||
		fail "first-events: $(cat "$T/app.out")"
	"$TRACECTL" stop >"$T/stop.out"
	written=$("$TRACECTL" dump "$T/nowait$run.fxt" | grep -c 'name="first-event"' || true)
	dropped=$(awk '$1 == "first-events" { print $5 }' "$T/stop.out")
	echo "no start wait, run $run: $written written, $dropped dropped"
	[ $((written + dropped)) -eq 8000 ] ||
		fail "no start wait: $written written + $dropped dropped, not 8000: $(cat "$T/stop.out")"
	if [ "$dropped" -gt 0 ]; then
		grep -q "FXTRACE_START_WAIT_MS=1000 .* or under tracectl record" "$T/stop.out" ||
			fail "no start wait: the warning does not say what to do: $(cat "$T/stop.out")"
	fi
done

# An idle manager says so (IDLE): a start wait of 10 s ends at once.
timeout 5 env FXTRACE_START_WAIT_MS=10000 "$FIRST_EVENTS" 2 "$EVENTS" >"$T/app.out" ||
	fail "with an idle manager, the start wait was not cut short"
stop_manager
echo "first_events: ok"
