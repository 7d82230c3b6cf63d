#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# In the guest: kernel:sample and kernel:offcpu with --kernel=kmod around
# unwind-workload-o2 (tests/stacks/unwind_workload.c built -O2
# -fomit-frame-pointer, its hot functions out of line; Debian's libc
# keeps no frame pointers either): the module copies each user stack
# (include/fxt/ksample.h), the manager unwinds the copies with the
# files' call frame information (daemon/fxtraced/stacks/profile_unwind.c).
# In tracectl summary of the workload, leaf first, other frames allowed
# between (the chains of tests/stacks/unwind_chains.py, which needs
# python3: the guest has none):
# - off-CPU stacks: the lock (pthread_mutex_lock or __lll_lock_wait) <-
#   update_shared_state <- worker <- start_thread; nanosleep <- usleep
#   <- worker <- start_thread; read <- wait_on_pipe <- worker <-
#   start_thread;
# - on-CPU, its main thread: hot_seventy and hot_thirty hold samples,
#   and work and main hold (in total) at least 80% of theirs: their
#   callers were found (a frame-pointer walk loses them all: none of the
#   three keeps a frame pointer).
# Prints the figures. PASS/FAIL e2e_unwind_kmod.
T=/tmp/e2e-unwind
E2E_TEST=e2e_unwind_kmod
. /bin/e2e_lib.sh

/bin/tracectl record -o "$T/o2.fxt" --kernel=kmod --kernel-buffer-size 8M \
	--categories kernel:sample,kernel:offcpu --sample-rate 997 -- \
	/bin/unwind-workload-o2 --seconds 2 >"$T/wl.out" 2>&1 ||
	{ cat "$T/wl.out"; fail "tracectl record unwind-workload-o2"; }
pid=$(sed -n 's/^pid=//p' "$T/wl.out")
[ -n "$pid" ] || { cat "$T/wl.out"; fail "the workload did not run"; }
echo "  workload: pid $pid, $(grep -E '^(worker|seventy_ns|thirty_ns|blocks)=' \
	"$T/wl.out" | tr '\n' ' ')"
/bin/tracectl summary --top 200 --pid "$pid" "$T/o2.fxt" >"$T/o2.summary" \
	2>&1 || fail "tracectl summary"
sed -n '/^Off-CPU/,/^$/p' "$T/o2.summary" >"$T/offcpu"
sed 's/^/  /' "$T/offcpu"
grep '^Stack losses' "$T/o2.summary" | sed 's/^/  /'
grep "unwound from the module's copies" "$T/fxtraced.log" | sed 's/^/  /'

failed=""
# chain NAME ERE: an off-CPU stack of the workload matches ERE.
chain() {
	if grep -Eq "$2" "$T/offcpu"; then
		echo "  ok: off-CPU $1 chain"
	else
		echo "  FAIL: off-CPU $1 chain: $2"
		failed="$failed $1"
	fi
}
any=' <- (.* <- )?'
# start_thread is a local symbol of libc: named by its debug file only
# (copied in when the host has it), else libc's offset stands for it.
top=start_thread
[ -d /usr/lib/debug/.build-id ] || {
	top='(start_thread|libc\.so\.6\+0x[0-9a-f]+)'
	echo "  (no libc debug file: start_thread may be unnamed)"
}
chain mutex " <- _*(GI_+)?_*(pthread_mutex_lock|lll_lock_wait)(@[^ ]*)?$any\
update_shared_state${any}worker${any}$top"
chain usleep " <- _*(GI_+)?_*(clock_)?nanosleep(@[^ ]*)?${any}usleep(@[^ ]*)?\
${any}worker${any}$top"
chain read " <- _*(GI_+)?_*(libc_)?read(@[^ ]*)?${any}wait_on_pipe${any}\
worker${any}$top"

# The main thread's functions (tid = pid): SELF and TOTAL in percent.
sed -n "/^Thread .*(tid $pid)/,/^\$/p" "$T/o2.summary" >"$T/main"
sed 's/^/  /' "$T/main" | head -n 14
awk '
$3 == "hot_seventy" || $3 == "hot_thirty" { hot += $1 }
$3 == "work" { work = $2 }
$3 == "main" { main = $2 }
END {
	printf "  main thread: hot functions %.1f%% self, work %.1f%% total, main %.1f%% total\n", hot, work, main
	exit !(hot >= 20 && work >= hot * 0.8 && main >= hot * 0.8)
}' "$T/main" || failed="$failed hot<-work<-main"
[ -z "$failed" ] || fail "not found:$failed"
kill -TERM "$mgr"
wait "$mgr" || fail "fxtraced exited with status $?"
echo "PASS e2e_unwind_kmod"
