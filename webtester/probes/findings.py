"""What a probe reports, and how a finding gets its screenshot."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from playwright.sync_api import Locator, Page

from webtester.browser.watchdog import matches


@dataclass
class Finding:
    """One thing a deterministic probe saw: where, on which element, and what."""

    probe: str
    page_url: str
    element: str
    message: str
    screenshot: str | None = None
    details: dict = field(default_factory=dict)
    actions: list[dict] = field(default_factory=list)
    """the steps from a fresh start that led to it and the expectation that failed (ActionRecord dicts)"""

    def to_dict(self) -> dict:
        """JSON-ready form."""
        return asdict(self)


class ScreenshotTaker:
    """Saves numbered screenshots of findings into a folder (or nowhere when ``folder`` is None)."""

    def __init__(self, folder: Path | None, relative_to: Path | None = None) -> None:
        self.folder = folder
        self.relative_to = relative_to
        self._count = 0

    def take(self, page: Page, probe: str, target: Locator | None = None) -> str | None:
        """Screenshot of ``target`` (or of the viewport); returns the path to record, if saved."""
        if self.folder is None:
            return None
        self.folder.mkdir(parents=True, exist_ok=True)
        self._count += 1
        path = self.folder / f"{self._count:03d}-{re.sub(r'[^a-z0-9]+', '-', probe.lower())}.png"
        try:
            if target is not None and matches(target, visible=True):
                target.first.screenshot(path=str(path), timeout=2000)
            else:
                page.screenshot(path=str(path), timeout=2000)
        except Exception:
            try:
                page.screenshot(path=str(path), timeout=2000)
            except Exception:
                return None
        return str(path.relative_to(self.relative_to)) if self.relative_to else str(path)


def describe_element(page: Page, selector: str) -> str:
    """A short human description of an element: role-ish tag, label text and a CSS selector."""
    try:
        text = page.eval_on_selector(
            selector,
            """el => {
                const label = (el.getAttribute('aria-label') || el.innerText || el.value || el.alt ||
                               el.getAttribute('src') || el.name || '').trim().replace(/\\s+/g, ' ');
                return el.tagName.toLowerCase() + (label ? ` "${label.slice(0, 60)}"` : '');
            }""",
        )
    except Exception:
        text = ""
    return f"{text} ({selector})" if text else selector


@dataclass
class Coverage:
    """Something a probe exercised without finding a problem (what a 'pass' can rest on)."""

    probe: str
    element: str
    note: str = ""
    actions: list[dict] = field(default_factory=list)
    """the steps from a fresh start that exercised it and the expectations that held (ActionRecord dicts)"""

    def to_dict(self) -> dict:
        """JSON-ready form."""
        return asdict(self)


@dataclass
class ProbeLog:
    """What a series of probes found, what they exercised without a problem, and the steps they took."""

    findings: list[Finding] = field(default_factory=list)
    covered: list[Coverage] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)

    def found(self, finding: Finding) -> None:
        """Record a finding (the same probe, element and message only once)."""
        key = (finding.probe, finding.element, finding.message)
        if all((f.probe, f.element, f.message) != key for f in self.findings):
            self.findings.append(finding)

    def ok(self, probe: str, element: str, note: str = "", actions: list[dict] | None = None) -> None:
        """Record that ``probe`` exercised ``element`` and saw no problem (``actions``: the steps and expectations)."""
        if all((c.probe, c.element) != (probe, element) for c in self.covered):
            self.covered.append(Coverage(probe, element, note, list(actions or [])))

    def step(self, text: str) -> None:
        self.steps.append(text)
