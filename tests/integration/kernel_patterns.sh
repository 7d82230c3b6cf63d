#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# --categories patterns name kernel categories too, as tracectl(1) says
# ("net*" every category starting with net): kernel:* every kernel
# category, kernel:s* those it begins; a pattern of none is refused
# naming it, as an unknown category is.
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ]; then
	echo "skip: kernel capture needs root"
	exit 77
fi
start_manager

# rows CATEGORY...: stop's per-category rows are exactly these (when the
# kernel was captured; a kernel this host cannot capture is off).
rows() {
	grep -q "kernel off" "$T/start.out" && return 0
	[ "$(sed -n 's/^  \(kernel:[a-z]*\) .*/\1/p' "$T/stop.out" | tr '\n' ' ')" = "$* " ] ||
		fail "--categories $pattern: rows $(grep '^  kernel:' "$T/stop.out")"
}

for pattern in 'kernel:*' 'net,kernel:s*'; do
	"$TRACECTL" start -o "$T/k.fxt" --kernel=auto --categories "$pattern" \
		>"$T/start.out" 2>&1 ||
		fail "--categories $pattern refused: $(cat "$T/start.out")"
	"$TRACECTL" stop >"$T/stop.out" || fail "stop after $pattern"
	case $pattern in
	'kernel:*') rows kernel:sched kernel:proc kernel:irq kernel:syscall \
		kernel:power kernel:block kernel:fault kernel:mem \
		kernel:sample kernel:offcpu ;;
	*) rows kernel:sched kernel:syscall kernel:sample ;;
	esac
done
start_refused 1 "unknown kernel category 'kernel:x\*'" --kernel=auto \
	--categories 'kernel:sched,kernel:x*'
stop_manager
echo "kernel_patterns: ok"
