# SPDX-License-Identifier: GPL-2.0-only
# The Python side of the stacks-python test, run by Debian's unmodified
# /usr/bin/python3 (no import of ours): the main thread spends its CPU in
# two functions, hot_seventy and hot_thirty, in a split it times itself
# (thread CPU time, printed as seventy_ns and thirty_ns); a thread sleeps
# in time.sleep under sleeper -> nap, another blocks reading a socket
# under reader -> wait_for_bytes, fed a byte every 20 ms by a third; a
# fourth sleeps 100 calls deep (past the 64 frames a walk reads).
# Prints pid= first, the figures last.
import os
import socket
import sys
import threading
import time


def spin(n):
    x = 0
    for i in range(n):
        x += i * i
    return x


def hot_seventy():
    return spin(7000)


def hot_thirty():
    return spin(3000)


def nap():
    for _ in range(200):
        time.sleep(0.01)


def sleeper():
    while not DONE.is_set():
        nap()


def wait_for_bytes(sock):
    return sock.recv(1)


def reader(sock):
    while wait_for_bytes(sock):
        pass


def feeder(sock):
    while not DONE.is_set():
        time.sleep(0.02)
        sock.send(b'x')


def deep(level):
    if level:
        return deep(level - 1)
    while not DONE.is_set():
        time.sleep(0.02)


def work(seconds):
    seventy = thirty = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.thread_time_ns()
        hot_seventy()
        t1 = time.thread_time_ns()
        hot_thirty()
        t2 = time.thread_time_ns()
        seventy += t1 - t0
        thirty += t2 - t1
    return seventy, thirty


DONE = threading.Event()
print('pid=%d' % os.getpid(), flush=True)
SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
A, B = socket.socketpair()
threads = [threading.Thread(target=sleeper, daemon=True),
           threading.Thread(target=reader, args=(B,), daemon=True),
           threading.Thread(target=feeder, args=(A,), daemon=True),
           threading.Thread(target=deep, args=(100,), daemon=True)]
for t in threads:
    t.start()
SEVENTY, THIRTY = work(SECONDS)
DONE.set()
print('seventy_ns=%d' % SEVENTY, flush=True)
print('thirty_ns=%d' % THIRTY, flush=True)
