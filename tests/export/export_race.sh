#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Exports of one archive at once (a --watch and a manual run, two hosts)
# store it once: one writer claims it, the others wait and find it
# "already stored". Several rounds, each a new archive sent by two or
# three exports started together, then a --watch and a manual run: every
# one exits 0, the rows are there once, "traces" has one begun and one
# complete row.
. "$(dirname "$0")/lib.sh"

ch_start
rounds=${EXPORT_RACE_ROUNDS:-4}
for ((r = 1; r <= rounds; r++)); do
	id=$(printf 'e%031x' "$r")
	"$FLEET_GEN" "$work/race-$r.fxt" racer "$id" 1 2000
	want=$(expected_counts "$work/race-$r.fxt")
	racers=$((2 + r % 2))
	pids=()
	for ((i = 0; i < racers; i++)); do
		"$TRACECTL" export -c "$URL" "$work/race-$r.fxt" \
			>"$work/out.$r.$i" 2>"$work/err.$r.$i" &
		pids+=($!)
	done
	for ((i = 0; i < racers; i++)); do
		wait "${pids[$i]}" || fail "round $r, export $i: exit $?: $(cat "$work/err.$r.$i")"
	done
	got=$(stored_counts "$id")
	[ "$got" = "$want" ] && ok "round $r, $racers exports at once: stored once: $got" ||
		fail "round $r, $racers exports at once: $got, want $want"
	got=$(q "SELECT groupArray(complete) FROM (SELECT complete FROM fxtrace.traces WHERE trace_id = '$id' ORDER BY complete)")
	[ "$got" = "[0,1]" ] && ok "round $r: one begun and one complete traces row" ||
		fail "round $r: traces rows $got, want [0,1]"
	stored=$(cat "$work/out.$r".* | grep -c ": trace $id of racer stored:" || true)
	already=$(cat "$work/out.$r".* | grep -c ": trace $id of racer already stored" || true)
	[ "$stored" = 1 ] && [ "$already" = $((racers - 1)) ] &&
		ok "round $r: one stored it, $already found it stored" ||
		fail "round $r: $stored said stored, $already already: $(cat "$work/out.$r".*)"
done

# The --watch of a snapshot directory and a manual run of its snapshot.
id=f0000000000000000000000000000001
mkdir "$work/snap"
"$FLEET_GEN" "$work/latency-9.fxt" racer "$id" 1 2000
want=$(expected_counts "$work/latency-9.fxt")
"$TRACECTL" export -c "$URL" --watch "$work/snap" >"$work/watch.out" 2>"$work/watch.err" &
watcher=$!
ln "$work/latency-9.fxt" "$work/snap/latency-9.fxt"
"$TRACECTL" export -c "$URL" "$work/snap/latency-9.fxt" >"$work/manual.out" 2>"$work/manual.err" ||
	fail "the manual run: exit $?: $(cat "$work/manual.err")"
said() { grep -q "trace $id of racer \(already \)\?stored" "$work/watch.out"; }
for ((i = 0; i < 360; i++)); do said && break; sleep 0.5; done
kill -TERM "$watcher"
wait "$watcher" || fail "the watcher: exit $?: $(cat "$work/watch.err")"
got=$(stored_counts "$id")
[ "$got" = "$want" ] && ok "a watcher and a manual run: stored once: $got" ||
	fail "a watcher and a manual run: $got, want $want; $(cat "$work/watch.out" "$work/manual.out")"
got=$(q "SELECT groupArray(complete) FROM (SELECT complete FROM fxtrace.traces WHERE trace_id = '$id' ORDER BY complete)")
[ "$got" = "[0,1]" ] && ok "a watcher and a manual run: one begun and one complete row" ||
	fail "a watcher and a manual run: traces rows $got, want [0,1]"
finish
