#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The stacks of one run of unwind-workload (stacks_unwind.sh), checked:

unwind_chains.py BUILD SUMMARY_JSON TRACE_JSON PID WORKER SEVENTY THIRTY

BUILD is o2 (hot functions out of line) or g (inlined into work());
SUMMARY_JSON is tracectl summary --json --pid PID, TRACE_JSON tracectl
convert's output; WORKER the worker thread's tid; SEVENTY and THIRTY the
program's own ns. Prints the figures and each check, "ok:" or "FAIL:";
exits 1 when a check failed. Stacks are leaf first; a chain matches a
stack when its patterns match frames of it in that order, other frames
allowed between (a walk through libc meets frames we do not name here).
"""
import json
import re
import sys

# The libc names a correct walk may give, matched without the version a
# name from .dynsym carries ("__pthread_mutex_lock@GLIBC_2.2.5"): one of
# the lock's aliases (pthread_mutex_lock, ___pthread_mutex_lock,
# __GI___pthread_mutex_lock) or its futex wait (__lll_lock_wait,
# __GI___lll_lock_wait); __nanosleep or clock_nanosleep under usleep;
# read or __libc_read. Anchored, so that no kernel frame (ksys_read,
# hrtimer_nanosleep) stands for them.
LOCK = r'^_*(GI_+)?_*(pthread_mutex_lock|lll_lock_wait)$'
SLEEP = r'^_*(GI_+)?_*(clock_)?nanosleep$'
READ = r'^_*(GI_+)?_*(libc_)?read$'
OFFCPU_CHAINS = [
    ('mutex', [LOCK, '^update_shared_state$', '^worker$', '^start_thread$']),
    ('usleep', [SLEEP, '^usleep$', '^worker$', '^start_thread$']),
    ('read', [READ, '^wait_on_pipe$', '^worker$', '^start_thread$']),
]
SHARE_POINTS = 5
MIN_HOT_SAMPLES = 100
# Of the hot functions' samples, those whose stack reaches work and main:
# a table walk misses only a sample whose user stack could not be read,
# and those before the process's tables were written (tens of ms idle, a
# few hundred on a loaded machine: 95-99% seen). Frame pointers alone
# reach none.
MIN_REACH = 60

failed = []


def check(ok, what):
    print(('ok: ' if ok else 'FAIL: ') + what)
    if not ok:
        failed.append(what)


def unversioned(name):
    return name.split('@', 1)[0]


def matches(frames, pats):
    """Whether pats match frames in order, others between."""
    i = 0
    for f in frames:
        if i < len(pats) and re.search(pats[i], unversioned(f)):
            i += 1
    return i == len(pats)


def show(frames):
    return ' <- '.join(frames)


def offcpu(summary):
    stacks = summary.get('offcpu', {}).get('stacks', [])
    print('off-CPU: %d stacks of the workload, %d blocks' %
          (len(stacks), summary.get('offcpu', {}).get('count', 0)))
    for name, pats in OFFCPU_CHAINS:
        found = [s for s in stacks if matches(s['stack'], pats)]
        for s in found:
            print('  %s chain: %d blocks, %.1f ms: %s' %
                  (name, s['count'], s['blocked_ns'] / 1e6,
                   show(s['stack'])))
        # What the stacks with the chain's leaf look like, found or not.
        if not found:
            for s in stacks:
                if matches(s['stack'], pats[:1]):
                    print('  %s leaf, no chain: %d blocks: %s' %
                          (name, s['count'], show(s['stack'])))
        check(bool(found), 'off-CPU %s chain %s' % (name, ' <- '.join(pats)))


class Trace:
    """tracectl convert's stackFrames, and the workload's stacks."""

    def __init__(self, path, pid, worker):
        t = json.load(open(path))
        self.frames = t.get('stackFrames', {})
        self.oncpu = [s['sf'] for s in t.get('samples', [])
                      if s.get('tid') in (pid, worker) and 'sf' in s]
        self.offcpu = [e['sf'] for e in t.get('traceEvents', [])
                       if e.get('pid') == pid and 'sf' in e]

    def stack(self, sf):
        """Leaf first: [(name, category)]."""
        out = []
        while sf is not None and str(sf) in self.frames:
            f = self.frames[str(sf)]
            out.append((f['name'], f.get('category', '')))
            sf = f.get('parent')
        return out


def is_kernel(frame):
    return frame[0] == '[kernel]' or frame[1] == 'kernel'


def kernel_between(stack):
    """Whether a kernel frame lies between two user frames."""
    user = [i for i, f in enumerate(stack) if not is_kernel(f)]
    return user and any(is_kernel(f) for f in stack[user[0]:user[-1]])


def no_kernel_between(tr):
    bad = {}
    for sf in tr.oncpu + tr.offcpu:
        st = tr.stack(sf)
        if kernel_between(st):
            key = show(n for n, _ in st)
            bad[key] = bad.get(key, 0) + 1
    for key, n in sorted(bad.items(), key=lambda kv: -kv[1])[:5]:
        print('  %d stacks: %s' % (n, key))
    check(not bad, 'no kernel frame between user frames (%d stacks of %d)' %
          (sum(bad.values()), len(tr.oncpu) + len(tr.offcpu)))


def split(build, summary, seventy, thirty):
    fns = {f['name']: f for f in summary.get('functions', [])}
    s = fns.get('hot_seventy', {}).get('self', 0)
    t = fns.get('hot_thirty', {}).get('self', 0)
    own = seventy * 100 / (seventy + thirty)
    share = s * 100 / (s + t) if s + t else 0
    print('on-CPU: %d samples of the workload; hot_seventy %d, hot_thirty '
          '%d: %.1f%%, its own timing %.1f%%' %
          (summary.get('stacks', {}).get('samples', 0), s, t, share, own))
    check(s + t > MIN_HOT_SAMPLES, 'over %d hot samples' % MIN_HOT_SAMPLES)
    check(abs(share - own) <= SHARE_POINTS,
          'hot_seventy within %d points of its own share' % SHARE_POINTS)
    if build == 'g':
        check(all(fns.get(f, {}).get('inlined') for f in
                  ('hot_seventy', 'hot_thirty')),
              'hot_seventy and hot_thirty named as inlined')


def reach(tr):
    """The hot functions' samples whose callers reach work and main."""
    chain = ['^work$', '^main$']
    for hot in ('hot_seventy', 'hot_thirty'):
        n = ok = 0
        seen = {}
        for sf in tr.oncpu:
            names = [name for name, _ in tr.stack(sf)]
            if not names or names[0] != hot:
                continue
            n += 1
            ok += matches(names[1:], chain)
            key = show(names)
            seen[key] = seen.get(key, 0) + 1
        for key, c in sorted(seen.items(), key=lambda kv: -kv[1])[:3]:
            print('  %d samples: %s' % (c, key))
        pct = ok * 100 / n if n else 0
        print('%s: %d of %d samples (%.1f%%) reach work <- main' %
              (hot, ok, n, pct))
        check(n and pct >= MIN_REACH,
              '%s <- work <- main in %d%% of its samples' % (hot, MIN_REACH))


def main():
    build, sum_path, trace_path = sys.argv[1:4]
    pid, worker, seventy, thirty = map(int, sys.argv[4:8])
    summary = json.load(open(sum_path))
    tr = Trace(trace_path, pid, worker)
    offcpu(summary)
    split(build, summary, seventy, thirty)
    reach(tr)
    no_kernel_between(tr)
    print('%s: %d checks failed' % (build, len(failed)))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
