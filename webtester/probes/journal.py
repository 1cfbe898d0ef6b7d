"""The replayable record of a probe session: every action on the page (with the reusable locator of the element
acted on) and, at each point where a probe decides, the expectation it checked.

A probe's record gets the slice of the journal since the last page opened by its URL (:meth:`Journal.slice`):
that page is the fresh start a replay begins from. What earlier probes left in the app's storage is not replayed,
so the expectations are chosen not to depend on it (the probes' own tokens, texts seen appear or not). Every
expectation is checked on the live page the way a replay checks it (:meth:`Journal.expect`) and kept only when
it agrees with what the probe decided, so a replay on the same build comes out the same.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from webtester.browser.code_actions import relative_url
from webtester.browser.locators import Reusable, action_record, element_reusable, recording
from webtester.browser.watchdog import evaluate
from webtester.models import ActionRecord

Outcome = Literal["held", "failed"]

_BODY_TEXT_JS = "() => document.body ? document.body.innerText : ''"


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def stable_line(lines: list[str], pattern: re.Pattern[str] | None = None) -> str | None:
    """The first of ``lines`` (matching ``pattern``) that a replay shows again: no number in it other than the
    probes' own tokens (wt001), at most 120 characters."""
    for line in lines:
        if len(line) <= 120 and (pattern is None or pattern.search(line)) and not re.search(r"\d", re.sub(r"wt\d+", "", line)):
            return line
    return None


def css(selector: str) -> Reusable:
    """A query by CSS (Playwright's, with ``:visible`` and ``:has-text()``)."""
    return Reusable({"css": selector})


@dataclass
class Journal:
    """The steps taken on one page (see the module docstring); ``seconds`` is the time spent recording them."""

    page: Any
    origin: str
    records: list[ActionRecord] = field(default_factory=list)
    fresh: int = 0
    seconds: float = 0.0
    _found: dict[tuple[str, str], Reusable | None] = field(default_factory=dict)

    def relative(self, url: str) -> str:
        """``url`` relative to the app's origin (``/#/cart``)."""
        return relative_url(url, self.origin)

    def locate(self, element: Any, key: str) -> Reusable | None:
        """The reusable locator of ``element`` (a locator of one element), the same for one ``key`` (its CSS
        selector) on one URL."""
        started = time.monotonic()
        try:
            cache_key = (self.page.url, key)
            if cache_key not in self._found:
                self._found[cache_key] = element_reusable(self.page, element)
            return self._found[cache_key]
        finally:
            self.seconds += time.monotonic() - started

    @contextmanager
    def act(self, action: str, element: Any = None, value: str | None = None, *, key: str = "",
            what: str = "") -> Iterator[ActionRecord]:
        """Record the action the block does (on ``element``, whose CSS selector is ``key``); its outcome is
        ``done``, or ``error`` when the block raises."""
        reusable = self.locate(element, key or what) if element is not None else None
        if element is None:  # a page step: goto /#/cart, reload, press Escape
            step = " ".join([action, *([value] if value else [])])
        else:
            step = f"{action} {reusable.code if reusable else what or key}" + (f" {value!r}" if value is not None else "")
        record = action_record(step, action, reusable, value)
        if action == "goto":
            self.fresh = len(self.records)
        with recording(self.records, record) as rec:
            yield rec

    def slice(self) -> list[ActionRecord]:
        """The actions since the last page opened by its URL (copies)."""
        return [r.model_copy() for r in self.records[self.fresh:]]

    def expect(self, action: str, want: Outcome, *, value: str | None = None, reusable: Reusable | None = None,
               count: int | None = None) -> ActionRecord | None:
        """The expectation ``action`` (``expect_text`` ...) with outcome ``want``, when checking it on the page now
        gives that outcome; None when it does not (the expectation would not say what the probe saw)."""
        started = time.monotonic()
        try:
            held = self._holds(action, value, reusable, count)
        except Exception:  # a page that changed or stopped answering: nothing to assert
            held = None
        finally:
            self.seconds += time.monotonic() - started
        if held is None or ("held" if held else "failed") != want:
            return None
        where = reusable.code if reusable else "the page"
        expected = f" {count}" if count is not None else (f" {value!r}" if value is not None else "")
        record = action_record(f"{action} {where}{expected}", action, reusable, value, count=count)
        record.outcome = want
        return record

    def absent(self, texts: list[str]) -> list[ActionRecord]:
        """``expect_no_text`` (held) for each of ``texts`` that the page's text does not contain now."""
        started = time.monotonic()
        try:
            body = _squash(evaluate(self.page, _BODY_TEXT_JS) or "")
        except Exception:
            return []
        finally:
            self.seconds += time.monotonic() - started
        out = []
        for text in texts:
            if _squash(text) not in body:
                record = action_record(f"expect_no_text the page {text!r}", "expect_no_text", None, text)
                record.outcome = "held"
                out.append(record)
        return out

    def _holds(self, action: str, value: str | None, reusable: Reusable | None, count: int | None) -> bool | None:
        page = self.page
        if action in ("expect_text", "expect_no_text") and reusable is None and value:
            shown = _squash(value) in _squash(evaluate(page, _BODY_TEXT_JS) or "")
            return shown if action == "expect_text" else not shown
        if action == "expect_url" and value is not None:
            return self.relative(page.url) == value
        if reusable is None:
            return None
        loc = reusable.locator(page)
        if action == "expect_count" and count is not None:
            return bool(loc.count() == count)
        if action in ("expect_visible", "expect_hidden"):
            visible = loc.count() == 1 and loc.is_visible()
            return visible if action == "expect_visible" else loc.count() == 0 or not visible
        return None
