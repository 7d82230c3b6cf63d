#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The wakeup-latency trigger with --kernel=bpf, end to end through
# fxtraced: a wakee woken on a CPU where a SCHED_FIFO hog then spins
# HOG_MS waits that long for it; with --trigger-latency below that, a
# snapshot latency-<time>.fxt appears, passes dump --strict, and holds a
# sched_latency instant on the wakee's thread with latency_ns at least
# the threshold; status lists the trigger as fired with one snapshot.
# The same wakeups without the hog take no snapshot. Misused options
# are usage errors (exit 2); without kernel capture it is refused.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${KDEV_WORKLOAD:?}"

# The wait the hog causes and the threshold: far apart, and the
# threshold far above what a normal wakeup waits on a busy machine.
HOG_MS=300
THRESHOLD_MS=100

snapshots() {
	ls "$T/snaps" | grep '^latency-.*\.fxt$' || true
}

start_manager
mkdir "$T/snaps"

start_usage "give a wait" --mode circular --trigger-latency soon \
	--snapshot-dir "$T/snaps"
start_usage "give a wait" --mode circular --trigger-latency 0 \
	--snapshot-dir "$T/snaps"
start_usage "trigger-latency needs --mode circular" --trigger-latency 10ms \
	--snapshot-dir "$T/snaps"
start_usage "trigger-latency needs --mode circular and --snapshot-dir" \
	--mode circular --trigger-latency 10ms
"$TRACECTL" start --help | grep -q -- "--trigger-latency T" ||
	fail "start --help does not describe --trigger-latency"

# No kernel capture: the trigger cannot be armed, and says why.
set +e
"$TRACECTL" start -o "$T/off.fxt" --mode circular --kernel=off \
	--trigger-latency 10ms --snapshot-dir "$T/snaps" >"$T/off.out" 2>&1
status=$?
set -e
[ $status -eq 1 ] && grep -q "needs kernel capture" "$T/off.out" ||
	fail "--kernel=off: exit $status: $(cat "$T/off.out")"
"$TRACECTL" stop >/dev/null || fail "stop"

# Without the hog: no wakeup waits that long, no snapshot.
"$TRACECTL" start -o "$T/quiet.fxt" --mode circular --kernel=bpf \
	--trigger-latency ${THRESHOLD_MS}ms --snapshot-dir "$T/snaps" \
	>"$T/start.out" || fail "start --trigger-latency"
"$KDEV_WORKLOAD" latency 10 0 >"$T/quiet.out" || fail "quiet workload"
sleep 2
"$TRACECTL" status >"$T/status.out"
grep -q "latency" "$T/status.out" || fail "status does not list the latency trigger"
[ -z "$(snapshots)" ] ||
	fail "a snapshot without a hog: $(snapshots) ($(cat "$T/quiet.out"))"
"$TRACECTL" stop >/dev/null || fail "stop"

# With the hog: the wakee waits HOG_MS.
"$TRACECTL" start -o "$T/hog.fxt" --mode circular --kernel=bpf \
	--trigger-latency ${THRESHOLD_MS}ms --snapshot-dir "$T/snaps" \
	>"$T/start.out" || fail "start --trigger-latency"
"$KDEV_WORKLOAD" latency 3 $HOG_MS >"$T/hog.out" || fail "hog workload"
wakee=$(sed -n 's/^wakee=\([0-9]*\) .*/\1/p' "$T/hog.out")
[ -n "$wakee" ] || fail "no wakee tid"
poll test -n "$(snapshots)"
poll grep -q "snapshot .*latency-" "$T/fxtraced.log"
snap=$T/snaps/$(snapshots | head -n 1)
"$TRACECTL" dump --strict "$snap" >"$T/snap.dump" 2>&1 ||
	{ tail "$T/snap.dump"; fail "dump --strict of the snapshot"; }
python3 - "$T/snap.dump" "$wakee" $((THRESHOLD_MS * 1000000)) <<'PY' ||
import re, sys
dump, wakee, threshold = sys.argv[1], sys.argv[2], int(sys.argv[3])
found = []
for line in open(dump):
    if 'name="sched_latency"' not in line:
        continue
    m = re.search(r'latency_ns=uint64\((\d+)\)', line)
    if m and re.search(r' thread=[0-9]+/%s ' % wakee, line):
        found.append(int(m.group(1)))
print("sched_latency of the wakee (ns):", found)
sys.exit(0 if found and max(found) >= threshold else 1)
PY
	fail "no sched_latency >= ${THRESHOLD_MS} ms on the wakee $wakee"
"$TRACECTL" status >"$T/status.out"
grep -Eq "trigger latency +fired [1-9][0-9]*, [1-9][0-9]* snapshots" \
	"$T/status.out" || fail "status: $(grep latency "$T/status.out")"
"$TRACECTL" stop >/dev/null || fail "stop"
cat "$T/hog.out"
echo "ok"
