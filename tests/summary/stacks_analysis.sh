#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Stack samples (include/fxt/stacks.h) as users see them, on archives of
# stacks_gen with known figures: tracectl convert's stackFrames, samples
# and blocked slices resolve; tracectl summary counts functions by self
# and total samples (700 in burn_seventy, 300 in burn_thirty), per thread,
# the blocking stacks, and what ran in the slowest slices (--slice);
# without stack records the summary is as before. Hostile tables (ids of
# nothing, duplicates, cut entries, a 3000-frame recursion) are counted
# and said, and nothing crashes; tables past the reader's budgets are
# cut, counted, within the readers' memory bound. Inline frames count as
# functions of their own, marked inlined where every frame of theirs is.
set -eu -o pipefail
. "$(dirname "$0")/../common/reader_memory.sh"
. "$(dirname "$0")/../common/report_data.sh"

: "${TRACECTL:?}" "${STACKS_GEN:?}" "${SUMMARY_GEN:?}"

T=$(mktemp -d /tmp/fxt-stacks-XXXXXX)
trap 'rm -rf "$T"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# check FILE JQ-EXPR WHAT: the expression is true of the JSON file
check() {
	jq -e "$2" "$1" >/dev/null || fail "$3: $(jq -c "$2" "$1" 2>&1 | head -c 400)"
}

for mode in good bad-ids truncated cycles; do
	"$STACKS_GEN" "$mode" "$T/$mode.fxt"
done

# ---- convert ----
"$TRACECTL" convert "$T/good.fxt" -o "$T/good.json" || fail "convert good"
J=$T/good.json
check "$J" '[.stackFrames as $f | $f[] | select(.parent != null and ($f[.parent] == null))] | length == 0' \
	"a stackFrames parent names no frame"
check "$J" '[.stackFrames[] | select(.parent == null)] | map(.name) == ["main"]' \
	"the one root is main"
check "$J" '(.samples | length == 1000) and ([.samples[] | select(.name == "cpu-clock" and .weight == 1 and .tid == 1001)] | length == 1000)' \
	"1000 on-CPU samples of thread 1001"
check "$J" '[.stackFrames as $f | .samples[] | select($f[.sf | tostring] == null)] | length == 0' \
	"a sample's sf names no frame"
check "$J" '[.stackFrames as $f | .samples[] | $f[.sf | tostring].name] | group_by(.) | map({(.[0]): length}) | add == {"burn_seventy": 650, "burn_thirty": 300, "asm_sysvec_apic_timer_interrupt": 50}' \
	"samples by leaf"
check "$J" '.samples[0].ts == 1000000 and .samples[1].ts == 1002004.008' "sample times in us"
check "$J" '[.traceEvents[] | select(.ph == "X" and .name == "blocked" and .cat == "kernel:offcpu" and .tid == 1002 and .pid == 1000 and .dur == 5000)] | length == 20' \
	"20 blocked slices of 5 ms on thread 1002"
# a blocked slice's stack, leaf to root, through the parents
check "$J" '.stackFrames as $f | [.traceEvents[] | select(.name == "blocked")][0].sf | tostring | [recurse($f[.].parent // empty)] | map($f[.].name) == ["schedule", "pipe_read", "vfs_read", "libc.so.6+0x10f7e2", "block_on_pipe", "main"]' \
	"the blocked stack"
check "$J" '.stackFrames as $f | [$f[] | select(.name == "pipe_read")][0].category == "kernel" and ([$f[] | select(.name == "block_on_pipe")][0].category == "stack_workload") and ([$f[] | select(.name | startswith("libc"))][0].category == "libc.so.6")' \
	"frame categories"
check "$J" '.stack_records == {"samples": 1020, "samples_dropped": 0, "samples_malformed": 0, "samples_without_stack": 0, "entries_malformed": 0, "entries_duplicate": 0, "entries_dropped": 0, "missing_frames": 0, "missing_mappings": 0, "functions_dropped": 0, "frames_cut": 0}' \
	"stack record counts"
"$TRACECTL" convert --json-array "$T/good.fxt" -o "$T/array.json" || fail "convert to an array"
check "$T/array.json" '[.[] | select(.name == "blocked")] | length == 20 and all(.sf == null)' \
	"array format: blocked slices, no sf"

# ---- summary ----
"$TRACECTL" summary --json "$T/good.fxt" >"$T/sum.json" || fail "summary --json"
S=$T/sum.json
check "$S" '.stacks.samples == 1000 and .stacks.offcpu_samples == 20' "sample counts"
check "$S" '.functions | map({(.name): [.self, .total]}) | add | (.burn_seventy == [650, 700] and .burn_thirty == [300, 300] and .main == [0, 1000] and .asm_sysvec_apic_timer_interrupt == [50, 50])' \
	"functions' self and total samples"
check "$S" '.functions[0].name == "burn_seventy" and .functions[0].category == "stack_workload"' \
	"most self samples first"
check "$S" '(.functions | map({(.name): .total}) | add) as $t | ($t.burn_seventy * 3 == $t.burn_thirty * 7)' \
	"70/30"
check "$S" '.thread_functions | length == 1 and .[0].tid == 1001 and .[0].name == "burner" and .[0].process == "stack_workload" and .[0].samples == 1000 and .[0].functions[0].name == "burn_seventy"' \
	"functions per thread"
check "$S" '.offcpu.count == 20 and .offcpu.blocked_ns == 100000000 and .offcpu.stacks == [{"stack": ["schedule", "pipe_read", "vfs_read", "libc.so.6+0x10f7e2", "block_on_pipe", "main"], "blocked_ns": 100000000, "count": 20, "pid": 1000, "tid": 1002, "thread": "blocker", "process": "stack_workload", "other_threads": false}]' \
	"off-CPU stacks"
check "$S" '.offcpu.functions | map({(.name): [.self_ns, .total_ns]}) | add | (.schedule == [100000000, 100000000] and .pipe_read == [0, 100000000])' \
	"off-CPU functions"
check "$S" '.slice_samples == null' "slice_samples without --slice"
# The two stack-losses records added up: a reason not known counted
# apart, a sum past 2^64 saturated.
check "$S" '.stack_losses | del(.mappings_lost) == {"recorded": true, "samples_dropped": 1, "offcpu_dropped": 2, "kernel_depth_limit": 3, "user_depth_limit": 4, "user_read_fault": 5, "leaf_caller_unread": 6, "junk_frame_word": 17, "mappings_dropped": 8, "unnamed_unreadable": 10, "unnamed_unopened": 11, "unnamed_too_large": 12, "unnamed_over_budget": 13, "unwind_no_table": 14, "unwind_unsupported": 15, "unwind_read_fault": 16, "unwind_bad_frame": 17, "unwind_tables_full": 18, "python_depth_limit": 19, "python_read_fault": 20, "python_unnamed": 21, "unknown": 5} and .mappings_lost > 1.8e19' \
	"stack losses"

"$TRACECTL" summary --json --slice step --top 1 "$T/good.fxt" >"$T/slice1.json"
check "$T/slice1.json" '.slice_samples.name == "step" and .slice_samples.count == 3 and (.slice_samples.slices | length == 1) and .slice_samples.slices[0].tid == 1001 and .slice_samples.slices[0].samples == 300 and .slice_samples.slices[0].functions[0] == {"name": "burn_thirty", "category": "stack_workload", "self": 300, "total": 300}' \
	"--slice: the slowest step ran burn_thirty"
"$TRACECTL" summary --json --slice step "$T/good.fxt" >"$T/slice3.json"
check "$T/slice3.json" '[.slice_samples.slices[] | .samples] == [300, 100, 50] and ([.slice_samples.slices[] | .dur_ns] | . == (sort | reverse)) and (.slice_samples.slices[1].functions | map({(.name): .self}) | add | .burn_seventy == 93)' \
	"--slice: three steps, slowest first"
"$TRACECTL" summary --json --slice nothing "$T/good.fxt" >"$T/slice0.json"
check "$T/slice0.json" '.slice_samples == {"name": "nothing", "count": 0, "slices": []}' "--slice of no slice"
if "$TRACECTL" summary --slice "" "$T/good.fxt" 2>"$T/err"; then
	fail "--slice '' accepted"
fi
[ $? -eq 2 ] || true
grep -q "slice" "$T/err" || fail "--slice '' without a word why"

"$TRACECTL" summary --slice step "$T/good.fxt" >"$T/sum.txt"
grep -Eq '^ 65\.0%  70\.0%  burn_seventy \(stack_workload\)$' "$T/sum.txt" || fail "text: burn_seventy row"
grep -q '^Off-CPU: 20 blocks, 100 ms blocked$' "$T/sum.txt" || fail "text: off-CPU"
grep -qx 'Stack losses (counted while recording): samples_dropped 1, offcpu_dropped 2, kernel_depth_limit 3, user_depth_limit 4, user_read_fault 5, leaf_caller_unread 6, junk_frame_word 17, mappings_dropped 8, mappings_lost 18446744073709551615, unnamed_unreadable 10, unnamed_unopened 11, unnamed_too_large 12, unnamed_over_budget 13, unwind_no_table 14, unwind_unsupported 15, unwind_read_fault 16, unwind_bad_frame 17, unwind_tables_full 18, python_depth_limit 19, python_read_fault 20, python_unnamed 21, unknown reasons 5' \
	"$T/sum.txt" || fail "text: stack losses: $(grep '^Stack losses' "$T/sum.txt")"
grep -q 'schedule <- pipe_read <- vfs_read' "$T/sum.txt" || fail "text: blocking stack"
grep -qF ' blocker (tid 1002) of stack_workload (pid 1000): schedule <- ' "$T/sum.txt" ||
	fail "text: the blocking stack's thread"

# ---- a long kernel stack, a rare function ----
# The text elides the middle of the kernel frames, never the user frames;
# each off-CPU stack names the thread of its longest block; a function of
# 1 sample in 3001 (0.0%) is no row of the text nor of the report's flame
# graph, and the off-CPU graph has no row of 1 us in 1.05 s (it stays in
# the JSON, whose figures are counts).
"$STACKS_GEN" deep "$T/deep.fxt"
"$TRACECTL" summary "$T/deep.fxt" >"$T/deep.txt" || fail "summary deep"
grep -qF '  blocker (tid 1002) of stack_workload (pid 1000) and other threads: k00 <- k01 <- k02 <- k03 <- ... <- k18 <- k19 <- block_on_pipe <- main' \
	"$T/deep.txt" || { cat "$T/deep.txt"; fail "deep: the long kernel stack"; }
grep -qF '  burner (tid 1001) of stack_workload (pid 1000): burn_seventy <- main' \
	"$T/deep.txt" || { cat "$T/deep.txt"; fail "deep: the user-only stack"; }
! grep -q 'burn_rarely' "$T/deep.txt" || fail "deep: a 0.0% row in the text"
grep -Eq '^100\.0% 100\.0%  burn_seventy \(stack_workload\)$' "$T/deep.txt" ||
	fail "deep: burn_seventy row"
"$TRACECTL" summary --json "$T/deep.fxt" >"$T/deep.json" || fail "summary --json deep"
check "$T/deep.json" '.offcpu.stacks[0] == {"stack": ["k00", "k01", "k02", "k03", "k04", "k05", "k06", "k07", "k08", "k09", "k10", "k11", "k12", "k13", "k14", "k15", "k16", "k17", "k18", "k19", "block_on_pipe", "main"], "blocked_ns": 1050000000, "count": 11, "pid": 1000, "tid": 1002, "thread": "blocker", "process": "stack_workload", "other_threads": true}' \
	"deep: the off-CPU stack's thread in the JSON"
check "$T/deep.json" '.functions | map({(.name): .self}) | add | .burn_rarely == 1' \
	"deep: the JSON keeps the rare function"
"$TRACECTL" report "$T/deep.fxt" -o "$T/deep.html" || fail "report deep"
report_data "$T/deep.html" >"$T/deep-data.json"
check "$T/deep-data.json" '.flame.functions | map(.[0]) | index("burn_rarely") == null and index("burn_seventy") != null' \
	"deep: a 0.0% function in the flame graph"
check "$T/deep-data.json" '.flame as $f | [$f.nodes[] | select($f.functions[.[1]][0] == "burn_seventy") | .[2:]] == [[3000, 0]]' \
	"deep: burn_seventy's 1 us is a row of the off-CPU flame graph"
grep -q '^Slowest slices "step" (3 of 3):$' "$T/sum.txt" || fail "text: slices"

# Without stack records: no trace of them in the summary.
"$SUMMARY_GEN" nested "$T/nested.fxt"
"$TRACECTL" summary --json "$T/nested.fxt" >"$T/nested.json"
check "$T/nested.json" 'has("functions") or has("stacks") or has("offcpu") or has("stack_losses") | not' \
	"stack keys in a summary without samples"
"$TRACECTL" summary "$T/nested.fxt" >"$T/nested.txt"
if grep -q 'Functions\|Off-CPU' "$T/nested.txt"; then
	fail "stack tables in a text summary without samples"
fi
# --slice without stack records: the slices, no samples in them
"$TRACECTL" summary --json --slice outer "$T/nested.fxt" >"$T/nested-slice.json" ||
	fail "--slice without stack records"
check "$T/nested-slice.json" '.slice_samples.count == 2 and (.slice_samples.slices | length == 2 and all(.samples == 0)) and .stacks.samples == 0' \
	"--slice without stack records"
"$TRACECTL" summary --slice outer "$T/nested.fxt" >/dev/null ||
	fail "--slice without stack records, as text"

# ---- hostile tables ----
for mode in bad-ids truncated cycles; do
	"$TRACECTL" convert "$T/$mode.fxt" -o "$T/$mode.json" 2>"$T/$mode.err" ||
		fail "convert $mode"
	check "$T/$mode.json" '[.stackFrames as $f | $f[] | select(.parent != null and ($f[.parent] == null))] | length == 0' \
		"$mode: a parent names no frame"
	check "$T/$mode.json" '[.stackFrames as $f | .samples[] | select(.sf != null and $f[.sf | tostring] == null)] | length == 0' \
		"$mode: a sample's sf names no frame"
	"$TRACECTL" summary --json "$T/$mode.fxt" >"$T/$mode.sum" 2>"$T/$mode.serr" ||
		fail "summary $mode"
	"$TRACECTL" summary "$T/$mode.fxt" >/dev/null 2>&1 || fail "summary text $mode"
	"$TRACECTL" report "$T/$mode.fxt" -o "$T/$mode.html" 2>/dev/null ||
		fail "report $mode"
	check "$T/$mode.sum" '[.functions[] | select(.total > 100 or .self > .total)] | length == 0' \
		"$mode: a function counted more than once per sample"
done
check "$T/bad-ids.json" '.stack_records | (.samples == 21 and .samples_malformed == 1 and .samples_without_stack == 6 and .entries_malformed == 3 and .entries_duplicate == 3 and .missing_frames == 1 and .missing_mappings == 1)' \
	"bad ids counted"
check "$T/bad-ids.sum" '.functions | (map({(.name): .total}) | add | (.pipe_read == 10 and ."[missing frame]" == 10 and ."[missing]+0x1100" == 10 and ."[unknown]" == 3)) and (.[] | select(.name == "[unknown]") | .category == "[unknown]")' \
	"bad ids: what is known is shown, the rest named missing"
grep -q 'stack' "$T/bad-ids.serr" || fail "bad ids: nothing said on stderr"
# a name's escapes reach no terminal, JSON keeps them
check "$T/bad-ids.sum" 'any(.functions[]; .name == "esc\u001b[31mred\u001b]0;title\u0007" and .total == 2)' \
	"bad ids: the escaped name"
"$TRACECTL" summary "$T/bad-ids.fxt" >"$T/bad-ids.txt" 2>&1
grep -q 'esc' "$T/bad-ids.txt" || fail "bad ids: the escaped name not in the table"
if LC_ALL=C grep -q "$(printf '[\033\007]')" "$T/bad-ids.txt"; then
	fail "bad ids: a terminal escape in the table"
fi
check "$T/truncated.json" '.stack_records.entries_malformed == 6 and .stack_records.samples_without_stack == 5 and (.samples | length == 10)' \
	"cut entries counted"
grep -q 'stack' "$T/truncated.serr" || fail "truncated: nothing said on stderr"
check "$T/cycles.json" '(.stackFrames | length == 3000) and .stack_records.missing_frames == 0' \
	"one frame per prefix of the recursion"
check "$T/cycles.sum" '.functions | map({(.name): [.self, .total]}) | add | (.rec_a == [100, 100] and .rec_b == [0, 100])' \
	"recursion counted once per sample"

# Past the budgets: 700000 frames, 200 stacks 4000 deep under roots of
# their own; every reader within the memory bound, the cuts counted.
"$STACKS_GEN" flood "$T/flood.fxt"
limited() {
	if asan_build "$TRACECTL"; then "$@"; else under_reader_memory_limit "$@"; fi
}
limited "$TRACECTL" summary --json "$T/flood.fxt" >"$T/flood.sum" 2>"$T/flood.err" ||
	fail "summary of the flood"
check "$T/flood.sum" '.stacks | (.entries_dropped > 0 and .frames_cut > 0 and .samples == 1000)' \
	"flood: cuts counted"
check "$T/flood.sum" '[.functions[] | select(.total > 1000)] | length == 0' "flood: functions"
grep -q "past the reader's limit" "$T/flood.err" || fail "flood: the cuts not said"
limited "$TRACECTL" convert "$T/flood.fxt" -o "$T/flood.json" 2>/dev/null || fail "convert of the flood"
check "$T/flood.json" '[.stackFrames as $f | .samples[] | select(.sf != null and $f[.sf | tostring] == null)] | length == 0' \
	"flood: a sample's sf names no frame"
limited "$TRACECTL" report "$T/flood.fxt" -o "$T/flood.html" 2>/dev/null || fail "report of the flood"

# ---- inline frames: counted as functions, marked where seen only inlined ----
"$STACKS_GEN" inline "$T/inline.fxt"
"$TRACECTL" summary --json "$T/inline.fxt" >"$T/inline.sum" || fail "summary of inline frames"
check "$T/inline.sum" '.functions | map({(.name): [.self, .total, .inlined]}) | add ==
	{"hot_loop": [10, 10, true], "work": [5, 19, null], "shared": [10, 10, null],
	 "main": [0, 25, null]}' "inline: functions, self and total, marked"
"$TRACECTL" summary "$T/inline.fxt" >"$T/inline.txt" || fail "text summary of inline frames"
grep -q 'hot_loop (stack_workload, inlined)$' "$T/inline.txt" &&
	grep -q 'shared (stack_workload)$' "$T/inline.txt" ||
	fail "inline: the text summary does not mark hot_loop alone"
"$TRACECTL" convert "$T/inline.fxt" -o "$T/inline.json" || fail "convert of inline frames"
check "$T/inline.json" '.stackFrames as $f | [$f[] | select(.inlined == true)] |
	map([.name, $f[.parent].name]) == [["hot_loop", "work"]]' \
	"inline: the one inlined stackFrame under work"
"$TRACECTL" report "$T/inline.fxt" -o "$T/inline.html" || fail "report of inline frames"
python3 -c 'import sys; t = open(sys.argv[1]).read()
print(t.split("id=\"fxt-data\">")[1].split("</script>")[0])' "$T/inline.html" >"$T/inline.data"
check "$T/inline.data" '.flame.functions | map(select(length > 2)) == [["hot_loop", "stack_workload", 1]]' \
	"inline: the flame graph marks hot_loop alone"
echo "ok"
