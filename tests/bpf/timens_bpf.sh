#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A manager in a time namespace whose BOOTTIME runs a day ahead of the
# kernel's (unshare --time --boottime 86400, as a restored container's
# may) with kernel:sched: the kernel's records come in the manager's
# clock, as its own and its providers' do. summary --json's span is at
# most the wall time the test measured around the trace (not a day), and
# every context switch falls between the test's readings of the kernel's
# BOOTTIME before and after, plus the namespace's offset.
set -eu -o pipefail

if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ] ||
	! unshare --time --boottime 1 --fork true 2>/dev/null; then
	echo "skip: needs root, kernel BTF and time namespaces"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${KDEV_WORKLOAD:?}"
OFFSET_S=86400

# unshare execs the manager, which then runs in the new namespace.
unshare --time --boottime "$OFFSET_S" "$FXTRACED" --socket "$FXTRACE_SOCKET" \
	--allow-uid "$(id -u)" >"$T/fxtraced.log" 2>&1 &
MGR=$!
poll "$TRACECTL" status
grep -q "^boottime *$OFFSET_S *0$" "/proc/$MGR/timens_offsets" ||
	fail "the manager is not in the namespace: $(cat "/proc/$MGR/timens_offsets")"

boot_ns() { python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_BOOTTIME))'; }
before=$(boot_ns)
"$TRACECTL" record -o "$T/ns.fxt" --kernel=bpf --categories kernel:sched \
	-- "$KDEV_WORKLOAD" rename kdev-renamed >"$T/record.out" ||
	fail "tracectl record"
after=$(boot_ns)
"$TRACECTL" dump --strict "$T/ns.fxt" >"$T/dump.out" || fail "dump --strict"

"$TRACECTL" summary --json "$T/ns.fxt" >"$T/summary.json"
python3 - "$T/summary.json" "$T/dump.out" "$before" "$after" "$OFFSET_S" <<'PY' ||
import json, re, sys
summary, dump, before, after, offset = sys.argv[1:]
before, after = int(before), int(after)
shift = int(offset) * 10**9
s = json.load(open(summary))
if not 0 < s["span_ns"] <= after - before:
    sys.exit("summary span %d ns, the test measured %d ns around the trace"
             % (s["span_ns"], after - before))
for c in s["cpus"]:
    if c["busy_ns"] > s["span_ns"]:
        sys.exit("cpu %d busy %d ns of a %d ns span" % (c["cpu"], c["busy_ns"], s["span_ns"]))
ts = [int(m.group(1)) for m in
      re.finditer(r" context_switch +ts=(\d+) ", open(dump).read())]
if not ts:
    sys.exit("no context switch")
lo, hi = before + shift, after + shift
out = [t for t in ts if not lo <= t <= hi]
if out:
    sys.exit("%d of %d context switches outside %d..%d (the namespace's "
             "BOOTTIME around the trace), e.g. %d" % (len(out), len(ts), lo, hi, out[0]))
print("timens: span %d ns, %d switches in the namespace's clock" % (s["span_ns"], len(ts)))
PY
	fail "times are not the namespace's"
stop_manager
echo "timens: ok"
