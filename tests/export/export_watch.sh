#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl export --watch DIR, as fxtrace-export.service runs it: started
# while the server is down, it retries; once the server is up it stores
# what DIR holds, then each snapshot linked into DIR (as fxtraced links
# them) or renamed into it, each once; SIGTERM ends it with status 0.
. "$(dirname "$0")/lib.sh"

make_fleet
snap=$work/snapshots
mkdir "$snap"
cp "${FLEET[0]}" "$snap/"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# wait_for WHAT CMD...: CMD succeeds within 180 s (a loaded machine).
wait_for() {
	local what=$1 i; shift
	for ((i = 0; i < 360; i++)); do
		"$@" >/dev/null 2>&1 && { ok "$what"; return 0; }
		sleep 0.5
	done
	fail "$what: not within 180 s"
}
complete() { [ "$(q "SELECT count() FROM fxtrace.traces WHERE trace_id = '$1' AND complete = 1")" = 1 ]; }

"$TRACECTL" export --watch "$snap" -c "http://127.0.0.1:$port/" >"$work/watch.out" 2>"$work/watch.err" &
watcher=$!
wait_for "retrying while the server is away" grep -q "trying $snap again" "$work/watch.err"
grep -q "cannot reach ClickHouse at 127.0.0.1:$port" "$work/watch.err" ||
	fail "no word of the server: $(cat "$work/watch.err")"

CH_HTTP_PORT=$port ch_start
[ "$URL" = "http://127.0.0.1:$port/" ] || fail "the server took $URL"
wait_for "the snapshot there before is stored once the server is up" complete $TRACE_ALPHA

# fxtraced links a whole snapshot in (linkat of an O_TMPFILE): a hard
# link from beside the directory is the same event.
ln "${FLEET[1]}" "$snap/latency-1.fxt"
wait_for "a linked snapshot is stored" complete $TRACE_BETA
cp "${FLEET[2]}" "$work/tmp.fxt"
mv "$work/tmp.fxt" "$snap/latency-2.fxt"
wait_for "a renamed snapshot is stored" complete $TRACE_GAMMA
# not an archive's name: left alone
cp "${FLEET[3]}" "$snap/notes.txt"

kill -TERM "$watcher"
rc=0
wait "$watcher" || rc=$?
[ "$rc" -eq 0 ] && ok "SIGTERM: exit 0" || fail "SIGTERM: exit $rc"

want="slices=200 instants=104 counters=100 flows=100 async=200 context_switches=200 wakeups=100 samples=110"
for id in $TRACE_ALPHA $TRACE_BETA $TRACE_GAMMA; do
	got=$(stored_counts $id)
	[ "$got" = "$want" ] && ok "$id once: $got" || fail "$id: $got, want $want"
done
got=$(q "SELECT count() FROM fxtrace.traces WHERE trace_id = '$TRACE_GAMMA2'")
[ "$got" = 0 ] && ok "notes.txt left alone" || fail "notes.txt was exported"

# A new watcher on the same directory asks the server and sends nothing again.
"$TRACECTL" export --watch "$snap" -c "$URL" >"$work/watch2.out" 2>"$work/watch2.err" &
watcher=$!
three_known() { [ "$(grep -c 'already stored' "$work/watch2.out")" = 3 ]; }
wait_for "a second watcher finds all three stored" three_known
got=$(q "SELECT count() FROM fxtrace.slices")
[ "$got" = 600 ] && ok "no row twice" || fail "$got slices, want 600"

# The database dropped under it: the next snapshot is refused once, then
# stored in tables created again.
q "DROP DATABASE fxtrace"
ln "${FLEET[3]}" "$snap/latency-3.fxt"
complete_again() { complete $TRACE_GAMMA2 2>/dev/null; }
wait_for "a snapshot after the database was dropped is stored" complete_again
kill -TERM "$watcher"
wait "$watcher" || fail "second watcher: exit $?"
got=$(stored_counts $TRACE_GAMMA2)
want="slices=20 instants=14 counters=10 flows=10 async=20 context_switches=20 wakeups=10 samples=11"
[ "$got" = "$want" ] && ok "gamma's short one: $got" || fail "gamma's short one: $got, want $want"
finish
