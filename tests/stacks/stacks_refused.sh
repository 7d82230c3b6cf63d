#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The stack walkers are a BPF object of their own (fxt_stacks.bpf.c): a
# kernel whose verifier refuses them loses kernel:sample and
# kernel:offcpu, never scheduling capture. A real refusal: with
# FXTRACED_TEST_REFUSE_STACKS set, the manager loads the walkers with a
# read the verifier must refuse. Then, with --kernel=bpf and kernel:sched,
# kernel:sample and kernel:offcpu:
# - start says both stack categories record nothing, the kernel having
#   refused their program; the manager's log has the verifier's reason;
# - status and stop list them as "(program refused)", with no records;
# - the archive reads back strictly and has the workload's context
#   switches, and no stack sample;
# - the same recording without the variable has samples of both kinds
#   (what the refusal took away is there when it is not refused).
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${STACK_WORKLOAD:?}"

CATS=kernel:sched,kernel:sample,kernel:offcpu

# recording NAME: the workload traced into $T/NAME.fxt; start's, status's
# and stop's output in $T/NAME.start, .status, .stop; the summary in
# $T/NAME.sum.
recording() {
	local name=$1
	"$TRACECTL" start -o "$T/$name.fxt" --kernel=bpf \
		--kernel-buffer-size 8M --categories $CATS \
		>"$T/$name.start" 2>&1 || fail "$name: $(cat "$T/$name.start")"
	"$STACK_WORKLOAD" --seconds 1 >"$T/$name.out" 2>&1 ||
		fail "$name: the workload failed"
	"$TRACECTL" status >"$T/$name.status" 2>&1 ||
		fail "$name: tracectl status"
	"$TRACECTL" stop >"$T/$name.stop" 2>&1 || fail "$name: tracectl stop"
	"$TRACECTL" dump --strict "$T/$name.fxt" >"$T/$name.dump" 2>&1 ||
		fail "$name: tracectl dump --strict"
	"$TRACECTL" summary --json "$T/$name.fxt" >"$T/$name.sum" ||
		fail "$name: tracectl summary --json"
}

# switches NAME: the threads' context switches in NAME's archive.
switches() { jq '[.threads[].switches] | add // 0' "$T/$1.sum"; }
# samples NAME KIND: its stack samples of KIND (on_cpu, off_cpu).
samples() {
	jq --arg k "$2" 'if $k == "on_cpu" then .stacks.samples
		else .stacks.offcpu_samples end' "$T/$1.sum"
}

FXTRACED_TEST_REFUSE_STACKS=1 start_manager
recording refused
for cat in kernel:sample kernel:offcpu; do
	grep -q "$cat records nothing: this kernel refused its BPF program" \
		"$T/refused.start" ||
		fail "refused: start does not say $cat was refused: $(cat "$T/refused.start")"
	grep -q "$cat (program refused)" "$T/refused.status" ||
		fail "refused: status does not list $cat as refused"
	awk -v c="$cat" '$1 == c && $2 == "(program" && $5 == 0 { f = 1 }
		END { exit !f }' "$T/refused.stop" ||
		fail "refused: stop has no row '$cat (program refused)' with 0 records"
done
grep -q "invalid mem access" "$T/fxtraced.log" ||
	fail "refused: the manager's log lacks the verifier's reason"
[ "$(switches refused)" -gt 0 ] ||
	fail "refused: no context switch in the archive: scheduling capture lost too"
[ "$(samples refused on_cpu)" -eq 0 ] && [ "$(samples refused off_cpu)" -eq 0 ] ||
	fail "refused: stack samples in the archive"
echo "refused: $(switches refused) context switches, no stack sample"
stop_manager

start_manager
recording loaded
[ "$(switches loaded)" -gt 0 ] || fail "loaded: no context switch"
[ "$(samples loaded on_cpu)" -gt 0 ] && [ "$(samples loaded off_cpu)" -gt 0 ] ||
	fail "loaded: on-CPU $(samples loaded on_cpu), off-CPU $(samples loaded off_cpu) samples"
grep -q "refused" "$T/loaded.start" "$T/loaded.status" "$T/loaded.stop" &&
	fail "loaded: a refusal said"
echo "loaded: $(switches loaded) context switches, $(samples loaded on_cpu) on-CPU and $(samples loaded off_cpu) off-CPU samples"
stop_manager
echo "stacks_refused: ok"
