#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The structure the tree keeps (docs/hacking.md), checked on the sources:
no source file over 1000 lines and no function over 80 in daemon/,
libprovider/, kmod/ and include/; no circle of calls among the .c files
of one folder (a file calls another's function only if that one never
calls back, directly or round a loop); each folder, at any depth,
includes only the folders its meson.build allows (kernel capture reads
no symbols and no stack code: raw stack records leave it by a hook);
PROGRESS_MIN_BYTES defined once; README.md under 12,000 bytes beside
docs/. Exit 1 with one line per breach."""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else '.'
PARTS = ('daemon', 'libprovider', 'kmod', 'include')
FILE_MAX, FUNC_MAX, README_MAX = 1000, 80, 12000
# What each daemon folder may include besides itself and <fxt/...> (a
# folder, or one header of it); a file belongs to the deepest folder
# listed that holds it.
MAY_INCLUDE = {
    'daemon/common': set(),
    'daemon/symbols': {'daemon/common'},
    'daemon/archive': set(),
    'daemon/analysis': {'daemon/archive', 'daemon/common/hash_index.h',
                        'daemon/analysis/model'},
    # the trace model summary/ and export/ share: below them, not above
    'daemon/analysis/model': {'daemon/archive', 'daemon/common/hash_index.h'},
    'daemon/fxtraced': {'daemon/common', 'daemon/symbols', 'daemon/archive',
                        'daemon/fxtraced/kernel', 'daemon/fxtraced/stacks'},
    # symbols: the BPF walker's unwinding tables, compiled from the files
    # a process maps (bpf_unwind.h)
    'daemon/fxtraced/kernel': {'daemon/common', 'daemon/archive',
                               'daemon/symbols'},
    'daemon/fxtraced/stacks': {'daemon/common', 'daemon/symbols',
                               'daemon/fxtraced/kernel'},
    'daemon/tracectl': {'daemon/common', 'daemon/symbols', 'daemon/archive',
                        'daemon/analysis'},
}
breaches = []


def sources():
    for part in PARTS:
        for d, _, names in os.walk(os.path.join(ROOT, part)):
            for n in sorted(names):
                if n.endswith(('.c', '.h')):
                    path = os.path.join(d, n)
                    yield os.path.relpath(path, ROOT), open(path, errors='replace').read().split('\n')


def functions(lines):
    """(name, first line, last line) of each function: kernel style, the
    body's braces alone in column 0."""
    start = None
    for i, line in enumerate(lines):
        if line == '{':
            j = i
            while j > 0 and lines[j - 1].strip() and not lines[j - 1].startswith(('}', '#', '/*', ' *')) \
                    and not lines[j - 1].rstrip().endswith(';'):
                j -= 1
            names = re.findall(r'(\w+)\s*\(', ' '.join(lines[j:i]))
            start = (names[0] if names else '?', j, 'static' in lines[j])
        elif line.startswith('}') and start:
            yield start[0], start[1], i, start[2]
            start = None


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def folder_of(path):
    parts = path.split('/')
    for depth in range(len(parts) - 1, 1, -1):
        folder = '/'.join(parts[:depth])
        if folder in MAY_INCLUDE:
            return folder
    if parts[0] == 'daemon' and len(parts) > 2:
        return '/'.join(parts[:2])
    return parts[0]


def find_cycle(graph):
    state = {}

    def visit(node, stack):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if not state.get(nxt):
                found = visit(nxt, stack + [nxt])
                if found:
                    return found
        state[node] = 2
        return None

    for node in sorted(graph):
        if not state.get(node):
            found = visit(node, [node])
            if found:
                return found
    return None


files = dict(sources())
headers = {}
for path in files:
    if path.endswith('.h'):
        headers.setdefault(os.path.basename(path), []).append(path)

defined = {}   # directory -> {function: file}
for path, lines in files.items():
    if len(lines) - 1 > FILE_MAX:
        breaches.append(f'{path}: {len(lines) - 1} lines (at most {FILE_MAX})')
    for name, first, last, static in functions(lines):
        if last - first + 1 > FUNC_MAX:
            breaches.append(f'{path}:{first + 1}: {name}() is {last - first + 1} lines (at most {FUNC_MAX})')
        if path.endswith('.c') and not static:
            defined.setdefault(os.path.dirname(path), {})[name] = path
    folder = folder_of(path)
    for inc in re.findall(r'^#include "([^"]+)"', '\n'.join(lines), flags=re.M):
        for target in headers.get(os.path.basename(inc), []):
            tf = folder_of(target)
            if folder in MAY_INCLUDE and tf != folder and tf.startswith('daemon/') \
                    and tf not in MAY_INCLUDE[folder] \
                    and target not in MAY_INCLUDE[folder]:
                breaches.append(f'{path}: includes {target}: {folder} may not include {tf}')

for directory, funcs in sorted(defined.items()):
    graph = {}
    for path, lines in files.items():
        if not path.endswith('.c') or os.path.dirname(path) != directory:
            continue
        text = strip_comments('\n'.join(lines))
        for name in set(re.findall(r'\b(\w+)\s*\(', text)):
            owner = funcs.get(name)
            if owner and owner != path:
                graph.setdefault(path, set()).add(owner)
    cycle = find_cycle(graph)
    if cycle:
        breaches.append(f'{directory}: a circle of calls: ' + ' -> '.join(os.path.basename(c) for c in cycle))

progress = [p for p, lines in files.items()
            if any(re.match(r'#define\s+PROGRESS_MIN_BYTES\b', l) for l in lines)]
if len(progress) > 1:
    breaches.append('PROGRESS_MIN_BYTES defined in ' + ', '.join(progress))

readme = os.path.join(ROOT, 'README.md')
if os.path.getsize(readme) > README_MAX:
    breaches.append(f'README.md: {os.path.getsize(readme)} bytes (at most {README_MAX}; the rest goes to docs/)')
for doc in ('design.md', 'hacking.md', 'performance.md'):
    if not os.path.exists(os.path.join(ROOT, 'docs', doc)):
        breaches.append(f'docs/{doc} is missing')

for b in breaches:
    print(b)
print(f'structure: {len(files)} files, {len(breaches)} breaches')
sys.exit(1 if breaches else 0)
