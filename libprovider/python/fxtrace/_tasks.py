# SPDX-License-Identifier: LGPL-2.1-or-later
"""asyncio tasks as async spans: each task one span, named after the task,
from its first step to its end, in its own id."""
import asyncio
import functools
import itertools

from fxtrace import _core

_ids = itertools.count(1)


def next_id():
    """A new id for an async span or a flow, unique in the process."""
    return next(_ids)


def _begin(category, span):
    # Queued before the task's first step, run after create_task() named
    # it: span is [task, id] and gets the name the span was begun with.
    task, ident = span
    name = task.get_name()
    span.append(name)
    _core.async_begin(category, name, ident)


def _end(category, span, task):
    if len(span) == 3:
        _core.async_end(category, span[2], span[1],
                        cancelled=task.cancelled())
    span.clear()    # the task held by its own callback no more


def task_factory(category="asyncio"):
    """A task factory for loop.set_task_factory(): the tasks made while
    category is enabled are async spans."""
    def factory(loop, coro, **kwargs):
        if not _core.enabled(category):
            return asyncio.Task(coro, loop=loop, **kwargs)
        span = []
        loop.call_soon(_begin, category, span)
        task = asyncio.Task(coro, loop=loop, **kwargs)
        span += [task, next_id()]
        task.add_done_callback(functools.partial(_end, category, span))
        return task
    return factory


def run(main, *, category="asyncio", debug=None):
    """asyncio.run(main) with main's task and every task made until it
    returns as async spans (not those of the loop's shut-down)."""
    with asyncio.Runner(debug=debug) as runner:
        loop = runner.get_loop()
        loop.set_task_factory(task_factory(category))
        try:
            return runner.run(main)
        finally:
            loop.set_task_factory(None)
