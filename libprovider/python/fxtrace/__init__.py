# SPDX-License-Identifier: LGPL-2.1-or-later
"""Python programs as fxtrace providers: events written by libfxt-provider.

    import fxtrace

    with fxtrace.duration("net", "send", peer=host, bytes=n):
        ...                                  # one duration event
    fxtrace.instant("net", "queued", depth=3)

    @fxtrace.traced("net")                   # each call a duration
    def handle(request): ...

Arguments are int (int64, or uint64 from 2**63 up), float, str, bool or
None (null); at most 15. When no trace runs, or the category is not
enabled, a call returns at once without looking at its argument values
(it checks them only then). Without a trace manager nothing is written;
categories, names and keyword names are checked all the same (TypeError
if not a str, ValueError with a NUL character).

Also: counter(cat, name, id=0, **values); flow_begin/step/end and
async_begin/instant/end(cat, name, id, **args); enabled(cat);
trigger(name); init(name) (the provider's name, by default the script's);
set_thread_name(name); task_factory()/run() (asyncio tasks as async
spans). Threads are named in traces after their Python thread's name.
`python3 -m fxtrace script.py` traces every Python function call.
"""
import functools as _functools
import inspect as _inspect
import os as _os
import sys as _sys

from fxtrace._core import (async_begin, async_end, async_instant, counter,
                           duration, enabled, flow_begin, flow_end,
                           flow_step, init, instant, now, set_process_name,
                           set_thread_name, trigger)
from fxtrace import _core
from fxtrace._tasks import next_id, run, task_factory

__all__ = ["async_begin", "async_end", "async_instant", "counter",
           "duration", "enabled", "flow_begin", "flow_end", "flow_step",
           "init", "instant", "next_id", "now", "run", "set_process_name",
           "set_thread_name", "task_factory", "traced", "trigger"]


def _traced_coroutine(func, category, name):
    """A coroutine function's calls: async spans (they may interleave)."""
    @_functools.wraps(func)
    async def wrapper(*args, **kwargs):
        if not enabled(category):
            return await func(*args, **kwargs)
        span = next_id()
        async_begin(category, name, span)
        try:
            return await func(*args, **kwargs)
        finally:
            async_end(category, name, span)
    return wrapper


def traced(category, name=None):
    """Decorator: each call of the function is a duration event named
    name, by default the function's __qualname__; a coroutine function's
    calls are async spans."""
    def decorate(func):
        event = name or getattr(func, "__qualname__", None) or repr(func)
        if _inspect.iscoroutinefunction(func):
            return _traced_coroutine(func, category, event)
        return _functools.update_wrapper(_core.wrap(func, category, event),
                                         func)
    return decorate


def _provider_name():
    """The script's name (sys.argv[0] without .py), not "python3"."""
    argv0 = _sys.argv[0] if getattr(_sys, "argv", None) else ""
    base = _os.path.basename(argv0)
    if base.endswith(".py"):
        base = base[:-3]
    if base and not base.startswith("-") and base != "__main__":
        try:
            init(base[:63])
        except (RuntimeError, ValueError, OSError):
            pass


_provider_name()
