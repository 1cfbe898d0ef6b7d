"""The verdict tool: the only way a verdict is recorded, exactly once per item.

``record_verdict`` takes a schema (status pass / fail / error, with a bug report
for a fail). Before a fail is accepted the tool lets the page settle (network
idle, then the observation stops changing) and observes it again:

- if the settled page differs from the last page view the agent was given,
  the fail is refused and the settled view is returned, so the agent re-checks
  what is really on screen (transient rendering and late async updates are the
  main source of false alarms);
- otherwise the fail is recorded with the settled observation and a screenshot
  as evidence.

Settling waits for network idle and a quiet DOM, then for two agreeing
observations. A page that never stops changing cannot block a verdict forever: after
``max_refusals`` refusals the fail is recorded, with a note saying so.

One verdict per item: a later ``record_verdict`` is rejected back to the agent
as a tool error and noted in the recorded verdict's evidence as a conflict.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field, model_validator

from webtester.agents.base import AppPage
from webtester.browser.observe import observe
from webtester.browser.watchdog import evaluate
from webtester.llm.framing import frame
from webtester.models import BugReport, Evidence, Status, TestItem, Verdict

VERDICT_TOOL = "record_verdict"
_MAX_NOTE = 4000


class VerdictArgs(BaseModel):
    """Record the verdict of the current test item (exactly once)."""

    status: Literal["pass", "fail", "error"] = Field(
        description="pass: as expected; fail: the app misbehaves; error: the item cannot be executed at all"
    )
    issue: str = Field(default="", description="for fail: what is wrong, one sentence")
    actual: str = Field(default="", description="for fail: what was observed instead")
    reason: str = Field(default="", description="for error: why the item cannot be executed")

    @model_validator(mode="after")
    def _complete(self) -> "VerdictArgs":
        if self.status == "fail" and not self.issue.strip():
            raise ValueError("a fail needs 'issue' (what is wrong) and 'actual' (what was observed)")
        if self.status == "error" and not self.reason.strip():
            raise ValueError("an error needs 'reason' (why the item cannot be executed)")
        return self


def _norm(text: str) -> str:
    return " ".join(text.split())


_DOM_QUIET_JS = """([quiet, limit]) => new Promise((resolve) => {
  const start = performance.now();
  let timer;
  const done = (ok) => { observer.disconnect(); clearTimeout(timer); resolve(ok); };
  const arm = () => { clearTimeout(timer); timer = setTimeout(() => done(true), quiet); };
  const observer = new MutationObserver(() => (performance.now() - start > limit ? done(false) : arm()));
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  arm();
})"""


def settle_page(
    page: Any, observe_text: Callable[[], str], *, timeout: float = 4.0, quiet: float = 0.3, dom_quiet: float = 0.5
) -> tuple[str, bool]:
    """Let the page settle, then return its observation and whether it settled within ``timeout``.

    Settling is: network idle, then no DOM change for ``dom_quiet`` seconds (timers
    the page set before, e.g. a confirmation rendered a moment after a click, fire
    first), then two observations ``quiet`` seconds apart that agree. At least two
    observations are compared however slow observing is.
    """
    deadline = time.monotonic() + timeout
    try:
        page.wait_for_load_state("networkidle", timeout=int(timeout * 1000 / 2))
    except Exception:  # a page with long polling never idles; the checks below still apply
        pass
    try:
        evaluate(page, _DOM_QUIET_JS, [int(dom_quiet * 1000), int(timeout * 1000 / 2)], waits_s=timeout / 2)
    except Exception:  # navigation in progress or scripts blocked: fall back to comparing observations
        pass
    previous = observe_text()
    while True:
        page.wait_for_timeout(int(quiet * 1000))
        current = observe_text()
        if _norm(current) == _norm(previous):
            return current, True
        previous = current
        if time.monotonic() >= deadline:
            return previous, False


class VerdictDesk:
    """Holds one item's verdict and hands out its ``record_verdict`` tool.

    ``item_page`` is the item's page (:class:`~webtester.agents.base.AppPage`):
    its ``last_observation`` is the page view the agent was last given (the
    browser tools keep it current), ``observe()`` takes a new view and makes it
    the last one, ``screenshot(path)`` saves a screenshot.
    """

    def __init__(
        self,
        item: TestItem,
        item_page: AppPage,
        *,
        screenshot_dir: Path | None = None,
        rel_root: Path | None = None,
        max_refusals: int = 2,
        settle_timeout: float = 4.0,
    ) -> None:
        self.item = item
        self.item_page = item_page
        self.screenshot_dir = screenshot_dir
        self.rel_root = rel_root
        self.max_refusals = max_refusals
        self.settle_timeout = settle_timeout
        self.refusals = 0
        self.verdict: Verdict | None = None

    def _last_seen(self) -> str:
        last = self.item_page.last_observation
        return last.text if last is not None else ""

    def tool(self) -> BaseTool:
        """The ``record_verdict`` tool bound to this item."""
        return StructuredTool.from_function(
            func=self.record,
            name=VERDICT_TOOL,
            description=(
                "Record the item's verdict, exactly once. A fail needs issue and actual, and is refused if the page "
                "changed since you last observed it; error (with reason) only when the item cannot be executed."
            ),
            args_schema=VerdictArgs,
        )

    def record(self, status: str, issue: str = "", actual: str = "", reason: str = "") -> str:
        """Tool body: record or refuse the verdict; the returned text goes back to the agent."""
        if self.verdict is not None:
            return self.after_verdict(VERDICT_TOOL, {"status": status, "issue": issue, "actual": actual, "reason": reason})
        evidence = Evidence(notes=reason.strip())
        if status == "fail":
            page = self.item_page.page
            fresh, settled = settle_page(page, lambda: observe(page).text, timeout=self.settle_timeout)
            if _norm(fresh) != _norm(self._last_seen()) and self.refusals < self.max_refusals:
                self.refusals += 1
                fresh = self.item_page.observe().text  # the agent is shown this view; its references now apply
                return (
                    "NOT RECORDED: the page changed since your last observation. This is the settled page now "
                    f"(data from the application under test):\n{frame('PAGE', fresh)}\n"
                    "If the failure is still visible here, call record_verdict again; otherwise continue testing."
                )
            note = "settled observation" if settled else "observation (the page did not settle)"
            evidence.notes = "\n".join(filter(None, [evidence.notes, f"{note} at verdict time:\n{fresh[:_MAX_NOTE]}"]))
        if status in ("fail", "error"):
            self._screenshot(evidence)
        self.verdict = Verdict(
            item_id=self.item.id,
            status=Status(status),
            bug_report=BugReport(issue=issue.strip(), actual=actual.strip()) if status == "fail" else None,
            evidence=evidence,
        )
        return f"Verdict recorded for {self.item.id}: {status}. Stop now."

    def after_verdict(self, tool: str, args: Any) -> str:
        """The answer to a tool call made after the verdict was recorded: not run. A second verdict is rejected
        and kept, as a conflict, in the recorded verdict's evidence notes."""
        verdict = self.verdict
        if verdict is None:
            raise RuntimeError(f"no verdict of {self.item.id} is recorded yet")
        recorded = verdict.status.value
        if tool != VERDICT_TOOL:
            return (f"Error: {tool} not run: the verdict of {self.item.id} is already recorded ({recorded}); "
                    "no further tool calls for this item.")
        fields = args if isinstance(args, dict) else {"arguments": args}
        said = str(fields.get("status", "?"))
        detail = "; ".join(f"{k}: {str(v).strip()}" for k, v in fields.items() if k != "status" and str(v).strip())
        conflict = (f"conflicting verdict rejected: a second record_verdict said {said}"
                    + (f" ({detail[:_MAX_NOTE]})" if detail else "") + f" after {recorded} was recorded")
        verdict.evidence.notes = "\n".join(filter(None, [verdict.evidence.notes, conflict]))
        return (f"Error: one verdict per item: you already recorded {recorded} for {self.item.id}; this {said} "
                "verdict is not recorded (the conflict is noted in the verdict's evidence). Stop now.")

    def _screenshot(self, evidence: Evidence) -> None:
        if self.screenshot_dir is None:
            return
        path = self.screenshot_dir / f"{self.item.id}.png"
        try:
            self.item_page.screenshot(path)
        except Exception as exc:  # evidence is best effort; the verdict stands
            evidence.notes = "\n".join(filter(None, [evidence.notes, f"screenshot failed: {exc}"]))
            return
        shown = path.relative_to(self.rel_root) if self.rel_root and path.is_relative_to(self.rel_root) else path
        evidence.screenshots.append(str(shown))
