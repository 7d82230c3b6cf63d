#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""check_why.py WORKLOAD_OUT WHY_JSON full|sched: the tree of the slowest
request against the workload's own timing (why_workload.c)."""
import json
import sys

FIG, REQUESTS = {}, []
for line in open(sys.argv[1]):
    if line.startswith('request='):
        REQUESTS.append({k: int(v) for k, v in
                         (f.split('=') for f in line.split())})
    elif '=' in line and ' ' not in line.strip():
        k, v = line.strip().split('=')
        FIG[k] = int(v)
DOC = json.load(open(sys.argv[2]))
MODE = sys.argv[3]
TOL = 0.05


def fail(msg):
    sys.exit('check_why: %s' % msg)


def walk(node, depth=0):
    yield node, depth
    for c in node['children']:
        yield from walk(c, depth + 1)


# The hog's request, by its wall time: the program's own figures.
REQ = [q for q in REQUESTS if q['hog_ns']][0]
inst = min(DOC['instances'], key=lambda i: abs(i['wall_ns'] - REQ['wall_ns']))
tree, wall = inst['tree'], inst['wall_ns']
if abs(wall - REQ['wall_ns']) > 0.01 * wall:
    fail('no instance of wall %d ns: %s' % (REQ['wall_ns'],
         [i['wall_ns'] for i in DOC['instances']]))
if inst['tid'] != FIG['r_tid']:
    fail('the request is on %d, not R %d' % (inst['tid'], FIG['r_tid']))
print('request %d: wall %d ns' % (REQ['request'], wall))
for node, _ in walk(tree):
    kids = sum(c['ns'] for c in node['children'])
    if node['children'] and abs(kids - node['ns']) > node['ns'] // 100:
        fail('%s of %d: children add up to %d' % (node['kind'], node['ns'], kids))


def share(pred):
    return sum(n['ns'] for n, _ in walk(tree) if pred(n)) / wall


def expect(name, got, want):
    print('%s: %.3f, the program %.3f' % (name, got, want))
    if abs(got - want) > TOL:
        fail('%s share %.3f, the program timed %.3f' % (name, got, want))


c, w, r, hog = FIG['c_tid'], FIG['w_tid'], FIG['r_tid'], FIG['hog_tid']
ON_CPU = ('running', 'interrupt', 'memory_stall')
# C on its CPU: running (interrupts included), or holding the CPU W
# waits for.
expect('C on a CPU',
       share(lambda n: n['kind'] in ON_CPU + ('held_by',) and n['tid'] == c),
       REQ['crunch_ns'] / wall)
expect('W running', share(lambda n: n['kind'] in ON_CPU and n['tid'] == w),
       REQ['transform_ns'] / wall)
expect('R behind the hog',
       share(lambda n: n['kind'] == 'held_by' and n['tid'] == hog),
       REQ['hog_ns'] / wall)
path = [h['tid'] for h in inst['path']]
if path[:3] != [r, w, c]:
    fail('path %s, not R %d -> W %d -> C %d' % (path, r, w, c))
for n, _ in walk(tree):
    if n['kind'] != 'running':
        continue
    if MODE == 'sched' and n.get('functions'):
        fail('functions without samples')
    if MODE == 'full' and n['tid'] in (c, w) and n['samples'] >= 5:
        top = max(n['functions'], key=lambda f: f['samples'])
        want = 'crunch' if n['tid'] == c else 'transform'
        if want not in (top['name'], top.get('caller')):
            fail('%d ran %s most, not in %s' % (n['tid'], top, want))
if MODE == 'sched' and 'kernel:sample' not in DOC['would_tell_more']:
    fail('kernel:sample not named as telling more')
# Interrupts (kernel:irq) ran on the path's CPUs or not, by chance: named.
for n, _ in walk(tree):
    if n['kind'] in ('interrupt', 'memory_stall') and not n.get('name'):
        fail('an unnamed %s' % n['kind'])
if MODE == 'full' and DOC['would_tell_more']:
    fail('would_tell_more %s with everything recorded' % DOC['would_tell_more'])
print('check_why: %s ok' % MODE)
