#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Stop and shutdown racing: a controller that goes away while its stop
# waits for a provider; SIGTERM while a stop waits (the controller still
# gets its result, the archive is whole); a second controller's stop and
# start while one stop is pending. The slow provider acknowledges STOP
# only when the test says so; the manager would wait for it an hour.
. "$(dirname "$0")/lib.sh"

stopping() {
	"$TRACECTL" status | grep -i stopping >/dev/null
}

start_manager --stop-timeout 1h
start_provider slow --events 10 --ack-after "$T/ack" --stay
start_provider calm --events 50 --stay
"$TRACECTL" start -o "$T/a.fxt" --kernel=off
wait_wrote calm
# The stopper vanishes while the manager waits for slow's STOPPED.
"$TRACECTL" stop >/dev/null 2>&1 &
stopper=$!
poll stopping
kill -9 "$stopper"
wait "$stopper" 2>/dev/null || true
"$TRACECTL" status >/dev/null || fail "no status after a vanished stopper"
touch "$T/ack"
poll grep -q "Trace written to $T/a.fxt" "$T/fxtraced.log"
# Its stopper went away: the next stop puts the archive in place.
"$TRACECTL" stop >/dev/null || fail "the stop after a vanished stopper failed"
check "$T/a.fxt"
expect_field slow events 10
expect_field calm events 50
rm "$T/ack"

# SIGTERM during a stop: the waiting controller gets its result.
"$TRACECTL" start -o "$T/b.fxt" --kernel=off
"$TRACECTL" stop >"$T/stop.out" 2>&1 &
stopper=$!
poll stopping
# A second controller meanwhile: no second stop, no new trace.
"$TRACECTL" stop >/dev/null 2>&1 && fail "a second stop succeeded while stopping"
"$TRACECTL" start -o "$T/c.fxt" --kernel=off >/dev/null 2>&1 &&
	fail "a start succeeded while stopping"
kill -TERM "$MGR"
poll grep -q "Signal 15" "$T/fxtraced.log"
touch "$T/ack"
wait "$stopper" || { cat "$T/stop.out"; fail "the stop waiting at SIGTERM failed"; }
grep -q "Trace written to $T/b.fxt" "$T/stop.out" || fail "no result for the stop"
wait "$MGR" || fail "fxtraced exited with status $?"
MGR=""
check "$T/b.fxt"
expect_field slow events 10
expect_field calm events 50
[ ! -e "$T/c.fxt" ] || fail "a refused start created its archive"
echo "shutdown: ok"
