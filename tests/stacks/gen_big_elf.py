#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gen_big_elf.py OUT N [CLAIM | unterminated]

Writes a static x86-64 executable that spins at its entry for ever
(jmp .), with N function symbols of one byte each over its text
(big_fn_0000000, ...) and no build id: what a hostile user maps to make
the symbolizer work. Its .strtab comes last in the file. With CLAIM, its
.symtab claims CLAIM bytes (the file made sparse to hold them), a table
libelf would read whole; with "unterminated", the .strtab lacks its
final NUL: the last name runs to the end of the file."""
import struct
import sys

BASE = 0x400000
TEXT_OFF = 0x1000


def build(out, n, claim, unterminated):
    text = b"\xeb\xfe" + b"\xcc" * (n - 2)
    names = bytearray(b"\0")
    syms = bytearray(b"\0" * 24)
    for i in range(n):
        off = len(names)
        names += b"big_fn_%07d\0" % i
        # st_name, st_info (GLOBAL FUNC), st_other, st_shndx 1, value, size
        syms += struct.pack("<IBBHQQ", off, 0x12, 0, 1, BASE + TEXT_OFF + i, 1)
    if unterminated:
        names = names[:-1]
    shstr = b"\0.text\0.symtab\0.strtab\0.shstrtab\0"
    sym_off = TEXT_OFF + len(text)
    sym_off = (sym_off + 7) & ~7
    shstr_off = sym_off + len(syms)
    sh_off = (shstr_off + len(shstr) + 7) & ~7
    str_off = sh_off + 5 * 64
    symtab_size = claim if claim else len(syms)

    def shdr(name, typ, flags, addr, off, size, link=0, info=0, align=1, ent=0):
        return struct.pack("<IIQQQQIIQQ", name, typ, flags, addr, off, size,
                           link, info, align, ent)

    shdrs = (shdr(0, 0, 0, 0, 0, 0) +
             shdr(1, 1, 6, BASE + TEXT_OFF, TEXT_OFF, len(text), align=16) +
             shdr(7, 2, 0, 0, sym_off, symtab_size, 3, 1, 8, 24) +
             shdr(15, 3, 0, 0, str_off, len(names)) +
             shdr(23, 3, 0, 0, shstr_off, len(shstr)))
    end = TEXT_OFF + len(text)
    ehdr = struct.pack("<16sHHIQQQIHHHHHH",
                       b"\x7fELF\x02\x01\x01" + b"\0" * 9, 2, 62, 1,
                       BASE + TEXT_OFF, 64, sh_off, 0, 64, 56, 1, 64, 5, 4)
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 0, BASE, BASE, end, end, 0x1000)
    with open(out, "wb") as f:
        f.write(ehdr + phdr)
        f.seek(TEXT_OFF)
        f.write(text)
        f.seek(sym_off)
        f.write(syms)
        f.write(shstr)
        f.seek(sh_off)
        f.write(shdrs)
        f.write(names)
        if claim and sym_off + claim > f.tell():
            f.truncate(sym_off + claim)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    mode = sys.argv[3] if len(sys.argv) == 4 else "0"
    unterminated = mode == "unterminated"
    build(sys.argv[1], int(sys.argv[2]), 0 if unterminated else int(mode),
          unterminated)


main()
