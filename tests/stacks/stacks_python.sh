#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Python frames in BPF stack samples of an unmodified CPython (Debian's
# /usr/bin/python3, no import of ours; its layout from python3.X-dbg;
# then 3.12 and 3.13 where installed, pyenv's with their own DWARF):
# py_workload.py recorded with kernel:sample and kernel:offcpu through
# fxtraced, then checked by python_frames.py on tracectl summary --json
# --pid and tracectl convert (the checks are said there); the archive
# reads back with tracectl dump --strict; report's flame graph names
# hot_seventy; 3.12 (or 3.13) under -X perf has its trampolines named
# from its perf map (py::spin:FILE). The Python frames the walker
# read and the walks it stopped are printed from stop's journal lines.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
PY=/usr/bin/python3
SCRIPT="$(dirname "$0")/py_workload.py"
CHECK="$(dirname "$0")/python_frames.py"
[ -x "$PY" ] || fail "no $PY"

. "$(dirname "$0")/../integration/py_versions.sh"
# pythons: Debian's interpreter, then 3.12 and 3.13 where installed.
pythons() {
	echo "$PY"
	py_versions
}

# run NAME PYTHON: the script under PYTHON recorded and checked; 0 when
# every check held.
run() {
	local b=$1 py=$2 pid seventy thirty ver
	ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
	echo "=== $b: $py (python $ver)"
	"$TRACECTL" record -o "$T/$b.fxt" --kernel=bpf \
		--kernel-buffer-size 8M \
		--categories kernel:sample,kernel:offcpu --sample-rate 997 \
		-- "$py" "$SCRIPT" 3 >"$T/$b.out" 2>&1 ||
		{ cat "$T/$b.out"; fail "$b: tracectl record"; }
	pid=$(sed -n 's/^pid=//p' "$T/$b.out")
	seventy=$(sed -n 's/^seventy_ns=//p' "$T/$b.out")
	thirty=$(sed -n 's/^thirty_ns=//p' "$T/$b.out")
	[ -n "$pid" ] && [ -n "$seventy" ] && [ -n "$thirty" ] ||
		{ cat "$T/$b.out"; fail "$b: the script did not run"; }
	echo "$b: pid $pid, seventy_ns $seventy, thirty_ns $thirty"
	"$TRACECTL" dump --strict "$T/$b.fxt" >"$T/$b.dump" 2>&1 ||
		{ tail -20 "$T/$b.dump"; fail "$b: tracectl dump --strict"; }
	"$TRACECTL" summary --json --top 200 --pid "$pid" "$T/$b.fxt" \
		>"$T/$b.json" || fail "$b: summary --json"
	"$TRACECTL" summary --top 6 --pid "$pid" "$T/$b.fxt" >"$T/$b.text" ||
		fail "$b: summary"
	"$TRACECTL" convert "$T/$b.fxt" -o "$T/$b.trace.json" ||
		fail "$b: convert"
	sed -n '/^Off-CPU: /,/^$/p' "$T/$b.text" | cut -c1-400
	grep '^Stack losses' "$T/$b.text" ||
		echo "(summary shows no stack losses)"
	"$TRACECTL" report "$T/$b.fxt" -o "$T/$b.html" || fail "$b: report"
	grep -qF "py_workload.hot_seventy (" "$T/$b.html" ||
		{ echo "FAIL: report: the flame graph lacks hot_seventy"; return 1; }
	python3 "$CHECK" "$T/$b.json" "$T/$b.trace.json" "$T/$b.fxt" \
		"$pid" "$seventy" "$thirty"
}

start_manager
failed=""
i=0
for py in $(pythons); do
	i=$((i + 1))
	run "py$i" "$py" || failed="$failed $py"
done
# 3.12's -X perf: its trampolines named from its /tmp/perf-PID.map.
xperf=$(py_versions | head -n 1)
if [ -n "$xperf" ]; then
	echo "=== $xperf -X perf"
	"$TRACECTL" record -o "$T/xperf.fxt" --kernel=bpf \
		--categories kernel:sample --sample-rate 997 \
		-- "$xperf" -X perf "$SCRIPT" 2 >"$T/xperf.out" 2>&1 ||
		{ cat "$T/xperf.out"; fail "-X perf: tracectl record"; }
	pid=$(sed -n 's/^pid=//p' "$T/xperf.out")
	"$TRACECTL" summary --json --top 200 --pid "$pid" "$T/xperf.fxt" \
		>"$T/xperf.json" || fail "-X perf: summary --json"
	# Its trampolines stand for the calls it makes through C, the
	# hot loop's spin among them (perf record --call-graph dwarf of
	# the same names py::spin 91% of the samples, no py::hot_seventy).
	n=$(jq '[.functions[] | select(.name |
		startswith("py::spin:") and endswith("py_workload.py"))] |
		length' "$T/xperf.json")
	echo "-X perf: $n functions named py::spin:...py_workload.py"
	[ "$n" -ge 1 ] || { failed="$failed -X-perf"; echo "FAIL: -X perf:" \
		"$(jq -c '[.functions[].name][:8]' "$T/xperf.json")"; }
fi
stop_manager
grep 'Python frames' "$T/fxtraced.log" ||
	fail "the journal says nothing of Python frames"
[ -z "$failed" ] || fail "checks failed for:$failed"
echo "stacks_python: ok"
