#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The unwinding rows of daemon/symbols/cfi_table.h against binutils.

check_cfi_table.py CFI_DUMP [--with-libs] FILE...: for each FILE (which
must have .eh_frame), and with --with-libs each library ldd finds for
it, the rows cfi-dump
prints and `readelf --debug-dump=frames-interp`'s table of the same
.eh_frame (an interpreter written apart from libdw's) must give the same
rule at every address where either changes: the CFA (rsp+N, rbp+N, or
other: an expression), the caller's rbp (unchanged: readelf's "u", or
c+N) and the return address (c-8; undefined: the outermost frame, "end";
else the row is other). Addresses no
FDE covers are "none" in both. Prints a line per file; exits 1 on the
first difference, naming it.

check_cfi_table.py CFI_DUMP --hostile FILE: copies of FILE with its
.eh_frame_hdr made hostile (a count past the section, another encoding,
the table out of order, a version never written) are each refused with
the error cfi_table.h gives, never read.
"""
import bisect
import os
import re
import struct
import subprocess
import sys
import tempfile

FDE = re.compile(r'^\S+ \S+ \S+ FDE cie=(\S+) pc=([0-9a-f]+)\.\.([0-9a-f]+)')
CIE = re.compile(r'^(\S+) \S+ \S+ CIE ')
ROW = re.compile(r'^([0-9a-f]{16}) +(.*)$')


def rule(cols, values):
    """A readelf row as cfi-dump writes it: (cfa, fp)."""
    v = dict(zip(cols, values))
    cfa, ra, fp = v.get('CFA', ''), v.get('ra', 'u'), v.get('rbp', 'u')
    m = re.fullmatch(r'(rsp|rbp)\+(\d+)', cfa)
    if m and ra == 'u':
        return ('end', 'other')  # the outermost frame
    if not m or ra != 'c-8':
        return ('other', 'other')
    if fp != 'u' and not re.fullmatch(r'c[-+]\d+', fp):
        fp = 'other'
    return ('%s%+d' % (m.group(1), int(m.group(2))), fp)


def readelf_rows(path):
    """[(start, end, [(pc, rule)])] of each FDE of .eh_frame."""
    # Its status is 1 when it warns (a debug link it cannot follow).
    out = subprocess.run(['readelf', '--debug-dump=frames-interp', path],
                         check=False, capture_output=True, text=True).stdout
    fdes, cies, cur, cols, section = [], {}, None, None, None
    for line in out.splitlines():
        if line.startswith('Contents of the '):
            section = line.split()[3]
            continue
        if section != '.eh_frame':
            continue
        m = CIE.match(line)
        if m:
            cur = cies.setdefault(int(m.group(1), 16), [])
            continue
        m = FDE.match(line)
        if m:
            cur = []
            fdes.append((int(m.group(2), 16), int(m.group(3), 16), cur,
                         int(m.group(1), 16)))
            continue
        if line.strip().startswith('LOC'):
            cols = line.split()[1:]
            continue
        m = ROW.match(line)
        if m and cur is not None:
            # "r10 (r10)": a register held in another, one value.
            values = re.findall(r'\S+ \(\S+\)|\S+', m.group(2))
            cur.append((int(m.group(1), 16), rule(cols, values)))
    # An FDE without rows of its own has its CIE's first row's rule.
    return sorted((s, e, rows or [(s, cies[c][0][1])])
                  for s, e, rows, c in fdes if e > s)


def ours(dump, path):
    out = subprocess.run([dump, path], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    rows = [(int(pc, 16), (cfa, fp)) for pc, cfa, fp in
            (line.split() for line in out[:-2])]
    return rows, int(out[-2].split()[1], 16), out[-1]


def at(pcs, rules, end, pc):
    i = bisect.bisect_right(pcs, pc) - 1
    return ('none', 'u') if i < 0 or pc >= end else rules[i]


def check(dump, path):
    theirs = readelf_rows(path)
    rows, end, fdes = ours(dump, path)
    t_pcs, t_rules, t_end = [], [], 0
    for s, e, fde_rows in theirs:
        if s > t_end and t_pcs:
            t_pcs.append(t_end)
            t_rules.append(('none', 'u'))
        for pc, r in fde_rows:
            t_pcs.append(pc)
            t_rules.append(r)
        t_end = e
    o_pcs = [pc for pc, _ in rows]
    o_rules = [r for _, r in rows]
    points = sorted(set(t_pcs) | set(o_pcs) | {t_end, end})
    for pc in points:
        a = at(o_pcs, o_rules, end, pc)
        b = at(t_pcs, t_rules, t_end, pc)
        if a[0] == 'none' and b[0] == 'none':
            continue
        if a != b:
            sys.exit('%s: at %#x cfi_table says %s, readelf %s'
                     % (path, pc, a, b))
    print('%s: %d rows, %d FDEs by readelf, %s, the same rule at all %d '
          'boundaries' % (path, len(rows), len(theirs), fdes, len(points)))


def eh_frame_hdr(path):
    """The file offset and size of path's .eh_frame_hdr."""
    out = subprocess.run(['readelf', '-W', '-S', path], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.replace('[ ', '[').split()
        if len(f) > 5 and f[1] == '.eh_frame_hdr':
            return int(f[4], 16), int(f[5], 16)
    sys.exit('%s: no .eh_frame_hdr' % path)


def section_size_at(data, name):
    """The file offset of section name's sh_size in its ELF64 header."""
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    strtab_off, = struct.unpack_from('<Q', data,
                                     shoff + shstrndx * shentsize + 0x18)
    for i in range(shnum):
        hdr = shoff + i * shentsize
        name_off, = struct.unpack_from('<I', data, hdr)
        at = strtab_off + name_off
        if data[at:data.index(b'\0', at)] == name.encode():
            return hdr + 0x20
    sys.exit('no section %s' % name)


def hostile(dump, path):
    off, _ = eh_frame_hdr(path)
    with open(path, 'rb') as f:
        data = f.read()
    count = struct.unpack_from('<I', data, off + 8)[0]
    first = data[off + 12:off + 20]
    second = data[off + 20:off + 28]
    cases = {
        'count past the section': (off + 8, struct.pack('<I', count + 1),
                                   'Bad message'),
        'a count of 2^32 - 1': (off + 8, b'\xff\xff\xff\xff', 'Bad message'),
        'absptr table encoding': (off + 3, b'\x00', 'Operation not supported'),
        'version 2': (off, b'\x02', 'Bad message'),
        'table out of order': (off + 12, second + first, 'Bad message'),
        # a sparse file may claim a gigabyte of CFI: never read whole
        '.eh_frame of 1 GiB': (section_size_at(data, '.eh_frame'),
                               struct.pack('<Q', 1 << 30),
                               'Argument list too long'),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for name, (at, patch, want) in cases.items():
            copy = os.path.join(tmp, 'hostile')
            with open(copy, 'wb') as f:
                f.write(data[:at] + patch + data[at + len(patch):])
            r = subprocess.run([dump, copy], capture_output=True, text=True)
            if r.returncode != 1 or want not in r.stderr:
                sys.exit('%s: %s: exit %d, %r (wanted %r)' %
                         (path, name, r.returncode, r.stderr.strip(), want))
            print('%s: %s: refused (%s)' % (path, name, want))


def libraries(path):
    """The files ldd says path maps (the dynamic loader included)."""
    out = subprocess.run(['ldd', path], check=True, capture_output=True,
                         text=True).stdout
    return [w for line in out.splitlines() for w in line.split()
            if w.startswith('/')]


def main():
    if os.uname().machine != 'x86_64':
        print('skip: the rows are x86-64\'s')
        sys.exit(77)
    if len(sys.argv) == 4 and sys.argv[2] == '--hostile':
        hostile(sys.argv[1], sys.argv[3])
        return
    files = sys.argv[2:]
    if files and files[0] == '--with-libs':
        files = [f for p in files[1:] for f in [p] + libraries(p)]
    for path in dict.fromkeys(files):
        check(sys.argv[1], path)


if __name__ == '__main__':
    main()
