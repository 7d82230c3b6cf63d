# SPDX-License-Identifier: GPL-2.0-only
# The Python workload of python_frames_bench.sh, run by Debian's
# unmodified /usr/bin/python3: pure Python work 20 calls deep (a walk of
# 20 Python frames a sample, in one evaluation call) for S seconds of
# its own CPU time; prints iterations_per_sec= (of that time) and
# cpu_ns= (the process's, for a tracer to take out of its own).
import sys
import time


def leaf(n):
    x = 0
    for i in range(n):
        x += i * i
    return x


def deep(level, n):
    if level == 0:
        return leaf(n)
    return deep(level - 1, n)


seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
start = time.thread_time()
iterations = 0
while time.thread_time() - start < seconds:
    deep(20, 200)
    iterations += 1
took = time.thread_time() - start
print('iterations_per_sec=%.0f' % (iterations / took))
print('cpu_ns=%d' % time.process_time_ns())
