# SPDX-License-Identifier: GPL-2.0-only
# The Python side of the py-frames test: the main thread blocks in
# time.sleep under outer -> middle -> inner, a worker thread waits on an
# event under worker -> worker_leaf; each prints its native thread id,
# then "ready" once both block. Unmodified CPython, no import of ours.
import threading
import time


def worker_leaf(event):
    print('worker', threading.get_native_id(), flush=True)
    event.wait()


def worker(event):
    worker_leaf(event)


def inner():
    print('main', threading.get_native_id(), flush=True)
    print('ready', flush=True)
    time.sleep(600)


def middle():
    inner()


def outer():
    middle()


EVENT = threading.Event()
threading.Thread(target=worker, args=(EVENT,), daemon=True).start()
time.sleep(0.2)
outer()
