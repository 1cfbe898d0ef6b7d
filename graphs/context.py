"""What the workflow's nodes work with besides the state: the tester, the run folder and live resources.

The app under test and the browser are started lazily and restarted after a
resume (their handles are not part of the checkpointed state: only the URL is).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

from webtester.agents.base import Tester
from webtester.browser.confinement import OFFLINE
from webtester.browser.session import BrowserSession, ItemPage
from webtester.browser.traces import TraceMode, prune, settle
from webtester.models import Verdict
from webtester.redact import redact_data
from webtester.runfolder import InstanceFolder
from webtester.settings import DEFAULT_MAX_ITEMS, Settings
from webtester.targets import AppStarter, StartedApp

Event = Callable[[str, dict[str, Any]], None]


class AppHandle:
    """Starts the app on first use (and again after a resume); stops it at the end."""

    def __init__(self, start: AppStarter) -> None:
        self._start = start
        self._app: StartedApp | None = None

    def ensure(self) -> str:
        """The app's base URL, starting it if it is not running; a started app is checked first
        (``RunningApp.ensure_healthy``: restarted once when down, ``AppDownError`` when it stays down)."""
        if self._app is None:
            self._app = self._start()
            return self._app.url
        healthy = getattr(self._app, "ensure_healthy", None)
        return healthy() if callable(healthy) else self._app.url

    def log_tail(self) -> str:
        tail = getattr(self._app, "log_tail", None)
        return tail() if callable(tail) else ""

    def stop(self) -> None:
        if self._app is not None:
            app, self._app = self._app, None
            app.stop()


class BrowserHandle:
    """The run's browser: one session per instance, started on first use; every page a fresh confined context.

    It is the :class:`~webtester.agents.base.PageOpener` testers get, so every page of a run (the items',
    and what a tester opens to prepare) lives in this one browser under the same confinement.
    """

    def __init__(self, *, executable: str | None = None, headless: bool = True, trace_dir: Path | None = None,
                 browser: Browser | None = None, network: str = OFFLINE, trace: TraceMode = "on") -> None:
        self.executable = executable
        self.network = network
        self.headless = headless
        self.trace = trace  # which traces are kept (webtester.browser.traces); "off": none is written
        self.trace_dir = trace_dir if trace != "off" else None
        self.browser = browser  # an already running Playwright Browser to reuse (tests, benchmark runs)
        self._session: BrowserSession | None = None

    def session(self) -> BrowserSession:
        """The browser session, started on first use."""
        if self._session is None:
            self._session = BrowserSession(executable=self.executable, headless=self.headless, trace_dir=self.trace_dir,
                                           network=self.network)
            self._session.start()
        return self._session

    def new_page(self, base_url: str, *, trace_name: str | None = None) -> ItemPage:
        """A fresh confined context and page at ``base_url`` (traced as ``trace_name`` when ``trace_dir`` is set)."""
        if self.browser is None:
            return self.session().new_item_page(base_url, trace_name=trace_name)
        trace = Path(self.trace_dir) / f"{trace_name}.zip" if (self.trace_dir and trace_name) else None
        return ItemPage(self.browser, base_url, trace_path=trace, network=self.network)

    def settle_trace(self, verdict: Verdict, page: object | None = None) -> None:
        """After an item's verdict: drop the trace the mode does not keep (and the file of the item's own ``page``)."""
        settle(verdict, self.trace, getattr(page, "trace_path", None))

    def prune_traces(self, folder: InstanceFolder, verdicts: list[Verdict]) -> None:
        """At the end of an instance (``retain-on-failure``): delete the traces no verdict kept."""
        if self.trace == "retain-on-failure":
            prune(folder.traces, folder.run_dir, verdicts)

    def close(self) -> None:
        if self._session is not None:
            session, self._session = self._session, None
            session.close()


@dataclass
class RunContext:
    """Runtime context of one instance's workflow run (LangGraph ``context_schema``)."""

    tester: Tester
    folder: InstanceFolder
    app: AppHandle
    browser: BrowserHandle
    max_items: int = DEFAULT_MAX_ITEMS
    max_tool_calls_per_item: int = 30
    max_tool_calls_per_instance: int = 150
    item_time_limit: float = 300.0
    instance_time_limit: float = 3600.0
    on_event: Event | None = None
    started: float = field(default_factory=time.monotonic)
    """When this context was made (``time.monotonic()``): the instance's clock runs from here."""
    prior_seconds: float | None = None
    """Seconds the instance ran before this context (in an interrupted run), read from the state once."""

    @classmethod
    def create(cls, tester: Tester, folder: InstanceFolder, start: AppStarter, settings: Settings, *,
               browser: Browser | None = None, on_event: Event | None = None) -> "RunContext":
        """The context of one instance's run: budgets and browser from ``settings``, traces in the instance folder."""
        return cls(
            tester=tester, folder=folder, app=AppHandle(start),
            browser=BrowserHandle(executable=settings.browser_path, trace_dir=folder.traces, browser=browser,
                                  network=settings.network, trace=settings.trace),
            max_items=settings.max_items, max_tool_calls_per_item=settings.max_tool_calls_per_item,
            max_tool_calls_per_instance=settings.max_tool_calls_per_instance,
            item_time_limit=settings.item_time_limit, instance_time_limit=settings.instance_time_limit,
            on_event=on_event,
        )

    def instance_seconds(self, state: Mapping[str, Any]) -> float:
        """Wall-clock seconds the instance has run: in earlier runs (``state['instance_seconds']``) and in this one."""
        if self.prior_seconds is None:
            self.prior_seconds = float(state.get("instance_seconds") or 0.0)
        return self.prior_seconds + time.monotonic() - self.started

    def emit(self, event: str, **data: Any) -> None:
        """Report progress (the CLI shows it), redacted; never lets a display problem stop a run."""
        data = redact_data(data)
        self.folder.log(f"{event} {data}" if data else event)
        if self.on_event is not None:
            try:
                self.on_event(event, data)
            except Exception:  # progress display is best effort
                pass

    def close(self) -> None:
        """Release the browser and the app (idempotent)."""
        try:
            self.browser.close()
        finally:
            self.app.stop()
