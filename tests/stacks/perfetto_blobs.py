#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The Perfetto blobs of FXT archives (include/fxt/stacks.h), decoded.

perfetto_blobs.py ARCHIVE: one line, "blobs=N packets=N samples=N
sequences=A,B": the archive's blob records of type 3, the TracePackets
their payloads hold (appended, as Perfetto reads them), the PerfSample
and StackSample packets among them and their sequence ids.

perfetto_blobs.py --on-samples ARCHIVE: exit 1 unless every sample
packet's (timestamp, pid, tid) is one of the archive's FXT sample
records' (pids and tids to 32 bits, as both protos and Perfetto keep
them): the blobs are on the archive's clock and pids. Prints the
packets' first and last timestamps and the FXT samples' range.
"""
import struct
import sys

SAMPLE_HEADER = 15 | 11 << 4  # a large blob of 11 words, format 0


def records(data):
    at = 0
    while at + 8 <= len(data):
        h = struct.unpack_from('<Q', data, at)[0]
        kind = h & 0xf
        size = (h >> 4) & (0xffffffff if kind == 15 else 0xfff)
        if not size:
            raise SystemExit(f'record of size 0 at {at}')
        yield h, data[at:at + size * 8]
        at += size * 8


def varint(b, at):
    v = shift = 0
    while True:
        c = b[at]
        at += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if not c & 0x80:
            return v, at


def fields(b):
    at = 0
    while at < len(b):
        tag, at = varint(b, at)
        wire = tag & 7
        if wire == 0:
            v, at = varint(b, at)
        elif wire == 2:
            n, at = varint(b, at)
            v, at = b[at:at + n], at + n
        elif wire in (1, 5):
            n = 8 if wire == 1 else 4
            v, at = b[at:at + n], at + n
        else:
            raise SystemExit(f'wire type {wire}')
        yield tag >> 3, v


def read(path):
    data = open(path, 'rb').read()
    stream, blobs, fxt_samples = bytearray(), 0, set()
    for h, rec in records(data):
        kind = h & 0xf
        if kind == 5 and (h >> 48) & 0xff == 3:
            ref = (h >> 16) & 0xffff
            name_words = ((ref & 0x7fff) + 7) // 8 if ref & 0x8000 else 0
            at = 8 * (1 + name_words)
            stream += rec[at:at + ((h >> 32) & 0x7fff)]
            blobs += 1
        elif h == SAMPLE_HEADER:
            ts, pid, tid = struct.unpack_from('<QQQ', rec, 16)
            fxt_samples.add((ts, pid & 0xffffffff, tid & 0xffffffff))
    packets, samples, seqs = 0, [], set()
    for f, packet in fields(bytes(stream)):
        assert f == 1, f'Trace field {f}'
        packets += 1
        p = {k: v for k, v in fields(packet)}
        seqs.add(p.get(10, 0))
        task = p.get(66)
        if 135 in p:
            task = dict(fields(p[135])).get(1)
        if task is not None:
            t = dict(fields(task))
            samples.append((p[8], t.get(2, 0), t.get(3, 0)))
    return blobs, packets, samples, seqs, fxt_samples


def main():
    on = sys.argv[1] == '--on-samples'
    blobs, packets, samples, seqs, fxt = read(sys.argv[-1])
    if not on:
        print(f'blobs={blobs} packets={packets} samples={len(samples)} '
              f'sequences={",".join(str(s) for s in sorted(seqs))}')
        return 0
    off = [s for s in samples if s not in fxt]
    ts = sorted(s[0] for s in samples)
    print(f'packets {ts[0]}..{ts[-1]} fxt samples '
          f'{min(fxt)[0]}..{max(fxt)[0]}: {len(off)} of {len(samples)} '
          f'off them')
    return 1 if off or not samples else 0


sys.exit(main())
