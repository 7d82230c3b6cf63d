#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl report in a real browser: headless Chromium (no network: every
# host name fails to resolve) loads the page with no console message, the
# page says it drew the CPU lanes and the latency histogram, its timeline
# zooms, pans and shows the thread under the pointer, and its screenshot
# is not blank. With kernel:mem records it draws the memory chart (system
# memory, the largest processes' RSS, stalls, OOM kills) whose tooltips
# name the OOM victim and the stalled thread; without, a note says so.
# With stack samples it draws the CPU and off-CPU flame graphs, whose
# widest callee zooms to full width on a click and back, beside a table
# of the top functions; without, a note.
# Also: the page references nothing outside itself, a hostile thread
# name cannot break out of the data, and the page's size does not grow
# with the archive's, nor with times and values at 2^64-1.
set -eu -o pipefail
. "$(dirname "$0")/../common/report_data.sh"

: "${TRACECTL:?}" "${SUMMARY_GEN:?}" "${FXT_GEN:?}" "${PNG_CHECK:?}" "${STACKS_GEN:?}"
CHROMIUM=$(command -v chromium || true)
if [ -z "$CHROMIUM" ]; then
	echo "skip: chromium is not installed (scripts/install-deps.sh installs it)"
	exit 77
fi

T=$(mktemp -d /tmp/fxt-report-XXXXXX)
trap 'rm -rf "$T"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# browse HTML NAME ARGS...: Chromium on the page, output in $T/NAME.*
browse() {
	page=$1
	name=$2
	shift 2
	mkdir -p "$T/profile-$name"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$T/profile-$name" \
		--host-resolver-rules="MAP * ~NOTFOUND" \
		--enable-logging=stderr --v=0 "$@" "file://$page" \
		>"$T/$name.out" 2>"$T/$name.err" ||
		{ tail -20 "$T/$name.err"; fail "chromium $name: exit $?"; }
	if grep ':CONSOLE' "$T/$name.err"; then
		fail "console messages from the page ($name)"
	fi
}

# read_status NAME: what the page browsed as NAME says it drew (its
# data-status attribute, not shown), in $status; no debug text shows
read_status() {
	status=$(grep -o 'data-status="[^"]*"' "$T/$1.out")
	echo "$status"
	python3 -c 'import re, sys
page = re.sub(r"(?s)<script.*?</script>|data-status=\"[^\"]*\"", "",
	      open(sys.argv[1]).read())
sys.exit("rendered:" in page or "lanes=" in page)' "$T/$1.out" ||
		fail "debug text on the page ($1)"
}

# expect REGEX WHAT: $status matches the extended REGEX, or fail
expect() {
	echo "$status" | grep -E "$1" >/dev/null || fail "$2: $status"
}

"$SUMMARY_GEN" random "$T/random.fxt"
"$SUMMARY_GEN" nested "$T/nested.fxt"
"$TRACECTL" report "$T/random.fxt" -o "$T/random.html" ||
	fail "tracectl report"
"$TRACECTL" report "$T/nested.fxt" || fail "tracectl report, default name"
[ -s "$T/nested.html" ] || fail "no nested.html next to nested.fxt"

# Self-contained: no URL to load anything from.
if grep -Eino '(src|href|action)=["'"'"']?[a-z]*:?//|url\(|@import|https?:' \
	"$T/random.html"; then
	fail "the page refers to something outside itself"
fi

browse "$T/random.html" dom --dump-dom
grep -q 'data-rendered="1"' "$T/dom.out" || fail "the page did not finish drawing"
read_status dom
expect 'rendered: lanes=4 runs=[1-9][0-9]* histogram-bins=[1-9][0-9]* threads=25 slices=5 ' \
	"lanes, histogram or tables missing"
expect ' memory=none note=shown ' "no kernel:mem records, yet no note saying so"
expect ' flame=none ' "no stack samples, yet flame graphs"
# why: the slowest instance of each of the top 3 slices, explained
expect ' why=3 why-rows=[1-9][0-9]* ' "the why section"
# the legend: a colour of its own per entry, no two labels alike; the
# time axis in one unit (not "0 ns" beside "20.0 ms")
expect ' legend=([1-9][0-9]*) legend-colours=\1 legend-labels-unique=true axis-units=1 ' \
	"legend colours, labels or axis units"
# scheduling records: no note on their absence; every name whole
expect ' sched-note=hidden names-cut=0"$' "a note on scheduling, or names cut"

# Every panel keeps to the page's scope: the wakeup histogram counts the
# wakeups of the threads the page shows, of one process as of all.
in_scope='.latency.count == ([.summary.threads[].wakeup_latency_ns.count] | add) and
	.latency.count == ([.latency.bins[][2]] | add)'
report_data "$T/random.html" | jq -e "$in_scope and .latency.count > 0" >/dev/null ||
	fail "the wakeup histogram is not the threads' wakeups"
"$TRACECTL" report --pid 301 "$T/random.fxt" -o "$T/pid.html"
report_data "$T/pid.html" | jq -e "$in_scope and .latency.count > 0 and
	([.summary.threads[].pid] | unique) == [301]" >/dev/null ||
	fail "the wakeup histogram of --pid 301 counts other processes"

# The page drives its timeline like a user (wheel, drag, hover).
browse "$T/random.html#selftest" selftest --dump-dom --window-size=1200,900
read_status selftest
expect 'selftest: zoom=true pan=true tooltip=true"$' "zoom, pan or tooltip"

browse "$T/random.html" shot --screenshot="$T/random.png" --window-size=1200,900
[ -s "$T/random.png" ] || fail "no screenshot"
# whole page: many colours, a third not background; the lanes: coloured
python3 "$PNG_CHECK" "$T/random.png" 50 0.05 110 265 1140 330 8 ||
	fail "the screenshot looks blank"

# kernel:mem: 4 system series and the 6 largest of 8 processes, each
# stall kind, an OOM kill; tooltips on the OOM kill and a stall.
"$SUMMARY_GEN" memory "$T/memory.fxt"
"$TRACECTL" report "$T/memory.fxt" -o "$T/memory.html"
browse "$T/memory.html#selftest" memory --dump-dom --window-size=1200,900
read_status memory
expect ' memory=drawn height=[1-9][0-9]* series=10 processes=6 stall-cells=[1-9][0-9]* oom-kills=1 ' \
	"memory chart"
expect 'tooltip=true memory-tooltips=true"$' "memory chart tooltips"

# Stack samples: 1000 on-CPU in main > burn_seventy (700, 50 of them in
# a kernel interrupt) and main > burn_thirty; 20 blocks in main >
# block_on_pipe > libc read > vfs_read > pipe_read > schedule.
"$STACKS_GEN" good "$T/stacks.fxt"
"$TRACECTL" report "$T/stacks.fxt" -o "$T/stacks.html"
browse "$T/stacks.html#selftest" stacks --dump-dom --window-size=1200,900
read_status stacks
expect ' flame-cpu=5 flame-off=7 flame-names=all,asm_sysvec_apic_timer_interrupt,block_on_pipe,burn_seventy,burn_thirty,libc.so.6\+0x10f7e2,main,pipe_read,schedule,vfs_read ' \
	"flame graphs"
expect ' flame-zoom=true flame-focus=burn_seventy"$' "flame graph zoom"
# Stack samples without kernel:sched: a note says what is missing, no
# empty timeline, no "0 CPUs"
expect ' lanes=0 ' "stack samples alone drew CPU lanes"
expect ' sched-note=shown ' "no note on the missing kernel:sched records"
grep -q 'id="timeline-wrap" hidden' "$T/stacks.out" || fail "an empty timeline shown"
grep -q '0 CPUs' "$T/stacks.out" && fail "\"0 CPUs\" said of samples alone"
# the top functions' table: a header and burn_seventy, burn_thirty, the
# interrupt and main
expect ' functions=5 ' "top functions table"
grep -q '<td class="name" title="burn_seventy">burn_seventy</td><td class="name" title="stack_workload">stack_workload</td><td class="num">65.0%</td><td class="num">70.0%</td>' \
	"$T/stacks.out" || fail "no burn_seventy row of 65.0% self, 70.0% total"
# the archive's stack losses (stacks_gen's two records) under the graph
grep -q '<div class="note" id="stack-losses">stack losses while recording: samples_dropped 1, offcpu_dropped 2, kernel_depth_limit 3, .*junk_frame_word 17, .*unnamed_over_budget 13, .*unwind_tables_full 18, python_depth_limit 19, python_read_fault 20, python_unnamed 21, unknown 5</div>' \
	"$T/stacks.out" || fail "no stack losses note: $(grep -o '<div[^>]*id="stack-losses"[^<]*' "$T/stacks.out")"
for mode in bad-ids truncated cycles; do
	"$STACKS_GEN" "$mode" "$T/$mode.fxt"
	"$TRACECTL" report "$T/$mode.fxt" -o "$T/$mode.html" 2>/dev/null
	browse "$T/$mode.html" "$mode" --dump-dom
	grep -q 'data-rendered="1"' "$T/$mode.out" || fail "the $mode page did not draw"
	read_status "$mode"
	expect ' flame-cpu=[1-9][0-9]* ' "flame graph of $mode stack tables"
done

# A thread named "</script><b>x": still one data element, still drawn.
[ "$(grep -c '</script>' "$T/nested.html")" -eq 2 ] ||
	fail "a thread name ended the data element"
browse "$T/nested.html" nested --dump-dom
grep -q 'data-rendered="1"' "$T/nested.out" || fail "the nested page did not draw"
grep -q '&lt;/script&gt;&lt;b&gt;x' "$T/nested.out" ||
	fail "the hostile thread name is not shown as text"

# Bounded: the lanes hold CPUs x 4096 cells whatever the length; between
# two halvings of the resolution from 2048 to 4096 of them are filled, so
# 4 times the archive makes at most twice the page.
"$FXT_GEN" -o "$T/small.fxt" -m 16
"$FXT_GEN" -o "$T/big.fxt" -m 64
"$TRACECTL" report "$T/small.fxt" -o "$T/small.html"
"$TRACECTL" report "$T/big.fxt" -o "$T/big.html"
small=$(stat -c %s "$T/small.html")
big=$(stat -c %s "$T/big.html")
echo "report of 16 MiB: $small bytes; of 64 MiB: $big bytes"
[ "$big" -le $((small * 2)) ] || fail "the page grows with the archive"
report_data "$T/big.html" >"$T/big.json"
jq -e '.timeline.cpus | length == 8 and all(.runs | length <= 4096)' \
	"$T/big.json" >/dev/null || fail "more runs than cells in a lane"

# The memory chart too: 1024 cells a series whatever the length, so 16
# times the archive makes at most twice the chart.
chart() {
	report_data "$1" | jq -c .memory_chart
}
"$SUMMARY_GEN" memory "$T/memory16.fxt" 16
"$TRACECTL" report "$T/memory16.fxt" -o "$T/memory16.html"
chart "$T/memory.html" >"$T/memory.chart"
chart "$T/memory16.html" >"$T/memory16.chart"
small=$(stat -c %s "$T/memory.chart")
big=$(stat -c %s "$T/memory16.chart")
echo "memory chart of 1 period: $small bytes; of 16: $big bytes"
[ "$big" -le $((small * 2)) ] || fail "the memory chart grows with the archive"
bounded='(.system + .processes | all(.cells | length <= 1024)) and
	(.processes | length == 6) and (.stalls | length <= 3 * 1024)'
jq -e "$bounded" "$T/memory16.chart" >/dev/null ||
	fail "more memory cells than columns"

# Times and values at 2^64-1, more processes than kept: the report ends,
# its chart bounded, and the page draws.
"$SUMMARY_GEN" memory-extreme "$T/extreme.fxt"
timeout 60 "$TRACECTL" report "$T/extreme.fxt" -o "$T/extreme.html" ||
	fail "tracectl report of extreme times and values"
[ "$(stat -c %s "$T/extreme.html")" -le $((1 << 20)) ] ||
	fail "the page of extreme times and values is over 1 MiB"
chart "$T/extreme.html" >"$T/extreme.chart"
jq -e "$bounded and .processes_replaced > 0" "$T/extreme.chart" >/dev/null ||
	fail "extreme memory chart not bounded"
browse "$T/extreme.html" extreme --dump-dom --window-size=1200,900
read_status extreme
expect ' memory=drawn height=[1-9][0-9]* series=10 ' \
	"memory chart of extreme times and values"
echo "report_browser: ok"
