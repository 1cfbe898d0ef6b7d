"""The tester interface the workflow drives, and the budgets it enforces.

A tester has two stages: ``generate_checklist`` (instruction -> test items) and
``detect`` (one item, executed on a fresh page -> one verdict). The LLM tester
is one implementation; a rule-based baseline plugs into the same workflow and
artifacts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from webtester.models import Cost, TestItem, Verdict


class ChecklistError(RuntimeError):
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
    """Tool calls left for one item, bounded by the instance's budget too."""

    limit: int
    instance: InstanceBudget
    used: int = 0
    model_calls: int = 0
    extra_model_calls: int = field(default=5, repr=False)

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


@runtime_checkable
class Tester(Protocol):
    """A two-stage tester the workflow can drive."""

    name: str
    """Label written to results and manifest, e.g. ``llm:gpt-4o``, ``scripted``, ``replay``, ``baseline``."""

    def describe(self) -> dict[str, Any]:
        """Manifest entry: models per stage, prompts (name, version, sha256), replay/scripted flags; no secrets."""
        ...

    def start_instance(self, index: str, folder: Path) -> None:
        """Called before an instance's stages run (or resume); ``folder`` is its run folder."""
        ...

    def generate_checklist(self, instruction: str, app_url: str, max_items: int) -> Checklist:
        """At most ``max_items`` test items; raises :class:`ChecklistError` when none can be produced."""
        ...

    def detect(self, item: TestItem, item_page: Any, budget: ItemBudget, *, instruction: str = "") -> Verdict:
        """Execute ``item`` on ``item_page`` (a fresh browser context) and return exactly one verdict.

        A tester whose ``uses_item_page`` attribute is False drives its own browser: it gets the app's
        base URL (a string) instead of a page, and the workflow opens no page for the item.
        """
        ...
