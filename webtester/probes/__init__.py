"""Deterministic probes: checks any tester can run on a page without a model.

Each finding names the page, the element, a short text and (when a folder is
given) a screenshot. :func:`run_probes` runs the generic ones on one page; the
modules below act on forms, lists and controls step by step through a
:class:`~webtester.probes.session.ProbeSession` (used by the rule-based baseline):
``forms`` (invalid values, required choices, feedback, clearing, persistence),
``lists`` (search, filters, empty states, counts), ``controls`` (dead controls,
dialogs, votes), ``content`` (currencies, list header counts), and ``tool``
(``run_probes`` as a tool for the testing agent).
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from webtester.probes.findings import Finding, ScreenshotTaker
from webtester.probes.interactive import ProbeContext, dead_controls, form_probes
from webtester.probes.scan import broken_images, placeholder_text, reported_errors, viewport_overflow

__all__ = ["Finding", "run_probes", "STATIC_PROBES", "INTERACTIVE_PROBES"]

STATIC_PROBES = ("broken-image", "placeholder-text", "viewport-overflow")
INTERACTIVE_PROBES = ("dead-control", "empty-form-accepted", "duplicate-submission", "state-lost-on-reload")


def run_probes(
    page: Page,
    start_url: str,
    *,
    screenshot_dir: Path | None = None,
    relative_to: Path | None = None,
    console_errors: list[str] | None = None,
    page_errors: list[str] | None = None,
    failed_requests: list[str] | None = None,
    interactive: bool = True,
) -> list[Finding]:
    """Run every probe on ``page`` (already at ``start_url``); interactive probes reload it as needed.

    Errors the browser reported while the probes ran are read from the lists
    passed in (they are filled by the caller's evidence collector) at the end.
    """
    shots = ScreenshotTaker(screenshot_dir, relative_to)
    ctx = ProbeContext(start_url=start_url, shots=shots)
    ctx.attach(page)
    findings = broken_images(page, shots) + placeholder_text(page, shots) + viewport_overflow(page, shots)
    if interactive:
        findings += dead_controls(page, ctx)
        findings += form_probes(page, ctx)
    findings += reported_errors(start_url, console_errors or [], page_errors or [], failed_requests or [])
    return findings
