# SPDX-License-Identifier: GPL-2.0-only
"""A script of over a million Python calls, for python3 -m fxtrace under
tracectl record: plain recursion, two helpers called in a loop, and
async spans (@fxtrace.traced coroutines in asyncio tasks)."""
import asyncio
import sys

import fxtrace


def fib_plain(n):
    return n if n < 2 else fib_plain(n - 1) + fib_plain(n - 2)


def build_record_for_the_first_user(i):
    return i * 2


def build_record_for_the_second_user(i):
    return i + 1


@fxtrace.traced("app")
async def fetch_one(i):
    await asyncio.sleep(0.001)
    return i


async def fetch_all():
    return sum(await asyncio.gather(*(fetch_one(i) for i in range(20))))


def main():
    n = int(sys.argv[1])
    total = fib_plain(n)
    for i in range(200000):
        build_record_for_the_first_user(i)
        build_record_for_the_second_user(i)
    print("fib(%d) = %d, fetched %d" % (n, total, fxtrace.run(fetch_all())))


main()
