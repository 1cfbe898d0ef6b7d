"""Which checked items of a run become regression tests, and which recorded steps each one replays.

* a ``pass`` verdict replays its actions and asserts every expectation that held; without a held expectation
  nothing checked the expected outcome, so it is left out;
* a ``fail`` verdict replays its actions and asserts the expectations that held and those that failed (as they
  were written: the outcome the app should show), so the test fails on today's app and passes once it is fixed;
  without a failed expectation it is left out;
* ``error`` and not-checked items are left out, and so is an item with a step that reached its element only by
  its page-view reference (no reusable locator to replay it with).

Actions that ended in an error are not replayed (the run went on without them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from webtester.models import ActionRecord, Status, TestItem, Verdict
from webtester.runfolder import is_not_checked

#: steps on the page, replayed without a locator
PAGE_STEPS = frozenset({"goto", "go_back", "reload", "wait"})
#: expectations that check the whole page when they have no locator
PAGE_EXPECTATIONS = frozenset({"expect_text", "expect_no_text", "expect_url"})

LeftOut = Literal["error", "not checked", "no verdict", "no check of the outcome", "no failed check",
                  "no reusable locator"]


@dataclass
class Step:
    """One recorded step as the test replays it: ``number`` is its place (from 1) in the verdict's actions;
    ``replay`` False keeps it as a comment only (``why``)."""

    number: int
    record: ActionRecord
    replay: bool = True
    why: str = ""


@dataclass
class ItemPlan:
    """What becomes of one checklist item: its steps when exported, else ``left_out`` and ``why``."""

    item: TestItem
    verdict: Verdict | None
    steps: list[Step] = field(default_factory=list)
    left_out: LeftOut | None = None
    why: str = ""

    @property
    def exported(self) -> bool:
        return self.left_out is None

    @property
    def expected_to_fail(self) -> bool:
        """A test of a ``fail`` verdict: red on the app as the run found it."""
        return self.verdict is not None and self.verdict.status is Status.failed


def _needs_locator(record: ActionRecord) -> bool:
    if record.action in PAGE_STEPS or (record.action == "press" and record.target is None):
        return False
    return not (record.action in PAGE_EXPECTATIONS and record.target is None)


def _step(number: int, record: ActionRecord, verdict: Status) -> Step:
    if record.is_expectation():
        if record.outcome == "held" or (record.outcome == "failed" and verdict is Status.failed):
            return Step(number, record)
        why = "failed in the run (the item passed)" if record.outcome == "failed" else "its outcome was not recorded"
        return Step(number, record, replay=False, why=why)
    if record.outcome == "error":
        return Step(number, record, replay=False, why="ended in an error in the run")
    return Step(number, record)


def plan_item(item: TestItem, verdict: Verdict | None) -> ItemPlan:
    """The fate of ``item`` under ``verdict`` (see the module docstring)."""
    plan = ItemPlan(item, verdict)
    if verdict is None:
        plan.left_out, plan.why = "no verdict", "no verdict was recorded"
        return plan
    if verdict.status is Status.error:
        if is_not_checked(verdict):
            plan.left_out, plan.why = "not checked", "not checked by the tester"
        else:
            plan.left_out, plan.why = "error", "error verdict: the item could not be executed"
        return plan
    plan.steps = [_step(n, r, verdict.status) for n, r in enumerate(verdict.evidence.actions, 1)]
    replayed = [s for s in plan.steps if s.replay]
    unlocated = next((s for s in replayed if s.record.locator is None and _needs_locator(s.record)), None)
    if unlocated is not None:
        plan.left_out = "no reusable locator"
        plan.why = (f"step {unlocated.number} ({unlocated.record.step}) reached its element by its page-view "
                    "reference only: no reusable locator to replay it with")
    elif verdict.status is Status.passed and not any(s.record.outcome == "held" for s in replayed):
        plan.left_out, plan.why = "no check of the outcome", "no recorded check of the expected outcome"
    elif verdict.status is Status.failed and not any(s.record.outcome == "failed" for s in replayed):
        plan.left_out = "no failed check"
        plan.why = "no recorded check of the expected outcome failed (the fail was judged from the page alone)"
    return plan


def plan_items(checklist: list[TestItem], verdicts: list[Verdict]) -> list[ItemPlan]:
    """The plans of a checklist's items, in checklist order."""
    by_id = {v.item_id: v for v in verdicts}
    return [plan_item(i, by_id.get(i.id)) for i in checklist]
