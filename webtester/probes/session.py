"""Shared state of a series of interactive probes on one page: where to start over, screenshots, the
log of findings and coverage, deterministic tokens, an action budget, and the journal of the steps taken
(:mod:`webtester.probes.journal`) whose slices the records carry."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Page

from webtester.browser.confinement import origin_of
from webtester.browser.watchdog import PageUnresponsive, evaluate, navigate, watchdog_of
from webtester.models import ActionRecord
from webtester.probes.findings import Finding, ProbeLog, ScreenshotTaker
from webtester.probes.interactive import PageState, page_state
from webtester.probes.journal import Journal
from webtester.probes.signin import Gate

ERROR_WORDS = re.compile(
    r"\b(required|invalid|please|must|error|cannot|can't|not allowed|enter an?|is not|too (?:long|short)|at least|"
    r"at most|conflict|already|exceeds?|only|not valid|choose|select an?|missing|no more than|between)\b",
    re.IGNORECASE,
)
SUCCESS_WORDS = re.compile(
    r"\b(success|successfully|saved|added|created|booked|thank|thanks|confirmed|posted|submitted|sent|updated|"
    r"published|registered|applied|received|reported|deleted|removed)\b",
    re.IGNORECASE,
)
#: ``[token, listOnly, upTo]``: how many visible text nodes (not in scripts, styles, options or text areas;
#: ``listOnly``: inside a list entry) hold ``token``, counted no further than ``upTo``
VISIBLE_TEXT_JS = r"""([token, listOnly, upTo]) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let count = 0;
  for (let n = walker.nextNode(); n && count < upTo; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || ['SCRIPT', 'STYLE', 'OPTION', 'TEXTAREA'].includes(el.tagName) || !n.textContent.includes(token) || !vis(el)) continue;
    if (!listOnly || el.closest('li, tr, article, [role=listitem], [role=row], [class*=card], [class*=item], [class*=entry]')) count++;
  }
  return count;
}"""

#: how long a probe waits for a control to take a click: one on a settled page takes it at once, one covered by
#: another layer (an open popup) never does
CLICK_TIMEOUT_MS = 2_000


BLANK_JS = r"""() => {
  const text = (document.body ? document.body.innerText : '').trim();
  const controls = [...document.querySelectorAll('a[href], button, input, select, textarea, [role=button]')]
    .some(el => el.getClientRects().length > 0);
  return text.length < 3 && !controls;
}"""
HEADINGS_JS = r"""() => [...document.querySelectorAll('h1, h2, h3, [role=dialog] h2, [role=heading]')]
  .filter(h => h.getClientRects().length > 0).map(h => h.innerText.replace(/\s+/g, ' ').trim()).filter(Boolean).slice(0, 4)"""
#: ``[sel]``: the page is still working on an action: the control ``sel`` says so ("Sending...", "Processing…", a
#: spinner in it, aria-busy) or a visible element is marked aria-busy
BUSY_JS = r"""([sel]) => {
  const vis = el => !!el && el.getClientRects().length > 0;
  const button = sel ? document.querySelector(sel) : null;
  if (vis(button)) {
    const text = (button.innerText || button.value || '').trim();
    if (/\b[a-z]+ing\s*(\.\.\.|\u2026)$/i.test(text) || button.querySelector('.animate-spin') ||
        button.getAttribute('aria-busy') === 'true') return true;
  }
  return [...document.querySelectorAll('[aria-busy=true]')].some(vis);
}"""
BUSY_WAIT_MS = 4000  # the longest wait for an app that simulates a slow server after an action
BLANK_CONFIRM_MS = 1500  # a page still blank this long after the first look has not merely been slow to render


@dataclass(frozen=True)
class BeforeAction:
    """The page just before an action, for :meth:`ProbeSession.check_blank`."""

    headings: list[str]
    errors: int


class BudgetExceeded(RuntimeError):
    """The probes used up their action budget or time."""


class TimeUp(BudgetExceeded):
    """The probes used up their time (see :attr:`ProbeSession.deadline`)."""


@dataclass
class ProbeSession:
    """One page, probed step by step (see the module docstring)."""

    page: Page
    start_url: str
    shots: ScreenshotTaker
    log: ProbeLog = field(default_factory=ProbeLog)
    dialogs: list[str] = field(default_factory=list)
    max_actions: int = 400
    deadline: float | None = None  # on the probes' clock: the time spent recording their steps left out
    wall_deadline: float | None = None  # on the wall clock, recording included: the bound the caller can rely on
    settle_ms: int = 120
    actions: int = 0
    journal: Journal = field(init=False)
    page_errors: list[str] = field(default_factory=list)
    gate: Gate | None = None  # the app's sign-in, passed on every page load that lands on it
    #: forms (by signature) that accept a submission only with one part of their own list added (a role, a product)
    one_part_forms: set[str] = field(default_factory=set)
    _tokens: int = 0
    _blank_seen: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.journal = Journal(self.page, origin_of(self.start_url))

    @classmethod
    def create(cls, page: Page, start_url: str, *, screenshot_dir: Path | None = None, relative_to: Path | None = None,
               accept_dialogs: bool = True, **kwargs) -> "ProbeSession":
        """A session on ``page``; ``accept_dialogs`` answers alert/confirm/prompt with OK (leave False when the
        page's owner already does, e.g. an :class:`~webtester.browser.session.ItemPage`)."""
        sess = cls(page, start_url, ScreenshotTaker(screenshot_dir, relative_to), **kwargs)

        def on_dialog(dialog) -> None:
            sess.dialogs.append(dialog.message)
            if accept_dialogs:
                try:
                    dialog.accept()
                except Exception:
                    pass

        page.on("dialog", on_dialog)
        page.on("pageerror", lambda error: sess.page_errors.append(str(error).splitlines()[0][:300] if str(error) else "error"))
        return sess

    # -- budget and timing

    def spend(self, n: int = 1) -> None:
        """Count ``n`` actions; raises :class:`BudgetExceeded` when the budget or the time is used up, and
        :class:`~webtester.browser.watchdog.PageUnresponsive` when the page stopped responding."""
        stalled = watchdog_of(self.page).stalled
        if stalled:
            raise PageUnresponsive(stalled)
        self.actions += n
        if self.actions > self.max_actions:
            raise BudgetExceeded(f"action budget of {self.max_actions} used up")
        # the time spent recording the steps is not the probes': it does not count against the time limit
        if self.deadline is not None and time.monotonic() - self.journal.seconds > self.deadline:
            raise TimeUp("time limit reached")
        if self.wall_deadline is not None and time.monotonic() > self.wall_deadline:
            raise BudgetExceeded("wall time limit reached (the recording of the steps included)")

    def settle(self, extra_ms: int | None = None) -> None:
        """Let the page react: load state, two animation frames, then a short pause."""
        try:
            self.page.wait_for_load_state("domcontentloaded", timeout=3000)
        except Exception:
            pass
        try:
            evaluate(self.page, "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        except Exception:
            pass
        self.page.wait_for_timeout(self.settle_ms if extra_ms is None else extra_ms)

    def wait_while_busy(self, control: str | None = None) -> None:
        """Wait (at most :data:`BUSY_WAIT_MS`) while the page shows it is still working on the action just taken
        (see :data:`BUSY_JS`; ``control``: the selector of the control that started it), then let it settle."""
        waited = 0
        while waited < BUSY_WAIT_MS:
            try:
                busy = bool(evaluate(self.page, BUSY_JS, [control]))
            except PageUnresponsive:
                raise
            except Exception:
                busy = False
            if not busy:
                break
            self.page.wait_for_timeout(200)
            waited += 200
        if waited:
            self.settle(250)

    def goto(self, url: str | None = None) -> None:
        """Open ``url`` (default: the start URL) afresh, even when only its #hash differs from the current one."""
        self.spend()
        target = url or self.start_url
        with self.journal.act("goto", value=self.journal.relative(target)):
            if self.gate is not None and self.gate.open_inside(self.page, target, settle=self.settle):
                return  # an app that keeps its session in memory: opened inside it, still signed in
            if self.page.url.split("#")[0] == target.split("#")[0] and "#" in self.page.url + target:
                navigate(self.page, "about:blank")
            navigate(self.page, target, wait_until="load")
        self.settle()
        if self.gate is not None:
            done = self.gate.arrive(self.page, target, settle=self.settle)
            if done:
                self.step(done)

    def reload(self) -> None:
        self.spend()
        with self.journal.act("reload"):
            self.page.reload(wait_until="load")
        self.settle()

    def click(self, selector: str, *, timeout_ms: float = CLICK_TIMEOUT_MS) -> None:
        """Click the first element ``selector`` finds, recorded in the journal."""
        element = self.page.locator(selector).first
        with self.journal.act("click", element, key=selector):
            element.click(timeout=timeout_ms)

    def state(self) -> PageState:
        return page_state(self.page, self)  # type: ignore[arg-type]

    def token(self) -> str:
        """A new deterministic marker for values the probes type (wt001, wt002, ...)."""
        self._tokens += 1
        return f"wt{self._tokens:03d}"

    def shows(self, text: str, *, in_list: bool = False) -> bool:
        """Whether ``text`` is visible on the page outside form fields (``in_list``: inside a list entry, a row or a card)."""
        return self.times_shown(text, in_list=in_list, up_to=1) > 0

    def times_shown(self, text: str, *, in_list: bool = False, up_to: int = 2) -> int:
        """How many visible texts (not in text areas) hold ``text`` (``in_list``: inside a list entry), counted up to
        ``up_to``."""
        return int(evaluate(self.page, VISIBLE_TEXT_JS, [text, in_list, up_to]) or 0)

    # -- a page that goes blank

    def is_blank(self) -> bool:
        """The page shows nothing: no text and no control (e.g. the app's root unmounted after an uncaught error)."""
        try:
            return bool(evaluate(self.page, BLANK_JS))
        except Exception:
            return False

    def before_action(self) -> "BeforeAction":
        """What :meth:`check_blank` needs from the page before an action: its visible headings (at most 4) and how
        many page errors were seen so far."""
        try:
            headings = list(evaluate(self.page, HEADINGS_JS) or [])
        except Exception:
            headings = []
        return BeforeAction(headings, len(self.page_errors))

    def check_blank(self, element: str, action: str, before: "BeforeAction") -> bool:
        """Record a ``blank-after-action`` finding when the page shows nothing after ``action`` on ``element`` and
        still nothing a moment later (once per control label); True when it did. ``before``: taken by
        :meth:`before_action` just before the action, on a page that was not blank."""
        label = re.findall(r'"([^"]+)"', element)
        key = label[0] if label else element  # the same control, however it was described
        if key in self._blank_seen or not self.is_blank():
            return False
        self.page.wait_for_timeout(BLANK_CONFIRM_MS)
        if not self.is_blank():
            return False
        self._blank_seen.add(key)
        errors = self.page_errors[before.errors:]
        message = f"the page goes blank after {action} {element} (nothing is rendered"
        message += f"; uncaught error: {errors[0]})" if errors else ")"
        self.found("blank-after-action", element, message, full=True, action=action, context=" / ".join(before.headings),
                   page_error=errors[0] if errors else None)
        return True

    # -- recording

    def found(self, probe: str, element: str, message: str, *, shot_of: str | None = None, full: bool = False,
              expect: list[ActionRecord | None] | None = None, steps: list[ActionRecord] | None = None,
              **details) -> Finding:
        """Record a finding with a screenshot (of the element ``shot_of``, or of the viewport), the steps that
        led to it (``steps``, default: the journal's slice) and the expectations that failed (``expect``)."""
        target = self.page.locator(shot_of) if shot_of and not full else None
        finding = Finding(probe=probe, page_url=self.page.url, element=element, message=message,
                          screenshot=self.shots.take(self.page, probe, target), details=details)
        return self.keep(finding, expect, steps)

    def keep(self, finding: Finding, expect: list[ActionRecord | None] | None = None,
             steps: list[ActionRecord] | None = None) -> Finding:
        """Log ``finding`` with the steps that led to it (default: the journal's slice) and its expectations."""
        finding.actions = self._replay(expect, steps)
        self.log.found(finding)
        return finding

    def ok(self, probe: str, element: str, note: str = "", *, expect: list[ActionRecord | None] | None = None,
           steps: list[ActionRecord] | None = None) -> None:
        """Record that ``probe`` exercised ``element`` without a problem, with the steps (default: the journal's
        slice) and the expectations that held (``expect``)."""
        self.log.ok(probe, element, note, self._replay(expect, steps))

    def _replay(self, expect: list[ActionRecord | None] | None, steps: list[ActionRecord] | None) -> list[dict]:
        records = (self.journal.slice() if steps is None else steps) + [e for e in expect or [] if e is not None]
        return [r.model_dump(exclude_none=True) for r in records]

    def step(self, text: str) -> None:
        self.log.step(text)
