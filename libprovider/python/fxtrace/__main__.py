# SPDX-License-Identifier: LGPL-2.1-or-later
"""python3 -m fxtrace [options] script.py [args...]: runs the script with
every Python function call and return written as a duration event
("module.qualname"), in every thread; with `tracectl record -- python3
-m fxtrace ...` they go into the trace."""
import argparse
import os
import runpy
import sys
import threading

import fxtrace
from fxtrace import _core

# Left out unless asked for: the tracer's own code, and the runner's.
DEFAULT_EXCLUDE = ("fxtrace", "runpy")


def parse(argv):
    p = argparse.ArgumentParser(
        prog="python3 -m fxtrace",
        description="Run a Python script with every function call traced "
        "as a duration event; record it with tracectl record.",
        epilog="example: tracectl record -o t.fxt -- python3 -m fxtrace "
        "--include myapp app.py --port 8080")
    p.add_argument("--category", default="python", metavar="CATEGORY",
                   help="the events' category (default: python)")
    p.add_argument("--include", action="append", default=[],
                   metavar="MODULE", help="trace only functions of MODULE "
                   "and its submodules (repeatable)")
    p.add_argument("--exclude", action="append", default=[],
                   metavar="MODULE", help="do not trace functions of MODULE "
                   "and its submodules (repeatable)")
    p.add_argument("-m", dest="module", metavar="MODULE",
                   help="run MODULE as a script, as python3 -m does")
    p.add_argument("script", nargs="?", help="the script to run")
    p.add_argument("args", nargs=argparse.REMAINDER,
                   help="the script's arguments")
    opts = p.parse_args(argv)
    if opts.module and opts.script is not None:
        opts.args.insert(0, opts.script)
        opts.script = None
    if not opts.module and opts.script is None:
        p.error("give a script to run (or -m MODULE)")
    return opts


def start(opts):
    include = tuple(opts.include)
    exclude = tuple(m for m in DEFAULT_EXCLUDE if m not in include)
    exclude += tuple(opts.exclude)
    mon = getattr(sys, "monitoring", None)
    if mon is None:
        # sys.setprofile underneath, in C; new threads hand over to it.
        threading.setprofile(_core.auto_thread)
        _core.auto_start(opts.category, include, exclude, True)
        return
    ev = mon.events
    mon.use_tool_id(mon.PROFILER_ID, "fxtrace")
    for event, fn in ((ev.PY_START, _core.auto_enter),
                      (ev.PY_RESUME, _core.auto_enter),
                      (ev.PY_THROW, _core.auto_enter),
                      (ev.PY_RETURN, _core.auto_leave),
                      (ev.PY_YIELD, _core.auto_leave),
                      (ev.PY_UNWIND, _core.auto_leave)):
        mon.register_callback(mon.PROFILER_ID, event, fn)
    _core.auto_start(opts.category, include, exclude, False)
    mon.set_events(mon.PROFILER_ID, ev.PY_START | ev.PY_RESUME |
                   ev.PY_THROW | ev.PY_RETURN | ev.PY_YIELD | ev.PY_UNWIND)


def stop():
    """After _core.auto_stop(): the rest (a call of Python code, this
    one, is traced no more)."""
    mon = getattr(sys, "monitoring", None)
    if mon is not None:
        mon.set_events(mon.PROFILER_ID, 0)
        mon.free_tool_id(mon.PROFILER_ID)
    else:
        threading.setprofile(None)
    left_out = _core.auto_stats()["left_out"]
    if left_out:
        print("fxtrace: %d functions not traced: more than the %d a run "
              "traces" % (left_out, _core.auto_stats()["functions"]),
              file=sys.stderr)


def main():
    opts = parse(sys.argv[1:])
    target = opts.module or opts.script
    name = os.path.basename(target)
    fxtrace.init((name[:-3] if name.endswith(".py") else name)[:63] or
                 "python")
    if opts.module:
        sys.argv = [target] + opts.args
    else:
        sys.argv = [opts.script] + opts.args
        sys.path[0] = os.path.dirname(os.path.abspath(opts.script))
    start(opts)
    try:
        if opts.module:
            runpy.run_module(opts.module, run_name="__main__",
                             alter_sys=True)
        else:
            runpy.run_path(opts.script, run_name="__main__")
    finally:
        _core.auto_stop()
        stop()


if __name__ == "__main__":
    main()
