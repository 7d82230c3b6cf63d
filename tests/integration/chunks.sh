#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Threads of the real library writing into their own chunks of the
# buffer (chunk-writer): every event arrives exactly once, or is counted
# as dropped, in each mode; a provider killed mid-chunk keeps all it
# committed; threads that exited holding a part-filled chunk lose nothing;
# thread names (durable records) survive wrapping; the unused tails of
# chunks never reach the archive (dump --strict, convert); a provider of
# the protocol before chunks is refused with a message.
. "$(dirname "$0")/lib.sh"

: "${CHUNK_WRITER:?}"
export FXTRACE_START_WAIT_MS=60000
THREADS=4
EVENTS=20000
TOTAL=$((THREADS * EVENTS))

# stop_field NAME COLUMN: from the table of tracectl stop/record.
stop_field() {
	awk -v n="$1" -v c="$2" '$1 == n { print $c }' "$T/stop.out"
}


# start_held MODE SIZE: a trace, and a chunk-writer whose threads wrote
# 3333 events each and exited; the process stays until release_held.
start_held() {
	"$TRACECTL" start -o "$T/held-$1.fxt" --mode "$1" --buffer-size "$2" \
		--kernel=off
	# Emptied here, not by the child's redirection: the poll below could
	# read the last run's "wrote" before a slow child truncates the file.
	: >"$T/held.out"
	"$CHUNK_WRITER" --threads $THREADS --events 3333 \
		--hold-until "$T/go" >"$T/held.out" &
	held=$!
	BG_PIDS="$BG_PIDS $held"
	poll grep -q '^wrote' "$T/held.out"
}

release_held() {
	touch "$T/go"
	wait "$held" || fail "chunk-writer exited with status $?"
	rm "$T/go"
	poll sh -c "! \"\$TRACECTL\" status | grep -q '^  chunk-writer '"
}

start_manager

# Oneshot with room for all: every event once, blobs of two chunks too.
"$TRACECTL" record -o "$T/oneshot.fxt" --mode oneshot --buffer-size 16M \
	--kernel=off -- "$CHUNK_WRITER" --threads $THREADS --events $EVENTS \
	--blob-every 1000 | tee "$T/stop.out"
check "$T/oneshot.fxt"
expect_field chunk-writer events $((TOTAL + 1))
expect_field chunk-writer distinct $TOTAL
expect_field chunk-writer imin 0
expect_field chunk-writer imax $((TOTAL - 1))
expect_field chunk-writer overflow 0
[ "$(field chunk-writer kobj)" -ge $THREADS ] || fail "oneshot: thread names lost"
[ "$(stop_field chunk-writer 5)" = 0 ] || fail "oneshot: drops counted"
"$TRACECTL" dump "$T/oneshot.fxt" >"$T/dump.out"
[ "$(grep -c 'name="blob"' "$T/dump.out")" -eq $((TOTAL / 1000)) ] ||
	fail "oneshot: blobs lost"
"$TRACECTL" convert -o "$T/oneshot.json" "$T/oneshot.fxt" 2>"$T/convert.err" ||
	{ cat "$T/convert.err"; fail "convert oneshot"; }
[ "$(grep -o '"name":"ev"' "$T/oneshot.json" | wc -l)" -eq $TOTAL ] ||
	fail "convert: not every event"

# Circular and streaming through small buffers: what is not in the
# archive is counted as dropped (circular: overwritten), exactly.
for mode in circular streaming; do
	"$TRACECTL" record -o "$T/$mode.fxt" --mode $mode --buffer-size 256K \
		--kernel=off -- "$CHUNK_WRITER" --threads $THREADS \
		--events $EVENTS | tee "$T/stop.out"
	check "$T/$mode.fxt"
	events=$(field chunk-writer events)
	drops=$(stop_field chunk-writer 5)
	[ $((events + drops)) -eq $((TOTAL + 1)) ] ||
		fail "$mode: $events events + $drops dropped != $((TOTAL + 1))"
	[ "$(field chunk-writer distinct)" -eq "$events" ] ||
		[ "$(field chunk-writer distinct)" -eq $((events - 1)) ] ||
		fail "$mode: an event twice"
	[ "$(field chunk-writer kobj)" -ge $THREADS ] || fail "$mode: thread names lost"
	if [ "$drops" -gt 0 ]; then
		[ "$(field chunk-writer overflow)" -ge 1 ] || fail "$mode: no overflow event"
		grep -q '^Warning: .* provider records were dropped' "$T/stop.out" ||
			fail "$mode: no warning on drops"
		[ $mode = streaming ] &&
			grep 'provider records were dropped' "$T/stop.out" |
			grep -q -- '--mode streaming' &&
			fail "streaming: the advice is to use streaming"
	fi
	"$TRACECTL" convert -o "$T/$mode.json" "$T/$mode.fxt" 2>"$T/convert.err" ||
		{ cat "$T/convert.err"; fail "convert $mode"; }
done
# 40000 events of 32 bytes do not fit in 28 KiB halves: circular
# overwrote, counted them, and advises what fits the mode.
"$TRACECTL" record -o "$T/circ.fxt" --mode circular --buffer-size 64K \
	--kernel=off -- "$CHUNK_WRITER" --threads 2 --events 20000 | tee "$T/stop.out"
check "$T/circ.fxt"
[ "$(stop_field chunk-writer 5)" -gt 30000 ] || fail "circular: overwritten records not counted"
expect_field chunk-writer overflow 1
grep -q '^Warning: .*circular mode keeps the newest' "$T/stop.out" ||
	fail "circular: no advice fitting the mode"

# Circular, live: tracectl status counts the overwritten records while
# the provider (its threads gone, their chunks part-filled) still runs.
start_held circular 64K
"$TRACECTL" status | tee "$T/status.out"
live=$(awk '$1 == "chunk-writer" { for (i = 1; i < NF; i++) if ($(i + 1) == "dropped") print $i }' "$T/status.out")
[ "${live:-0}" -gt 0 ] || fail "status: no overwritten records counted"
"$TRACECTL" stop | tee "$T/stop.out"
check "$T/held-circular.fxt"
grep -q '^chunk-writer .*(exited)' "$T/stop.out" && fail "the held provider shows as exited"
events=$(field chunk-writer events)
drops=$(stop_field chunk-writer 5)
[ $((events + drops)) -eq $((THREADS * 3333 + 1)) ] ||
	fail "live circular: $events events + $drops dropped"
release_held

# Oneshot, live: threads exited holding chunks; stop finds all of them.
start_held oneshot 4M
"$TRACECTL" stop | tee "$T/stop.out"
check "$T/held-oneshot.fxt"
expect_field chunk-writer events $((THREADS * 3333 + 1))
expect_field chunk-writer distinct $((THREADS * 3333))
release_held

# SIGKILL mid-chunk after the threads are done, in each mode: everything
# committed is kept, the main thread's 777 events included.
for mode in oneshot circular streaming; do
	"$TRACECTL" start -o "$T/kill-$mode.fxt" --mode $mode --buffer-size 8M --kernel=off
	"$CHUNK_WRITER" --threads 3 --events 5000 --crash-after 777 >"$T/cw3.out" &
	pid=$!
	wait "$pid" && fail "chunk-writer was not killed"
	poll sh -c "\"\$TRACECTL\" status | grep -q '^  chunk-writer .*(exited)'"
	"$TRACECTL" stop | tee "$T/stop.out"
	check "$T/kill-$mode.fxt"
	expect_field chunk-writer events $((15000 + 777 + 1))
	expect_field chunk-writer distinct $((15000 + 777))
	expect_field chunk-writer imax $((15000 + 777 - 1))
	[ "$(field chunk-writer kobj)" -ge 3 ] || fail "kill-$mode: thread names lost"
done

# A library of the protocol before chunks is refused, and told why.
"$PROTO_PROVIDER" --name oldlib --abuse old-abi >"$T/old.out" 2>&1 &
BG_PIDS="$BG_PIDS $!"
poll grep -q 'Refusing provider "oldlib" .*protocol 1, this fxtraced 2' "$T/fxtraced.log"
"$TRACECTL" status | grep '^  oldlib ' >/dev/null && fail "the old library was accepted"

stop_manager
echo "chunks: ok"
