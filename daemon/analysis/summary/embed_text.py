#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""embed_text.py IN OUT MARKER NAME: writes OUT, a C header holding the
text of IN in two constants, NAME_head (before MARKER) and NAME_tail
(after it), so that the file stays editable as itself."""
import sys


def c_string(text):
    out = []
    for line in text.splitlines(keepends=True):
        esc = line.replace('\\', '\\\\').replace('"', '\\"')
        esc = esc.replace('\n', '\\n').replace('\t', '\\t')
        out.append('\t"' + esc + '"')
    return '\n'.join(out) if out else '\t""'


def main():
    src, dst, marker, name = sys.argv[1:5]
    with open(src, encoding='utf-8') as f:
        text = f.read()
    if text.count(marker) != 1:
        sys.exit('embed_text.py: %s must hold %s once' % (src, marker))
    head, tail = text.split(marker)
    with open(dst, 'w', encoding='utf-8') as f:
        f.write('/* Generated from %s by embed_text.py. */\n' %
                src.rsplit('/', 1)[-1])
        f.write('static const char %s_head[] =\n%s;\n' % (name, c_string(head)))
        f.write('static const char %s_tail[] =\n%s;\n' % (name, c_string(tail)))


if __name__ == '__main__':
    main()
