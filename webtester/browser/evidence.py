"""Evidence collected from a page while the agent works: console and page errors,
failed and blocked requests, environment events, dialogs, downloads, pop-ups, screenshots.

*Failed requests* are the app's own: a request to the app's origin that failed or
answered with an error status, or a third-party request whose host answered with
one. *Environment events* are third-party requests that the network policy
blocked or whose host this environment cannot reach: they say nothing about the
app, and no probe or verdict may count them as a defect. *Blocked requests* are
navigations and web sockets the confinement kept from leaving the app's origin.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from webtester.models import ActionRecord, Evidence

MAX_ENTRY = 500  # characters kept of one message


def _short(text: str, limit: int = MAX_ENTRY) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class EvidenceLog:
    """Append-only record of what the browser reported for one test item."""

    console_errors: list[str] = field(default_factory=list)
    console_warnings: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    blocked_requests: list[str] = field(default_factory=list)
    environment: list[str] = field(default_factory=list)
    environment_urls: set[str] = field(default_factory=set)
    dialogs: list[str] = field(default_factory=list)
    downloads: list[str] = field(default_factory=list)
    popups: list[str] = field(default_factory=list)
    screenshots: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    actions: list[ActionRecord] = field(default_factory=list)
    trace: str | None = None

    _KINDS = (
        "console_errors", "page_errors", "failed_requests", "blocked_requests", "environment", "dialogs", "downloads",
        "popups",
    )
    _LABELS = {
        "console_errors": "console error",
        "page_errors": "uncaught page error",
        "failed_requests": "failed request",
        "blocked_requests": "blocked request (outside the app)",
        "environment": "environment (not the app's defect)",
        "dialogs": "dialog",
        "downloads": "download refused",
        "popups": "new tab opened",
    }

    _PLURALS = {
        "console_errors": "console errors",
        "page_errors": "uncaught page errors",
        "failed_requests": "failed requests",
        "blocked_requests": "blocked requests (outside the app)",
        "environment": "environment events: third-party requests blocked or unreachable here, not the app's defects",
        "dialogs": "dialogs",
        "downloads": "refused downloads",
        "popups": "new tabs",
    }

    # -- recording (called from Playwright event handlers)

    def add(self, kind: str, text: str) -> None:
        """Record one entry of ``kind`` (a field name such as ``console_errors``)."""
        getattr(self, kind).append(_short(text))

    def add_environment(self, url: str, text: str) -> None:
        """Record a third-party request to ``url`` that was blocked or could not reach its host."""
        self.environment_urls.add(url)
        self.add("environment", text)

    def is_environment(self, url: str) -> bool:
        """True when a request to ``url`` was recorded as an environment event."""
        return url in self.environment_urls

    # -- reading

    def mark(self) -> dict[str, int]:
        """A bookmark: the current length of every list, for :meth:`since`."""
        return {k: len(getattr(self, k)) for k in self._KINDS}

    def since(self, mark: dict[str, int]) -> list[str]:
        """Entries recorded after ``mark``, each prefixed with its kind."""
        out = []
        for k in self._KINDS:
            for entry in getattr(self, k)[mark.get(k, 0) :]:
                out.append(f"{self._LABELS[k]}: {entry}")
        return out

    def summary(self, limit: int = 20) -> str:
        """Everything recorded so far, grouped by kind (at most ``limit`` entries each)."""
        blocks = []
        for k in self._KINDS:
            entries = getattr(self, k)
            if not entries:
                continue
            lines = [f"{self._PLURALS[k]} ({len(entries)}):"]
            lines += [f"- {e}" for e in entries[:limit]]
            if len(entries) > limit:
                lines.append(f"- … {len(entries) - limit} more")
            blocks.append("\n".join(lines))
        return "\n".join(blocks) if blocks else "No console errors, page errors, failed or blocked requests, dialogs or downloads so far."

    def to_model(self, notes: str = "") -> Evidence:
        """The :class:`webtester.models.Evidence` for a verdict."""
        extra = []
        if self.blocked_requests:
            extra.append("blocked (outside the app): " + "; ".join(self.blocked_requests))
        if self.dialogs:
            extra.append("dialogs: " + "; ".join(self.dialogs))
        if self.downloads:
            extra.append("downloads refused: " + "; ".join(self.downloads))
        if self.popups:
            extra.append("new tabs: " + "; ".join(self.popups))
        return Evidence(
            steps=list(self.steps),
            screenshots=list(self.screenshots),
            console_errors=list(self.console_errors),
            page_errors=list(self.page_errors),
            failed_requests=list(self.failed_requests),
            environment=list(self.environment),
            trace=self.trace,
            actions=[a.model_copy() for a in self.actions],
            notes="\n".join([n for n in [notes, *extra] if n]),
        )
