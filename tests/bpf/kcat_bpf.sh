#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# kernel:irq and kernel:syscall end to end with --kernel=bpf: a known
# workload (dd of 10000 one-byte blocks, a child that execs and exits 3,
# a sleep) traced with every kernel category; the archive must pass
# tracectl dump --strict and hold at least 10000 read and 10000 write
# slices on dd's thread, dd's fork and exec (with its file name), the
# child's exit code, interrupt slices, properly nested slices on every
# thread and a thread of its own for each CPU's idle task (check-kcat).
# Then --pid: syscalls of that process only; stop's per-category rows;
# and tracectl convert's placement of the slices.
set -eu -o pipefail

if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/../integration/lib.sh"
: "${CHECK_KCAT:?}" "${TRACECTL_MAN:?}"

start_manager

all=kernel:sched,kernel:proc,kernel:irq,kernel:syscall
workload='dd bs=1 count=10000 if=/dev/zero of=/dev/null 2>/dev/null &
echo dd=$!; wait; /bin/sh -c "exit 3" & echo child=$!; wait; sleep 0.2'
"$TRACECTL" record -o "$T/all.fxt" --kernel=bpf --buffer-size 4M \
	--kernel-buffer-size 8M --categories "$all" -- sh -c "echo sh=\$\$; $workload" \
	>"$T/all.out" || { cat "$T/all.out"; fail "tracectl record --categories $all"; }
cat "$T/all.out"
sh=$(sed -n 's/^sh=//p' "$T/all.out")
dd=$(sed -n 's/^dd=//p' "$T/all.out")
child=$(sed -n 's/^child=//p' "$T/all.out")
# Per-category rows under the kernel's, each with records and drops (a
# few: an interrupt's record is dropped while its CPU's program writes);
# the categories' drops are among the kernel's.
for cat in kernel:sched kernel:proc kernel:irq kernel:syscall; do
	awk -v c="$cat" '$1 == c && $3 > 0 && $5 ~ /^[0-9]+$/ { found = 1 }
		END { exit !found }' "$T/all.out" ||
		fail "stop printed no $cat row with records"
done
awk '$1 == "kernel" { total = $5 } $1 ~ /^kernel:/ { sum += $5 }
	END { exit !(sum <= total) }' "$T/all.out" ||
	fail "the categories' drops exceed the kernel's"
"$TRACECTL" dump --strict "$T/all.fxt" >"$T/dump.out" 2>&1 ||
	{ tail "$T/dump.out"; fail "tracectl dump --strict"; }
"$CHECK_KCAT" "$T/all.fxt" "$dd" 10000 || fail "check-kcat"
grep -q "thread=$sh/$sh category=\"kernel:proc\" name=\"fork\" child=koid($dd)" \
	"$T/dump.out" || fail "no fork of dd ($dd) by $sh"
grep -q "thread=$dd/$dd category=\"kernel:proc\" name=\"exec\" filename=\"[^\"]*/dd\"" \
	"$T/dump.out" || fail "no exec of dd by $dd"
grep -q "thread=$dd/$dd category=\"kernel:proc\" name=\"exit\" code=0\$" \
	"$T/dump.out" || fail "no exit code 0 of dd"
grep -q "thread=$child/$child category=\"kernel:proc\" name=\"exit\" code=3\$" \
	"$T/dump.out" || fail "no exit code 3 of $child"
# A read's begin has its number, its end the byte it read.
grep -q "thread=$dd/$dd category=\"kernel:syscall\" name=\"read\" number=0\$" \
	"$T/dump.out" || fail "no read begin with its number on dd"
grep -q "thread=$dd/$dd category=\"kernel:syscall\" name=\"read\" ret=1\$" \
	"$T/dump.out" || fail "no read end returning 1 on dd"
grep -q 'type=thread koid=1073741824 name="swapper/0" process=koid(0)' \
	"$T/dump.out" || fail "CPU 0's idle thread not named"

# tracectl convert: the slices as B/E on dd's thread; summary and report
# take the archive.
"$TRACECTL" convert -o "$T/all.json" "$T/all.fxt" || fail "tracectl convert"
jq -e --argjson t "$dd" '[.traceEvents[] | select(.cat == "kernel:syscall"
	and .tid == $t and .pid == $t and .name == "write")] |
	(map(select(.ph == "B")) | length) >= 10000 and
	(map(select(.ph == "E")) | length) >= 10000' "$T/all.json" >/dev/null ||
	fail "converted write slices of dd"
jq -e '[.traceEvents[] | select(.cat == "kernel:irq" and .ph == "B")] |
	length > 0' "$T/all.json" >/dev/null || fail "converted interrupts"
# Each CPU's idle thread is named in process 0, as chrome://tracing shows.
jq -e '[.traceEvents[] | select(.ph == "M" and .name == "thread_name" and
	.pid == 0 and .tid == 1073741824 and .args.name == "swapper/0")] |
	length == 1' "$T/all.json" >/dev/null || fail "converted swapper/0 name"
"$TRACECTL" summary "$T/all.fxt" >"$T/summary.out" || fail "tracectl summary"
grep -q "write" "$T/summary.out" || fail "summary lists no write slices"
"$TRACECTL" report -o "$T/report.html" "$T/all.fxt" || fail "tracectl report"

# --pid: only the named process's system calls.
"$TRACECTL" start -o "$T/pid.fxt" --kernel=bpf --categories kernel:syscall \
	--pid $$ >/dev/null || fail "tracectl start --pid"
dd bs=1 count=100 if=/dev/zero of=/dev/null 2>/dev/null
"$TRACECTL" stop >"$T/pid.out" || fail "tracectl stop (--pid)"
"$TRACECTL" dump --strict "$T/pid.fxt" >"$T/dump.out" 2>&1 ||
	{ tail "$T/dump.out"; fail "--pid: tracectl dump --strict"; }
grep -q "thread=$$/[0-9]* category=\"kernel:syscall\"" "$T/dump.out" ||
	fail "--pid $$: no system call of $$"
grep 'category="kernel:syscall"' "$T/dump.out" | grep -v "thread=$$/" |
	head -3 | grep . && fail "--pid $$: other processes' system calls"
"$TRACECTL" start --pid 0 >"$T/bad.out" 2>&1 && fail "--pid 0 was accepted"
grep -q -- "--pid 0: give a process id" "$T/bad.out" ||
	fail "no message for --pid 0"

# Every kernel category the manager knows is in start's --help and the
# man page.
"$TRACECTL" record -o "$T/bad.fxt" --kernel=bpf --categories kernel:nope \
	-- true >"$T/bad.out" 2>&1 && fail "an unknown kernel category was accepted"
known=$(sed -n 's/.*(known: \(.*\)).*/\1/p' "$T/bad.out" | tr -d ,)
[ -n "$known" ] || { cat "$T/bad.out"; fail "no list of known kernel categories"; }
"$TRACECTL" start --help >"$T/help.out"
for cat in $known; do
	grep -q "$cat" "$T/help.out" || fail "tracectl start --help lacks $cat"
	grep -q "^	\*$cat\*" "$TRACECTL_MAN" || fail "tracectl(1) lacks $cat"
done

stop_manager
echo "kcat_bpf: ok"
