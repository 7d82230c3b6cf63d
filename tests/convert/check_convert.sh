#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Converts archives made by convert_gen with tracectl and checks the JSON
# with jq (fields, exact values) and python3 (strict JSON, strict UTF-8).
#
# usage: check_convert.sh TRACECTL CONVERT_GEN all|hostile|cli|memory
set -u -o pipefail

tracectl=$1
gen=$2
mode=$3
. "$(dirname "$0")/../common/check.sh"

# Strict: RFC 8259 numbers only (no NaN/Infinity), valid UTF-8. Each
# FILE argument is checked; the ones that fail are named.
valid_json() {
	python3 -c '
import json, sys
def bad(c):
    raise ValueError("non-JSON constant " + c)
status = 0
for path in sys.argv[1:]:
    try:
        with open(path, encoding="utf-8", errors="strict") as f:
            json.load(f, parse_constant=bad)
    except ValueError as e:
        print("invalid JSON in %s: %s" % (path, e))
        status = 1
sys.exit(status)
' "$@"
}

# check DESCRIPTION JQ-EXPRESSION: the expression must yield exactly true.
json=
check() {
	got=$(jq -c "$jq_defs $2" "$json" 2>&1)
	if [ "$got" != "true" ]; then
		fail "$1: got $got"
	fi
}

# one(f): the only event for which f holds.
jq_defs='
def one(f): [.traceEvents[] | select(f)] |
	if length == 1 then .[0] else error("\(length) events match") end;
def named(n): one(.name == n and .ph != "M");
def meta(kind; p; t): [.traceEvents[] |
	select(.ph == "M" and .name == kind and .pid == p and .tid == t) |
	.args.name];
'

# Sanitizer builds exit 1 on a finding, like a refusal: look for reports.
sanitizer_report() {
	grep -E "AddressSanitizer|LeakSanitizer|runtime error:" "$dir/stderr"
}

convert() {
	"$tracectl" convert "$@" 2>"$dir/stderr"
	status=$?
	sanitizer_report && fail "sanitizer report converting $*"
	return $status
}

check_events() {
	check "instant ts in us, exact" 'named("inst") | .ph == "i" and .ts == 1234.567 and .s == "t"'
	check "instant thread" 'named("inst") | .pid == 100 and .tid == 101 and .cat == "cat"'
	check "arg types" 'named("inst").args | .i32 == -5 and .u32 == 7 and
		.i64 == -1234567890123 and .f64 == 1.5 and .str == "hello" and
		.ptr == "0xdeadbeef" and .koid == 42 and .yes == true and
		.no == false and .nul == null and has("nul")'
	grep -q '"u64":18446744073709551615[,}]' "$json" ||
		fail "uint64 max not written exactly"
	grep -q '"i64":-1234567890123[,}]' "$json" ||
		fail "int64 not written exactly"
	check "scope from argument" 'named("global_inst") | .s == "g" and .ts == 2000.000'
	check "process scope from argument" 'named("proc_inst") | .s == "p" and .ts == 2000.001'
	check "counter" 'named("ctr") | .ph == "C" and .args == {"a": 3, "b": 2.5} and (has("id") | not)'
	check "counter id" 'named("ctr2") | .ph == "C" and .id == "0x7" and .args == {"v": 10}'
	check "begin" 'one(.ph == "B") | .name == "dur" and .ts == 4000'
	check "end" 'one(.ph == "E") | .ts == 4000.999 and .pid == 100 and .tid == 101'
	check "complete" 'named("cpl") | .ph == "X" and .ts == 5000 and .dur == 500.5 and .args.k == 1'
	check "async" '[.traceEvents[] | select(.name == "req") | [.ph, .id, .cat, .ts]] ==
		[["b", "0x55", "cat", 6000], ["n", "0x55", "cat", 6000.001], ["e", "0x55", "cat", 6000.002]]'
	check "flow" '[.traceEvents[] | select(.name == "fl") | [.ph, .id, .bp]] ==
		[["s", "0x66", null], ["t", "0x66", null], ["f", "0x66", "e"]]'
	check "NaN and infinities as strings" 'named("nan").args == {"n": "NaN", "pi": "Infinity", "ni": "-Infinity"}'
	check "log" 'one(.cat == "log") | .ph == "i" and .name == "log" and .args.message == "hello\nworld" and .pid == 100 and .tid == 102 and .ts == 8000'
	check "blob noted" 'one(.ph == "M" and .name == "blob" and .args.name == "blobby") | .args.size == 10 and .args.type == 1 and .args.type_name == "data"'
	check "large blob with metadata" 'named("lb") | .ph == "i" and .ts == 9000 and .args == {"blob_size": 100, "k": 1}'
	check "large blob without metadata" 'one(.ph == "M" and .name == "blob" and .args.name == "lb2") | .args.size == 20 and .args.category == "cat"'
	check "userspace object" 'one(.name == "userspace_object") | .pid == 100 and .args == {"pointer": "0x1000", "name": "obj", "field": 9}'
	check "kernel object" 'one(.name == "kernel_object") | .args == {"koid": 77, "type": 4, "name": "chan"}'
	grep -q '"dur":500.500,' "$json" || fail "dur not printed with 3 decimals"
	grep -q '"ts":4000.999,' "$json" || fail "ts not printed as written"
}

check_names() {
	check "process name" 'meta("process_name"; 100; 0) == ["myapp"]'
	check "thread name, renamed once" 'meta("thread_name"; 100; 101) == ["worker", "worker2"]'
	check "thread name from thread record" 'meta("thread_name"; 300; 301) == ["lonely"]'
	check "kernel process name" 'meta("process_name"; 200; 0) == ["shell"]'
	check "kernel thread names" 'meta("thread_name"; 200; 201) == ["sh"] and meta("thread_name"; 200; 202) == ["bash"]'
}

check_sched() {
	cpus=2147483647
	check "CPUs process" "meta(\"process_name\"; $cpus; 0) == [\"CPUs\"]"
	check "CPU tracks" "[0, 1, 2] | map(. as \$n | \$root | meta(\"thread_name\"; $cpus; \$n)) == [[\"CPU 0\"], [\"CPU 1\"], [\"CPU 2\"]]"
	check "slice of sh" "named(\"sh 201\") | .ph == \"X\" and .pid == $cpus and .tid == 0 and .ts == 10000 and .dur == 1000 and .args == {\"tid\": 201, \"pid\": 200, \"weight\": 100, \"end_state\": \"blocked\"}"
	check "slice of bash" "named(\"bash 202\") | .ts == 11000 and .dur == 1000 and .args.end_state == \"running\" and .args.weight == 120"
	check "kernel:power counter beside CPU 1" "one(.ph == \"C\" and .cat == \"kernel:power\") | .name == \"cpu_idle CPU 1\" and .pid == $cpus and .tid == 1 and .ts == 12600 and .args == {\"state\": 2}"
	check "kernel:block begin in Block I/O" 'one(.ph == "b" and .cat == "kernel:block") | .name == "block_write" and .pid == 2147483646 and .id == "0xabc" and .ts == 12700 and .args == {"major": 254, "minor": 0, "sector": 8, "bytes": 4096}'
	check "kernel:block end, same id" 'one(.ph == "e" and .cat == "kernel:block") | .name == "block_write" and .pid == 2147483646 and .id == "0xabc" and .ts == 12800 and .args == {"status": 0}'
	check "Block I/O process" 'meta("process_name"; 2147483646; 0) == ["Block I/O"]'
	check "kernel:fault instant on its thread" 'named("page_fault") | .ph == "i" and .s == "t" and .pid == 200 and .tid == 201 and .args == {"address": "0x7f0000001000", "error_code": 6}'
	check "idle draws nothing" '[.traceEvents[] | select(.ph == "X" and .cat == "sched")] | length == 4'
	check "running at the end: closed at the last record" "named(\"thread 203\") | .tid == 1 and .ts == 12500 and .dur == 1500 and (.args | has(\"end_state\") | not)"
	check "legacy switch" "named(\"thread 401\") | .tid == 2 and .ts == 13000 and .dur == 1000 and .args == {\"tid\": 401, \"pid\": 400, \"priority\": 20, \"end_state\": \"blocked\"}"
	check "wakeup" "named(\"wakeup bash 202\") | .ph == \"i\" and .s == \"t\" and .pid == $cpus and .tid == 1 and .ts == 10500 and .args == {\"tid\": 202, \"pid\": 200, \"weight\": 100, \"waker\": 201}"
}

check_metadata() {
	check "displayTimeUnit" '.displayTimeUnit == "ns"'
	check "providers" '[.providers[] | [.id, .name, .ticks_per_second, .buffer_overflows]] ==
		[[1, "app", 1000000000, 2], [2, "kernel", 1000000000, 0], [3, "slow", 1000000, 0]]'
	check "total overflows" '.buffer_overflows == 2 and .malformed_records == 0 and .truncated_input == false'
	check "tick rate per provider" 'named("slow") | .ts == 1234 and .dur == 500 and .pid == 500'
	check "tick rate, large values" 'named("slow_inst") | .ts == 1234567'
	grep -q '"ts":1234567.000,' "$json" || fail "ts of 1e6 ticks/s not exact"
}

run_all() {
	"$gen" all "$dir" || { fail "convert_gen all"; return; }
	json=$dir/all.json
	convert "$dir/all.fxt" -o "$json" || fail "convert exit $?: $(cat "$dir/stderr")"
	valid_json "$json" || fail "all.json is not strict JSON"
	jq_defs="$jq_defs . as \$root |"
	check_events
	check_names
	check_sched
	check_metadata
	grep -q "provider 1 'app': buffer full 2 time(s)" "$dir/stderr" ||
		fail "drops not reported on stderr: $(cat "$dir/stderr")"
}

# Any input: no crash, a clean refusal (exit 1, no output left) or an
# output that valid_json then checks.
convert_hostile() {
	f=$1
	out=${f%.fxt}.json
	"$tracectl" convert "$f" -o "$out" 2>"$dir/stderr"
	status=$?
	if sanitizer_report; then
		fail "$(basename "$f"): sanitizer report"
	elif [ $status -gt 1 ]; then
		fail "$(basename "$f"): exit $status: $(tail -3 "$dir/stderr")"
	elif [ $status -eq 1 ] && [ -e "$out" ]; then
		fail "$(basename "$f"): failed but left $out"
	fi
}

run_hostile() {
	"$gen" hostile "$dir" || { fail "convert_gen hostile"; return; }
	for f in "$dir"/*.fxt; do
		convert_hostile "$f"
	done
	converted=$(ls "$dir"/*.json | wc -l)
	[ "$converted" -ge 100 ] || fail "only $converted hostile inputs converted"
	valid_json "$dir"/*.json || fail "invalid JSON from hostile input"

	json=$dir/strings.json
	jq_defs="$jq_defs
def nasty: ([1, 1] + [range(2; 128)] + [range(128) | 65533] +
	[65533, 65533, 124, 65533, 65533, 65533, 124, 65533, 65533, 65533,
	 65533, 124, 65533, 124, 65533, 124, 34, 92, 124, 127]) | implode;
def nasty_event: one(.ph == \"i\" and .cat != \"log\");"
	check "control characters, quotes, backslash" \
		'one(.ph == "B") | .name == "quote\"back\\ctl\u0001\u001f"'
	check "every byte escaped, bad UTF-8 as U+FFFD" 'nasty_event | .name == nasty'
	check "argument name and value too" \
		'nasty_event | .args | to_entries[0] | .key == nasty and .value == nasty'
	check "huge strings kept whole" \
		'(one(.cat == "log") | .args.message | length > 10000) and
		 (nasty_event | (.args.huge | length) > 5000 and (.cat | length) > 10000)'
	check "nasty thread name" 'meta("thread_name"; 7; 7) == [nasty] and meta("process_name"; 7; 0) == [nasty]'
	check "nasty thread name cut in a CPU slice label" \
		'one(.ph == "X" and .cat == "sched") | .name == (nasty | .[0:62] + " 7")'
	check "nasty blob name" 'one(.name == "blob") | .args.name == nasty and .args.type_name == "unknown"'
	check "nasty provider name" '.providers[0].name == "a\u0001\"\ufffd"'

	json=$dir/truncated.json
	check "truncated input flagged" '.truncated_input == true'
	convert "$dir/truncated.fxt" -o "$json" || fail "truncated.fxt: exit $?"
	grep -q "ends inside a record" "$dir/stderr" ||
		fail "truncation not reported: $(cat "$dir/stderr")"

	json=$dir/malformed.json
	convert "$dir/malformed.fxt" -o "$json" || fail "malformed.fxt: exit $?"
	grep -q "1 malformed record(s) skipped" "$dir/stderr" ||
		fail "malformed count not printed: $(cat "$dir/stderr")"
	check "records after a malformed one kept" 'named("after") | .ts == 0.005'
	check "malformed count in metadata" '.malformed_records == 1'

	[ -e "$dir/empty.json" ] && fail "empty input left an output"
	"$tracectl" convert "$dir/empty.fxt" -o "$dir/empty.json" 2>"$dir/stderr" &&
		fail "empty input converted"
	grep -q "not an FXT archive" "$dir/stderr" || fail "empty: $(cat "$dir/stderr")"
}

run_cli() {
	"$gen" all "$dir" || { fail "convert_gen all"; return; }
	"$tracectl" convert --help | grep "Examples:" >/dev/null || fail "--help"
	"$tracectl" convert >/dev/null 2>&1
	[ $? -eq 2 ] || fail "no input: want exit 2"
	"$tracectl" convert --bogus "$dir/all.fxt" >/dev/null 2>&1
	[ $? -eq 2 ] || fail "bad option: want exit 2"
	convert "$dir/missing.fxt"
	[ $? -eq 1 ] || fail "missing input: want exit 1"
	grep -q "cannot open '$dir/missing.fxt': No such file" "$dir/stderr" ||
		fail "missing input message: $(cat "$dir/stderr")"
	convert "$dir"
	[ $? -eq 1 ] || fail "directory input: want exit 1"

	convert "$dir/all.fxt" || fail "default output: exit $?"
	[ -s "$dir/all.json" ] || fail "default output all.json missing"
	[ -s "$dir/stderr" ] && ! grep -q "buffer full" "$dir/stderr" &&
		fail "unexpected stderr: $(cat "$dir/stderr")"
	cp "$dir/all.fxt" "$dir/plain"
	convert "$dir/plain" || fail "no .fxt suffix: exit $?"
	[ -s "$dir/plain.json" ] || fail "plain -> plain.json missing"

	json=$dir/stdout.json
	convert "$dir/all.fxt" -o - >"$json" || fail "-o -: exit $?"
	cmp -s "$json" "$dir/all.json" || fail "-o - differs from file output"
	convert - -o "$dir/stdin.json" <"$dir/all.fxt" || fail "stdin: exit $?"
	cmp -s "$dir/stdin.json" "$dir/all.json" || fail "stdin input differs"

	json=$dir/array.json
	convert --json-array "$dir/all.fxt" -o "$json" || fail "--json-array: exit $?"
	valid_json "$json" || fail "array output invalid"
	check "array format" 'type == "array" and length > 40 and (.[0] | has("ph"))'
	jq_defs='def one(f): [.[] | select(f)] | if length == 1 then .[0] else error("\(length)") end;'
	check "array events" 'one(.name == "inst") | .ts == 1234.567'

	# The 2018 revision has no magic number record: converted, with a note.
	tail -c +9 "$dir/all.fxt" >"$dir/old.fxt"
	json=$dir/old.json
	convert "$dir/old.fxt" -o "$json" || fail "no magic: exit $?"
	grep -q "no FXT magic number" "$dir/stderr" || fail "no magic: no note"
	jq_defs='def one(f): [.traceEvents[] | select(f)] | if length == 1 then .[0] else error("\(length)") end;'
	check "no magic: events kept" 'one(.name == "cpl") | .dur == 500.5'

	cp "$dir/all.fxt" "$dir/same.fxt"
	convert "$dir/same.fxt" -o "$dir/same.fxt"
	[ $? -eq 1 ] || fail "output = input: want exit 1"
	cmp -s "$dir/same.fxt" "$dir/all.fxt" || fail "input clobbered"

	if [ -w /dev/full ]; then
		convert "$dir/all.fxt" -o /dev/full
		[ $? -eq 1 ] || fail "/dev/full: want exit 1"
		grep -q "writing '/dev/full': No space left" "$dir/stderr" ||
			fail "/dev/full message: $(cat "$dir/stderr")"
		[ -c /dev/full ] || fail "/dev/full removed"
	fi
}

# Peak RSS stays bounded (64 MiB) whatever the input holds.
run_memory() {
	"$gen" memory "$dir" || { fail "convert_gen memory"; return; }
	json=$dir/memory.json
	rss_kb=$(python3 -c '
import resource, subprocess, sys
with open(sys.argv[1] + "/stderr", "w") as err:
    status = subprocess.run(sys.argv[2:], stderr=err).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if status == 0 else -status)
' "$dir" "$tracectl" convert "$dir/memory.fxt" -o "$json")
	sanitizer_report && fail "sanitizer report"
	if [ "$rss_kb" -le 0 ]; then
		fail "convert failed ($rss_kb): $(cat "$dir/stderr")"
		return
	fi
	echo "peak RSS ${rss_kb} KB for a $(stat -c %s "$dir/memory.fxt")-byte archive"
	[ "$rss_kb" -lt 65536 ] || fail "peak RSS ${rss_kb} KB >= 64 MiB"
	[ "$(grep -c '"name":"thread_name","pid":[0-9]*,"tid":[0-9]*,"args":{"name":"thread-' "$json")" -eq 300000 ] ||
		fail "not every thread named"
	[ "$(grep -c '"name":"thread_name","pid":2147483647,' "$json")" -eq 65536 ] ||
		fail "not every CPU named"
	grep -q 'over the 16777216-byte limit' "$dir/stderr" ||
		fail "big blob not refused: $(cat "$dir/stderr")"
	grep -q '"name":"last"' "$json" || fail "records after the big blob lost"
}

case $mode in
all) run_all ;;
hostile) run_hostile ;;
cli) run_cli ;;
memory) run_memory ;;
*) echo "unknown mode $mode" >&2; exit 2 ;;
esac

check_summary "tracectl convert $mode"
