#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# docs/fleet.md cannot rot: every query in it (a ```sql block starting
# "-- query: NAME") runs against a real server holding the test fleet
# and returns the rows fleet_gen.c's construction says; its schema tables
# list exactly the columns the server has. Blocks marked "-- on a
# cluster" are the only ones not run.
. "$(dirname "$0")/lib.sh"

ch_start
make_fleet
"$TRACECTL" export -c "$URL" "${FLEET[@]}" >/dev/null

# The expected rows, tab-separated (alpha, beta, gamma: fleet_gen index
# 1, 2, 3; gamma with two archives, of 100 and 10 rounds). Host k's
# requests last k x 1..100 us (gamma's also k x 1..10): the exact 99th
# percentile of n values is the one at 0-based rank floor(0.99 n) -- the
# largest for 100, the second largest (99 x 3 us) for gamma's 110.
declare -A want
want["p99 per host"]="gamma	110	297000
beta	100	200000
alpha	100	100000"
want["latency snapshots per host"]="gamma	2	2023-11-14 22:13:21
beta	1	2023-11-14 22:13:21"
want["CPU wait per host"]="gamma	110	330000	3000
beta	100	200000	2000
alpha	100	100000	1000"
want["one request across hosts"]="alpha	1700000000420100000	begin	request	43000
beta	1700000000420200000	step	request	86000
gamma	1700000000420300000	end	request	129000"
# On-CPU samples (fleet_samples.h): one per round, in parse_request
# every fifth round on beta and gamma, else in hot_loop: 100 + 80 + 88.
want["functions burning CPU everywhere"]="hot_loop	3	268	2680000000
parse_request	2	42	420000000"
want["archives per host"]="alpha	1	200	200	0
beta	1	200	200	0
gamma	2	220	220	0"

# Each ```sql block of the doc, as NAME<TAB>SQL (newlines as \x1f).
blocks=$(awk '
	/^```sql$/ { on = 1; sql = ""; next }
	on && /^```$/ { on = 0; gsub(/\n/, "\x1f", sql); print sql; next }
	on { sql = sql $0 "\n" }' "$FLEET_DOC")
ran=0
declare -A seen
while IFS= read -r block; do
	sql=$(tr '\037' '\n' <<<"$block")
	first=$(head -n1 <<<"$sql")
	case "$first" in
	"-- on a cluster"*) continue ;;
	"-- query: "*) name=${first#-- query: } ;;
	*) fail "a sql block of fleet.md without '-- query: NAME': $first"; continue ;;
	esac
	seen[$name]=1
	if [ -z "${want[$name]+x}" ]; then
		fail "query '$name' of fleet.md has no expected rows in this test"
		continue
	fi
	got=$(q "$sql") || { fail "query '$name': $got"; continue; }
	[ "$got" = "${want[$name]}" ] && ok "query '$name'" ||
		fail "query '$name' returned:
$got
want:
${want[$name]}"
	ran=$((ran + 1))
done <<<"$blocks"
for name in "${!want[@]}"; do
	[ -n "${seen[$name]+x}" ] || fail "query '$name' is gone from fleet.md"
done
[ "$ran" -ge 5 ] && ok "$ran queries of fleet.md ran" || fail "only $ran queries found"

# The schema as documented: "### TABLE" then "| column | type | ... |".
doc_columns() {
	awk -v t="$1" '
		/^## / { schema = ($0 == "## Schema") }
		schema && /^### / { cur = $2; next }
		schema && cur == t && /^\| / && !/^\| column/ && !/^\|---/ {
			split($0, f, "|"); gsub(/^ +| +$/, "", f[2]); gsub(/^ +| +$/, "", f[3])
			print f[2] "\t" f[3] }' "$FLEET_DOC"
}
for t in $EVENT_TABLES traces claims; do
	got=$(q "SELECT name, type FROM system.columns WHERE database = 'fxtrace' AND table = '$t' FORMAT TSVRaw")
	doc=$(doc_columns "$t")
	[ "$got" = "$doc" ] && ok "schema of $t as documented" ||
		fail "schema of $t: the server has
$got
fleet.md says
$doc"
done
finish
