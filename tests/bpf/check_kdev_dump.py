#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Checks the kernel:fault, kernel:block and kernel:power events of a
tracectl dump (text) against the workload that made them.

check_kdev_dump.py fault DUMP PID TID BASE PAGES
    every one of PAGES pages from BASE has a user write page_fault
    instant on thread PID/TID; no address anywhere is a kernel one.
check_kdev_dump.py block DUMP MAJOR MINOR COUNT BYTES
    COUNT block_write requests of BYTES on MAJOR:MINOR at sectors
    0, BYTES/512, ... each begin followed by an end with its id, status 0.
check_kdev_dump.py power DUMP NCPUS
    cpu_idle counters only of CPUs < NCPUS, and some CPU both entered
    (state >= 0) and left (-1) idle.
Prints what it found; exits 1 on a mismatch.
"""
import re
import sys

EVENT = re.compile(r'^0x[0-9a-f]+\s+(\S+)\s+ts=(\d+) thread=(\d+)/(\d+) '
                   r'category="([^"]*)" name="([^"]*)"(.*)$')
ARG = re.compile(r'(\w+)=(?:\w+\()?([-\w]+)\)?')


def events(path, category):
    with open(path) as f:
        for line in f:
            m = EVENT.match(line.rstrip('\n'))
            if not m or m.group(5) != category:
                continue
            kind, ts, pid, tid, _, name, rest = m.groups()
            args = dict(ARG.findall(rest))
            yield kind, int(ts), int(pid), int(tid), name, args


def check_fault(dump, pid, tid, base, pages):
    seen = set()
    for kind, _, p, t, name, args in events(dump, 'kernel:fault'):
        addr = int(args['address'], 16)
        if addr >> 63:
            sys.exit('a kernel address: 0x%x' % addr)
        code = int(args['error_code'])
        # user (4) write (2) faults on the touched pages
        if (kind, p, t, name) == ('instant', pid, tid, 'page_fault') and \
                base <= addr < base + pages * 4096 and code & 6 == 6:
            seen.add((addr - base) // 4096)
    print('kernel:fault: %d of %d pages faulted on thread %d' %
          (len(seen), pages, tid))
    return len(seen) == pages


def check_block(dump, major, minor, count, nbytes):
    open_ids, done = {}, set()
    for kind, ts, p, t, name, args in events(dump, 'kernel:block'):
        if p or t:
            sys.exit('a block request on thread %d/%d' % (p, t))
        if kind == 'async_begin':
            if open_ids.get(args['id']):
                print('note: id %s begun twice' % args['id'])
            if (int(args['major']), int(args['minor'])) == (major, minor) \
                    and name == 'block_write':
                open_ids[args['id']] = (int(args['sector']),
                                        int(args['bytes']))
            else:
                open_ids[args['id']] = None
        elif kind == 'async_end':
            req = open_ids.pop(args['id'], None)
            if req and name == 'block_write' and args['status'] == '0':
                done.add(req)
    want = {(i * nbytes // 512, nbytes) for i in range(count)}
    print('kernel:block: %d of %d writes of %d bytes paired on %d:%d' %
          (len(want & done), count, nbytes, major, minor))
    return want <= done


def check_power(dump, ncpus):
    enter, leave = set(), set()
    for kind, _, p, t, name, args in events(dump, 'kernel:power'):
        if kind != 'counter' or p or t:
            sys.exit('power event %s on %d/%d' % (kind, p, t))
        cpu = int(args['id'])
        if cpu >= ncpus:
            sys.exit('a counter of CPU %d of %d' % (cpu, ncpus))
        if name == 'cpu_idle':
            state = int(args['state'])
            (enter if state >= 0 else leave).add(cpu)
            if state < -1:
                sys.exit('idle state %d' % state)
    print('kernel:power: CPUs entering idle %s, leaving %s' %
          (sorted(enter), sorted(leave)))
    return bool(enter & leave)


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == 'fault':
        ok = check_fault(args[0], int(args[1]), int(args[2]),
                         int(args[3], 16), int(args[4]))
    elif mode == 'block':
        ok = check_block(args[0], *(int(a) for a in args[1:5]))
    elif mode == 'power':
        ok = check_power(args[0], int(args[1]))
    else:
        sys.exit(__doc__)
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
