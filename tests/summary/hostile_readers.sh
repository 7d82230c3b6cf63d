#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The archive readers (tracectl dump, convert, summary, report) on hostile
# archives from hostile_fxt.py: each finishes, in bounded memory, and says
# what it dropped.
#
# usage: hostile_readers.sh times|memory|not-fxt|escapes
set -u -o pipefail

: "${TRACECTL:?}" "${HOSTILE_FXT:?}"
. "$(dirname "$0")/../common/check.sh"
. "$(dirname "$0")/../common/reader_memory.sh"

# A hang is a failure, not a test that never ends: generous, not a guess.
DEADLINE=120

# run COMMAND...: exit status in $rc, stdout in $dir/out, stderr in
# $dir/err; a command still running at the deadline fails. $limited is
# empty or under_reader_memory_limit (the memory checks set it).
limited=
run() {
	rc=0
	$limited timeout -k 5 "$DEADLINE" "$@" >"$dir/out" 2>"$dir/err" || rc=$?
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

# Memory: held to the bound (ASan cannot run under an address-space
# limit), the readers say what they dropped.

dropped() {
	grep -q "string or thread record(s) past the 64 MiB" "$dir/err" ||
		fail "$1: drops not reported: $(tail -3 "$dir/err")"
}

run_memory() {
	asan_build "$TRACECTL" || limited=under_reader_memory_limit
	# 1024 providers x 256 empty strings, each on its own page: 2 MiB
	# that took 800 MB of tables
	python3 "$HOSTILE_FXT" string-pages 1024 256 >"$dir/pages.fxt"
	run "$TRACECTL" dump -s "$dir/pages.fxt"
	grep -q "string or thread records dropped past the tables' memory limit" \
		"$dir/out" || fail "dump: drops not in its summary"
	run "$TRACECTL" convert "$dir/pages.fxt" -o "$dir/out.json"
	dropped convert
	run "$TRACECTL" summary "$dir/pages.fxt"
	dropped summary
	run "$TRACECTL" report "$dir/pages.fxt" -o "$dir/out.html"
	dropped report

	# 320 MB of 32,000-byte strings through a pipe: more than the bound
	python3 "$HOSTILE_FXT" big-strings 1 10000 >"$dir/pipe" &
	run "$TRACECTL" convert - -o "$dir/out.json" <"$dir/pipe"
	dropped "convert of 32,000-byte strings"
	wait
	python3 "$HOSTILE_FXT" big-strings 1 10000 >"$dir/pipe" &
	run "$TRACECTL" summary - <"$dir/pipe"
	dropped "summary of 32,000-byte strings"
	wait
}

# Input that is not FXT: refused, unless --force; old archives still read.
refused() {
	[ "$rc" -eq 1 ] && grep -q "is not an FXT archive: no magic number record, and its first records do not read as FXT" "$dir/err" &&
		grep -q -- "--force to read it anyway" "$dir/err" ||
		fail "$1: not refused: exit $rc: $(tail -3 "$dir/err")"
}

run_not_fxt() {
	: "${CONVERT_GEN:?}" "${FXT_GEN:?}"
	"$CONVERT_GEN" all "$dir" || { fail "convert_gen all"; return; }
	# 3 MB of Chrome JSON, which convert took for FXT and turned to garbage
	"$FXT_GEN" -o "$dir/gen.fxt" -m 1 &&
		"$TRACECTL" convert "$dir/gen.fxt" -o "$dir/trace.json" &&
		"$TRACECTL" convert --json-array "$dir/all.fxt" -o "$dir/array.json" ||
		fail "converting to JSON"
	may_fail=1
	for f in trace.json array.json; do
		run "$TRACECTL" convert "$dir/$f" -o "$dir/out.json"
		refused "convert $f"
		[ -e "$dir/out.json" ] && fail "convert $f: left its output"
		run "$TRACECTL" report "$dir/$f" -o "$dir/out.html"
		refused "report $f"
		[ -e "$dir/out.html" ] && fail "report $f: left its output"
		run "$TRACECTL" summary "$dir/$f"
		refused "summary $f"
		run "$TRACECTL" dump "$dir/$f"
		refused "dump $f"
	done
	run "$TRACECTL" convert - -o - <"$dir/trace.json"
	refused "convert of standard input"
	[ -s "$dir/out" ] && fail "convert -o -: wrote $(wc -c <"$dir/out") bytes"

	# a broken first record, then an archive without its magic number
	{ printf '\0\0\0\0\0\0\0\0'; tail -c +9 "$dir/all.fxt"; } >"$dir/broken.fxt"
	run "$TRACECTL" summary "$dir/broken.fxt"
	refused "summary of a broken start"
	may_fail=
	run "$TRACECTL" convert --force "$dir/broken.fxt" -o "$dir/out.json"
	grep -q "1 malformed record(s) skipped" "$dir/err" ||
		fail "convert --force: $(tail -3 "$dir/err")"
	grep -q '"name":"inst"' "$dir/out.json" || fail "convert --force: events lost"
	run "$TRACECTL" summary --force "$dir/broken.fxt"
	run "$TRACECTL" report --force "$dir/broken.fxt" -o "$dir/out.html"
	run "$TRACECTL" dump --force "$dir/broken.fxt"

	# the 2018 revision has no magic number: read, with a note
	tail -c +9 "$dir/all.fxt" >"$dir/old.fxt"
	all_commands "$dir/old.fxt"
	grep -q "no FXT magic number at the start" "$dir/err" ||
		fail "no magic: no note: $(cat "$dir/err")"
}

# A provider name with ESC, BEL and CR: escaped wherever it is printed.
run_escapes() {
	python3 "$HOSTILE_FXT" escapes >"$dir/esc.fxt"
	want='\x1b[31mred\x07\x0dcr'
	run "$TRACECTL" convert "$dir/esc.fxt" -o "$dir/out.json"
	grep -qF "provider 7 '$want': buffer full 1 time(s)" "$dir/err" ||
		fail "convert: name not escaped: $(cat -v "$dir/err")"
	cp "$dir/err" "$dir/convert.err"
	run "$TRACECTL" summary "$dir/esc.fxt"
	grep -qF "provider 7 $want buffer full 1x" "$dir/out" ||
		fail "summary: name not escaped: $(cat -v "$dir/out")"
	cp "$dir/out" "$dir/summary.out"
	run "$TRACECTL" dump "$dir/esc.fxt"
	grep -qF "name=\"$want\"" "$dir/out" ||
		fail "dump: name not escaped: $(cat -v "$dir/out")"
	if grep -q "$(printf '[\033\007\r]')" "$dir/convert.err" \
		"$dir/summary.out" "$dir/out"; then
		fail "a control character reached the terminal"
	fi
}

case ${1:-} in
times) run_times ;;
memory) mkfifo "$dir/pipe" && run_memory ;;
not-fxt) run_not_fxt ;;
escapes) run_escapes ;;
*) echo "usage: $0 times|memory|not-fxt|escapes" >&2; exit 2 ;;
esac

check_summary "hostile archives: $1"
