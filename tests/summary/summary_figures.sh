#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl summary against an independent computation from tracectl dump
# output (check_summary.py) on generated archives, hand-computed figures
# for the nested one, and the command line's habits.
set -eu -o pipefail

: "${TRACECTL:?}" "${SUMMARY_GEN:?}" "${CONVERT_GEN:?}" "${FXT_GEN:?}" \
	"${CHECK_SUMMARY:?}"

T=$(mktemp -d /tmp/fxt-summary-XXXXXX)
trap 'rm -rf "$T"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# agree FILE [check options]: summary --json and dump, compared.
agree() {
	f=$1
	shift
	"$TRACECTL" dump "$f" >"$T/dump.txt" || fail "tracectl dump $f"
	"$TRACECTL" summary --json "$f" >"$T/summary.json" ||
		fail "tracectl summary --json $f"
	echo "--- $(basename "$f")"
	python3 "$CHECK_SUMMARY" "$T/dump.txt" "$T/summary.json" "$@" ||
		fail "summary of $f disagrees with its dump"
}

"$SUMMARY_GEN" nested "$T/nested.fxt"
"$SUMMARY_GEN" random "$T/random.fxt"
"$CONVERT_GEN" all "$T"
"$FXT_GEN" -o "$T/gen.fxt" -m 2

# Worked out by hand from summary_gen.c, not by the checker's code.
cat >"$T/nested.expect" <<'EOT'
threads.101.cpu_ns 5000
threads.102.cpu_ns 3000
threads.103.cpu_ns 2000
threads.104.cpu_ns 5500
threads.102.wakeup_latency_ns.count 1
threads.102.wakeup_latency_ns.p50 200
threads.102.wakeup_latency_ns.p99 200
threads.103.wakeup_latency_ns.count 1
threads.103.wakeup_latency_ns.max 5000
threads.101.name worker
threads.101.process myapp
threads.101.pid 100
threads.104.name </script><b>x
slices.test/outer.self_ns 3100
slices.test/outer.total_ns 3900
slices.test/inner1.self_ns 200
slices.test/inner2.self_ns 400
slices.test/leaf.self_ns 200
slices.test/leaf.count 2
slices.test/parent.self_ns 700
slices.test/child.self_ns 250
slices.test/grand.self_ns 50
slices.test/slow.self_ns 9000
slices.test/quick.total_ns 1000
slices.test/rec.total_ns 1000
slices.test/rec.count 3
slices.test/rec.nested 2
slices.test/rec.self_ns 1000
slices.test/rec.max_ns 1000
slices.test/f.total_ns 1000
slices.test/f.count 2
slices.test/f.nested 1
slices.test/f.self_ns 600
slices.test/g.total_ns 700
slices.test/g.self_ns 400
slices.test/req.count 2
slices.test/req.total_ns 500
slices.test/req.max_ns 400
EOT
agree "$T/nested.fxt" --expect "$T/nested.expect"
agree "$T/random.fxt"
agree "$T/all.fxt"
# fxt-gen's two providers write slices on the same threads with their own
# clocks: they cross, so self time has no nesting to compare with.
agree "$T/gen.fxt" --no-self

# The JSON object has exactly the documented keys.
"$TRACECTL" summary --json "$T/nested.fxt" >"$T/n.json"
jq -e 'keys == ["cpus","drops","memory","scope","slices","span_ns","threads"] and
	.scope == "every process" and
	(.memory | keys) == ["oom_kills","processes","stalls"] and
	(.threads[0] | keys) == ["cpu_ns","name","pid","process","switches",
				  "tid","wakeup_latency_ns"] and
	(.threads[0].wakeup_latency_ns | keys) == ["count","max","p50","p90",
						   "p99"] and
	(.slices[0] | keys) == ["async","category","count","max_ns","name",
				"nested","self_ns","total_ns"] and
	(.cpus[0] | keys) == ["busy_ns","cpu"] and .drops.app == 1 and
	.drops.kernel == 0' "$T/n.json" >/dev/null ||
	fail "JSON shape: $(cat "$T/n.json")"

# --top N keeps the first N of each list, in the same order.
"$TRACECTL" summary --json --top 2 "$T/random.fxt" >"$T/top.json"
"$TRACECTL" summary --json "$T/random.fxt" >"$T/all.json"
jq -e --slurpfile all "$T/all.json" '(.threads | length) == 2 and
	(.slices | length) == 2 and .threads == $all[0].threads[:2] and
	.slices == $all[0].slices[:2]' "$T/top.json" >/dev/null ||
	fail "--top 2"

# The table: headers, names, the busiest thread first; no escapes piped.
"$TRACECTL" summary --top 3 "$T/nested.fxt" >"$T/table.txt" ||
	fail "summary table"
cat "$T/table.txt"
grep -q '^THREADS by CPU time' "$T/table.txt" || fail "no thread table"
grep -q '^SLICES by total time' "$T/table.txt" || fail "no slice table"
first=$(grep -A2 '^THREADS' "$T/table.txt" | tail -1)
case "$first" in
*" 104 "*"</script><b>x"*) ;;
*) fail "busiest thread (104, 5.5 us) not first: $first" ;;
esac
grep -q 'worker .*myapp' "$T/table.txt" || fail "thread names missing"
grep -q '^(1 more threads' "$T/table.txt" || fail "--top 3 note missing"
grep -q "$(printf '\033')" "$T/table.txt" && fail "escape codes when piped"
# Names are never cut so that two rows read the same.
"$TRACECTL" summary --top 100 "$T/nested.fxt" >"$T/whole.txt"
for n in first second; do
	grep -q " test / __main__\.build_record_for_the_user_of_the_month_in_the_report_$n\$" \
		"$T/whole.txt" || fail "slice name cut: $(grep build_ "$T/whole.txt")"
done

# Usage errors exit 2 with the command's prefix; bad input exits 1.
for args in "" "--top 0 x.fxt" "--top x x.fxt" "--bogus x.fxt" "a b"; do
	# shellcheck disable=SC2086
	if "$TRACECTL" summary $args >"$T/out" 2>"$T/err"; then
		fail "summary $args succeeded"
	else
		rc=$?
	fi
	[ "$rc" -eq 2 ] || fail "summary $args: exit $rc, expected 2"
	grep -q '^tracectl summary: ' "$T/err" || fail "summary $args: $(cat "$T/err")"
done
"$TRACECTL" summary --help | grep '^Examples:' >/dev/null || fail "--help"
for args in "" "--bogus x.fxt" "a b"; do
	rc=0
	# shellcheck disable=SC2086
	"$TRACECTL" report $args >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "report $args: exit $rc, expected 2"
	grep -q '^tracectl report: ' "$T/err" || fail "report $args: $(cat "$T/err")"
done
"$TRACECTL" report --help | grep '^Examples:' >/dev/null || fail "report --help"
printf 'not a trace\n' >"$T/text"
rc=0
"$TRACECTL" summary "$T/text" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q 'not an FXT archive' "$T/err" ||
	fail "a text file: exit $rc, $(cat "$T/err")"
rc=0
"$TRACECTL" report "$T/text" -o "$T/text.html" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] && [ ! -e "$T/text.html" ] ||
	fail "report of a text file: exit $rc, or a page left behind"
rc=0
"$TRACECTL" summary "$T/nonexistent.fxt" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "a missing file: exit $rc"
"$TRACECTL" summary - <"$T/nested.fxt" | grep worker >/dev/null ||
	fail "reading stdin"

# Hostile archives (garbage, bit flips, truncation, huge strings): a
# figure or a clear error, never a crash (this test also runs under ASan).
mkdir "$T/hostile"
"$CONVERT_GEN" hostile "$T/hostile"
for f in "$T"/hostile/*.fxt; do
	rc=0
	"$TRACECTL" summary "$f" >/dev/null 2>&1 || rc=$?
	[ "$rc" -le 1 ] || fail "summary $(basename "$f"): exit $rc"
	rc=0
	"$TRACECTL" report "$f" -o "$T/hostile.html" >/dev/null 2>&1 || rc=$?
	[ "$rc" -le 1 ] || fail "report $(basename "$f"): exit $rc"
done
echo "summary_figures: ok"
