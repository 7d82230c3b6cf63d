#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The wakeup-latency trigger with --kernel=bpf, end to end through
# fxtraced: a wakee woken on a CPU where a SCHED_FIFO hog then spins
# HOG_MS waits that long for it; with --trigger-latency below that, a
# snapshot latency-<time>.fxt appears, passes dump --strict, and holds a
# sched_latency instant on the wakee's thread with latency_ns at least
# the threshold, its wakeup and switch in where the records say
# (check_latency_dump.py); status lists the trigger as fired with a
# snapshot. The same wakeups without the hog record no wait of the
# wakee, and take no snapshot but for a real wait of another thread.
# (Its usage errors: tests/integration/trigger.sh.)
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${KDEV_WORKLOAD:?}" "${CHECK_LATENCY:?}"

# The wait the hog causes and the threshold: far apart, and the
# threshold far above what a normal wakeup waits on a busy machine.
HOG_MS=300
THRESHOLD_MS=100

# wakee_snapshot TID: some latency-*.fxt in $T/snaps passes dump --strict
# and proves a wait of TID (other threads the hog starved may cross the
# threshold first and take their own snapshots: --trigger-limit 20).
wakee_snapshot() {
	for snap in "$T"/snaps/latency-*.fxt; do
		[ -e "$snap" ] || continue
		"$TRACECTL" dump --strict "$snap" >"$T/snap.dump" 2>&1 ||
			{ tail "$T/snap.dump"; fail "dump --strict of $snap"; }
		"$CHECK_LATENCY" "$T/snap.dump" $((THRESHOLD_MS * 1000000)) "$1" &&
			return 0
	done
	return 1
}

start_manager
mkdir "$T/snaps"

# Without the hog the wakee waits for nothing: no sched_latency of it
# unless its own clock saw a wait that long (a busy machine). The trigger
# is system-wide and this machine may be shared: a snapshot is allowed
# only for waits that the records around them prove real.
"$TRACECTL" start -o "$T/quiet.fxt" --mode circular --kernel=bpf \
	--kernel-buffer-size 16M --trigger-latency ${THRESHOLD_MS}ms \
	--snapshot-dir "$T/snaps" >"$T/start.out" ||
	fail "start --trigger-latency"
"$KDEV_WORKLOAD" latency 10 0 >"$T/quiet.out" || fail "quiet workload"
quiet=$(sed -n 's/^wakee=\([0-9]*\) .*/\1/p' "$T/quiet.out")
# Its own clock (write to after read) spans the kernel's wakeup to switch
# in: under it, the kernel may not have seen the threshold crossed.
quiet_wait_us=$(sed -n 's/.* max_wait_us=\([0-9]*\)/\1/p' "$T/quiet.out")
sleep 2
"$TRACECTL" status >"$T/status.out"
grep -q "trigger latency" "$T/status.out" ||
	fail "status does not list the latency trigger"
"$TRACECTL" stop >/dev/null || fail "stop"
"$TRACECTL" dump --strict "$T/quiet.fxt" >"$T/quiet.dump" 2>&1 ||
	fail "dump --strict of the trace"
quiet_latency() {
	grep "name=\"sched_latency\"" "$1" | grep "thread=[0-9]*/$quiet " >/dev/null
}
if [ "$quiet_wait_us" -lt $((THRESHOLD_MS * 1000)) ]; then
	quiet_latency "$T/quiet.dump" &&
		fail "sched_latency of the wakee $quiet without a hog (it saw $quiet_wait_us us)"
else
	echo "without the hog the wakee still waited $quiet_wait_us us (a busy machine)"
fi
for snap in "$T"/snaps/latency-*.fxt; do
	[ -e "$snap" ] || continue
	echo "without the hog: $(basename "$snap") of another thread's wait:"
	"$TRACECTL" dump --strict "$snap" >"$T/other.dump" 2>&1 ||
		fail "dump --strict of $snap"
	"$CHECK_LATENCY" "$T/other.dump" $((THRESHOLD_MS * 1000000)) ||
		fail "a snapshot without the hog, and no real wait in it"
	rm "$snap"
done

# With the hog: the wakee waits HOG_MS. Threads the hog starved too may
# cross the threshold first: the delay lets the wakee's record in.
# With a provider trigger too: both are armed and listed.
"$TRACECTL" start -o "$T/hog.fxt" --mode circular --kernel=bpf \
	--trigger-latency ${THRESHOLD_MS}ms --trigger jank \
	--snapshot-dir "$T/snaps" --trigger-delay 200ms --trigger-limit 20 \
	>"$T/start.out" || fail "start --trigger-latency --trigger jank"
"$KDEV_WORKLOAD" latency 3 $HOG_MS >"$T/hog.out" || fail "hog workload"
wakee=$(sed -n 's/^wakee=\([0-9]*\) .*/\1/p' "$T/hog.out")
[ -n "$wakee" ] || fail "no wakee tid"
poll wakee_snapshot "$wakee"
"$TRACECTL" status >"$T/status.out"
grep -Eq "trigger latency +fired [1-9][0-9]*, [1-9][0-9]* snapshots" \
	"$T/status.out" || fail "status: $(grep latency "$T/status.out")"
grep -Eq "trigger jank +fired 0, 0 snapshots" "$T/status.out" ||
	fail "status: $(grep jank "$T/status.out")"
"$TRACECTL" stop >/dev/null || fail "stop"
cat "$T/hog.out"

# A restart under a descriptor store (as tests/bpf/restart_store_bpf.sh):
# the capture taken back keeps its programs and their threshold; the new
# manager maps their globals again and watches the count: both triggers
# are armed again, and the hog after the restart gives a snapshot.
STORED="$T/stored"
STATE="$T/state"
no_manager() {
	! "$TRACECTL" status
}
stop_manager
start_stored
"$TRACECTL" start -o "$T/restart.fxt" --mode circular --kernel=bpf \
	--trigger jank --trigger-latency ${THRESHOLD_MS}ms \
	--snapshot-dir "$T/snaps" --trigger-delay 200ms --trigger-limit 20 \
	>"$T/start.out" || fail "start (stored)"
kill -USR1 "$MGR"
poll no_manager
kill -USR2 "$MGR"
poll grep -q "trigger(s) armed again after the restart" "$T/fxtraced.log"
grep -q "could not be taken back" "$T/fxtraced.log" &&
	fail "the kernel capture was not taken back"
grep -q "its latency trigger is not armed again" "$T/fxtraced.log" &&
	fail "a restart left the latency trigger disarmed"
"$TRACECTL" status >"$T/status.out"
grep -q "trigger jank" "$T/status.out" &&
	grep -q "trigger latency" "$T/status.out" ||
	fail "after the restart: $(grep trigger "$T/status.out")"
rm -f "$T"/snaps/*.fxt
"$KDEV_WORKLOAD" latency 3 $HOG_MS >"$T/hog2.out" ||
	fail "hog workload after the restart"
wakee=$(sed -n 's/^wakee=\([0-9]*\) .*/\1/p' "$T/hog2.out")
poll wakee_snapshot "$wakee"
"$TRACECTL" stop >/dev/null || fail "stop after the restart"
echo "ok"
