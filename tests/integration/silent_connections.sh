#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Connections that never say what they are (no first message, or a
# byte that is none) do not hold the manager's descriptors: each is
# closed within a few seconds (MANAGER_HELLO_TIMEOUT_USEC), and counted
# in the log: one line, then a summary with the count. The manager
# serves on, its descriptors back to what they were.
. "$(dirname "$0")/lib.sh"

: "${CONN_FLOOD:?}"
# Under the per-user connection limit: as any user, all are accepted.
N=200
start_manager
idle=$(idle_fds)

# A ceiling that only catches connections held for good.
for bytes in 0 1; do
	"$CONN_FLOOD" mute "$N" "$bytes" 60000 >"$T/mute.out" ||
		fail "conn-flood mute $N $bytes: $(cat "$T/mute.out")"
	grep -qx "closed $N of $N" "$T/mute.out" ||
		fail "$bytes-byte connections held: $(cat "$T/mute.out")"
done
grep -q "Closing a connection of uid $(id -u) (pid [0-9]*): no first message within [0-9]* s" \
	"$T/fxtraced.log" || fail "no log line for a silent connection"
counted() {
	grep -q "[0-9]* more connections closed that sent no first message in time in the last [0-9]* s ($N in all)" \
		"$T/fxtraced.log"
}
poll counted
has_idle_fds() {
	[ "$(manager_fds)" -eq "$idle" ]
}
poll has_idle_fds
start_provider after
"$TRACECTL" start -o "$T/after.fxt" --kernel=off
wait_wrote after
"$TRACECTL" stop >/dev/null
check "$T/after.fxt" >/dev/null
expect_field after events 100
stop_manager
echo "silent_connections: ok"
