# SPDX-License-Identifier: GPL-2.0-only
"""The fxtrace Python module's costs, medians of --runs runs (thread CPU
time), all in one process, against a bare function call, Python's
logging through the LTTng-UST agent (python3-lttngust) and cProfile.
Run by python_bench.sh under tracectl record --categories bench: the
enabled rows need that trace (they print "no trace" otherwise), the
disabled ones use a category it does not enable.

    python3 python_bench.py [--runs R] [--calls N] [--fib N] [--no-lttng]

Each row: "  NAME  MEDIAN ns/call  (runs: ...)"; the fib rows in ms and
as a ratio to the untraced run."""
import argparse
import cProfile
import logging
import statistics
import time
import types

import fxtrace
import fxtrace.__main__ as fxtrace_main


def per_call(loop, n, runs, empty):
    """Median thread CPU ns per iteration of loop(n), beyond empty's."""
    out = []
    for _ in range(runs):
        t0 = time.thread_time_ns()
        loop(n)
        out.append((time.thread_time_ns() - t0) / n - empty)
    return statistics.median(out), out


def make_loop(statement, **names):
    """A loop of n runs of statement, compiled as written (no call more)."""
    code = "def loop(n):\n    for i in range(n):\n        %s\n" % statement
    env = dict(globals(), **names)
    exec(code, env)
    return env["loop"]


def bare(x):
    return x


@fxtrace.traced("bench")
def traced(x):
    return x


@fxtrace.traced("bench.off")
def traced_off(x):
    return x


loop_empty = make_loop("pass")
DISABLED = [
    ("bare function call", "bare(i)"),
    ("instant, disabled", "fxtrace.instant('bench.off', 'instant', i=i)"),
    ("with duration, disabled",
     "with fxtrace.duration('bench.off', 'duration', i=i): pass"),
    ("@traced call, disabled", "traced_off(i)"),
]
ENABLED = [
    ("instant, 1 int arg", "fxtrace.instant('bench', 'instant', i=i)"),
    ("with duration, 1 int arg",
     "with fxtrace.duration('bench', 'duration', i=i): pass"),
    ("@traced call", "traced(i)"),
]


def lttng_logger():
    """A logger whose records go to LTTng-UST's Python agent, or None."""
    try:
        import lttngust  # noqa: F401  (registers with lttng-sessiond)
    except ImportError:
        return None
    logger = logging.getLogger("fxtbench")
    logger.setLevel(logging.INFO)
    logger.propagate = True
    return logger


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def fib_times(n, runs):
    """ms of fib(n): untraced, python3 -m fxtrace's tracing, cProfile."""
    rows = {"untraced": [], "fxtrace": [], "cProfile": []}
    opts = types.SimpleNamespace(category="bench", include=[], exclude=[])
    for _ in range(runs):
        t0 = time.thread_time_ns()
        fib(n)
        rows["untraced"].append((time.thread_time_ns() - t0) / 1e6)
        fxtrace_main.start(opts)
        t0 = time.thread_time_ns()
        fib(n)
        t1 = time.thread_time_ns()
        fxtrace._core.auto_stop()
        fxtrace_main.stop()
        rows["fxtrace"].append((t1 - t0) / 1e6)
        prof = cProfile.Profile()
        t0 = time.thread_time_ns()
        prof.runcall(fib, n)
        rows["cProfile"].append((time.thread_time_ns() - t0) / 1e6)
    return rows


def show(name, median, runs, unit="ns/call", extra=""):
    print("  %-34s %8.1f %s%s  (runs: %s)" % (
        name, median, unit, extra, " ".join("%.1f" % r for r in runs)))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--calls", type=int, default=300000)
    p.add_argument("--fib", type=int, default=25)
    p.add_argument("--no-lttng", action="store_true")
    o = p.parse_args()
    traced_run = fxtrace.enabled("bench")
    empty = per_call(loop_empty, o.calls, o.runs, 0)[0]
    rows = DISABLED + (ENABLED if traced_run else [])
    if not traced_run:
        print("  (no trace with category bench: enabled rows not measured)")
    logger = None if o.no_lttng else lttng_logger()
    if logger:
        rows.append(("logging.info to LTTng-UST agent",
                     "logger.info('event %d', i)"))
    print("python_bench: %d runs of %d calls, thread CPU time, the empty "
          "loop's %.1f ns/iteration taken off" % (o.runs, o.calls, empty))
    for name, statement in rows:
        loop = make_loop(statement, logger=logger)
        show(name, *per_call(loop, o.calls, o.runs, empty))
    if not traced_run:
        return
    fib_rows = fib_times(o.fib, o.runs)
    base = statistics.median(fib_rows["untraced"])
    for name, runs in fib_rows.items():
        med = statistics.median(runs)
        show("fib(%d) %s" % (o.fib, name), med, runs, "ms",
             "  x%.2f" % (med / base))


if __name__ == "__main__":
    main()
