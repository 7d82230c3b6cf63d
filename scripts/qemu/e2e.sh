#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# In the guest: fxtraced + tracectl record --kernel=kmod around a provider,
# then the archive must pass tracectl dump --strict and hold the
# provider's events, context switches and wakeups, and the provider's
# thread name from a kernel object record; a thread renamed after its
# start (task_rename) under its new name in summary --json. Prints
# PASS/FAIL e2e_manager_kmod.
T=/tmp/e2e
E2E_TEST=e2e_manager_kmod
. /bin/e2e_lib.sh
/bin/tracectl record -o "$T/e2e.fxt" --mode streaming --kernel=kmod -- \
	/bin/proto-provider --name app --events 400 --exit-after-write \
	>"$T/record.out" 2>&1 || { cat "$T/record.out"; fail "tracectl record failed"; }
grep -q "kernel kmod" "$T/record.out" || { cat "$T/record.out"; fail "not traced with kmod"; }
/bin/tracectl dump --strict "$T/e2e.fxt" >"$T/dump.out" 2>"$T/dump.err" ||
	{ tail -5 "$T/dump.err"; fail "tracectl dump --strict"; }
switches=$(grep -c " context_switch " "$T/dump.out")
wakeups=$(grep -c " thread_wakeup " "$T/dump.out")
echo "  e2e: $switches context switches, $wakeups wakeups," \
	"$(grep -c 'name="proto-provider"' "$T/dump.out") provider thread records"
[ "$switches" -gt 10 ] && [ "$wakeups" -gt 10 ] || fail "too few scheduling records"
grep -q 'kernel_object .*type=thread.*name="proto-provider"' "$T/dump.out" ||
	fail "no thread record naming the provider"
grep -q '"app"' "$T/dump.out" || fail "no provider section for app"
# kernel:power and kernel:fault through the manager: a strict archive
# with cpu_idle counters and the sleeper's page faults, converted.
/bin/tracectl record -o "$T/kdev.fxt" --kernel=kmod \
	--categories kernel:power,kernel:block,kernel:fault -- sleep 0.3 \
	>"$T/record.out" 2>&1 || { cat "$T/record.out"; fail "kdev: tracectl record"; }
/bin/tracectl dump --strict "$T/kdev.fxt" >"$T/dump.out" 2>"$T/dump.err" ||
	{ tail -5 "$T/dump.err"; fail "kdev: tracectl dump --strict"; }
echo "  e2e kdev: $(grep -c 'name="cpu_idle"' "$T/dump.out") cpu_idle," \
	"$(grep -c 'name="page_fault"' "$T/dump.out") page_fault"
grep -q ' counter .*category="kernel:power" name="cpu_idle" id=' "$T/dump.out" ||
	fail "kdev: no cpu_idle counter"
grep -q ' instant .*category="kernel:fault" name="page_fault" address=pointer' \
	"$T/dump.out" || fail "kdev: no page fault"
/bin/tracectl convert -o "$T/kdev.json" "$T/kdev.fxt" || fail "kdev: convert"
grep -q '"name":"cpu_idle CPU [0-9]*"' "$T/kdev.json" ||
	fail "kdev: no converted cpu_idle counter"
# task_rename: a thread that names itself after it started (kdev-workload
# rename) has a thread record under its old name, then one under the new,
# and summary --json lists it under the new.
/bin/tracectl record -o "$T/rename.fxt" --kernel=kmod --categories kernel:sched \
	-- /bin/kdev-workload rename kdev-renamed >"$T/rename.out" 2>&1 ||
	{ cat "$T/rename.out"; fail "rename: tracectl record"; }
tid=$(sed -n 's/^renamed=//p' "$T/rename.out")
[ -n "$tid" ] || { cat "$T/rename.out"; fail "rename: the workload did not say its thread"; }
/bin/tracectl dump --strict "$T/rename.fxt" >"$T/dump.out" 2>"$T/dump.err" ||
	{ tail -5 "$T/dump.err"; fail "rename: tracectl dump --strict"; }
grep " type=thread koid=$tid " "$T/dump.out" >"$T/names.out" || true
echo "  e2e rename: $(wc -l <"$T/names.out") thread records of $tid"
grep -q 'name="kdev-workload"' "$T/names.out" &&
	tail -n 1 "$T/names.out" | grep -q 'name="kdev-renamed"' ||
	{ cat "$T/names.out"; fail "rename: thread records"; }
/bin/tracectl summary --json "$T/rename.fxt" >"$T/summary.json" ||
	fail "rename: tracectl summary"
grep -q "\"tid\":$tid,\"name\":\"kdev-renamed\"" "$T/summary.json" ||
	fail "rename: summary --json does not name thread $tid kdev-renamed"
kill -TERM "$mgr"
wait "$mgr" || fail "fxtraced exited with status $?"
echo "PASS e2e_manager_kmod"
