#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# In the guest: the wakeup-latency trigger through fxtraced with
# --kernel=kmod. A wakee that a SCHED_FIFO hog keeps from its CPU for
# 300 ms (kdev-workload latency) with --trigger-latency 100ms: a snapshot
# latency-<time>.fxt appears, passes tracectl dump --strict and holds a
# sched_latency instant on the wakee's thread of at least 100 ms; status
# counts the trigger. The same wakeups without the hog take no snapshot.
# TCG is slow: the hog and the threshold are generous. Prints PASS/FAIL
# e2e_latency_kmod.
T=/tmp/e2e-latency
E2E_TEST=e2e_latency_kmod
. /bin/e2e_lib.sh
mkdir -p "$T/snaps"

# Threads the hog starved too may cross the threshold first: the delay
# lets the wakee's record into the snapshot.
start() {
	/bin/tracectl start -o "$T/$1.fxt" --mode circular --kernel=kmod \
		--trigger-latency 100ms --snapshot-dir "$T/snaps" \
		--trigger-delay 500ms >"$T/start.out" 2>&1 ||
		{ cat "$T/start.out"; fail "tracectl start --trigger-latency"; }
}

start quiet
/bin/kdev-workload latency 5 0 >"$T/quiet.out" || fail "workload without hog"
sleep 2
[ -z "$(ls "$T/snaps")" ] ||
	fail "a snapshot without a hog: $(ls "$T/snaps") ($(cat "$T/quiet.out"))"
/bin/tracectl stop >/dev/null 2>&1 || fail "tracectl stop"

start hog
/bin/kdev-workload latency 2 300 >"$T/hog.out" || fail "workload with hog"
sed 's/^/  /' "$T/hog.out"
wakee=$(sed -n 's/^wakee=\([0-9]*\) .*/\1/p' "$T/hog.out")
i=0
until grep -q "snapshot .*latency-" "$T/fxtraced.log"; do
	i=$((i + 1))
	[ "$i" -lt 600 ] || fail "no latency snapshot"
	sleep 0.1
done
set -- "$T"/snaps/latency-*.fxt
snap=$1
[ -e "$snap" ] || fail "no latency-*.fxt in $T/snaps"
/bin/tracectl dump --strict "$snap" >"$T/dump.out" 2>"$T/dump.err" ||
	{ tail -5 "$T/dump.err"; fail "tracectl dump --strict of $snap"; }
longest=0
for ns in $(grep "thread=[0-9]*/$wakee .*name=\"sched_latency\"" "$T/dump.out" |
	sed -n 's/.*latency_ns=\([0-9]*\).*/\1/p'); do
	[ "$ns" -le "$longest" ] || longest=$ns
done
echo "  sched_latency of the wakee $wakee in the snapshot: $((longest / 1000)) us"
[ "$longest" -ge 100000000 ] || fail "no sched_latency >= 100 ms on $wakee"
/bin/tracectl status >"$T/status.out" 2>&1
grep -q "trigger latency  *fired [1-9][0-9]*, [1-9][0-9]* snapshots" \
	"$T/status.out" || { cat "$T/status.out"; fail "status"; }
/bin/tracectl stop >/dev/null 2>&1 || fail "tracectl stop"
kill -TERM "$mgr"
wait "$mgr" || fail "fxtraced exited with status $?"
echo "PASS e2e_latency_kmod"
