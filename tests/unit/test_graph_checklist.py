"""Checklist generation: structured output, repairs, bounded retries, dedupe, size limit, numbering."""

from __future__ import annotations

import pytest

from webtester.agents.base import ChecklistError
from webtester.agents.checklist import generate_checklist
from webtester.llm.scripted import Script, ScriptedChatModel
from webtester.prompts import PromptError, load_prompt, parse_prompt


def _item(dim: str, text: str) -> dict:
    return {"dimension": dim, "description": text, "action": f"do {text}", "expected": f"see {text}"}


def _run(replies: list, max_items: int = 20, retries: int = 2):
    model = ScriptedChatModel(script=Script.build({"checklist": replies}))
    return generate_checklist(model, "An app", "http://127.0.0.1:1/", max_items, retries=retries)


def test_items_numbered_per_dimension_deduplicated_and_capped():
    items = [_item("content", "Title is shown"), _item("functionality", "Add a row"), _item("IX", "Toast appears"),
             _item("functionality", "Add a  ROW!"), _item("constraint", "Empty name rejected"),
             _item("functionality", "Delete a row"), _item("functionality", "Edit a row")]
    checklist = _run([{"structured": {"items": items}}], max_items=5)
    assert [i.id for i in checklist.items] == ["FT-01", "FT-02", "CS-01", "IX-01", "CT-01"]
    assert checklist.items[1].description == "Delete a row"  # the duplicate was dropped, 'Edit a row' cut by the cap
    assert any("duplicate" in n for n in checklist.notes) and any("first 5 of 6" in n for n in checklist.notes)
    assert checklist.cost.model_calls == 1 and checklist.cost.input_tokens > 0


def test_json_in_text_is_repaired_without_a_retry():
    text = "Here you go:\n```json\n{\"items\": [" + ",".join(
        f'{{"dimension": "{d}", "description": "thing {d}", "action": "a", "expected": "e"}}' for d in ("FT", "bogus", "CT")
    ) + "]}\n```"
    checklist = _run([{"content": text}])
    assert [i.id for i in checklist.items] == ["FT-01", "CT-01"]
    assert "dropped 1 invalid item" in checklist.notes[0] and checklist.cost.model_calls == 1


def test_unparsable_replies_are_retried_then_reported():
    with pytest.raises(ChecklistError, match="after 3 attempts.*not valid JSON"):
        _run([{"content": "I cannot help"}, {"structured": {"items": "none"}},
              {"invalid_tool_call": {"name": "ChecklistOutput", "args": "{items: ["}}])


def test_retry_succeeds_after_feedback():
    checklist = _run([{"structured": {"items": [{"dimension": "FT"}]}}, {"structured": {"items": [_item("FT", "Works")]}}])
    assert [i.id for i in checklist.items] == ["FT-01"]
    assert "attempt 1" in checklist.notes[0] and checklist.cost.model_calls == 2


def test_prompts_are_versioned_files():
    for name in ("checklist", "checklist_user", "detection", "detection_user"):
        prompt = load_prompt(name)
        assert prompt.name == name and prompt.version and len(prompt.sha256) == 64
    with pytest.raises(PromptError, match="needs a value for \\$instruction"):
        load_prompt("checklist_user").render(app_url="x", max_items=3)
    with pytest.raises(PromptError, match="header"):
        parse_prompt("no header here")
