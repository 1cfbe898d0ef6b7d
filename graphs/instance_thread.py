"""One thread that does all the work of one instance's run, for callers that move steps between threads.

Playwright's sync objects belong to the thread that made them (its greenlets
cannot switch threads), while LangGraph's server runs each step of a run on
whatever worker thread is free. Every step of one run therefore submits its work
to the run's :class:`InstanceThread` and awaits it, so the browser, the pages
and the app always live on one thread and the server's event loop never blocks.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


def exempt_from_blocking_guard() -> None:
    """Let this thread block: mark it as exempt from the blocking-call guard of ``langgraph dev`` (``blockbuster``).

    The guard wraps blocking functions (``os.access``, ``socket.send``, ``time.sleep``...) and raises for a call
    made while the calling thread runs an asyncio loop, to protect the server's event loop. It cannot tell loops
    apart, and Playwright's sync API runs its own private loop on the thread that uses it; on an instance's
    thread every blocking call is the run's own work, away from the server's loop. The guard skips every check
    while its thread-local re-entrancy flag ``_skip`` is set (that is how its own checks avoid tripping it);
    setting it here, once, on this thread only, leaves the guard in force everywhere else. Without
    ``blockbuster`` (any caller but ``langgraph dev``) there is nothing to do.
    """
    try:
        from blockbuster import blockbuster as guard
    except ImportError:
        return
    flag = getattr(guard, "_skip", None)
    if flag is not None:
        flag.value = True


class InstanceThread:
    """A single worker thread (started on first use) that runs every piece of work submitted to it, in order."""

    def __init__(self, name: str) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name,
                                            initializer=exempt_from_blocking_guard)

    async def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the thread (with the caller's context variables) and wait for it without blocking."""
        context = contextvars.copy_context()
        return await asyncio.wrap_future(self._executor.submit(context.run, work))

    def submit(self, work: Callable[[], object]) -> None:
        """Run ``work`` on the thread after the work in hand, without waiting for it."""
        self._executor.submit(work)

    def close(self) -> None:
        """Let the thread end once its work is done (does not wait)."""
        self._executor.shutdown(wait=False)
