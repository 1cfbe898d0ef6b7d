"""Bounded time for everything done in a page: a script that keeps the page busy cannot hang a run.

Playwright's synchronous calls that read or drive a page (``evaluate``, ``Locator.count``, the keyboard and
the mouse, ``title``...) wait for the page's renderer without a time limit, and a renderer running a
page's ``while (true) {}`` never answers. A :class:`Watchdog` bounds them: inside :meth:`Watchdog.bounded`,
a call still waiting after the limit is interrupted (a timer of Playwright's own event loop raises into the
waiting call), the page's running script is terminated through a DevTools session attached while the page
still answered, and :class:`PageUnresponsive` is raised ("the page stopped responding: its script ran for
more than N s"). From then on every bounded call on that page raises it at once, so a frozen page costs the
limit once, not once per call.

:func:`evaluate` is the one way the tester runs JavaScript in a page (always bounded); :func:`bounded`
bounds any other block of page calls. Calls with a timeout of their own (clicks, fills, navigation,
screenshots, waits) are bounded by Playwright already.
"""

from __future__ import annotations

import json
import math
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import greenlet

from webtester.errors import StepError

#: seconds a page's script may keep the page from answering one call before the page counts as stopped
SCRIPT_LIMIT_S = 20.0
_TERMINATE_TIMEOUT_MS = 5_000
_CRASH_TIMEOUT_MS = 1_000
#: seconds a browser context may take to close before the renderers that hold it up are crashed
CLOSE_LIMIT_S = 15.0


class PageUnresponsive(StepError):
    """The page stopped answering: its script kept the browser busy longer than the limit."""


class _Stalled(BaseException):
    """Raised into a waiting call by its block's timer (a BaseException, so no ``except Exception`` on the way
    swallows it)."""

    def __init__(self, block: object) -> None:
        super().__init__()
        self.block = block


class _Expired(Exception):
    """Raised by :func:`_interrupted_after` when its block's call was interrupted (its own class, so that no
    timeout the block raises itself, such as a script's, is taken for it)."""


class Watchdog:
    """Bounds the calls on one page (see the module docstring); ``on_stall`` is told the reason once."""

    def __init__(self, context: Any, page: Any, *, limit: float | None = None,
                 on_stall: Callable[[str], None] | None = None) -> None:
        self.page = page
        self.limit = limit
        self.on_stall = on_stall
        self.stalled: str | None = None
        # attached now, while the page answers: a session attached to a busy page would wait for it
        self.cdp = context.new_cdp_session(page)

    def seconds(self) -> float:
        """The limit of one call, in seconds (the module's :data:`SCRIPT_LIMIT_S` unless set)."""
        return self.limit if self.limit is not None else SCRIPT_LIMIT_S

    @contextmanager
    def bounded(self, extra_s: float = 0.0) -> Iterator[None]:
        """Run the block's page calls with the limit (plus ``extra_s``, for a script that waits on purpose);
        raises :class:`PageUnresponsive` when the page stopped answering, now or earlier."""
        if self.stalled:
            raise PageUnresponsive(self.stalled)
        limit = self.seconds() + max(extra_s, 0.0)
        try:
            with _interrupted_after(self.page._loop, limit):
                yield
        except _Expired:
            self._stall(limit)

    def crash(self) -> None:
        """End the page's renderer (the last resort for a page that holds up its own closing)."""
        try:
            self.cdp.send("Page.crash", timeout=_CRASH_TIMEOUT_MS)
        except Exception:  # a crashed renderer sends no reply; the page may also be gone already
            pass

    def _stall(self, limit: float) -> None:
        self.stalled = f"the page stopped responding: its script ran for more than {limit:g} s"
        try:
            self.cdp.send("Runtime.terminateExecution", timeout=_TERMINATE_TIMEOUT_MS)
            # a termination that found nothing running would stop the next script: let it end this one
            self.cdp.send("Runtime.evaluate", {"expression": "0", "timeout": 500}, timeout=_TERMINATE_TIMEOUT_MS)
        except Exception:
            pass
        if self.on_stall is not None:
            self.on_stall(self.stalled)
        raise PageUnresponsive(self.stalled) from None


@contextmanager
def _interrupted_after(loop: Any, seconds: float) -> Iterator[None]:
    """Run the block's Playwright calls; one still waiting after ``seconds`` is interrupted and the block raises
    :class:`_Expired`. ``loop`` is Playwright's event loop, which runs while a synchronous call waits."""
    waiter = greenlet.getcurrent()
    token = object()

    def fire() -> None:
        if not waiter.dead:
            waiter.throw(_Stalled(token))

    timer = loop.call_later(seconds, fire)
    try:
        yield
    except _Stalled as stall:
        if stall.block is not token:
            raise
        raise _Expired(f"still waiting after {seconds:g} s") from None
    finally:
        timer.cancel()


def close_context(context: Any, limit_s: float | None = None) -> str | None:
    """Close a browser context within a bound: when its closing is still waiting after ``limit_s`` (default
    :data:`CLOSE_LIMIT_S`) because a page's renderer does not let go (a script that never ends, a
    ``beforeunload`` that never returns), the renderers of its watched pages are crashed and the closing gets
    the same time once more. Returns ``None`` once closed, else why the context was left to the browser's own
    closing."""
    limit = CLOSE_LIMIT_S if limit_s is None else limit_s
    for attempt in range(2):
        if attempt:  # the closing is held up: end the renderers of the context's watched pages
            for page in list(context.pages):
                dog = _WATCHDOGS.get(page)
                if dog is not None:
                    dog.crash()
        try:
            with _interrupted_after(context._loop, limit):
                context.close()
            return None
        except _Expired:
            continue
        except Exception as exc:  # after the crash, the context may end under the closing
            if not attempt:
                raise
            return None if "closed" in str(exc).lower() else f"the browser context failed to close: {exc}"
    return f"the browser context did not close within {2 * limit:g} s; it is left to the browser's closing"


_WATCHDOGS: "weakref.WeakKeyDictionary[Any, Watchdog]" = weakref.WeakKeyDictionary()


def watch(context: Any, page: Any, **options: Any) -> Watchdog:
    """Give ``page`` (of ``context``) its watchdog; do it right after the page is created."""
    dog = Watchdog(context, page, **options)
    _WATCHDOGS[page] = dog
    return dog


def watchdog_of(page: Any) -> Watchdog:
    """The page's watchdog (given one now when it has none)."""
    dog = _WATCHDOGS.get(page)
    return dog if dog is not None else watch(page.context, page)


def bounded(page: Any, extra_s: float = 0.0) -> Any:
    """:meth:`Watchdog.bounded` of ``page``'s watchdog."""
    return watchdog_of(page).bounded(extra_s)


def check_responsive(page: Any) -> None:
    """Raise :class:`PageUnresponsive` when the page does not answer within the limit (before a navigation,
    which would otherwise wait for a busy page until its own, longer timeout)."""
    evaluate(page, "() => 0")


def navigate(page: Any, url: str, **options: Any) -> Any:
    """``page.goto(url, **options)`` that tells a page that stopped responding from a slow load: the page is
    checked before (a busy page would keep the navigation waiting until its own timeout) and, when the
    navigation fails, again, so that a script that started meanwhile (a ``beforeunload`` handler, a timer
    that fired) raises :class:`PageUnresponsive` rather than the navigation's timeout."""
    check_responsive(page)
    try:
        return page.goto(url, **options)
    except Exception:
        check_responsive(page)
        raise


def dismiss(page: Any) -> None:
    """Press Escape, bounded, ignoring failure: it closes an open popup, menu or option list, whose layer would
    otherwise take the next clicks on the page."""
    try:
        with bounded(page):
            page.keyboard.press("Escape")
    except PageUnresponsive:
        raise
    except Exception:
        pass


def matches(locator: Any, *, visible: bool = False) -> bool:
    """Whether ``locator`` matches an element (``visible``: and its first match is visible), bounded like every
    call on its page (``count`` and ``is_visible`` have no time limit of their own)."""
    with bounded(locator.page):
        return bool(locator.count()) and (not visible or locator.first.is_visible())


def evaluate(page: Any, function: str, arg: Any = None, *, waits_s: float = 0.0) -> Any:
    """Call the JavaScript ``function`` (its source; an expression is just evaluated) with the JSON ``arg`` in the page's main frame and return its
    JSON result (a promise is awaited). Bounded by the page's watchdog; ``waits_s`` is how long the function
    itself may wait on purpose. A script error raises ``RuntimeError`` with the page's message."""
    dog = watchdog_of(page)
    # as Playwright does: the source is evaluated, and called with the argument when it is a function
    expression = f'(() => {{ const f = ({function}\n); return typeof f === "function" ? f({json.dumps(arg)}) : f; }})()'
    with dog.bounded(waits_s):
        reply = dog.cdp.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                  "returnByValue": True, "userGesture": True})
    details = reply.get("exceptionDetails")
    if details:
        text = (details.get("exception") or {}).get("description") or details.get("text") or "error"
        raise RuntimeError(f"page script failed: {text.splitlines()[0]}")
    return _value(reply.get("result") or {})


def _value(result: dict[str, Any]) -> Any:
    """The Python value of a ``Runtime.RemoteObject`` returned by value."""
    special = result.get("unserializableValue")
    if special is not None:
        if special.endswith("n"):  # a BigInt
            return int(special[:-1])
        return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf, "-0": -0.0}.get(special, special)
    return result.get("value")
