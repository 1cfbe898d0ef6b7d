"""What the workflow's nodes work with besides the state: the tester, the run folder and live resources.

The app under test and the browser are started lazily and restarted after a
resume (their handles are not part of the checkpointed state: only the URL is).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webtester.agents.base import Tester
from webtester.artifacts import InstanceFolder

Event = Callable[[str, dict[str, Any]], None]


class AppHandle:
    """Starts the app on first use (and again after a resume); stops it at the end."""

    def __init__(self, start: Callable[[], Any]) -> None:
        self._start = start
        self._app: Any = None

    def ensure(self) -> str:
        """The app's base URL, starting it if it is not running."""
        if self._app is None:
            self._app = self._start()
        return self._app.url

    def log_tail(self) -> str:
        tail = getattr(self._app, "log_tail", None)
        return tail() if callable(tail) else ""

    def stop(self) -> None:
        if self._app is not None:
            app, self._app = self._app, None
            app.stop()


class BrowserHandle:
    """One browser session per instance, started on first use; one fresh context per item."""

    def __init__(self, *, executable: str | None = None, headless: bool = True, trace_dir: Any = None,
                 browser: Any = None) -> None:
        self.executable = executable
        self.headless = headless
        self.trace_dir = trace_dir
        self.browser = browser  # an already running Playwright Browser to reuse (tests, benchmark runs)
        self._session: Any = None

    def session(self) -> Any:
        if self._session is None:
            from webtester.browser.session import BrowserSession

            self._session = BrowserSession(executable=self.executable, headless=self.headless, trace_dir=self.trace_dir)
            self._session.start()
        return self._session

    def item_page(self, base_url: str, trace_name: str) -> Any:
        """A fresh browser context and page at ``base_url`` for one item (traced when ``trace_dir`` is set)."""
        if self.browser is None:
            return self.session().new_item_page(base_url, trace_name=trace_name)
        from webtester.browser.session import ItemPage

        trace = Path(self.trace_dir) / f"{trace_name}.zip" if self.trace_dir else None
        return ItemPage(self.browser, base_url, trace_path=trace)

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
    max_items: int = 20
    max_tool_calls_per_item: int = 30
    max_tool_calls_per_instance: int = 150
    on_event: Event | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def emit(self, event: str, **data: Any) -> None:
        """Report progress (the CLI shows it); never lets a display problem stop a run."""
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
