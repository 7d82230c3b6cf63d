#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl export puts every event of each archive in ClickHouse: per
# archive, the rows equal what tracectl summary --json counts (slices,
# switch-ins) and what tracectl dump shows (the other kinds); timestamps
# are REALTIME; an awkward name arrives byte for byte; a second export
# adds nothing.
. "$(dirname "$0")/lib.sh"

ch_start
make_fleet

out=$("$TRACECTL" export --clickhouse "$URL" "${FLEET[@]}" 2>&1) ||
	fail "export of the fleet: exit $?: $out"
echo "$out"

ids=($TRACE_ALPHA $TRACE_BETA $TRACE_GAMMA $TRACE_GAMMA2)
for i in 0 1 2 3; do
	want=$(expected_counts "${FLEET[$i]}")
	got=$(stored_counts "${ids[$i]}")
	[ "$got" = "$want" ] && ok "${FLEET[$i]##*/}: $got" ||
		fail "${FLEET[$i]##*/}: stored $got, the archive holds $want"
	sw=$(expected_switch_ins "${FLEET[$i]}")
	got=$(stored_switch_ins "${ids[$i]}")
	[ "$got" = "$sw" ] && ok "switch-ins $got" || fail "switch-ins: stored $got, summary $sw"
	got=$(q "SELECT slices + instants + counters + flows + async + context_switches + wakeups + samples FROM fxtrace.traces WHERE trace_id = '${ids[$i]}' AND complete = 1")
	sum=$(tr ' ' '\n' <<<"$want" | cut -d= -f2 | paste -sd+ | bc)
	[ "$got" = "$sum" ] && ok "traces row counts $got" || fail "traces row says '$got', want $sum"
done

# By construction (fleet_gen.c): 100 rounds (110 samples), the awkward instant, the
# host record and two clock readings.
want="slices=200 instants=104 counters=100 flows=100 async=200 context_switches=200 wakeups=100 samples=110"
got=$(stored_counts $TRACE_ALPHA)
[ "$got" = "$want" ] && ok "alpha by construction" || fail "alpha: $got, want $want"

# REALTIME: alpha's first request at wall 1700000000 s + 100 us, 1 us
# long, whatever its BOOTTIME; beta's at + 200 us.
got=$(q "SELECT host, min(ts), min(dur) FROM fxtrace.slices WHERE name = 'request' GROUP BY host ORDER BY host" | tr '\t\n' ' ')
want="alpha 1700000000000100000 1000 beta 1700000000000200000 2000 gamma 1700000000000300000 3000 "
[ "$got" = "$want" ] && ok "REALTIME timestamps" || fail "timestamps: '$got', want '$want'"
# Every kind of row: alpha's first app event at + 100 us (its first
# switch-in 1 us later), the host record at the start reading itself.
got=""
for t in instants counters flows async context_switches wakeups; do
	got+="$t $(q "SELECT min(ts) FROM fxtrace.$t WHERE trace_id = '$TRACE_ALPHA' AND $([ $t = instants ] && echo "category = 'app'" || echo 1)") "
done
got+="host $(q "SELECT ts FROM fxtrace.instants WHERE trace_id = '$TRACE_ALPHA' AND name = 'host'")"
want="instants 1700000000000100000 counters 1700000000000100000 flows 1700000000000100000 async 1700000000000100000 context_switches 1700000000000101000 wakeups 1700000000000100000 host 1700000000000000000"
[ "$got" = "$want" ] && ok "REALTIME in every table" || fail "REALTIME: '$got', want '$want'"

# The awkward name, byte for byte (fleet_gen.c's "awkward").
want=$(printf '%s' "it's \"quoted\"\\ "$'\n\t\x01\xff'"'; DROP TABLE slices; --" | od -An -tx1 | tr -d ' \n' | tr a-f A-F)
got=$(q "SELECT hex(name) FROM fxtrace.instants WHERE trace_id = '$TRACE_ALPHA' AND position(name, 'DROP') > 0")
[ "$got" = "$want" ] && ok "awkward name intact" || fail "awkward name: $got, want $want"

# Again: nothing new.
before=$(q "SELECT count() FROM fxtrace.slices")
out=$("$TRACECTL" export --clickhouse "$URL" "${FLEET[@]}" 2>&1) ||
	fail "second export: exit $?: $out"
grep -q "already stored" <<<"$out" || fail "second export says: $out"
after=$(q "SELECT count() FROM fxtrace.slices")
[ "$before" = "$after" ] && ok "re-export adds nothing ($after slices)" ||
	fail "re-export: $before slices before, $after after"
got=$(q "SELECT count() FROM fxtrace.traces WHERE complete = 1")
[ "$got" = 4 ] && ok "4 complete traces" || fail "$got complete trace rows, want 4"
finish
