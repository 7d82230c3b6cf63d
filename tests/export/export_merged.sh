#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A merged archive's rows carry the host they came from: three fleet_gen
# hosts (alpha, beta, gamma: the same pids, tids and CPU numbers) merged
# by tracectl merge and exported with their inputs; in every table the
# merge's rows of each host number that host's own export's rows (alpha
# also has the merge's own section: its host record, its two clock
# readings, a "merge" and a "merge_cpus" record per input), the
# scheduling rows of each host lie on the CPUs merge gave it (as it says
# on standard error) and the traces row names the merge's first host.
. "$(dirname "$0")/lib.sh"

ch_start
make_fleet
inputs=("${FLEET[@]:0:3}")
hosts=(alpha beta gamma)
ids=($TRACE_ALPHA $TRACE_BETA $TRACE_GAMMA)
merged=$work/merged.fxt
"$TRACECTL" merge -o "$merged" "${inputs[@]}" 2>"$work/merge.err" ||
	{ cat "$work/merge.err" >&2; exit 1; }
id=$("$TRACECTL" summary --json "$merged" | jq -r .host.trace_id)
out=$("$TRACECTL" export --clickhouse "$URL" "${inputs[@]}" "$merged" 2>&1) ||
	fail "export: exit $?: $out"
echo "$out"
own=$((1 + 2 + 2 * 3))

for t in $EVENT_TABLES; do
	for k in 0 1 2; do
		h=${hosts[$k]}
		want=$(q "SELECT count() FROM fxtrace.$t WHERE trace_id = '${ids[$k]}'")
		[ "$t" = instants ] && [ "$k" = 0 ] && want=$((want + own))
		got=$(q "SELECT count() FROM fxtrace.$t WHERE trace_id = '$id' AND host = '$h'")
		[ "$want" -gt 0 ] || fail "$t of $h: no rows in its own export"
		[ "$got" = "$want" ] && ok "$t of $h: $got" ||
			fail "$t of $h: $got rows in the merge, want $want"
	done
	got=$(q "SELECT count() FROM fxtrace.$t WHERE trace_id = '$id' AND host NOT IN ('alpha', 'beta', 'gamma')")
	[ "$got" = 0 ] || fail "$t: $got rows of the merge under no input's host"
done
got=$(q "SELECT groupArray(host) FROM (SELECT host FROM fxtrace.instants WHERE trace_id = '$id' AND name IN ('merge', 'merge_cpus') GROUP BY host)")
[ "$got" = "['alpha']" ] && ok "the merge's own records under alpha" ||
	fail "the merge's own records under $got"

# Each host's CPUs as merge said ("CPUs 0-1 -> 2-3"), its records say
# ("merge_cpus") and its scheduling rows in the merge lie.
for k in 0 1 2; do
	h=${hosts[$k]}
	said=$(sed -n "s/^tracectl merge: host $h (.*): CPUs [0-9]*-[0-9]* -> \([0-9]*\)-\([0-9]*\).*/\1 \2/p" "$work/merge.err")
	[ -n "$said" ] || fail "merge said nothing of $h's CPUs"
	rec=$(q "SELECT toUInt64(arg_values[indexOf(arg_names, 'cpu_base')]) AS b, b + toUInt64(arg_values[indexOf(arg_names, 'cpus')]) - 1 FROM fxtrace.instants WHERE trace_id = '$id' AND name = 'merge_cpus' AND arg_values[indexOf(arg_names, 'host')] = '$h'" | tr '\t' ' ')
	[ "$rec" = "$said" ] && ok "$h: CPUs $said" ||
		fail "$h: merge_cpus record says '$rec', merge said '$said'"
	read -r lo hi <<<"$said"
	for t in context_switches wakeups; do
		got=$(q "SELECT count() FROM fxtrace.$t WHERE trace_id = '$id' AND host = '$h' AND (cpu < $lo OR cpu > $hi)")
		[ "$got" = 0 ] || fail "$t of $h: $got rows on CPUs not its own"
	done
done

got=$(q "SELECT host FROM fxtrace.traces WHERE trace_id = '$id' AND complete = 1")
[ "$got" = alpha ] && ok "the merge's traces row: alpha" ||
	fail "the merge's traces row names '$got'"
finish
