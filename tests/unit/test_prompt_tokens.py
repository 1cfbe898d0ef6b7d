"""The prompt-token benchmark's pure parts: a first request split into its parts, a recorded run's tokens per
detection step, and the caps of the opening message."""

from __future__ import annotations

import json

from langchain_core.messages import HumanMessage, SystemMessage

from webtester.agents.detection import FIRST_PAGE_CHARS, INSTRUCTION_CHARS, detection_messages
from webtester.eval.benchmarks.prompt_tokens import (
    Row,
    detection_step_tokens,
    request_parts,
    step_tokens_line,
    summarize,
)
from webtester.llm.context import estimate_tokens
from webtester.models import Dimension, TestItem

ITEM = TestItem(id="FT-01", dimension=Dimension.functionality, description="Adding a task lists it")


def test_request_parts_split_the_estimate_into_system_tools_item_and_page():
    system = SystemMessage(content="s" * 400)
    user = HumanMessage(content="Test item id: FT-01\n" + "i" * 180 + "\n<<<PAGE\n" + "p" * 800 + "\nPAGE>>>")
    tools = [{"type": "function", "function": {"name": "click", "description": "d" * 300, "parameters": {}}}]
    parts = request_parts([system, user], tools)
    assert parts["system"] == (400 + 16) // 4
    assert parts["tools"] == len(json.dumps(tools)) // 4
    assert parts["observation"] == 800 // 4
    assert sum(parts.values()) == estimate_tokens([system, user], tools)
    assert parts["item"] >= (len(user.content) - 800) // 4  # the item, its frame lines and the estimate's rounding
    rows = [Row("a", "FT-01", parts, server=500), Row("a", "FT-02", {**parts, "observation": 0})]
    summary = summarize(rows)
    assert summary["estimate"]["max"] == sum(parts.values()) and summary["server"] == {"count": 1, "mean": 500, "max": 500}
    assert abs(sum(summary["shares"].values()) - 1) < 1e-9


def _exchange(channel: str, turn: int, tokens: int | None, tools: list[str] | None = None, error: bool = False) -> str:
    entry: dict = {"channel": channel, "turn": turn, "tools": tools if tools is not None else ["click", "record_verdict"]}
    if error:
        entry["error"] = "APITimeoutError: Request timed out."
    else:
        usage = {"input_tokens": tokens, "output_tokens": 5, "total_tokens": (tokens or 0) + 5} if tokens else None
        entry["response"] = {"type": "ai", "data": {"content": "", "usage_metadata": usage}}
    return json.dumps(entry)


def test_detection_step_tokens_of_a_recorded_run(tmp_path):
    app = tmp_path / "run" / "todo_app"
    app.mkdir(parents=True)
    lines = [
        _exchange("checklist", 0, 9000, tools=[]),  # checklist generation: not a detection step
        _exchange("FT-01", 0, 1000, error=True),  # failed, then retried: the retry counts
        _exchange("FT-01", 0, 1200),
        _exchange("FT-01", 1, 1500),
        _exchange("FT-02", 0, 1100),
        _exchange("FT-02", 1, None),  # a reply with no usage
        _exchange("FT-03", 0, 0, error=True),  # failed for good
    ]
    (app / "exchanges.jsonl").write_text("\n".join(lines) + "\n")
    figures = detection_step_tokens(tmp_path / "run")
    assert figures["steps"] == 5 and figures["unreported"] == 2
    assert figures["first"] == {"count": 2, "mean": 1150, "max": 1200}
    assert figures["all"] == {"count": 3, "mean": (1200 + 1500 + 1100) / 3, "max": 1500}
    assert detection_step_tokens(app) == figures == detection_step_tokens(app / "exchanges.jsonl")
    assert "first mean 1150, max 1200" in step_tokens_line(figures)


def test_the_opening_message_caps_the_page_view_and_the_instruction():
    page = "\n".join(f'- button "Item {n}" [e{n}]' for n in range(400))
    user = detection_messages(ITEM, "Build a to-do app.\n" * 400, page, 30)[1].content
    assert isinstance(user, str)
    shown = user.split("<<<PAGE\n")[1].split("\nPAGE>>>")[0]
    kept = shown.splitlines()[:-1]
    assert len(shown) <= FIRST_PAGE_CHARS + 80 and kept == page.splitlines()[: len(kept)]
    assert shown.endswith(f"(truncated: {400 - len(kept)} more lines; use the observe tool to see more)")
    instruction = user.split("<<<INSTRUCTION\n")[1].split("\nINSTRUCTION>>>")[0]
    assert len(instruction) <= INSTRUCTION_CHARS + 80 and "(truncated: " in instruction
    small = detection_messages(ITEM, "Build a to-do app.", page[:500], 30)[1].content
    assert isinstance(small, str) and page[:500] in small and "truncated" not in small
