#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Abuse limits: a malformed controller request gets its one error RESULT
# and the connection is closed; a flood of connections that do not speak
# the protocol, or of refused controllers, is one log line and a count,
# not a line each; one user's providers get buffers up to its budget
# (--user-buffer-budget), the others are told why they have none.
. "$(dirname "$0")/lib.sh"
: "${RAW_START:?}" "${CONN_FLOOD:?}"

start_manager --user-buffer-budget 128K
for how in short unknown longstop shortwait; do
	out=$(timeout 60 "$RAW_START" "$how" "$T/x.fxt") || fail "raw-start $how: no result"
	echo "$out"
	case "$out" in
	"error -74: malformed request: "*"the connection is closed"*) ;;
	*) fail "$how: '$out' is not an error result saying why" ;;
	esac
	[ "$(echo "$out" | tail -n 1)" = closed ] || fail "$how: the connection stays open"
done
"$TRACECTL" status >/dev/null || fail "no status after malformed requests"

# A wait for providers to join: none without a trace; with one, a result
# at the timeout when none of the process joins.
out=$(timeout 60 "$RAW_START" wait -) || fail "raw-start wait: no result"
[ "$out" = "error -3: no trace is running" ] || fail "wait without a trace: '$out'"
"$TRACECTL" start -o "$T/wait.fxt" --kernel=off >/dev/null
out=$(timeout 60 "$RAW_START" wait -) || fail "raw-start wait: no result"
case "$out" in
"error -110: no provider of process "*" joined the trace in time") ;;
*) fail "wait with no provider joining: '$out'" ;;
esac
"$TRACECTL" stop >/dev/null

# A flood of connections that say nothing the manager understands.
N=300
"$CONN_FLOOD" garbage "$N" >"$T/flood.out" || fail "the flood failed"
lines=$(grep -c "does not speak protocol" "$T/fxtraced.log" || true)
[ "$lines" -eq 1 ] || fail "$lines log lines for $N bad connections"

# Refused controllers (nobody may not control), as many.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	install -m 755 "$TRACECTL" "$T/tracectl"
	for i in $(seq 50); do
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$T/tracectl" status >/dev/null 2>&1 && fail "nobody got status"
	done
	lines=$(grep -c "Refusing control to uid" "$T/fxtraced.log" || true)
	[ "$lines" -eq 1 ] || fail "$lines log lines for 50 refused controllers"

	# Three providers of nobody, a budget of two 64K buffers.
	for n in p1 p2 p3; do
		: >"$T/$n.out"	# not the child's redirection: see start_provider
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$PROTO_PROVIDER" --name "$n" --events 50 --stay \
			>"$T/$n.out" 2>&1 &
		BG_PIDS="$BG_PIDS $!"
		poll provider_connected "$n"
	done
	"$TRACECTL" start -o "$T/b.fxt" --buffer-size 64K --kernel=off >"$T/start.out"
	cat "$T/start.out"
	grep -q "1 provider(s) got no buffer: their user's buffers reached its budget of 128 KiB (fxtraced --user-buffer-budget)" \
		"$T/start.out" || fail "start does not say who got no buffer"
	"$TRACECTL" status >"$T/status.out"
	cat "$T/status.out"
	grep -q "not tracing: its user's buffers reached their budget" "$T/status.out" ||
		fail "status does not say why a provider has no buffer"
	wait_wrote p1
	wait_wrote p2
	"$TRACECTL" stop >/dev/null
	check "$T/b.fxt"
	expect_field p1 events 50
	expect_field p2 events 50
	[ -z "$(field p3 events)" ] || fail "p3 wrote past the budget"
fi
stop_manager
# At exit, the rest of the spell is summed up in one line.
grep -q "$((N - 1)) more connections that did not speak the protocol, dropped .*($N in all)" \
	"$T/fxtraced.log" || fail "no summary line with the count"
echo "bad_requests: ok"
