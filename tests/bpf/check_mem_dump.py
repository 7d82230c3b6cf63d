#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Checks the kernel:mem events of a tracectl dump (text) against the
workload that made them.

check_mem_dump.py rss DUMP PID TOTAL_MB STEP_MB
    the anon mem.rss counter of process PID rises, never falling, in at
    least TOTAL_MB/STEP_MB steps, to within 5% of TOTAL_MB MiB.
check_mem_dump.py reclaim DUMP PID NAME
    at least one NAME slice (memcg_reclaim, direct_reclaim) on a thread
    of PID: each begin with an order, followed on its thread by its end
    with the pages reclaimed; prints their count and total time.
check_mem_dump.py oom DUMP PID COMM
    an oom_kill instant on process PID naming it: pid=PID, name=COMM,
    rss > 0.
Prints what it found; exits 1 on a mismatch.
"""
import re
import sys

EVENT = re.compile(r'^0x[0-9a-f]+\s+(\S+)\s+ts=(\d+) thread=(\d+)/(\d+) '
                   r'category="kernel:mem" name="([^"]*)"(.*)$')
ARG = re.compile(r'(\w+)=(?:\w+\()?("[^"]*"|[-\w]+)\)?')
MIB = 1 << 20


def events(path):
    with open(path) as f:
        for line in f:
            m = EVENT.match(line.rstrip('\n'))
            if not m:
                continue
            kind, ts, pid, tid, name, rest = m.groups()
            yield kind, int(ts), int(pid), int(tid), name, \
                dict(ARG.findall(rest))


EXEC = re.compile(r'^0x[0-9a-f]+\s+instant\s+ts=(\d+) thread=(\d+)/\d+ '
                  r'category="kernel:proc" name="exec"')


def exec_ts(path, pid):
    """When process pid exec'd (0: not seen): its earlier values are those
    of the program that forked it (tracectl record's child), not of the
    workload."""
    with open(path) as f:
        for line in f:
            m = EXEC.match(line)
            if m and int(m.group(2)) == pid:
                return int(m.group(1))
    return 0


def check_rss(dump, pid, total_mb, step_mb):
    since = exec_ts(dump, pid)
    values = [int(a['anon']) for kind, ts, p, _, name, a in events(dump)
              if kind == 'counter' and p == pid and name == 'mem.rss'
              and 'anon' in a and ts >= since]
    if not values:
        return f'no anon mem.rss counter of process {pid}'
    peak = max(values)
    print(f'rss: {len(values)} anon values of {pid}, '
          f'peak {peak / MIB:.1f} MiB, last {values[-1] / MIB:.1f} MiB')
    if abs(peak - total_mb * MIB) > total_mb * MIB // 20:
        return f'peak {peak} is not within 5% of {total_mb} MiB'
    rising = values[:values.index(peak) + 1]
    for a, b in zip(rising, rising[1:]):
        if b < a:
            return f'anon RSS fell from {a} to {b} while growing'
    if len(set(rising)) < total_mb // step_mb:
        return f'{len(set(rising))} steps, fewer than {total_mb // step_mb}'
    return None


def check_reclaim(dump, pid, slice_name):
    open_at = {}
    count, total = 0, 0
    for kind, ts, p, tid, name, a in events(dump):
        if p != pid or name != slice_name:
            continue
        if kind == 'duration_begin':
            if tid in open_at or 'order' not in a:
                return f'begin at {ts} on {tid}: nested or no order'
            open_at[tid] = ts
        elif kind == 'duration_end':
            if tid not in open_at or 'reclaimed' not in a:
                return f'end at {ts} on {tid}: no begin or no reclaimed'
            total += ts - open_at.pop(tid)
            count += 1
    print(f'{slice_name}: {count} slices on {pid}, {total} ns')
    if not count:
        return f'no {slice_name} slice on process {pid}'
    return None


def check_oom(dump, pid, comm):
    for kind, _, p, _, name, a in events(dump):
        if kind != 'instant' or name != 'oom_kill' or p != pid:
            continue
        print(f'oom_kill: pid={a.get("pid")} name={a.get("name")} '
              f'rss={a.get("rss")}')
        if a.get('pid') != str(pid) or a.get('name') != f'"{comm}"':
            return 'oom_kill does not name its victim'
        if int(a.get('rss', '0')) <= 0:
            return 'oom_kill without the victim\'s RSS'
        return None
    return f'no oom_kill instant on process {pid}'


def main(argv):
    if len(argv) == 6 and argv[1] == 'rss':
        err = check_rss(argv[2], int(argv[3]), int(argv[4]), int(argv[5]))
    elif len(argv) == 5 and argv[1] == 'reclaim':
        err = check_reclaim(argv[2], int(argv[3]), argv[4])
    elif len(argv) == 5 and argv[1] == 'oom':
        err = check_oom(argv[2], int(argv[3]), argv[4])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if err:
        print(f'check_mem_dump: {err}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
