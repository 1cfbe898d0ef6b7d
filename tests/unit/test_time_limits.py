"""Wall-clock limits: an item ends at its limit, items the instance's limit leaves out are recorded as not reached,
and the instance still writes its result. An item's recorded time is its own (a tester's plan over all items is not
counted on the first one)."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from detection_fakes import budget, detect
from langchain_core.tools import tool

from webtester.agents.base import AppPage, Checklist, ItemBudget, PageOpener
from webtester.agents.detection import run_detection
from webtester.agents.verdict import VerdictDesk
from webtester.graphs.context import RunContext
from webtester.graphs.workflow import compile_graph
from webtester.llm.scripted import Script, ScriptedChatModel
from webtester.models import Dimension, Status, TestItem, Verdict
from webtester.runfolder import InstanceFolder
from webtester.settings import Settings

PAUSE = 0.2


@tool
def wait_a_moment() -> str:
    """Wait for the page."""
    time.sleep(PAUSE)
    return "waited"


def busy_model() -> ScriptedChatModel:
    """A model that keeps calling a tool and never records a verdict."""
    return ScriptedChatModel(script=Script.build({"items": {"*": {
        "replies": [{"tool_calls": [{"name": "wait_a_moment", "args": {}}]}], "repeat_last": True}}}))


def test_an_item_over_its_time_limit_ends_with_an_error():
    item_budget = budget(tool_calls=100)
    item_budget.limit_time(1.0, "item time limit of 1 s")
    started = time.monotonic()
    verdict = detect(busy_model(), tools=[wait_a_moment], item_budget=item_budget)
    assert verdict.status is Status.error
    assert verdict.evidence.notes.startswith("item time limit of 1 s reached"), verdict.evidence.notes
    assert 1.0 <= time.monotonic() - started < 10
    assert 1 <= item_budget.used < 100 and verdict.evidence.steps


class BusyTester:
    """Four items, each detected by the busy model through the detection loop (no page needed)."""

    name = "scripted"
    needs_item_page = False

    def describe(self) -> dict[str, Any]:
        return {"tester": self.name}

    def start_instance(self, index: str, folder: Path) -> None:
        pass

    def prepare(self, app_url: str, pages: PageOpener, *, instruction: str = "") -> None:
        pass

    def generate_checklist(self, instruction: str, app_url: str, max_items: int) -> Checklist:
        return Checklist(items=[TestItem(id=f"FT-0{n}", dimension=Dimension.functionality, description=f"Step {n}")
                                for n in range(1, 5)])

    def detect(self, item: TestItem, page: AppPage | None, budget: ItemBudget, *, instruction: str = "") -> Verdict:
        desk = VerdictDesk(item, SimpleNamespace(last_observation=None, page=None))  # type: ignore[arg-type]
        return run_detection(busy_model(), item, [wait_a_moment], desk, budget)


def test_the_instance_limit_records_the_rest_as_not_reached_and_writes_the_result(tmp_path):
    settings = Settings(item_time_limit=0.5, instance_time_limit=1.2, max_tool_calls_per_item=100)
    folder = InstanceFolder(tmp_path, "app")
    app = SimpleNamespace(url="http://127.0.0.1:9/", stop=lambda: None)
    ctx = RunContext.create(BusyTester(), folder, lambda: app, settings)  # type: ignore[arg-type]
    started = time.monotonic()
    state = compile_graph("e2e").invoke(
        {"index": "app", "instruction": "An app", "mode": "e2e", "target": "app", "gold": [], "verdicts": []},
        context=ctx,
    )
    assert time.monotonic() - started < 20
    verdicts = {v["item_id"]: v for v in state["verdicts"]}
    assert sorted(verdicts) == ["FT-01", "FT-02", "FT-03", "FT-04"]
    assert all(v["status"] == "error" for v in verdicts.values())
    assert verdicts["FT-01"]["evidence"]["notes"].startswith("item time limit of 0.5 s reached")
    assert verdicts["FT-04"]["evidence"]["notes"] == "not reached: instance time limit of 1.2 s"
    assert verdicts["FT-04"]["cost"]["model_calls"] == 0  # not started at all
    assert state["result"]["status"] == "ok" and folder.read_result() is not None
    assert len(folder.read_verdicts()) == 4


class PlanningTester(BusyTester):
    """Plans once over the whole checklist (slowly, as the baseline does), then decides each item quickly."""

    plan_seconds, item_seconds = 1.0, 0.05

    def __init__(self) -> None:
        self.planned: tuple[str, ...] = ()

    def plan_detection(self, items: list[TestItem], *, instruction: str = "") -> None:
        key = tuple(i.id for i in items)
        if key != self.planned:
            time.sleep(self.plan_seconds)
            self.planned = key

    def detect(self, item: TestItem, page: AppPage | None, budget: ItemBudget, *, instruction: str = "") -> Verdict:
        time.sleep(self.item_seconds)
        return Verdict(item_id=item.id, status=Status.passed)


def test_a_plan_over_all_items_is_not_counted_in_the_first_items_time(tmp_path):
    folder = InstanceFolder(tmp_path, "app")
    app = SimpleNamespace(url="http://127.0.0.1:9/", stop=lambda: None)
    ctx = RunContext.create(PlanningTester(), folder, lambda: app, Settings())  # type: ignore[arg-type]
    state = compile_graph("e2e").invoke(
        {"index": "app", "instruction": "An app", "mode": "e2e", "target": "app", "gold": [], "verdicts": []},
        context=ctx,
    )
    seconds = [v["cost"]["seconds"] for v in state["verdicts"]]
    assert len(seconds) == 4 and all(PlanningTester.item_seconds <= s < PlanningTester.plan_seconds for s in seconds), seconds
