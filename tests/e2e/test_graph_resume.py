"""An interrupted run resumes where it stopped: every item gets its verdict exactly once."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from webtester.agents.llm_tester import LLMTester
from webtester.bundled import get_instance
from webtester.graphs.run import run_instance
from webtester.llm.scripted import Script, ScriptContext, ScriptedChatModel
from webtester.models import Status
from webtester.settings import Settings

pytestmark = pytest.mark.browser

ITEMS = [
    {"dimension": d, "description": f"{d} item {n}", "action": "Look at the page", "expected": "It is shown"}
    for n, d in enumerate(["functionality", "functionality", "interaction"], start=1)
]
IDS = ["FT-01", "FT-02", "IX-01"]


def counting_tester(calls: Counter, interrupt_at: str | None = None) -> LLMTester:
    def reply(ctx: ScriptContext) -> dict:
        calls[ctx.channel] += 1
        if ctx.channel == interrupt_at:
            raise KeyboardInterrupt  # the process is stopped in the middle of this item
        if ctx.channel == "checklist":
            return {"structured": {"items": ITEMS}}
        return {"verdict": {"status": "pass"}}

    model = ScriptedChatModel(script=Script.build({"checklist": [reply], "items": {"*": {"replies": [reply], "repeat_last": True}}}))
    return LLMTester(model, model, name="scripted")


def test_interrupted_run_resumes_with_the_next_item(tmp_path, browser):
    inst = get_instance("portfolio_site")
    settings = Settings()
    first: Counter = Counter()
    with pytest.raises(KeyboardInterrupt):
        run_instance(inst, mode="e2e", tester=counting_tester(first, interrupt_at="IX-01"), out_dir=tmp_path,
                     settings=settings, browser=browser)
    folder = tmp_path / "portfolio_site"
    logged = [json.loads(x)["item_id"] for x in (folder / "verdicts.jsonl").read_text().splitlines()]
    assert logged == ["FT-01", "FT-02"] and not (folder / "result.json").exists()
    assert json.loads((tmp_path / "manifest.json").read_text())["instances"]["portfolio_site"]["status"] == "running"

    second: Counter = Counter()
    result = run_instance(inst, mode="e2e", tester=counting_tester(second), out_dir=tmp_path, settings=settings, browser=browser)
    assert [v.item_id for v in result.verdicts] == IDS
    assert all(v.status is Status.passed for v in result.verdicts)
    assert second == Counter({"IX-01": 1})  # neither the checklist nor finished items ran again
    logged = [json.loads(x)["item_id"] for x in (folder / "verdicts.jsonl").read_text().splitlines()]
    assert logged == IDS
    assert json.loads((tmp_path / "manifest.json").read_text())["instances"]["portfolio_site"]["status"] == "ok"

    third: Counter = Counter()
    again = run_instance(inst, mode="e2e", tester=counting_tester(third), out_dir=tmp_path, settings=settings, browser=browser)
    assert not third and [v.item_id for v in again.verdicts] == IDS  # a finished run is not run again


def test_failed_checklist_fails_the_instance_with_the_reason(tmp_path, browser):
    inst = get_instance("portfolio_site")
    model = ScriptedChatModel(script=Script.build({"checklist": [{"content": "no"}] * 3}))
    result = run_instance(inst, mode="e2e", tester=LLMTester(model, model, name="scripted"), out_dir=tmp_path,
                          settings=Settings(), browser=browser)
    assert result.status == "failed" and "checklist generation failed" in result.reason
    assert result.verdicts == [] and result.cost.model_calls == 3 and result.cost.input_tokens > 0
    saved = json.loads((tmp_path / "portfolio_site" / "result.json").read_text())
    assert saved["status"] == "failed" and "after 3 attempts" in saved["reason"]
    assert len((tmp_path / "portfolio_site" / "exchanges.jsonl").read_text().splitlines()) == 3


def test_instance_budget_turns_the_remaining_items_into_errors(tmp_path, browser):
    inst = get_instance("portfolio_site")
    spec = {"checklist": [{"structured": {"items": ITEMS}}],
            "items": {"*": {"replies": [{"tool_calls": [{"name": "observe", "args": {}}]}], "repeat_last": True}}}
    model = ScriptedChatModel(script=Script.build(spec))
    result = run_instance(inst, mode="e2e", tester=LLMTester(model, model, name="scripted"), out_dir=tmp_path,
                          settings=Settings(max_tool_calls_per_item=3, max_tool_calls_per_instance=4), browser=browser)
    notes = [v.evidence.notes for v in result.verdicts]
    assert [v.status for v in result.verdicts] == [Status.error] * 3
    assert "item budget of 3" in notes[0] and "instance budget of 4" in notes[1] and "instance budget of 4" in notes[2]
    assert [v.cost.tool_calls for v in result.verdicts] == [3, 1, 0]
