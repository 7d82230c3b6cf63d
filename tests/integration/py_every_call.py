# SPDX-License-Identifier: GPL-2.0-only
"""Every call of the fxtrace Python module, with known values: the events
tests/integration/python.sh expects in the archive. Prints a line per
check it makes itself and "every-call: done"."""
import asyncio
import sys
import threading

import fxtrace


def check(ok, what):
    print("every-call: %s: %s" % (what, "ok" if ok else "FAILED"))
    if not ok:
        sys.exit(1)


@fxtrace.traced("py")
def traced_function(x):
    return x + 1


class Server:
    @fxtrace.traced("py", name="Server.handle")
    def handle(self, n):
        fxtrace.instant("py", "in-method", n=n)
        return n * 2


@fxtrace.traced("py")
async def fetch(n):
    await asyncio.sleep(0)
    return n


async def main():
    a = asyncio.create_task(fetch(1), name="fetch-1")
    b = asyncio.create_task(fetch(2), name="fetch-2")
    return await a + await b


def worker():
    fxtrace.instant("py", "from-worker", k=1)
    with fxtrace.duration("py", "worker-block"):
        pass


def events():
    fxtrace.instant("py", "every-call", i=-7, big=2**63 + 5, f=1.5,
                    s="text", t=True, n=None)
    with fxtrace.duration("py", "block", k=2, who="main"):
        fxtrace.counter("py", "queue", id=3, depth=4, load=0.25)
    check(traced_function(1) == 2, "traced function")
    check(Server().handle(3) == 6, "traced method")
    fxtrace.flow_begin("py", "request", 7)
    fxtrace.flow_step("py", "request", id=7, stage="parse")
    fxtrace.flow_end("py", "request", 7)
    fxtrace.async_begin("py", "rpc", 9, method="get")
    fxtrace.async_instant("py", "rpc", 9)
    fxtrace.async_end("py", "rpc", id=9, ok=False)
    fxtrace.instant("off", "never-written", x=1)


def errors():
    try:
        fxtrace.instant("py", "bad", x=[1])
    except TypeError as e:
        check("argument 'x' is a list" in str(e), "a list is refused")
    try:
        fxtrace.instant("py", "bad", x=2**64)
    except OverflowError:
        check(True, "an int past 64 bits is refused")
    try:
        fxtrace.flow_begin("py", "no-id")
    except TypeError:
        check(True, "a flow without an id is refused")
    names_checked("off")


def names_checked(category):
    """fxtrace-python(3): a NUL in a category, name or keyword name is a
    ValueError, the category enabled or not, with a manager or without;
    a NUL in an argument's value is looked at only when enabled."""
    for what, call in [
            ("name", lambda: fxtrace.instant(category, "a\0b")),
            ("category", lambda: fxtrace.instant("o\0ff", "x")),
            ("keyword name", lambda: fxtrace.instant(category, "x",
                                                     **{"a\0b": 1})),
            ("duration name", lambda: fxtrace.duration(category, "a\0b"))]:
        try:
            call()
            check(False, "a NUL in a %s raises ValueError" % what)
        except ValueError:
            check(True, "a NUL in a %s raises ValueError" % what)
    fxtrace.instant(category, "x", s="a\0b")
    check(True, "a NUL in a value, category %s: not looked at" % category)


def no_manager():
    """Without a manager: every call a no-op, arguments not looked at."""
    check(not fxtrace.enabled("py"), "py not enabled")
    events()
    fxtrace.instant("py", "bad", x=[1])
    with fxtrace.duration("py", "block"):
        pass
    check(type(fxtrace.duration("py", "block")).__name__ == "NoDuration",
          "duration() a no-op")
    names_checked("py")


def main_thread():
    if sys.argv[1:] == ["--no-manager"]:
        no_manager()
    else:
        check(fxtrace.enabled("py"), "py enabled")
        check(not fxtrace.enabled("off"), "off not enabled")
        events()
        errors()
    t = threading.Thread(target=worker, name="worker-1")
    t.start()
    t.join()
    check(fxtrace.run(main()) == 3, "asyncio tasks")
    check(fxtrace.trigger("py-snap") is True, "trigger sent")
    # Past the sites of their own: the shared one, nothing lost.
    for i in range(5000):
        fxtrace.instant("py.many", "many-%d" % i, i=i)
    print("every-call: done")


main_thread()
