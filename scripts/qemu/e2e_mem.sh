#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# In the guest: kernel:mem with --kernel=kmod, and with --kernel=bpf from a
# second fxtraced at the same time, around the same workloads:
# - grow: a process that grows to 300 MiB in 10 MiB steps has an anon
#   mem.rss counter rising in at least 30 steps to within 5% of 300 MiB;
# - oom: in a memory cgroup of 32 MiB (made here), a process that
#   touches anonymous memory without end stalls in memcg_reclaim slices
#   (each begin with its order, its end with the pages reclaimed) and is
#   killed, the oom_kill instant naming it;
# - both archives pass tracectl dump --strict and hold the same
#   kernel:mem records of those processes, word for word but the
#   timestamp (check-kmem words): one record definition, two backends.
# Prints PASS/FAIL e2e_mem_kmod.
T=/tmp/e2e-mem
E2E_TEST=e2e_mem_kmod
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

# The memory controller, v2 (a v1 mount would do as well).
mount -t cgroup2 none /sys/fs/cgroup 2>"$T/mount.err" ||
	{ cat "$T/mount.err"; fail "no cgroup2 mount"; }
echo +memory >/sys/fs/cgroup/cgroup.subtree_control ||
	fail "no memory controller"
CG=/sys/fs/cgroup/fxt-mem
mkdir "$CG" || fail "mkdir $CG"
echo $((32 << 20)) >"$CG/memory.max" || fail "memory.max"

for side in kmod bpf; do
	cmd=""
	[ "$side" = bpf ] && cmd=bpf
	$cmd /bin/tracectl start -o "$T/$side.fxt" --kernel=$side \
		--kernel-buffer-size 4M --categories kernel:mem \
		>"$T/start-$side.out" 2>&1 ||
		{ cat "$T/start-$side.out" "$T/fxtraced-bpf.log"
		  fail "tracectl start --kernel=$side"; }
done
/bin/mem-workload grow 300 10 >"$T/grow.out" || fail "grow workload"
grow=$(sed -n 's/^pid=//p' "$T/grow.out")
/bin/sh -c "echo \$\$ >$CG/cgroup.procs && exec /bin/mem-workload hog" \
	>"$T/oom.out" 2>&1 && fail "the hog was not killed"
hog=$(sed -n 's/^pid=//p' "$T/oom.out")
[ -n "$hog" ] || fail "the hog did not start"
# The OOM killer's report has a Call Trace: the kernel log is checked
# here, the OOM reports let through, and cleared for dmesg_clean.
dmesg -c >"$T/dmesg"
grep -q "invoked oom-killer" "$T/dmesg" || fail "no OOM report in the kernel log"
if grep -E "WARNING:|BUG:|Oops:" "$T/dmesg" >"$T/dmesg.bad" ||
	[ "$(grep -c "Call Trace" "$T/dmesg")" -gt \
		"$(grep -c "invoked oom-killer" "$T/dmesg")" ]; then
	sed 's/^/  /' "$T/dmesg.bad"
	fail "the kernel log has more than OOM reports"
fi
/bin/tracectl stop >"$T/stop-kmod.out" 2>&1 || fail "tracectl stop (kmod)"
bpf /bin/tracectl stop >"$T/stop-bpf.out" 2>&1 || fail "tracectl stop (bpf)"
sed 's/^/  /' "$T/stop-kmod.out"
rmdir "$CG"

for side in kmod bpf; do
	/bin/tracectl dump --strict "$T/$side.fxt" >/dev/null 2>"$T/dump.err" ||
		{ tail -5 "$T/dump.err"; fail "tracectl dump --strict ($side)"; }
done
/bin/check-kmem rss "$T/kmod.fxt" "$grow" 300 10 >"$T/check.out" 2>&1 ||
	{ cat "$T/check.out"; fail "check-kmem rss"; }
/bin/check-kmem stalls "$T/kmod.fxt" "$hog" memcg_reclaim >>"$T/check.out" \
	2>&1 || { cat "$T/check.out"; fail "check-kmem stalls"; }
/bin/check-kmem oom "$T/kmod.fxt" "$hog" mem-workload >>"$T/check.out" 2>&1 ||
	{ cat "$T/check.out"; fail "check-kmem oom"; }
sed 's/^/  /' "$T/check.out"
/bin/check-kmem words "$T/kmod.fxt" "$grow" "$hog" >"$T/kmod.words" ||
	fail "check-kmem words (kmod)"
/bin/check-kmem words "$T/bpf.fxt" "$grow" "$hog" >"$T/bpf.words" ||
	fail "check-kmem words (bpf)"
echo "  words: $(wc -l <"$T/kmod.words") kernel:mem records of $grow and $hog" \
	"(kmod), $(wc -l <"$T/bpf.words") (bpf)"
if ! cmp -s "$T/kmod.words" "$T/bpf.words"; then
	diff "$T/kmod.words" "$T/bpf.words" | head -20 | sed 's/^/  /'
	fail "the module's and BPF's records differ"
fi
[ -s "$T/kmod.words" ] || fail "no kernel:mem records of the workloads"
kill -TERM "$bpf_mgr"
wait "$bpf_mgr" || fail "the BPF fxtraced exited with status $?"
kill -TERM "$mgr"
wait "$mgr" || fail "fxtraced exited with status $?"
echo "PASS e2e_mem_kmod"
