#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""png_check.py PNG MIN_COLOURS MIN_INK [X0 Y0 X1 Y1 MIN_REGION_COLOURS]:
exits 1 unless the screenshot has at least MIN_COLOURS distinct colours,
at least MIN_INK (a fraction) of pixels unlike the most common colour
(the background), and, when a region is given, that many colours in it.
A PNG decoder on zlib alone (8-bit RGB or RGBA, not interlaced), so that
no imaging package is needed."""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('png_check: %s is not a PNG' % path)
    pos, idat = 8, b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, colour, _, _, interlace = \
                struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit('png_check: unsupported PNG (depth %d, colour type %d)' %
                 (depth, colour))
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xff
            elif kind == 2:
                line[i] = (line[i] + b) & 0xff
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xff
            elif kind == 4:
                line[i] = (line[i] + paeth(a, b, c)) & 0xff
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    path, min_colours, min_ink = sys.argv[1], int(sys.argv[2]), \
        float(sys.argv[3])
    width, height, bpp, rows = decode(path)
    counts = {}
    for row in rows:
        for x in range(0, width * bpp, bpp):
            px = row[x:x + 3]
            counts[px] = counts.get(px, 0) + 1
    background = max(counts.values())
    ink = 1 - background / (width * height)
    print('%s: %dx%d, %d colours, %.1f%% unlike the background' %
          (path, width, height, len(counts), 100 * ink))
    ok = len(counts) >= min_colours and ink >= min_ink
    if len(sys.argv) > 4:
        x0, y0, x1, y1, need = map(int, sys.argv[4:9])
        region = {rows[y][x * bpp:x * bpp + 3]
                  for y in range(y0, min(y1, height))
                  for x in range(x0, min(x1, width))}
        print('region %d,%d-%d,%d: %d colours' % (x0, y0, x1, y1,
                                                  len(region)))
        ok = ok and len(region) >= need
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
