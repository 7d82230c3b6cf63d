#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Checks `tracectl summary --json` against figures computed here, from
`tracectl dump` output of the same archive, by the definitions in
daemon/analysis/summary/trace_summary.h:

  check_summary.py DUMP SUMMARY_JSON [--no-self] [--expect FILE]

cpu_ns, switches, latency counts and max, busy_ns per CPU, span, drops,
slice counts and max are compared exactly (async spans, but the
kernel's, are slices too); latency percentiles within one histogram
bucket (1/128 of the value); self_ns, total_ns (a recursion's total is
its outermost instances') and nested exactly, computed from the
intervals' nesting (unless --no-self, for archives whose slices cross:
total_ns then from the longest to the sum of all). --expect FILE holds
lines "threads.<tid>.<key> VALUE" or "slices.<cat>/<name>.<key> VALUE"
checked on top. Prints one line per figure class and exits 1 on the
first mismatch list.
"""
import json
import re
import sys

TS = r'(\d+)(?: \((\d+) ns\))?'
RE_SWITCH = re.compile(r'^\S+\s+context_switch\s+ts=' + TS +
                       r' cpu=(\d+) out_tid=(\d+)(?: \(idle\))? \S+ '
                       r'in_tid=(\d+)(.*)$')
RE_LEGACY = re.compile(r'^\S+\s+legacy_switch\s+ts=' + TS +
                       r' cpu=(\d+) out=\d+/(\d+) \S+ out_prio=\d+ '
                       r'in=\d+/(\d+) in_prio=\d+(.*)$')
RE_WAKE = re.compile(r'^\S+\s+thread_wakeup\s+ts=' + TS +
                     r' cpu=(\d+) tid=(\d+)')
RE_EVENT = re.compile(r'^\S+\s+(\w+)\s+ts=' + TS +
                      r' thread=(\d+)/(\d+) category="((?:[^"\\]|\\.)*)" '
                      r'name="((?:[^"\\]|\\.)*)"(?: end_ts=' + TS + ')?'
                      r'(?: id=(\d+))?')
RE_LOG = re.compile(r'^\S+\s+log\s+ts=' + TS + ' ')
RE_PROVIDER = re.compile(r'^\S+\s+provider_info\s+id=(\d+) '
                         r'name="((?:[^"\\]|\\.)*)"')
RE_OVERFLOW = re.compile(r'^\S+\s+provider_event\s+id=(\d+) buffer_overflow')
IDLE_WEIGHT = -2147483648


def ns(m, i):
    """The nanoseconds of a ts field matched at groups i, i+1."""
    return int(m.group(i + 1) or m.group(i))


class Figures:
    def __init__(self):
        self.cpu_ns = {}
        self.switches = {}
        self.latencies = {}
        self.busy = {}
        self.running = {}        # cpu -> (tid, start)
        self.on_cpu = set()
        self.woken = {}          # tid -> wakeup ns
        self.last_sched = 0
        self.first = None
        self.last = None
        self.slices = {}         # tid -> [(start, end, key)]
        self.open = {}           # tid -> [(start, key)]
        self.async_open = {}     # (pid, id, key) -> start
        self.async_spans = []    # [(start, end, key)]
        self.providers = {}
        self.overflows = {}

    def saw(self, t):
        self.first = t if self.first is None else min(self.first, t)
        self.last = t if self.last is None else max(self.last, t)

    def end_stretch(self, cpu, t):
        if cpu in self.running:
            tid, start = self.running.pop(cpu)
            d = max(0, t - start)
            self.cpu_ns[tid] = self.cpu_ns.get(tid, 0) + d
            self.busy[cpu] = self.busy.get(cpu, 0) + d
            self.on_cpu.discard(tid)

    def switch(self, t, cpu, in_tid, rest):
        self.saw(t)
        self.last_sched = max(self.last_sched, t)
        self.busy.setdefault(cpu, 0)
        self.end_stretch(cpu, t)
        w = re.search(r'incoming_weight=(-?\d+)(?: |$)', rest)
        if in_tid == 0 or (w and int(w.group(1)) == IDLE_WEIGHT):
            return
        self.running[cpu] = (in_tid, t)
        self.switches[in_tid] = self.switches.get(in_tid, 0) + 1
        self.on_cpu.add(in_tid)
        if in_tid in self.woken and t >= self.woken[in_tid]:
            self.latencies.setdefault(in_tid, []).append(
                t - self.woken.pop(in_tid))

    def wakeup(self, t, cpu, tid):
        self.saw(t)
        self.last_sched = max(self.last_sched, t)
        self.busy.setdefault(cpu, 0)
        if tid and tid not in self.on_cpu and tid not in self.woken:
            self.woken[tid] = t

    def event(self, kind, t, tid, key, end, pid=0, ident=None):
        self.saw(t)
        if kind in ('async_begin', 'async_end') and \
                not key[0].startswith('kernel:'):
            span = (pid, ident, key)
            if kind == 'async_begin':
                self.async_open[span] = t
            elif span in self.async_open:
                self.async_spans.append(
                    (self.async_open.pop(span), t, key))
        if kind == 'duration_begin':
            self.open.setdefault(tid, []).append((t, key))
        elif kind == 'duration_end':
            if self.open.get(tid):
                start, k = self.open[tid].pop()
                self.slices.setdefault(tid, []).append((start, t, k))
        elif kind == 'duration_complete':
            self.saw(end)
            self.slices.setdefault(tid, []).append((t, end, key))

    def read(self, path):
        with open(path, encoding='utf-8', errors='replace') as f:
            for line in f:
                m = RE_SWITCH.match(line) or RE_LEGACY.match(line)
                if m:
                    self.switch(ns(m, 1), int(m.group(3)), int(m.group(5)),
                                m.group(6))
                    continue
                m = RE_WAKE.match(line)
                if m:
                    self.wakeup(ns(m, 1), int(m.group(3)), int(m.group(4)))
                    continue
                m = RE_EVENT.match(line)
                if m:
                    end = ns(m, 8) if m.group(8) else None
                    self.event(m.group(1), ns(m, 2), int(m.group(5)),
                               (m.group(6), m.group(7)), end,
                               int(m.group(4)), m.group(10))
                    continue
                m = RE_LOG.match(line)
                if m:
                    self.saw(ns(m, 1))
                    continue
                m = RE_PROVIDER.match(line)
                if m:
                    self.providers.setdefault(int(m.group(1)), m.group(2))
                    continue
                m = RE_OVERFLOW.match(line)
                if m:
                    pid = int(m.group(1))
                    self.overflows[pid] = self.overflows.get(pid, 0) + 1
        for cpu in list(self.running):
            self.end_stretch(cpu, self.last_sched)

    def slice_figures(self, with_self):
        out = {}
        for spans in self.slices.values():
            # parents before children: by start, then the longest first
            order = sorted(spans, key=lambda s: (s[0], -s[1]))
            child = [0] * len(order)
            stack = []
            inner = [False] * len(order)
            for i, (s, e, key) in enumerate(order):
                while stack and order[stack[-1]][1] < e:
                    stack.pop()
                if stack:
                    child[stack[-1]] += e - s
                # recursion: counted in total once, the outermost
                inner[i] = any(order[j][2] == key for j in stack)
                stack.append(i)
            for i, (s, e, key) in enumerate(order):
                d = max(0, e - s)
                f = out.setdefault(key, [0, 0, 0, 0, 0, 0])
                f[0] += 1
                f[1] += 0 if inner[i] else d
                f[4] += d
                f[5] += inner[i]
                f[2] += max(0, d - child[i]) if with_self else 0
                f[3] = max(f[3], d)
        for s, e, key in self.async_spans:
            d = max(0, e - s)
            f = out.setdefault(key, [0, 0, 0, 0, 0, 0])
            f[0] += 1
            f[1] += d
            f[4] += d
            f[2] += d if with_self else 0
            f[3] = max(f[3], d)
        return out


def nearest_rank(sorted_values, pct):
    n = len(sorted_values)
    rank = max(1, (n * pct + 99) // 100)
    return sorted_values[rank - 1]


def unescape(s):
    return s.encode('latin-1', 'backslashreplace').decode('unicode_escape')


def main():
    args = sys.argv[1:]
    with_self = '--no-self' not in args
    expect = None
    if '--expect' in args:
        expect = args[args.index('--expect') + 1]
    fig = Figures()
    fig.read(args[0])
    with open(args[1], encoding='utf-8') as f:
        got = json.load(f)
    bad = []

    def same(what, mine, theirs):
        if mine != theirs:
            bad.append('%s: summary says %r, dump says %r' %
                       (what, theirs, mine))

    span = fig.last - fig.first if fig.first is not None else 0
    same('span_ns', span, got['span_ns'])
    same('cpus', sorted(fig.busy.items()),
         sorted((c['cpu'], c['busy_ns']) for c in got['cpus']))

    drops = {}
    for pid, name in fig.providers.items():
        key = unescape(name) or 'provider %d' % pid
        drops[key] = drops.get(key, 0) + fig.overflows.get(pid, 0)
    for pid, n in fig.overflows.items():
        if pid not in fig.providers:
            drops['provider %d' % pid] = n
    same('drops', drops, got['drops'])

    threads = {t['tid']: t for t in got['threads']}
    tids = set(fig.switches) | set(fig.latencies) | set(fig.woken)
    same('thread set', sorted(tids), sorted(threads))
    order = [t['cpu_ns'] for t in got['threads']]
    same('threads sorted by cpu_ns', sorted(order, reverse=True), order)
    checked = 0
    for tid in sorted(tids & set(threads)):
        t = threads[tid]
        same('tid %d cpu_ns' % tid, fig.cpu_ns.get(tid, 0), t['cpu_ns'])
        same('tid %d switches' % tid, fig.switches.get(tid, 0),
             t['switches'])
        lat = sorted(fig.latencies.get(tid, []))
        wl = t['wakeup_latency_ns']
        same('tid %d latency count' % tid, len(lat), wl['count'])
        same('tid %d latency max' % tid, lat[-1] if lat else 0, wl['max'])
        for p in (50, 90, 99):
            exact = nearest_rank(lat, p) if lat else 0
            width = max(1, exact // 128)
            if abs(wl['p%d' % p] - exact) > width:
                bad.append('tid %d p%d: summary says %d, dump gives %d '
                           '(bucket width %d)' % (tid, p, wl['p%d' % p],
                                                  exact, width))
            checked += 1
    slices = {(unescape(c), unescape(n)): f
              for (c, n), f in fig.slice_figures(with_self).items()}
    got_slices = {(s['category'], s['name']): s for s in got['slices']}
    same('slice set', sorted(slices), sorted(got_slices))
    for key in sorted(set(slices) & set(got_slices)):
        f, s = slices[key], got_slices[key]
        same('slice %s/%s count' % key, f[0], s['count'])
        if with_self:
            same('slice %s/%s total_ns' % key, f[1], s['total_ns'])
            same('slice %s/%s nested' % key, f[5], s['nested'])
        elif not f[3] <= s['total_ns'] <= f[4]:
            bad.append('slice %s/%s total_ns: %d, not from the longest '
                       '(%d) to the sum of all (%d)' %
                       (key + (s['total_ns'], f[3], f[4])))
        same('slice %s/%s max_ns' % key, f[3], s['max_ns'])
        if with_self:
            same('slice %s/%s self_ns' % key, f[2], s['self_ns'])
    order = [s['total_ns'] for s in got['slices']]
    same('slices sorted by total_ns', sorted(order, reverse=True), order)

    if expect:
        with open(expect, encoding='utf-8') as f:
            for line in f:
                if not line.strip() or line.startswith('#'):
                    continue
                path, value = line.split()
                kind, rest = path.split('.', 1)
                if kind == 'threads':
                    tid, key = rest.split('.', 1)
                    v = threads.get(int(tid), {})
                else:
                    name, key = rest.rsplit('.', 1)
                    v = got_slices.get(tuple(name.split('/', 1)), {})
                for k in key.split('.'):
                    v = v.get(k) if isinstance(v, dict) else None
                same(path, value, str(v))

    print('threads: %d, latency samples: %d, percentiles checked: %d, '
          'slices: %d, cpus: %d' %
          (len(tids), sum(len(v) for v in fig.latencies.values()), checked,
           len(slices), len(fig.busy)))
    if bad:
        for b in bad[:40]:
            print('MISMATCH ' + b)
        print('%d mismatches' % len(bad))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
