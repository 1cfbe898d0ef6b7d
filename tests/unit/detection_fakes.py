"""What the detection-loop tests share: a test item, a page stand-in, and one call of the loop."""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool, tool

from webtester.agents.base import InstanceBudget, ItemBudget
from webtester.agents.detection import run_detection
from webtester.agents.verdict import VerdictDesk
from webtester.models import Dimension, TestItem, Verdict

ITEM = TestItem(id="FT-01", dimension=Dimension.functionality, description="Add a task", action="Type and press Add",
                expected="The task is listed")


@tool
def observe() -> str:
    """Observe the page."""
    return 'main\n  button "Add" [e1]'


def page_stub() -> Any:
    """A page for verdicts that need none (pass, error): no observation given yet, no browser."""
    return SimpleNamespace(last_observation=None, page=None)


def budget(tool_calls: int = 30) -> ItemBudget:
    return ItemBudget(tool_calls, InstanceBudget(150))


def detect(model: BaseChatModel, *, tools: Sequence[BaseTool] = (observe,), item_budget: ItemBudget | None = None,
           observation: str = "", instruction: str = "") -> Verdict:
    """``ITEM`` executed by ``model`` through the detection loop."""
    desk = VerdictDesk(ITEM, page_stub())
    return run_detection(model, ITEM, list(tools), desk, item_budget or budget(), observation=observation,
                         instruction=instruction)
