"""The baseline's own browser, and its one look at the app for checklist generation.

Playwright's sync API cannot start inside a thread that already runs it (a test's browser fixture, the
workflow's browser session), so the baseline drives a Chromium of its own in a thread of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from webtester.probes.pagemodel import PageModel, read_model

T = TypeVar("T")


def with_own_browser(work: Callable[[Any], T], *, executable: str | None = None) -> T:
    """``work(browser)`` with a Chromium started for it in a separate thread (closed afterwards)."""

    def run() -> T:
        from playwright.sync_api import sync_playwright

        from webtester.browser.chromium import launch_chromium

        with sync_playwright() as pw:
            browser = launch_chromium(pw, executable)
            try:
                return work(browser)
            finally:
                browser.close()

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="baseline-browser") as pool:
        return pool.submit(run).result()


def survey(app_url: str, *, executable: str | None = None, timeout_ms: float = 30_000) -> PageModel:
    """The page model of ``app_url`` after one page load (raises when the page cannot be loaded)."""

    def look(browser: Any) -> PageModel:
        from webtester.browser.chromium import VIEWPORT

        context = browser.new_context(viewport=VIEWPORT, service_workers="block")
        page = context.new_page()
        page.goto(app_url, wait_until="load", timeout=timeout_ms)
        try:
            page.wait_for_load_state("networkidle", timeout=3000)
        except Exception:
            pass
        return read_model(page)

    return with_own_browser(look, executable=executable)
