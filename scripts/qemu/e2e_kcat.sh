#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# In the guest: kernel:irq and kernel:syscall through fxtraced with
# --kernel=kmod around a known workload (busybox dd of 10000 one-byte
# blocks, a child that exits 3, a sleep). The archive must pass tracectl
# dump --strict, hold dd's fork, exec and exit and the child's exit code,
# and pass check-kcat: >= 10000 read and write slices on dd's thread,
# interrupt slices, properly nested slices on every thread, each CPU's
# idle task a thread of its own. Prints PASS/FAIL e2e_kcat_kmod.
T=/tmp/e2e-kcat
E2E_TEST=e2e_kcat_kmod
. /bin/e2e_lib.sh
/bin/tracectl record -o "$T/kcat.fxt" --kernel=kmod --kernel-buffer-size 8M \
	--categories kernel:sched,kernel:proc,kernel:irq,kernel:syscall -- \
	/bin/sh -c 'echo sh=$$; /bin/dd bs=1 count=10000 if=/dev/zero of=/dev/null 2>/dev/null &
echo dd=$!; wait; /bin/sh -c "exit 3" & echo child=$!; wait; sleep 0.2' \
	>"$T/record.out" 2>&1 || { cat "$T/record.out"; fail "tracectl record failed"; }
sed 's/^/  /' "$T/record.out"
grep -q "kernel kmod" "$T/record.out" || fail "not traced with kmod"
for cat in kernel:sched kernel:proc kernel:irq kernel:syscall; do
	grep -q "^  $cat  *- *[1-9]" "$T/record.out" ||
		fail "stop printed no $cat row with records"
done
sh=$(sed -n 's/^sh=//p' "$T/record.out")
dd=$(sed -n 's/^dd=//p' "$T/record.out")
child=$(sed -n 's/^child=//p' "$T/record.out")
/bin/tracectl dump --strict "$T/kcat.fxt" >"$T/dump.out" 2>"$T/dump.err" ||
	{ tail -5 "$T/dump.err"; fail "tracectl dump --strict"; }
/bin/check-kcat "$T/kcat.fxt" "$dd" 10000 2>&1 | sed 's/^/  /'
/bin/check-kcat "$T/kcat.fxt" "$dd" 10000 >/dev/null || fail "check-kcat"
grep -q "thread=$sh/$sh category=\"kernel:proc\" name=\"fork\" child=koid($dd)" \
	"$T/dump.out" || fail "no fork of dd ($dd) by $sh"
grep -q "thread=$dd/$dd category=\"kernel:proc\" name=\"exec\" filename=\"/bin/dd\"" \
	"$T/dump.out" || fail "no exec of /bin/dd by $dd"
grep -q "thread=$dd/$dd category=\"kernel:proc\" name=\"exit\" code=0\$" \
	"$T/dump.out" || fail "no exit code 0 of dd"
grep -q "thread=$child/$child category=\"kernel:proc\" name=\"exit\" code=3\$" \
	"$T/dump.out" || fail "no exit code 3 of $child"
kill -TERM "$mgr"
wait "$mgr" || fail "fxtraced exited with status $?"
echo "PASS e2e_kcat_kmod"
