#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A reply with more provider lines than a socket buffer holds (many
# processes tracing, none of them reading its socket) still reaches the
# controller whole: status, start and stop answer, and so does a stop
# that SIGTERM overtakes (the manager exits once the result is out).
. "$(dirname "$0")/lib.sh"

: "${CONN_FLOOD:?}"
N=2000
stopping() {
	"$TRACECTL" status | grep -i stopping >/dev/null
}

start_manager --stop-timeout 1h
touch "$T/ack"
start_provider slow --events 10 --ack-after "$T/ack" --stay
"$CONN_FLOOD" hello "$N" >"$T/flood.out" 2>&1 &
BG_PIDS="$BG_PIDS $!"
# Not through tracectl status: that is what may hang.
poll grep -q "Provider mute$((N - 1))\\[.*connected" "$T/fxtraced.log"
timeout 60 "$TRACECTL" status >"$T/status.out" || fail "status did not answer"
n=$(grep -c '^  mute' "$T/status.out")
[ "$n" -eq "$N" ] || fail "status listed $n of $N providers"
timeout 60 "$TRACECTL" start -o "$T/many.fxt" --kernel=off >/dev/null ||
	fail "start did not answer"
timeout 60 "$TRACECTL" stop >"$T/stop.out" || fail "stop did not answer"
n=$(grep -c '^mute' "$T/stop.out")
[ "$n" -eq "$N" ] || fail "stop listed $n of $N providers"
grep -q "Trace written to $T/many.fxt" "$T/stop.out" || fail "no result after the list"

# SIGTERM while the stop waits for slow: the long result still arrives.
rm "$T/ack"
timeout 60 "$TRACECTL" start -o "$T/term.fxt" --kernel=off >/dev/null ||
	fail "start did not answer"
timeout 120 "$TRACECTL" stop >"$T/stop.out" 2>&1 &
stopper=$!
poll stopping
kill -TERM "$MGR"
poll grep -q "Signal 15" "$T/fxtraced.log"
touch "$T/ack"
wait "$stopper" || { tail -3 "$T/stop.out"; fail "the stop overtaken by SIGTERM failed"; }
grep -q "Trace written to $T/term.fxt" "$T/stop.out" || fail "no result before exiting"
wait "$MGR" || fail "fxtraced exited with status $?"
MGR=""
echo "many_providers: ok"
