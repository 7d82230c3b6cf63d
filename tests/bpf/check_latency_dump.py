#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Checks the sched_latency instants of a tracectl dump (text) of the
wakeup-latency trigger against the scheduling records around them.

check_latency_dump.py DUMP THRESHOLD_NS [WAKEE_TID]
    every sched_latency is of at least THRESHOLD_NS and real: its
    thread's wakeup record lies at wakeup_ts (microsecond grain), the
    switch in of the thread at its own time, and the thread was not
    switched in between (when every CPU's records reach back to the
    wakeup). With
    WAKEE_TID: that thread has one; without: there is at least one.
Prints what it found; exits 1 on a mismatch.
"""
import re
import sys

LATENCY = re.compile(r'^0x[0-9a-f]+\s+instant\s+ts=(\d+) thread=(\d+)/(\d+) '
                     r'category="kernel:sched" name="sched_latency" '
                     r'latency_ns=(\d+) wakeup_ts=(\d+)$')
WAKEUP = re.compile(r'^0x[0-9a-f]+\s+thread_wakeup\s+ts=(\d+) cpu=\d+ tid=(\d+) ')
SWITCH = re.compile(r'^0x[0-9a-f]+\s+context_switch\s+ts=(\d+) cpu=(\d+) '
                    r'out_tid=\d+ \w+ in_tid=(\d+) ')


def main():
    path, threshold = sys.argv[1], int(sys.argv[2])
    wakee = int(sys.argv[3]) if len(sys.argv) > 3 else None
    wakeups, switches, latencies = {}, {}, []
    first = {}      # each CPU's first switch: what its ring reaches back to
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            m = WAKEUP.match(line)
            if m:
                wakeups.setdefault(int(m.group(2)), []).append(int(m.group(1)))
            m = SWITCH.match(line)
            if m:
                ts, cpu = int(m.group(1)), int(m.group(2))
                switches.setdefault(int(m.group(3)), []).append(ts)
                first[cpu] = min(first.get(cpu, ts), ts)
            m = LATENCY.match(line)
            if m:
                latencies.append(tuple(int(g) for g in m.groups()))
    covered = max(first.values()) if first else None
    bad = 0
    for ts, pid, tid, latency, woken in latencies:
        why = None
        if latency < threshold:
            why = 'below the threshold'
        elif woken + latency != ts:
            why = 'wakeup_ts + latency_ns is not its time'
        elif ts not in switches.get(tid, []):
            why = 'no switch in of the thread at its time'
        elif covered is not None and woken > covered:
            if not any(abs(w - woken) < 1000 for w in wakeups.get(tid, [])):
                why = 'no wakeup of the thread at wakeup_ts'
            elif any(woken < s < ts for s in switches.get(tid, [])):
                why = 'the thread ran while it was said to wait'
        print('sched_latency %d/%d: %d us%s' %
              (pid, tid, latency // 1000, ': ' + why if why else ''))
        bad += why is not None
    if wakee is not None:
        mine = [l for l in latencies if l[2] == wakee]
        if not mine:
            print('no sched_latency of the wakee %d' % wakee)
            bad += 1
    elif not latencies:
        print('no sched_latency at all')
        bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
