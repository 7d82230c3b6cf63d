#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The fleet end to end: three "hosts" (tests/merge/hosts.sh: real
# managers in time namespaces whose BOOTTIME differs by minutes, each
# with a provider ticking at the same numbered wall-clock moments) are
# merged, the ticks aligned within 1 ms and the output conforming, and
# their archives exported to a real clickhouse-server: every event of
# each is stored (the counts of tracectl summary --json and dump), and
# in the store each tick number's REALTIME timestamps of the three hosts
# lie within 1 ms of each other. The merge exported too stores each
# host's rows under its name in the merge (the hosts share a hostname:
# "name", "name#2", "name#3"), as many as that host's own export.
. "$(dirname "$0")/../integration/lib.sh"
. "$(dirname "$0")/../merge/hosts.sh"
. "$(dirname "$0")/counts.sh"
TOL_NS=1000000

ch_dir=$T/clickhouse
trap 'st=$?; "$CLICKHOUSE_SERVER" stop "$ch_dir" >/dev/null 2>&1; (exit $st); cleanup' EXIT
rc=0
URL=$("$CLICKHOUSE_SERVER" start "$ch_dir") || rc=$?
[ "$rc" -ne 77 ] || exit 77
[ "$rc" -eq 0 ] || fail "cannot start clickhouse-server"

record_hosts "$T/start"
merge_hosts
merged_ticks_aligned $TOL_NS || fail "ticks not aligned in the merge"

"$TRACECTL" export -c "$URL" "$T/h0.fxt" "$T/h1.fxt" "$T/h2.fxt" \
	"$T/fleet.fxt" >"$T/export.out" 2>&1 ||
	fail "export: $(cat "$T/export.out")"
ids=()
for k in 0 1 2; do
	id=$("$TRACECTL" summary --json "$T/h$k.fxt" | jq -r .host.trace_id)
	ids+=("'$id'")
	want=$(expected_counts "$T/h$k.fxt")
	got=$(stored_counts "$id")
	[ "$got" = "$want" ] || fail "h$k.fxt: stored $got, the archive holds $want"
	echo "h$k.fxt: $got"
done

# The merge: per host and table its own export's rows; the first host
# also has the merge's own host record, 2 clock readings and 3 "merge"
# and 3 "merge_cpus" records.
json=$("$TRACECTL" summary --json "$T/fleet.fxt")
fid=$(jq -r .host.trace_id <<<"$json")
for k in 0 1 2; do
	name=$(jq -r ".merged[$k].host" <<<"$json")
	for t in $EVENT_TABLES; do
		want=$(q "SELECT count() FROM fxtrace.$t WHERE trace_id = ${ids[$k]}")
		[ "$t$k" != instants0 ] || want=$((want + 9))
		got=$(q "SELECT count() FROM fxtrace.$t WHERE trace_id = '$fid' AND host = '$name'")
		[ "$got" = "$want" ] ||
			fail "merge: $got $t rows of $name, its own export $want"
	done
	echo "merge: host $name: $(q "SELECT count() FROM fxtrace.instants WHERE trace_id = '$fid' AND host = '$name'") instants"
done
got=$(q "SELECT count() FROM fxtrace.traces WHERE trace_id = '$fid' AND complete = 1")
[ "$got" = 1 ] || fail "the merge is not stored"

# Per tick number on all three hosts: the spread of its stored times.
ticks=$(q "SELECT count(), max(spread) FROM (
	SELECT arg_values[indexOf(arg_names, 'n')] AS n,
	       uniqExact(trace_id) AS hosts, max(ts) - min(ts) AS spread
	FROM fxtrace.instants
	WHERE category = 'merge' AND name = 'tick'
	  AND trace_id IN ($(IFS=,; echo "${ids[*]}"))
	GROUP BY n
	HAVING hosts = 3)")
read -r n spread <<<"$ticks"
echo "stored: $n tick numbers on all three hosts, largest spread $spread ns"
[ "$n" = "$TICKS" ] || fail "$n tick numbers on all three hosts, want $TICKS"
[ "$spread" -lt $TOL_NS ] ||
	fail "a tick's stored times differ by $spread ns across hosts"
echo "fleet_e2e: ok"
