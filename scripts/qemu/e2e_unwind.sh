#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# In the guest: kernel:sample and kernel:offcpu with --kernel=kmod around
# unwind-workload-o2 (tests/stacks/unwind_workload.c built -O2
# -fomit-frame-pointer, its hot functions out of line; Debian's libc
# keeps no frame pointers either) and unwind-workload-g (-O2 -g, its hot
# functions inlined into work, named by their inline frames): the module
# copies each user stack
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
#   hot_seventy's share of the two within 5 points of the program's own
#   timing, and work and main hold (in total) at least 80% of theirs:
#   their callers were found (a frame-pointer walk loses them all: none
#   of the three keeps a frame pointer).
# Prints the figures. PASS/FAIL e2e_unwind_kmod.
T=/tmp/e2e-unwind
E2E_TEST=e2e_unwind_kmod
. /bin/e2e_lib.sh

# check NAME: the workload unwind-workload-NAME recorded and checked.
check() {
	/bin/tracectl record -o "$T/$1.fxt" --kernel=kmod \
		--kernel-buffer-size 8M \
		--categories kernel:sample,kernel:offcpu --sample-rate 997 -- \
		"/bin/unwind-workload-$1" --seconds 2 >"$T/wl.out" 2>&1 ||
		{ cat "$T/wl.out"; fail "tracectl record unwind-workload-$1"; }
	pid=$(sed -n 's/^pid=//p' "$T/wl.out")
	[ -n "$pid" ] || { cat "$T/wl.out"; fail "the workload did not run"; }
	echo "  $1: pid $pid, $(grep -E '^(worker|seventy_ns|thirty_ns|blocks)=' \
		"$T/wl.out" | tr '\n' ' ')"
	/bin/tracectl summary --top 200 --pid "$pid" "$T/$1.fxt" \
		>"$T/$1.summary" 2>&1 || fail "tracectl summary"
	sed -n '/^Off-CPU/,/^$/p' "$T/$1.summary" >"$T/offcpu"
	sed 's/^/  /' "$T/offcpu"
	grep '^Stack losses' "$T/$1.summary" | sed 's/^/  /'
	chain mutex " <- _*(GI_+)?_*(pthread_mutex_lock|lll_lock_wait)(@[^ ]*)?$any\
update_shared_state${any}worker${any}$top"
	chain usleep " <- _*(GI_+)?_*(clock_)?nanosleep(@[^ ]*)?${any}usleep(@[^ ]*)?\
${any}worker${any}$top"
	chain read " <- _*(GI_+)?_*(libc_)?read(@[^ ]*)?${any}wait_on_pipe${any}\
worker${any}$top"
	# The main thread's functions (tid = pid): SELF and TOTAL in percent.
	sed -n "/^Thread .*(tid $pid)/,/^\$/p" "$T/$1.summary" >"$T/main"
	sed 's/^/  /' "$T/main" | head -n 14
	# hot_seventy's share of the two within 5 points of its own timing.
	awk -v name="$1" -v a="$(sed -n 's/^seventy_ns=//p' "$T/wl.out")" \
		-v b="$(sed -n 's/^thirty_ns=//p' "$T/wl.out")" '
	$3 == "hot_seventy" { s += $1 }
	$3 == "hot_thirty" { t += $1 }
	$3 == "work" { work = $2 }
	$3 == "main" { main = $2 }
	END {
		hot = s + t
		share = hot ? s * 100 / hot : 0
		own = a + b ? a * 100 / (a + b) : 0
		d = share - own
		printf "  %s main thread: hot functions %.1f%% self, work %.1f%% total, main %.1f%% total; hot_seventy %.1f%% of the two, its own timing %.1f%%\n", name, hot, work, main, share, own
		exit !(hot >= 20 && work >= hot * 0.8 && main >= hot * 0.8 &&
		       d <= 5 && d >= -5)
	}' "$T/main" || failed="$failed $1:hot<-work<-main"
}

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
check o2
check g
grep "unwound from the module's copies" "$T/fxtraced.log" | sed 's/^/  /'
[ -z "$failed" ] || fail "not found:$failed"
kill -TERM "$mgr"
wait "$mgr" || fail "fxtraced exited with status $?"
echo "PASS e2e_unwind_kmod"
