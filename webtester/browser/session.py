"""One browser per run, one fresh confined context per test item.

:class:`BrowserSession` owns Playwright and one Chromium (Debian's, flags in
:mod:`webtester.browser.chromium`). :meth:`BrowserSession.new_item_page` gives
an :class:`ItemPage`: a new browser context (so every item starts from the
app's default data: no cookies, no local storage), viewport 1280x720, confined
to the app's origin with the network policy for third-party subresources
(:mod:`webtester.browser.confinement`), downloads refused, every call on the page bounded in time
(:mod:`webtester.browser.watchdog`: a page that stopped responding is recorded in ``page_errors``), with
evidence collectors and, on request, a Playwright trace saved when the item page is closed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from webtester.browser.chromium import VIEWPORT, launch_chromium
from webtester.browser.confinement import OFFLINE, Confinement, is_unreachable, same_origin
from webtester.browser.evidence import EvidenceLog
from webtester.browser.observe import Observation, build_observation, observe
from webtester.browser.watchdog import Watchdog, close_context, evaluate, navigate, watch

#: how long an action (click, fill, check, select) waits for its element to be actionable: attached, visible,
#: enabled and stable; generous for a loaded machine, and a control that stays unusable is skipped, not judged
ACTION_TIMEOUT_MS = 5_000
#: a route no app has, through which the tester leads an app's router to rebuild the view it shows without a page
#: load; what the app logs about it (a "not found" error naming the route) is the tester's doing, not recorded
NOWHERE_ROUTE = "/__webtester-nowhere"
NAVIGATION_TIMEOUT_MS = 30_000


_SETTLE_JS = """([quiet, limit]) => new Promise((resolve) => {
  let timer;
  const done = () => { observer.disconnect(); clearTimeout(timer); resolve(); };
  const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, quiet); });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  requestAnimationFrame(() => requestAnimationFrame(() => { timer = setTimeout(done, quiet); }));
  setTimeout(done, limit);
})"""


# Resolves at the next change of the DOM, or after ``limit`` ms.
_NEXT_CHANGE_JS = """(limit) => new Promise((resolve) => {
  const observer = new MutationObserver(() => { observer.disconnect(); resolve(true); });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
  setTimeout(() => { observer.disconnect(); resolve(false); }, limit);
})"""
#: how long a client-side route change may take to render (a dev server compiles the route's module on demand)
ROUTE_RENDER_MS = 8_000
#: how long one watch for the route's DOM change lasts before the page is looked at again
ROUTE_POLL_MS = 500


def _safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-")[:80] or "item"


class ItemPage:
    """A page in a fresh confined context, with evidence collectors.

    ``page`` is the Playwright page, ``evidence`` the :class:`EvidenceLog`.
    ``last_observation`` is the latest view the agent was given (references
    are checked against it). Close with :meth:`close` (saves the trace).
    """

    def __init__(
        self,
        browser,
        base_url: str,
        *,
        trace_path: Path | None = None,
        screenshot_dir: Path | None = None,
        goto: bool = True,
        action_timeout_ms: float = ACTION_TIMEOUT_MS,
        network: str = OFFLINE,
        script_limit: float | None = None,
    ) -> None:
        self.base_url = base_url
        self.evidence = EvidenceLog()
        self.confinement = Confinement(base_url, self.evidence, network)
        self.origin = self.confinement.origin
        self.screenshot_dir = Path(screenshot_dir) if screenshot_dir else None
        self.trace_path = Path(trace_path) if trace_path else None
        self.dialog_accept = True
        self.dialog_prompt_text: str | None = None
        self.last_observation: Observation | None = None
        self._shots = 0
        self._closed = False
        self.context = self.confinement.new_context(browser, viewport=VIEWPORT, accept_downloads=False, base_url=base_url)
        try:
            self.context.set_default_timeout(action_timeout_ms)
            self.context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
            if self.trace_path:
                self.context.tracing.start(screenshots=True, snapshots=True, title=self.trace_path.stem)
            self.page = self.context.new_page()
            self.watchdog: Watchdog = watch(self.context, self.page, limit=script_limit,
                                            on_stall=lambda reason: self.evidence.add("page_errors", reason))
            self._watch(self.page)
            self.context.on("page", self._on_popup)
            if goto:
                navigate(self.page, base_url, wait_until="domcontentloaded")
                self.settle()
                try:  # let a single-page app fetch its modules and data before the first look
                    self.page.wait_for_load_state("networkidle", timeout=3_000)
                except Exception:
                    pass
        except BaseException:
            self.close()
            raise

    # -- evidence collectors

    def _watch(self, page) -> None:
        log = self.evidence
        page.on("console", self._on_console)
        page.on("pageerror", lambda err: log.add("page_errors", f"{err.name}: {err.message}" if err.name else str(err)))
        page.on("requestfailed", self._on_request_failed)
        page.on("response", self._on_response)
        page.on("dialog", self._on_dialog)
        page.on("download", lambda d: log.add("downloads", f"{d.suggested_filename} from {d.url}"))

    def _on_console(self, msg) -> None:
        if msg.type == "error":
            if "ERR_BLOCKED_BY_CLIENT" in msg.text:
                return  # the browser's echo of a request the confinement blocked (recorded there)
            if NOWHERE_ROUTE in msg.text:
                return  # the app's "not found" for the route the tester led it through
            loc = msg.location or {}
            if msg.text.startswith("Failed to load resource") and is_unreachable(msg.text) and not same_origin(
                loc.get("url", ""), self.origin
            ):
                return  # the echo of a third-party request that could not reach its host (an environment event)
            where = f" ({loc.get('url', '')}:{loc.get('lineNumber', '')})" if loc.get("url") else ""
            self.evidence.add("console_errors", msg.text + where)
        elif msg.type == "warning":
            self.evidence.add("console_warnings", msg.text)

    def _on_request_failed(self, request) -> None:
        failure = request.failure or ""
        if self.confinement.third_party_failed(request):
            return  # blocked by the policy or unreachable here: an environment event, not the app's
        if "ERR_BLOCKED_BY_CLIENT" in failure:
            return  # already recorded by the confinement
        self.evidence.add("failed_requests", f"{request.method} {request.url}: {failure}")

    def _on_response(self, response) -> None:
        if response.status >= 400:
            self.evidence.add("failed_requests", f"{response.request.method} {response.url}: HTTP {response.status}")

    def _on_dialog(self, dialog) -> None:
        self.evidence.add("dialogs", f"{dialog.type} {dialog.message!r} ({'accepted' if self.dialog_accept else 'dismissed'})")
        try:
            if self.dialog_accept:
                if dialog.type == "prompt":
                    text = self.dialog_prompt_text if self.dialog_prompt_text is not None else dialog.default_value
                    dialog.accept(text)
                else:
                    dialog.accept()
            else:
                dialog.dismiss()
        except Exception:  # the dialog may already be gone
            pass

    def _on_popup(self, popup) -> None:
        if popup is self.page:
            return
        try:
            popup.wait_for_load_state("commit", timeout=2_000)
        except Exception:
            pass
        url = popup.url
        try:
            popup.close()
        except Exception:
            pass
        # recorded once the tab is closed, so whoever reads the record sees the tab gone
        self.evidence.add("popups", f"{url} (closed; the test continues in the original tab)")

    # -- helpers used by the tools

    def settle(self, timeout_ms: float = 1_500, quiet_ms: int = 60) -> None:
        """Wait for the page to finish reacting: its load event, then until the DOM has not changed
        for ``quiet_ms`` (single-page apps render after the event that triggered them), at most
        ``timeout_ms`` in all."""
        try:
            self.page.wait_for_load_state("load", timeout=timeout_ms)
        except Exception:
            pass
        try:
            evaluate(self.page, _SETTLE_JS, [quiet_ms, int(timeout_ms)], waits_s=timeout_ms / 1000)
        except Exception:  # a page that stopped responding is in page_errors, and its next call says so
            pass

    def wait_for_route(self, before: Observation, after: Observation) -> bool:
        """After an action moved to another URL but the page still shows the old content (a single-page app's
        route whose code is still loading), wait for the next DOM change (at most :data:`ROUTE_RENDER_MS`) and
        settle again; True when the page changed meanwhile."""
        if after.url == before.url or after.lines != before.lines:
            return False
        # The route may render between the observation and the watch for a change (a framework that renders
        # navigations as deferred transitions): watch in short spans and look at the page between them.
        deadline = time.monotonic() + ROUTE_RENDER_MS / 1000
        while True:
            span = max(min(ROUTE_POLL_MS, (deadline - time.monotonic()) * 1000), 1)
            try:
                changed = bool(evaluate(self.page, _NEXT_CHANGE_JS, int(span), waits_s=span / 1000))
                changed = changed or observe(self.page).lines != before.lines
            except Exception:
                return False
            if changed:
                self.settle()
                return True
            if time.monotonic() >= deadline:
                return False

    def observe(self, *, ref: str | None = None, full: bool = False) -> Observation:
        """Observe the page and remember the view (references are checked against it)."""
        obs = observe(self.page, ref=ref, full=full)
        # the next action's answer is a diff against the default view of this same snapshot
        self.last_observation = build_observation(obs.raw, obs.url, obs.title) if (ref or full) else obs
        return obs

    def screenshot(self, path: str | Path | None = None, *, label: str = "shot", full_page: bool = False, ref: str | None = None) -> str:
        """Save a PNG screenshot (of the viewport, the full page or one element) and return its path."""
        if path is None:
            if self.screenshot_dir is None:
                raise ValueError("no screenshot folder configured for this item page")
            self._shots += 1
            path = self.screenshot_dir / f"{self._shots:02d}-{_safe_name(label)}.png"
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if ref:
            self.page.locator(f"aria-ref={ref}").screenshot(path=str(path), timeout=ACTION_TIMEOUT_MS)
        else:
            self.page.screenshot(path=str(path), full_page=full_page, timeout=ACTION_TIMEOUT_MS)
        self.evidence.screenshots.append(str(path))
        return str(path)

    @contextmanager
    def trace_group(self, title: str) -> Iterator[None]:
        """Group the block's Playwright calls under ``title`` in the trace (when tracing), e.g. the step
        ``click page.get_by_role("button", name="Save", exact=True)``."""
        grouped = False
        if self.trace_path and not self._closed:
            try:
                self.context.tracing.group(title[:200])
                grouped = True
            except Exception:  # the trace is evidence, never a reason for the step to fail
                pass
        try:
            yield
        finally:
            if grouped:
                try:
                    self.context.tracing.group_end()
                except Exception:
                    pass

    def close(self) -> None:
        """Save the trace (when tracing) and close the context (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            if self.trace_path:
                self.trace_path.parent.mkdir(parents=True, exist_ok=True)
                self.context.tracing.stop(path=str(self.trace_path))
                self.evidence.trace = str(self.trace_path)
        finally:
            problem = close_context(self.context)
            if problem:
                self.evidence.add("page_errors", problem)

    def __enter__(self) -> "ItemPage":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class BrowserSession:
    """Playwright plus one Chromium for a whole run; a context manager.

    ``trace_dir`` switches Playwright tracing on: every item page opened with a
    ``trace_name`` saves ``trace_dir/<trace_name>.zip`` when closed (open it
    with ``playwright show-trace``). ``network`` is the policy for the app's
    third-party subresources (``offline`` or ``allow-subresources``).
    """

    def __init__(
        self, executable: str | None = None, headless: bool = True, trace_dir: Path | None = None, *, playwright=None,
        network: str = OFFLINE,
    ) -> None:
        self.network = network
        self.executable = executable
        self.headless = headless
        self.trace_dir = Path(trace_dir) if trace_dir else None
        self._pw_cm: Any = None
        self.playwright: Any = playwright  # an already running Playwright to launch Chromium with (it stays running)
        self.browser: Any = None
        self.started = 0.0

    def start(self) -> "BrowserSession":
        """Start Playwright and Chromium (done by ``with``)."""
        from playwright.sync_api import sync_playwright

        if self.browser is not None:
            return self
        if self.playwright is None:
            self._pw_cm = sync_playwright()
            self.playwright = self._pw_cm.start()
        try:
            self.browser = launch_chromium(self.playwright, self.executable, headless=self.headless)
        except BaseException:
            self._stop_playwright()
            raise
        self.started = time.time()
        return self

    def new_item_page(
        self, base_url: str, *, trace_name: str | None = None, screenshot_dir: Path | None = None, goto: bool = True
    ) -> ItemPage:
        """A fresh confined context and page for one test item, opened at ``base_url``."""
        if self.browser is None:
            self.start()
        trace_path = self.trace_dir / f"{_safe_name(trace_name)}.zip" if (self.trace_dir and trace_name) else None
        return ItemPage(
            self.browser, base_url, trace_path=trace_path, screenshot_dir=screenshot_dir, goto=goto, network=self.network
        )

    def close(self) -> None:
        """Close Chromium and stop Playwright (idempotent)."""
        try:
            if self.browser is not None:
                self.browser.close()
        finally:
            self.browser = None
            self._stop_playwright()

    def _stop_playwright(self) -> None:
        if self._pw_cm is not None:  # only a Playwright this session started itself
            self._pw_cm.__exit__(None, None, None)
            self._pw_cm = self.playwright = None

    def __enter__(self) -> "BrowserSession":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
