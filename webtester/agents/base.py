"""The tester interface the workflow drives, and the budgets it enforces.

A tester is prepared once per instance (``prepare``: it may look at the app
through pages of the run's browser) and has two stages: ``generate_checklist``
(instruction -> test items) and ``detect`` (one item, executed on a fresh page
-> one verdict). The LLM tester is one implementation; the rule-based baseline
plugs into the same workflow and artifacts.

Every page a tester gets comes from the run's browser, in a fresh context
confined to the app's origin (:class:`AppPage`, opened by a :class:`PageOpener`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from playwright.sync_api import Page
from pydantic import BaseModel, Field

from webtester.browser.evidence import EvidenceLog
from webtester.browser.observe import Observation
from webtester.errors import StepError
from webtester.models import Cost, TestItem, Verdict


class ChecklistError(StepError):
    """Checklist generation gave no usable checklist (after its bounded repairs and retries)."""

    def __init__(self, message: str, cost: Cost | None = None) -> None:
        super().__init__(message)
        self.cost = cost or Cost()


class Checklist(BaseModel):
    """What checklist generation produced, and what it cost."""

    items: list[TestItem]
    cost: Cost = Field(default_factory=Cost)
    notes: list[str] = Field(default_factory=list, description="repairs, dropped duplicates, retries")


@dataclass
class InstanceBudget:
    """Tool calls left for a whole instance (the paper capped a run at 150 turns)."""

    limit: int
    used: int = 0

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)


@dataclass
class ItemBudget:
    """Tool calls left for one item, bounded by the instance's budget too, and the item's wall-clock deadline."""

    limit: int
    instance: InstanceBudget
    used: int = 0
    model_calls: int = 0
    extra_model_calls: int = field(default=5, repr=False)
    deadline: float | None = None
    """``time.monotonic()`` by which the item must end (None: no time limit)."""
    time_limit: str = ""
    """What the deadline is, e.g. ``item time limit of 300 s``."""

    def limit_time(self, seconds: float, what: str) -> None:
        """End the item within ``seconds`` from now (``what`` names the limit), unless an earlier deadline is set."""
        deadline = time.monotonic() + seconds
        if self.deadline is None or deadline < self.deadline:
            self.deadline, self.time_limit = deadline, what

    def out_of_time(self) -> bool:
        """Whether the deadline has passed (checked between steps: each step is bounded by its own timeouts)."""
        return self.deadline is not None and time.monotonic() >= self.deadline

    @property
    def remaining(self) -> int:
        return max(0, min(self.limit - self.used, self.instance.remaining))

    def spend(self) -> bool:
        """Take one tool call; False (and nothing taken) when the budget is used up."""
        if self.remaining <= 0:
            return False
        self.used += 1
        self.instance.used += 1
        return True

    def may_call_model(self) -> bool:
        """Whether another model turn is allowed (tool calls plus a few turns without one)."""
        return self.remaining > 0 and self.model_calls < self.limit + self.extra_model_calls

    def exhausted_reason(self) -> str:
        if self.instance.remaining <= 0:
            return f"instance budget of {self.instance.limit} tool calls used up"
        if self.used >= self.limit:
            return f"item budget of {self.limit} tool calls used up"
        return f"item budget of {self.limit + self.extra_model_calls} model turns used up"


class AppPage(Protocol):
    """A page of the app under test in a fresh browser context (no cookies, no storage) confined to the app's
    origin, with its evidence collectors (:class:`webtester.browser.session.ItemPage` implements it)."""

    base_url: str
    page: Page
    evidence: EvidenceLog
    last_observation: Observation | None
    """The latest view the agent was given (element references are checked against it)."""

    def observe(self, *, ref: str | None = None, full: bool = False) -> Observation:
        """Observe the page and remember the view."""
        ...

    def screenshot(self, path: str | Path | None = None, *, label: str = "shot", full_page: bool = False,
                   ref: str | None = None) -> str:
        """Save a PNG screenshot and return its path."""
        ...

    def close(self) -> None:
        """Close the context (saves its trace when tracing); idempotent."""
        ...


class PageOpener(Protocol):
    """Opens pages in the run's browser (the one the workflow tests every item in)."""

    def new_page(self, base_url: str, *, trace_name: str | None = None) -> AppPage:
        """A fresh confined context and page at ``base_url``; traced as ``trace_name`` when the run keeps traces.
        The caller closes it."""
        ...


@runtime_checkable
class Tester(Protocol):
    """A two-stage tester the workflow can drive."""

    name: str
    """Label written to results and manifest, e.g. ``llm:gpt-4o``, ``scripted``, ``replay``, ``baseline``."""

    def describe(self) -> dict[str, Any]:
        """Manifest entry: models per stage, prompts (name, version, sha256), replay/scripted flags; no secrets."""
        ...

    def start_instance(self, index: str, folder: Path) -> None:
        """Called before an instance's stages run, and again when it resumes; ``folder`` is its run folder."""
        ...

    def prepare(self, app_url: str, pages: PageOpener, *, instruction: str = "") -> None:
        """Called once per instance, after the app started and before the checklist; pages are opened through
        ``pages`` only. A resumed instance is not prepared again: what detection needs from this step is kept
        in the instance folder and reloaded by :meth:`start_instance`."""
        ...

    def generate_checklist(self, instruction: str, app_url: str, max_items: int) -> Checklist:
        """At most ``max_items`` test items; raises :class:`ChecklistError` when none can be produced."""
        ...

    def detect(self, item: TestItem, page: AppPage | None, budget: ItemBudget, *, instruction: str = "") -> Verdict:
        """Execute ``item`` on ``page`` (a fresh confined context at the app's start page) and return exactly
        one verdict. A tester with ``needs_item_page = False`` decides from what :meth:`prepare` gathered and is
        given no page (``None``); without that attribute a page is always given."""
        ...
