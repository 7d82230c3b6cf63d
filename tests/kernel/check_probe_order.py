#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""check_probe_order.py SRC [SKEL]: the interrupt probes are attached exit
first, in the module (the order of kmod/fxt_probes.c's fxt_tracepoints[],
which fxt_register() walks) and in the BPF skeleton (the order of its
progs[], which fxt_sched_bpf__attach() walks). A begin written while its
end is not yet attached stays open, and the thread's next end (the start
call's own return) closes it: improperly nested slices in the trace."""
import re
import sys

PAIRS = {"kmod": [("irq_handler_exit", "irq_handler_entry"),
                  ("softirq_exit", "softirq_entry")],
         "bpf": [("fxt_irq_exit", "fxt_irq_entry"),
                 ("fxt_softirq_exit", "fxt_softirq_entry")]}


def check(kind, order, where):
    bad = 0
    for exit_name, entry_name in PAIRS[kind]:
        if exit_name not in order or entry_name not in order:
            print(f"{where}: {exit_name} or {entry_name} not found")
            bad += 1
        elif order.index(exit_name) > order.index(entry_name):
            print(f"{where}: {entry_name} is attached before {exit_name}")
            bad += 1
    return bad


def kmod_order(src):
    text = open(src).read()
    table = text[text.index("fxt_tracepoints[] = {"):]
    table = table[:table.index("\n};")]
    return re.findall(r'\{ "(\w+)",', table)


def skel_order(skel):
    return re.findall(r'progs\[\d+\]\.name = "(\w+)";', open(skel).read())


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    src = sys.argv[1] + "/kmod/fxt_probes.c"
    bad = check("kmod", kmod_order(src), src)
    if len(sys.argv) == 3:
        bad += check("bpf", skel_order(sys.argv[2]), sys.argv[2])
    print("probe order:", "bad" if bad else "exits attached before entries")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
