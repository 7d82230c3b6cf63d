#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The defaults the documentation gives agree with --help:

  check_defaults.py SOURCE_ROOT TRACECTL FXTRACED

Reads "(default X)" of every option in the --help of fxtraced and of each
tracectl command, then every place README.md, docs/*.md and the man
pages name an option with a default ("--chunk-bytes (4 MiB by
default)", "*--buffer-size* ... (default 1M)"), and says where one
differs, where the value is a number. Sizes compare as bytes (4M, 4 MiB, 4194304), times as
nanoseconds (1s, 1000ms). An option whose commands have different
defaults (record's --mode) may be documented with any of them. Exit 1
with one line per disagreement."""
import os
import re
import subprocess
import sys

COMMANDS = ['start', 'record', 'stop', 'status', 'snapshot', 'dump',
            'convert', 'summary', 'report', 'why', 'merge', 'export']
OPTION = re.compile(r'^\s+(?:-\w, )?--([a-z][a-z-]*)[ =]?(.*)$')
# "(default X)", "default X", "default: X", "X by default"
DEFAULT = re.compile(r'\(default:? ([^),;]+)|default(?:s to|:)? '
                     r'(\S+?)[),;.]?(?:\s|$)|(\S+(?: [KMG]i?B)?) by default')
SIZE = {'': 1, 'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30}
TIME = {'ns': 1, 'us': 1000, 'ms': 10 ** 6, 's': 10 ** 9, 'min': 60 * 10 ** 9,
        'h': 3600 * 10 ** 9}


def norm(value):
    """A value as a comparable number when it reads as one."""
    v = value.strip().strip('()[]*_`\'",;:.').lower()
    m = re.fullmatch(r'(\d+)\s*([kmg]?)(?:i?b)?', v)
    if m:
        return int(m.group(1)) * SIZE[m.group(2)]
    m = re.fullmatch(r'(\d+)\s*(ns|us|ms|s|min|h)', v)
    if m:
        return int(m.group(1)) * TIME[m.group(2)]
    return v


def help_defaults(argv, out):
    """Options of one --help and their defaults, into out."""
    text = subprocess.run(argv, capture_output=True, text=True,
                          check=True).stdout
    option = None
    for line in text.splitlines():
        m = OPTION.match(line)
        if m:
            option = m.group(1)
            line = m.group(2)
        elif not line.startswith('      ') or option is None:
            option = None
            continue
        d = re.search(r'\(default:? (\S+)', line) or \
            re.search(r'default:? (\S+)', line)
        if d and not d.group(1).startswith('$'):
            out.setdefault(option, set()).add(norm(d.group(1)))


def documented(path):
    """(line, option, value) of each option named with a default."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    # paragraphs: an option's default is said in the same one
    for para in re.split(r'\n\s*\n', text):
        flat = ' '.join(para.split())
        for m in re.finditer(r'--([a-z][a-z-]*)', flat):
            rest = flat[m.end():]
            nxt = re.search(r'--[a-z]|\. [A-Z]|\)\.', rest)
            window = rest[:nxt.start() if nxt else 120][:120]
            d = DEFAULT.search(window)
            if not d:
                continue
            value = next(g for g in d.groups() if g)
            line = text[:text.find(para)].count('\n') + 1
            yield line, m.group(1), value


def main():
    root, tracectl, fxtraced = sys.argv[1:4]
    defaults = {}
    help_defaults([fxtraced, '--help'], defaults)
    for cmd in COMMANDS:
        help_defaults([tracectl, cmd, '--help'], defaults)
    docs = [os.path.join(root, 'README.md'),
            os.path.join(root, 'libprovider', 'README.md'),
            os.path.join(root, 'daemon', 'tracectl', 'tracectl.1.scd'),
            os.path.join(root, 'daemon', 'fxtraced', 'fxtraced.8.scd')]
    docs += sorted(os.path.join(root, 'docs', f)
                   for f in os.listdir(os.path.join(root, 'docs'))
                   if f.endswith('.md'))
    bad, checked = [], 0
    for path in docs:
        for line, option, value in documented(path):
            # numbers and sizes: words are for the reader
            if option not in defaults or not isinstance(norm(value), int):
                continue
            checked += 1
            if norm(value) not in defaults[option]:
                bad.append('%s:%d: --%s defaults to %s, --help says %s' %
                           (os.path.relpath(path, root), line, option,
                            value, ' or '.join(sorted(
                                str(v) for v in defaults[option]))))
    for b in bad:
        print(b)
    print('defaults: %d options in --help, %d documented defaults '
          'checked, %d disagree' % (len(defaults), checked, len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
