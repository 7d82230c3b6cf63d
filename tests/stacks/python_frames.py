#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""python_frames.py SUMMARY_JSON TRACE_JSON FXT PID SEVENTY_NS THIRTY_NS:
the checks of stacks_python.sh on an unmodified CPython's recording:
- summary --json's functions: py_workload.hot_seventy and hot_thirty,
  their share of the two within 5 points of the split the script timed;
- tracectl convert's samples of the main thread in them: 90% of them
  have py_workload.work, <module>, then the native Py_RunMain above
  (mixed mode: the Python frames in place of the evaluation's);
- its off-CPU stacks name py_workload.nap under time.sleep's C code and
  py_workload.wait_for_bytes under the socket read's, each below
  Thread.run (mixed: native frames, then the Python ones in place);
- tracectl convert's stackFrames name hot_seventy (TEF);
- the thread 100 calls deep has its walks cut counted
  (stack_losses.python_depth_limit);
- no 8-byte word of FXT inside the kernel's text (/proc/kallsyms's
  _stext.._etext): no raw kernel address.
Prints the figures; exit 1 when a check fails."""
import json
import struct
import sys

summary_path, trace_path, fxt_path, pid = sys.argv[1:5]
seventy_ns, thirty_ns = int(sys.argv[5]), int(sys.argv[6])
MOD = 'py_workload.'
failed = []


def check(ok, what):
    print(('ok: ' if ok else 'FAIL: ') + what)
    if not ok:
        failed.append(what)


def named(name, fn):
    return name.startswith(MOD + fn + ' (') and 'py_workload.py:' in name


s = json.load(open(summary_path))
funcs = {f['name']: f for f in s['functions']}
seventy = sum(f['total'] for n, f in funcs.items() if named(n, 'hot_seventy'))
thirty = sum(f['total'] for n, f in funcs.items() if named(n, 'hot_thirty'))
want = 100.0 * seventy_ns / max(1, seventy_ns + thirty_ns)
got = 100.0 * seventy / max(1, seventy + thirty)
print('samples: hot_seventy %d, hot_thirty %d: %.1f%% (timed %.1f%%)' %
      (seventy, thirty, got, want))
check(seventy + thirty >= 200, 'at least 200 samples in the two')
check(abs(got - want) <= 5, 'hot_seventy share within 5 points')


def chain(frames, names):
    """Whether frames (leaf first) hold names in that order."""
    at = 0
    for f in frames:
        if at < len(names) and names[at](f):
            at += 1
    return at == len(names)


def is_fn(fn):
    return lambda f: named(f, fn)


trace = json.load(open(trace_path))
frames = trace.get('stackFrames', {})


def stack(sf):
    """tracectl convert's frames of sf, leaf first."""
    out = []
    while sf is not None and str(sf) in frames and len(out) < 1000:
        f = frames[str(sf)]
        out.append(f.get('name', ''))
        sf = f.get('parent')
    return out


hot = [st for st in (stack(x['sf']) for x in trace.get('samples', [])
                     if x.get('tid') == int(pid) and 'sf' in x)
       if any(named(f, 'hot_seventy') or named(f, 'hot_thirty') for f in st)]
whole = sum(1 for st in hot if chain(
    st, [lambda f: named(f, 'hot_seventy') or named(f, 'hot_thirty'),
         is_fn('work'), is_fn('<module>'), lambda f: f == 'Py_RunMain']))
print('hot samples reaching work <- <module> <- Py_RunMain: %d of %d' %
      (whole, len(hot)))
check(hot and whole >= 0.9 * len(hot),
      'Python callers reach work then <module>, then the native main')

off = s['offcpu']['stacks']


def blocked(what, native, fn):
    n = sum(st['count'] for st in off if chain(
        st['stack'], [native, is_fn(fn),
                      lambda f: f.startswith('threading.Thread.run (')]))
    print('off-CPU %s: %d blocks named %s' % (what, n, fn))
    check(n >= 5, 'off-CPU %s names %s' % (what, fn))


blocked('sleep', lambda f: f.startswith('time_sleep'), 'nap')
blocked('socket read', lambda f: f.startswith('sock_recv'), 'wait_for_bytes')

check(any(named(f.get('name', ''), 'hot_seventy') for f in frames.values()),
      'convert: stackFrames name hot_seventy')

cut = s.get('stack_losses', {}).get('python_depth_limit', 0)
print('Python walks cut at the depth limit: %d' % cut)
check(cut > 0, 'cut walks counted (python_depth_limit)')

lo = hi = None
for line in open('/proc/kallsyms'):
    a, _, n = line.split()[:3]
    if n == '_stext':
        lo = int(a, 16)
    elif n == '_etext':
        hi = int(a, 16)
data = open(fxt_path, 'rb').read()
words = struct.unpack('<%dQ' % (len(data) // 8), data[:len(data) // 8 * 8])
inside = sum(1 for w in words if lo <= w < hi) if lo and hi and lo else 0
check(lo and inside == 0, 'no word in the kernel text (%d)' % inside)
sys.exit(1 if failed else 0)
