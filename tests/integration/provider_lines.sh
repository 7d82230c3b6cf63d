#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Any user may connect providers and close them at will: the manager logs
# the first 20 connection lines of a spell of a user other than root, then
# one summary line per 10 s with the count; root's are all logged.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "provider_lines: needs root and setpriv; skipped"
	exit 77
fi
: "${CONN_FLOOD:?}"
N=200

start_manager
setpriv --reuid=nobody --regid=nogroup --clear-groups \
	"$CONN_FLOOD" hello "$N" >"$T/flood.out" 2>&1 &
flood=$!
BG_PIDS="$BG_PIDS $flood"
poll grep -q "^connected $N" "$T/flood.out"
listed() {
	[ "$("$TRACECTL" status | grep -c '^  mute')" -eq "$N" ]
}
poll listed
kill -9 "$flood"
gone() {
	! "$TRACECTL" status | grep '^  mute' >/dev/null
}
poll gone
lines=$(grep -c "Provider mute[0-9]*\\[[0-9]*\\] " "$T/fxtraced.log" || true)
[ "$lines" -eq 20 ] || fail "$lines connection lines for $N providers and their ends, not 20"
poll grep -q "more provider connections and disconnections of users other than root in the last 10 s ($((2 * N)) in all)" "$T/fxtraced.log"
# Root's providers: every line.
start_provider rootly --events 1
grep -q "Provider rootly\\[[0-9]*\\] (uid 0) connected" "$T/fxtraced.log" ||
	fail "a provider of root was not logged"
stop_manager
echo "provider_lines: ok"
