#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# In the guest: kernel:sample and kernel:offcpu with --kernel=kmod, and
# with --kernel=bpf from a second fxtraced at the same time, around
# stack-workload (tests/stacks/), checked in the archives' stack records
# (include/fxt/stacks.h):
# - each archive: no raw record; the worker's samples have their user
#   leaf in burn_seventy or burn_thirty, ~70/30; the blocker has off-CPU
#   samples with blocked_ns, kernel and user frames (check-stack-samples);
# - each archive's summary has the blocker's pipe read under read() and
#   block_on_pipe(): read() keeps no frame, its caller is found from the
#   user stack words both kernel sides read at the stack pointer;
# - --offcpu-min 1s reaches the module: no off-CPU record of 20 ms blocks;
# - the workload in a child that exits before the stop, through the
#   module: the same checks, and in the summary of its process alone the
#   longest off-CPU stack is the pipe read under block_on_pipe().
# Prints PASS/FAIL e2e_stacks_kmod.
T=/tmp/e2e-stacks
E2E_TEST=e2e_stacks_kmod
. /bin/e2e_lib.sh
BPF_DIR=$T/bpf
mkdir -p "$BPF_DIR"
chmod 700 "$BPF_DIR"
/bin/fxtraced --socket "$BPF_DIR/manager.sock" --allow-uid 0 \
	>"$T/fxtraced-bpf.log" 2>&1 &
bpf_mgr=$!
i=0
until FXTRACE_SOCKET="$BPF_DIR/manager.sock" /bin/tracectl status \
	>/dev/null 2>&1; do
	i=$((i + 1))
	[ "$i" -lt 600 ] || fail "the BPF fxtraced did not answer"
	sleep 0.1
done
bpf() {
	FXTRACE_SOCKET="$BPF_DIR/manager.sock" "$@"
}

# range FUNCTION OUT: "address,size,ELF address" of FUNCTION in the
# workload, the address it printed in OUT, the others from the host's nm
# (/stack-workload.sizes).
range() {
	addr=$(sed -n "s/^$1=//p" "$2")
	sym=$(awk -v f="$1" '$1 == f { print "0x" $2 ",0x" $3 }' \
		/stack-workload.sizes)
	[ -n "$addr" ] && [ -n "$sym" ] || fail "$1: no address or size"
	echo "$addr,$sym"
}

# raw NAME FILE OUT: check-stack-samples of the workload's output OUT.
raw() {
	/bin/check-stack-samples "$2" /proc/kallsyms \
		"$(sed -n 's/^pid=//p' "$3")" \
		"$(sed -n 's/^worker=//p' "$3")" \
		"$(sed -n 's/^blocker=//p' "$3")" \
		"$(range burn_seventy "$3")" "$(range burn_thirty "$3")" \
		>"$T/$1.check" 2>&1
}

for side in kmod bpf; do
	cmd=""
	[ "$side" = bpf ] && cmd=bpf
	$cmd /bin/tracectl start -o "$T/$side.fxt" --kernel=$side \
		--kernel-buffer-size 8M --sample-rate 997 \
		--categories kernel:sample,kernel:offcpu \
		>"$T/start-$side.out" 2>&1 ||
		{ cat "$T/start-$side.out" "$T/fxtraced-bpf.log"
		  fail "tracectl start --kernel=$side"; }
done
/bin/stack-workload --seconds 2 >"$T/wl.out" 2>&1 ||
	{ cat "$T/wl.out"; fail "stack-workload"; }
/bin/tracectl stop >"$T/stop-kmod.out" 2>&1 || fail "tracectl stop (kmod)"
bpf /bin/tracectl stop >"$T/stop-bpf.out" 2>&1 || fail "tracectl stop (bpf)"
sed 's/^/  /' "$T/stop-kmod.out"
for side in kmod bpf; do
	raw "$side" "$T/$side.fxt" "$T/wl.out" ||
		{ st=$?; sed "s/^/  /" "$T/$side.check"
		  fail "check-stack-samples ($side) exited $st"; }
	sed "s/^/  $side: /" "$T/$side.check"
	# --top: the blocker's 25 blocks of 20 ms can rank below the 10
	# longest off-CPU stacks of the whole system.
	/bin/tracectl summary --top 200 "$T/$side.fxt" >"$T/$side.summary" 2>&1 ||
		fail "tracectl summary ($side)"
	grep -q 'pipe_read .*<- read <- block_on_pipe <- ' "$T/$side.summary" ||
		{ sed -n '/^Off-CPU/,/^$/p' "$T/$side.summary"
		  fail "no pipe read under read() and block_on_pipe() ($side)"; }
done
sed -n '/^Off-CPU/,/^$/p' "$T/kmod.summary" | head -n 14 | sed 's/^/  kmod: /'

# 20 ms blocks are all shorter than 1 s: no off-CPU record of them.
/bin/tracectl record -o "$T/long.fxt" --kernel=kmod --kernel-buffer-size 8M \
	--categories kernel:sample,kernel:offcpu --offcpu-min 1s -- \
	/bin/stack-workload --seconds 1 >"$T/long.out" 2>&1 ||
	{ cat "$T/long.out"; fail "tracectl record --offcpu-min 1s"; }
raw long "$T/long.fxt" "$T/long.out" &&
	fail "off-CPU records of blocks shorter than --offcpu-min"
grep -q "off-cpu: 0 of the blocker" "$T/long.check" ||
	{ cat "$T/long.check"; fail "--offcpu-min 1s"; }

# A child gone before the stop: its mappings were kept, its frames named.
/bin/tracectl record -o "$T/child.fxt" --kernel=kmod --kernel-buffer-size 8M \
	--categories kernel:sample,kernel:offcpu --sample-rate 997 -- \
	/bin/stack-workload --child --seconds 2 >"$T/child.out" 2>&1 ||
	{ cat "$T/child.out"; fail "tracectl record (child)"; }
raw child "$T/child.fxt" "$T/child.out" ||
	{ st=$?; sed "s/^/  /" "$T/child.check"
	  fail "check-stack-samples (child) exited $st"; }
sed "s/^/  child: /" "$T/child.check"
/bin/tracectl summary --pid "$(sed -n 's/^pid=//p' "$T/child.out")" \
	"$T/child.fxt" >"$T/child.summary" 2>&1 || fail "tracectl summary (child)"
sed -n '/^Off-CPU/,/^$/p' "$T/child.summary" | sed -n 3p |
	grep 'pipe_read .*<- read <- block_on_pipe <- ' >/dev/null ||
	{ sed -n '/^Off-CPU/,/^$/p' "$T/child.summary"
	  fail "the child's longest off-CPU stack is not block_on_pipe()'s"; }
kill -TERM "$bpf_mgr"
wait "$bpf_mgr" || fail "the BPF fxtraced exited with status $?"
kill -TERM "$mgr"
wait "$mgr" || fail "fxtraced exited with status $?"
echo "PASS e2e_stacks_kmod"
