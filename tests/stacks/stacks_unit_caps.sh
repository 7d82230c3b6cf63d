#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Stack samples recorded by a manager with only fxtraced.service's
# capabilities (an ordinary uid, setpriv): the workload's kernel and user
# functions are named (kernel functions need CAP_SYSLOG where
# kernel.perf_event_paranoid > 1: /proc/kallsyms shows no addresses
# without it). Without CAP_SYSLOG, every kernel frame is "[kernel]", and
# the start's note, the stop's table and the manager's log say so.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ] ||
   ! command -v setpriv >/dev/null || ! command -v jq >/dev/null ||
   [ "$(cat /proc/sys/kernel/kptr_restrict)" = 2 ]; then
	echo "skip: needs root, kernel BTF, setpriv, jq and kernel.kptr_restrict < 2"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${STACK_WORKLOAD:?}" "${FXTRACED_SERVICE:?}"
# Where the manager, as nobody, may open it.
install -m 755 "$STACK_WORKLOAD" "$T/stack-workload"

# record_with CAPS NAME: the workload recorded by a manager with CAPS;
# tracectl's output in $T/NAME.out, summary --json in $T/NAME.json.
record_with() {
	start_manager_with_caps "$1"
	"$TRACECTL" record -o "$T/$2.fxt" --kernel=bpf --kernel-buffer-size 8M \
		--categories kernel:sample,kernel:offcpu \
		-- "$T/stack-workload" --seconds 1 >"$T/$2.out" 2>&1 ||
		{ cat "$T/$2.out"; fail "tracectl record with $1"; }
	stop_manager
	"$TRACECTL" summary --json "$T/$2.fxt" >"$T/$2.json" || fail "summary --json"
	jq -e '.functions | any(.name == "burn_seventy")' "$T/$2.json" >/dev/null ||
		fail "with $1: burn_seventy is not named"
}
# The kernel functions other than "[kernel]" in the blocking stacks.
named_kernel() {
	jq '[.offcpu.functions[] | select(.category == "kernel" and
		.name != "[kernel]")] | length' "$1"
}

caps=$(unit_caps)
record_with "$caps" unit
[ "$(named_kernel "$T/unit.json")" -gt 0 ] ||
	fail "with the unit's $caps: no kernel function named"
! grep -q 'kernel frames' "$T/unit.out" ||
	{ cat "$T/unit.out"; fail "kernel frames said unnamed with $caps"; }

# Where perf_event_paranoid <= 1, kallsyms shows addresses to anyone.
if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 1 ]; then
	caps=$(unit_caps -syslog)
	record_with "$caps" nosyslog
	[ "$(named_kernel "$T/nosyslog.json")" = 0 ] ||
		fail "without CAP_SYSLOG, kernel functions are named"
	grep -q 'kernel frames will be "\[kernel\]".*CAP_SYSLOG' "$T/nosyslog.out" ||
		{ cat "$T/nosyslog.out"; fail "tracectl record does not say why kernel frames are unnamed"; }
	grep -Eq '^ +kernel:offcpu \(kernel frames unnamed\)' "$T/nosyslog.out" ||
		{ cat "$T/nosyslog.out"; fail "the stop's table does not mark kernel:offcpu"; }
	grep -q 'Stack samples: kernel frames will be "\[kernel\]"' "$T/fxtraced.log" ||
		{ cat "$T/fxtraced.log"; fail "the manager's log does not say why"; }
fi
echo "stacks_unit_caps: ok"
