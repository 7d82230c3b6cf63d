# SPDX-License-Identifier: GPL-2.0-only
"""Run by python3 -m fxtrace in tests/integration/python_auto.sh: known
numbers of calls, in two modules and two threads, with a generator and
an exception caught."""
import sys
import threading

import py_auto_lib


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def fails():
    raise ValueError("caught")


def catches():
    try:
        fails()
    except ValueError:
        return 1


def worker():
    py_auto_lib.work(3)


n = int(sys.argv[1])
t = threading.Thread(target=worker, name="auto-worker")
t.start()
t.join()
print("fib(%d) = %d, caught %d" % (n, fib(n), catches()))
