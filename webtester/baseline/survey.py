"""One look at the app for checklist generation: load the start page once and read its page model.

Playwright's sync API cannot start inside a thread that already runs it (a test's browser fixture, a
caller's session), so the look runs in a thread of its own with its own Chromium.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from webtester.probes.pagemodel import PageModel, read_model


def _look(app_url: str, executable: str | None, timeout_ms: float) -> PageModel:
    from playwright.sync_api import sync_playwright

    from webtester.browser.chromium import VIEWPORT, launch_chromium

    with sync_playwright() as pw:
        browser = launch_chromium(pw, executable)
        try:
            context = browser.new_context(viewport=VIEWPORT, service_workers="block")
            page = context.new_page()
            page.goto(app_url, wait_until="load", timeout=timeout_ms)
            try:
                page.wait_for_load_state("networkidle", timeout=3000)
            except Exception:
                pass
            return read_model(page)
        finally:
            browser.close()


def survey(app_url: str, *, executable: str | None = None, timeout_ms: float = 30_000) -> PageModel:
    """The page model of ``app_url`` after one page load (raises when the page cannot be loaded)."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="baseline-survey") as pool:
        return pool.submit(_look, app_url, executable, timeout_ms).result()
