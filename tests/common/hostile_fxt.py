#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes hostile FXT archives to standard output, word by word, for the
tests of the archive readers (tracectl dump, convert, summary, report):
what a provider can put in its own buffer, or anyone in a file.

  hostile_fxt.py switch-at-max
      72 bytes: the magic number record and two context switches on CPU
      0, the second at timestamp 2^64-1.
  hostile_fxt.py tick-overflow
      one tick per second, context switches at ticks 1 and 2^63: their
      nanoseconds do not fit in 64 bits.
  hostile_fxt.py string-pages PROVIDERS STRINGS
      PROVIDERS providers, each with STRINGS empty strings spread over
      the pages of its string table (a page every 128 indexes) and a
      thread record: the tables' bookkeeping, not the input, grows.
  hostile_fxt.py big-strings PROVIDERS STRINGS
      PROVIDERS providers, each with STRINGS strings of 32,000 bytes at
      distinct indexes, then an event naming the first by reference.
  hostile_fxt.py escapes
      a provider named with ESC, BEL and CR whose buffer overflowed.
"""
import struct
import sys

MAGIC = 0x0016547846040010
MAX = 2**64 - 1


def words(*values):
    return b''.join(struct.pack('<Q', v & MAX) for v in values)


def header(rtype, nwords):
    return rtype | (nwords << 4)


def padded(data):
    return data + b'\0' * (-len(data) % 8)


def provider_info(pid, name):
    body = padded(name)
    return words(header(0, 1 + len(body) // 8) | 1 << 16 | pid << 20 |
                 len(name) << 52) + body


def provider_event(pid, event):
    return words(header(0, 1) | 3 << 16 | pid << 20 | event << 52)


def initialization(ticks_per_second):
    return words(header(1, 2), ticks_per_second)


def string(index, data):
    body = padded(data)
    return words(header(2, 1 + len(body) // 8) | index << 16 |
                 len(data) << 32) + body


def thread(index, pid, tid):
    return words(header(3, 3) | index << 16, pid, tid)


def instant(ts, pid, tid, category_ref, name_ref):
    return words(header(4, 4) | category_ref << 32 | name_ref << 48,
                 ts, pid, tid)


def context_switch(cpu, ts, out_tid, in_tid):
    return words(header(8, 4) | cpu << 20 | 1 << 60, ts, out_tid, in_tid)


def switch_at_max(out):
    out.write(words(MAGIC) + context_switch(0, 1000, 0, 5) +
              context_switch(0, MAX, 5, 0))


def tick_overflow(out):
    out.write(words(MAGIC) + initialization(1) + context_switch(0, 1, 0, 5) +
              context_switch(0, 2**63, 5, 0))


def string_pages(out, providers, strings):
    out.write(words(MAGIC))
    for p in range(1, providers + 1):
        out.write(provider_info(p, b'p%d' % p) + thread(1, p, p) + b''.join(
            string(1 + (k * 128) % 32767, b'') for k in range(strings)))


def big_strings(out, providers, strings):
    text = b'x' * 32000
    out.write(words(MAGIC))
    for p in range(1, providers + 1):
        out.write(provider_info(p, b'p%d' % p))
        for k in range(1, strings + 1):
            out.write(string(k, text))
        out.write(instant(p, p, p, 1, 1))


def escapes(out):
    out.write(words(MAGIC) + provider_info(7, b'\x1b[31mred\x07\rcr') +
              provider_event(7, 0))


def main(argv):
    out = sys.stdout.buffer
    modes = {
        'switch-at-max': switch_at_max,
        'tick-overflow': tick_overflow,
        'string-pages': string_pages,
        'big-strings': big_strings,
        'escapes': escapes,
    }
    if len(argv) < 2 or argv[1] not in modes:
        sys.stderr.write(__doc__)
        return 2
    modes[argv[1]](out, *(int(a) for a in argv[2:]))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
