#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Python frames in BPF stack samples of an unmodified CPython (Debian's
# /usr/bin/python3, no import of ours; its layout from python3.X-dbg):
# py_workload.py recorded with kernel:sample and kernel:offcpu through
# fxtraced, then checked by python_frames.py on tracectl summary --json
# --pid and tracectl convert (the checks are said there); the archive
# reads back with tracectl dump --strict. The Python frames the walker
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
ver=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')

start_manager
"$TRACECTL" record -o "$T/py.fxt" --kernel=bpf --kernel-buffer-size 8M \
	--categories kernel:sample,kernel:offcpu --sample-rate 997 \
	-- "$PY" "$SCRIPT" 3 >"$T/py.out" 2>&1 ||
	{ cat "$T/py.out"; fail "tracectl record"; }
stop_manager
pid=$(sed -n 's/^pid=//p' "$T/py.out")
seventy=$(sed -n 's/^seventy_ns=//p' "$T/py.out")
thirty=$(sed -n 's/^thirty_ns=//p' "$T/py.out")
[ -n "$pid" ] && [ -n "$seventy" ] && [ -n "$thirty" ] ||
	{ cat "$T/py.out"; fail "the script did not run"; }
echo "python $ver, pid $pid, seventy_ns $seventy, thirty_ns $thirty"
grep 'Python frames' "$T/fxtraced.log" ||
	fail "the journal says nothing of Python frames"

"$TRACECTL" dump --strict "$T/py.fxt" >"$T/py.dump" 2>&1 ||
	{ tail -20 "$T/py.dump"; fail "tracectl dump --strict"; }
"$TRACECTL" summary --json --top 200 --pid "$pid" "$T/py.fxt" \
	>"$T/py.json" || fail "summary --json"
"$TRACECTL" summary --top 6 --pid "$pid" "$T/py.fxt" >"$T/py.text" ||
	fail "summary"
"$TRACECTL" convert "$T/py.fxt" -o "$T/py.trace.json" || fail "convert"
sed -n '/^Off-CPU: /,/^$/p' "$T/py.text" | cut -c1-400
grep '^Stack losses' "$T/py.text" || echo "(summary shows no stack losses)"
python3 "$CHECK" "$T/py.json" "$T/py.trace.json" "$T/py.fxt" "$pid" \
	"$seventy" "$thirty" || fail "Python frames checks"
echo "stacks_python: ok"
