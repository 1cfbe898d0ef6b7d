"""Fixtures of a regression suite written by ``webtester export`` (copied into the suite as ``conftest.py``).

The tests use pytest-playwright's ``page``, and:

* ``app_url``: the app of each test file (its ``INSTANCE``), started the way the run started it (as
  ``export.json`` records) and stopped after the file's tests. ``WEBTESTER_APP_URL`` tests an app that is
  already running instead; ``WEBTESTER_BUILD`` serves another build of a bundled app (e.g. ``clean``). This
  fixture is the only place the suite uses webtester;
* ``act``: performs a recorded step on its element, after checking that the step's locator still finds
  exactly one element within ``WEBTESTER_FIND_SECONDS`` (default 5). When it does not, the test stops with
  :class:`UIChanged`, which says so: the page changed, this is not a failure of the checked behaviour (those
  are ``expect`` assertions);
* Chromium: ``WEBTESTER_BROWSER``, else the one webtester finds, else Playwright's own; started with the features
  webtester turns off (the address bar's popups, which every page's window would preload) beside the user's.

Dialogs (alert, confirm, prompt) are answered OK, as the run answered them.
"""

from __future__ import annotations

import ast
import json
import linecache
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from playwright.sync_api import Locator, Page

SUITE = Path(__file__).resolve().parent
FIND_SECONDS = float(os.environ.get("WEBTESTER_FIND_SECONDS") or 5)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]


class UIChanged(Exception):
    """A recorded step's locator no longer finds exactly one element: the UI changed, not the checked behaviour."""


def _chromium() -> str | None:
    chosen = os.environ.get("WEBTESTER_BROWSER")
    if chosen:
        return chosen
    try:
        from webtester.browser.chromium import find_chromium
    except ImportError:
        return None
    try:
        return find_chromium()
    except FileNotFoundError:
        return None


def _features_turned_off(args: list[str]) -> list[str]:
    """``args`` with their ``--disable-features`` switches merged into one that also holds the features Playwright and
    webtester turn off (Chromium keeps only the last such switch, and Playwright puts its own before the user's);
    ``args`` as they are where webtester is not installed."""
    try:
        from webtester.browser.chromium import DISABLED_FEATURES, PLAYWRIGHT_DISABLED_FEATURES
    except ImportError:
        return args
    switch = "--disable-features="
    given = [name for a in args if a.startswith(switch) for name in a[len(switch):].split(",") if name]
    features = dict.fromkeys([*PLAYWRIGHT_DISABLED_FEATURES, *DISABLED_FEATURES, *given])
    return [*(a for a in args if not a.startswith(switch)), switch + ",".join(features)]


def chromium_launch_args(given: dict[str, Any], path: str) -> dict[str, Any]:
    """pytest-playwright's launch arguments ``given``, with the Chromium at ``path`` and the flags the run used."""
    args = _features_turned_off([*given.get("args", []), *CHROMIUM_ARGS])
    return {**given, "executable_path": path, "args": args}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any], browser_name: str) -> dict[str, Any]:
    """pytest-playwright's launch arguments, with the Chromium found here."""
    path = _chromium() if browser_name == "chromium" else None
    if path is None:
        return browser_type_launch_args
    return chromium_launch_args(browser_type_launch_args, path)


@pytest.fixture(scope="module")
def app_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """The URL of the app under test (see the module docstring)."""
    given = os.environ.get("WEBTESTER_APP_URL")
    if given:
        yield given
        return
    index = getattr(request.module, "INSTANCE", None)
    apps = json.loads((SUITE / "export.json").read_text(encoding="utf-8"))["apps"]
    if index not in apps:
        raise pytest.UsageError(f"export.json has no app for {index!r} (known: {', '.join(apps)})")
    from webtester.export.target import start_spec

    app = start_spec(apps[index], build=os.environ.get("WEBTESTER_BUILD") or None)
    try:
        yield app.url
    finally:
        app.stop()


@pytest.fixture(autouse=True)
def _answer_dialogs(page: Page) -> None:
    page.on("dialog", lambda dialog: dialog.accept())


def _count(locator: Locator) -> int:
    """How many elements ``locator`` finds once it finds one, or after :data:`FIND_SECONDS`."""
    deadline = time.monotonic() + FIND_SECONDS
    while True:
        found = locator.count()
        if found == 1 or time.monotonic() >= deadline:
            return found
        locator.page.wait_for_timeout(100)


def _locator_code(frame: FrameType | None) -> str:
    """The locator as the test file writes it (the third argument of the ``act(...)`` line that called)."""
    if frame is None:
        return "the step's locator"
    where = f"the locator at {Path(frame.f_code.co_filename).name}:{frame.f_lineno}"
    line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
    try:
        call = ast.parse(line).body[0]
    except (SyntaxError, IndexError):
        return where
    if isinstance(call, ast.Expr) and isinstance(call.value, ast.Call) and len(call.value.args) >= 3:
        return ast.get_source_segment(line, call.value.args[2]) or where
    return where


def perform(number: int, action: str, locator: Locator, value: str | None = None) -> None:
    """Step ``number`` of the run: ``action`` on the one element ``locator`` finds (:class:`UIChanged` if it
    finds none, or several)."""
    __tracebackhide__ = True
    found = _count(locator)
    if found != 1:
        what = "the page no longer has this control" if found == 0 else "it no longer finds one control alone"
        raise UIChanged(f"step {number}: {_locator_code(sys._getframe(1))} finds {found} elements: {what} "
                        "(the UI changed?), not a failure of the checked behaviour")
    if action == "click":
        locator.click()
    elif action == "dblclick":
        locator.dblclick()
    elif action == "fill":
        locator.fill(value or "")
    elif action == "type":
        locator.press_sequentially(value or "")
    elif action == "press":
        locator.press(value or "")
    elif action == "select":
        locator.select_option(label=[v.strip() for v in (value or "").split("|")])
    elif action in ("check", "uncheck"):
        locator.set_checked(action == "check")
    elif action == "hover":
        locator.hover()
    elif action == "scroll_into_view":
        locator.scroll_into_view_if_needed()
    else:
        raise ValueError(f"step {number}: unknown action {action!r}")


@pytest.fixture
def act() -> Callable[..., None]:
    """:func:`perform`: ``act(step, action, locator, value=None)``."""
    return perform
