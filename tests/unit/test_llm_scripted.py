"""Scripted chat models: real tool calls and structured output from a script, chosen by channel and turn."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool
from pydantic import BaseModel

from webtester.llm.scripted import Script, ScriptedChatModel, ScriptedModelError, ScriptError


@tool
def click(ref: str) -> str:
    """Click an element by reference."""
    return f"clicked {ref}"


class Answer(BaseModel):
    """An answer."""

    value: int


def _opening(item: str = "FT-01", page: str = "") -> list:
    return [SystemMessage(content="system"), HumanMessage(content=f"Test item id: {item}\n{page}")]


def test_tool_call_depends_on_last_tool_output():
    script = Script.build({"items": {"FT-01": [
        {"tool_calls": [{"name": "click", "args": {"ref": {"$match": r'button "Book" \[(e\d+)\]'}}}]},
    ]}})
    model = ScriptedChatModel(script=script).bind_tools([click])
    history = _opening(page='button "Cancel" [e3]') + [
        AIMessage(content="", tool_calls=[{"name": "click", "args": {"ref": "e3"}, "id": "c0"}]),
        ToolMessage(content='dialog\n  button "Book" [e17]\n  button "Close" [e18]', tool_call_id="c0"),
    ]
    # turn 1 of FT-01 is not scripted -> clear error; turn 0 matches against the opening observation
    with pytest.raises(ScriptedModelError, match="no reply for 'FT-01' turn 1"):
        model.invoke(history)
    script.channels["FT-01"].replies.append(script.channels["FT-01"].replies[0])
    reply = model.invoke(history)
    assert reply.tool_calls[0]["name"] == "click"
    assert reply.tool_calls[0]["args"] == {"ref": "e17"}
    assert reply.usage_metadata["input_tokens"] > 0 and reply.usage_metadata["output_tokens"] > 0


def test_match_without_hit_is_a_model_error():
    script = Script.build({"items": {"*": [{"tool_calls": [{"name": "click", "args": {"ref": {"$match": r"\[(zz\d+)\]"}}}]}]}})
    with pytest.raises(ScriptedModelError, match="no tool output matches"):
        ScriptedChatModel(script=script).bind_tools([click]).invoke(_opening("CS-02", 'button "x" [e1]'))


def test_with_structured_output_parses_and_reports_bad_replies():
    script = Script.build({"checklist": [{"structured": {"value": 3}}, {"structured": {"value": "three"}}]})
    model = ScriptedChatModel(script=script)
    structured = model.with_structured_output(Answer, include_raw=True)
    first = structured.invoke([HumanMessage(content="question")])
    assert first["parsed"] == Answer(value=3)
    second = structured.invoke([HumanMessage(content="question"), AIMessage(content="earlier")])
    assert second["parsed"] is None and second["parsing_error"] is not None


def test_invalid_tool_call_and_raise_and_repeat_last():
    script = Script.build({"items": {
        "IX-01": [{"invalid_tool_call": {"name": "click", "args": "{ref: e1"}}, {"raise": "boom"}],
        "*": {"replies": [{"verdict": {"status": "pass"}}], "repeat_last": True},
    }})
    model = ScriptedChatModel(script=script).bind_tools([click])
    bad = model.invoke(_opening("IX-01"))
    assert not bad.tool_calls and bad.invalid_tool_calls[0]["args"] == "{ref: e1"
    with pytest.raises(ScriptedModelError, match="boom"):
        model.invoke(_opening("IX-01") + [AIMessage(content="x")])
    for turn in range(3):
        reply = model.invoke(_opening("CT-04") + [AIMessage(content="x")] * turn)
        assert reply.tool_calls[0]["name"] == "record_verdict"


def test_script_file_errors(tmp_path):
    with pytest.raises(ScriptError, match="not found"):
        Script.load(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("checklist: []\nitemz: {}\n")
    with pytest.raises(ScriptError, match="unknown script keys"):
        Script.load(bad)
    good = tmp_path / "good.yaml"
    good.write_text("items:\n  FT-01:\n    - verdict: {status: pass}\n")
    assert Script.load(good).channels["FT-01"].replies == [{"verdict": {"status": "pass"}}]


def test_when_seen_follows_what_the_tools_returned():
    reply = {"when_seen": "Saved", "unless_seen": "Error", "then": {"verdict": {"status": "pass"}},
             "else": {"verdict": {"status": "fail", "issue": "not saved"}}}
    model = ScriptedChatModel(script=Script.build({"items": {"*": {"replies": [reply], "repeat_last": True}}}))

    def verdict_after(output: str) -> str:
        history = _opening("FT-09") + [AIMessage(content="", tool_calls=[{"name": "click", "args": {"ref": "e1"}, "id": "c"}]),
                                       ToolMessage(content=output, tool_call_id="c")]
        return model.bind_tools([click]).invoke(history).tool_calls[0]["args"]["status"]

    assert verdict_after("Clicked. Saved 2 rows") == "pass"
    assert verdict_after("Clicked. Saved, then Error: quota") == "fail"
    assert verdict_after("Clicked. nothing") == "fail"
