#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The archive readers (tracectl dump, convert, summary, report) on hostile
# archives from hostile_fxt.py: each finishes, in bounded memory, and says
# what it dropped.
#
# usage: hostile_readers.sh times
set -u

: "${TRACECTL:?}" "${HOSTILE_FXT:?}"
. "$(dirname "$0")/../common/check.sh"

# A hang is a failure, not a test that never ends: generous, not a guess.
DEADLINE=120

# run COMMAND...: exit status in $rc, stdout in $dir/out, stderr in
# $dir/err; a command still running at the deadline fails.
run() {
	rc=0
	timeout -k 5 "$DEADLINE" "$@" >"$dir/out" 2>"$dir/err" || rc=$?
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		fail "$*: still running after $DEADLINE s"
	elif grep -qE "AddressSanitizer|LeakSanitizer|runtime error:" "$dir/err"; then
		fail "$*: sanitizer report: $(head -5 "$dir/err")"
	elif [ "$rc" -ne 0 ] && [ -z "${may_fail:-}" ]; then
		fail "$*: exit $rc: $(tail -3 "$dir/err")"
	fi
}

# holds FILE EXPRESSION: the Python EXPRESSION is true of the JSON in FILE
# (as d), integers compared exactly (jq 1.6 rounds them to doubles).
holds() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$1" "$2"
}

# Every reader command on FILE, each to exit 0; the JSON summary last.
all_commands() {
	run "$TRACECTL" dump "$1"
	run "$TRACECTL" convert "$1" -o "$dir/out.json"
	run "$TRACECTL" report "$1" -o "$dir/out.html"
	run "$TRACECTL" summary "$1"
	run "$TRACECTL" summary --json "$1"
}

# Timestamps at the end of the 64-bit range: sums and cells saturate.
run_times() {
	python3 "$HOSTILE_FXT" switch-at-max >"$dir/max.fxt"
	[ "$(stat -c %s "$dir/max.fxt")" -eq 72 ] || fail "switch-at-max is not 72 bytes"
	all_commands "$dir/max.fxt"
	# 2^64-1 - 1000: the stretch from 1000 to the last nanosecond
	holds "$dir/out" 'd["cpus"] == [{"cpu": 0, "busy_ns": 2**64 - 1 - 1000}]
		and d["threads"][0]["tid"] == 5
		and d["threads"][0]["cpu_ns"] == 2**64 - 1 - 1000' ||
		fail "switch at 2^64-1: $(cat "$dir/out")"
	grep -q '"timeline":{"cell_ns":' "$dir/out.html" ||
		fail "switch at 2^64-1: no timeline in the report"

	python3 "$HOSTILE_FXT" tick-overflow >"$dir/ticks.fxt"
	all_commands "$dir/ticks.fxt"
	# 2^63 ticks of a second each: past 2^64 ns, kept at 2^64-1
	holds "$dir/out" 'd["cpus"][0]["busy_ns"] == 2**64 - 1 - 10**9' ||
		fail "ticks past 2^64 ns: $(cat "$dir/out")"
}

case ${1:-} in
times) run_times ;;
*) echo "usage: $0 times" >&2; exit 2 ;;
esac

check_summary "hostile archives: $1"
