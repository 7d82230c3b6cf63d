#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A reply with more provider lines than a socket buffer holds (many
# processes tracing, none of them reading its socket) still reaches the
# controller whole: status, start and stop answer.
. "$(dirname "$0")/lib.sh"

: "${CONN_FLOOD:?}"
N=2000
start_manager
"$CONN_FLOOD" hello "$N" >"$T/flood.out" 2>&1 &
BG_PIDS="$BG_PIDS $!"
# Not through tracectl status: that is what may hang.
poll grep -q "Provider mute$((N - 1))\[.*connected" "$T/fxtraced.log"
timeout 60 "$TRACECTL" status >"$T/status.out" || fail "status did not answer"
n=$(grep -c '^  mute' "$T/status.out")
[ "$n" -eq "$N" ] || fail "status listed $n of $N providers"
timeout 60 "$TRACECTL" start -o "$T/many.fxt" --kernel=off >/dev/null ||
	fail "start did not answer"
timeout 60 "$TRACECTL" stop >"$T/stop.out" || fail "stop did not answer"
n=$(grep -c '^mute' "$T/stop.out")
[ "$n" -eq "$N" ] || fail "stop listed $n of $N providers"
grep -q "Trace written to $T/many.fxt" "$T/stop.out" || fail "no result after the list"
stop_manager
echo "many_providers: ok"
