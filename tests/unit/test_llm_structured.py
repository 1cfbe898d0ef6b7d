"""The shared structured-output loop: validation, repair prompt, bounded attempts, cost counting.

Its two users (checklist generation, the LLM judge) have their own tests in
test_graph_checklist.py and test_judges.py; here the loop itself runs on a
scripted chat model that emits real (and malformed) tool calls.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from pydantic import BaseModel

from webtester.llm.scripted import Script, ScriptedChatModel
from webtester.llm.structured import (
    Reply,
    ReplyRejected,
    StructuredOutputError,
    ask_structured,
    repair_messages,
)


class Pick(BaseModel):
    """A number between 1 and 9."""

    number: int


def check(reply: Reply) -> int:
    if not isinstance(reply.parsed, Pick):
        raise ReplyRejected(f"no parsable Pick ({reply.parsing_error or 'no tool call'})")
    if not 1 <= reply.parsed.number <= 9:
        raise ReplyRejected(f"{reply.parsed.number} is out of range")
    return reply.parsed.number


PROMPT = [SystemMessage("Pick a number."), HumanMessage("Between 1 and 9.")]


def ask(replies: list, attempts: int = 3):
    model = ScriptedChatModel(script=Script.build({"checklist": replies}))
    return ask_structured(model, Pick, PROMPT, check, repair_prompt=lambda p: f"Rejected: {p}. Again.", attempts=attempts)


def test_a_malformed_reply_is_repaired_once_with_the_problem_stated():
    seen = []

    def second(ctx):
        seen.extend(ctx.messages)
        return {"structured": {"number": 4}}

    got = ask([{"invalid_tool_call": {"name": "Pick", "args": "{number: "}}, second])
    assert got.value == 4 and got.attempts == 2
    assert len(got.rejected) == 1 and got.rejected[0].startswith("attempt 1: no parsable Pick")
    assert got.cost.model_calls == 2 and got.cost.input_tokens > 0
    assert isinstance(seen[-1], HumanMessage) and seen[-1].content.startswith("Rejected: no parsable Pick")
    assert not seen[-2].invalid_tool_calls  # arguments that did not parse are not sent back


def test_an_invalid_value_is_answered_as_the_tool_result():
    seen = []

    def second(ctx):
        seen.extend(ctx.messages)
        return {"structured": {"number": 9}}

    got = ask([{"structured": {"number": 42}}, second])
    assert got.value == 9
    assert isinstance(seen[-1], ToolMessage) and "42 is out of range" in seen[-1].content
    assert seen[-1].tool_call_id == seen[-2].tool_calls[0]["id"]


def test_gives_up_after_the_bound_with_the_last_problem_and_the_cost():
    with pytest.raises(StructuredOutputError, match="no usable structured answer after 2 attempts: 0 is out of range") as info:
        ask([{"structured": {"number": 11}}, {"structured": {"number": 0}}, {"structured": {"number": 3}}], attempts=2)
    assert info.value.attempts == 2 and info.value.problem == "0 is out of range"
    assert info.value.cost.model_calls == 2


def test_model_call_errors_propagate_counted_and_the_bound_must_be_positive():
    from webtester.llm.scripted import ScriptedModelError
    from webtester.llm.usage import ModelCallError

    with pytest.raises(ModelCallError, match="ScriptedModelError: endpoint down") as caught:
        ask([{"raise": "endpoint down"}])
    assert isinstance(caught.value.__cause__, ScriptedModelError) and caught.value.cost.model_calls == 1
    with pytest.raises(ValueError, match="at least 1"):
        ask([], attempts=0)


def test_repair_messages_answer_every_usable_tool_call():
    raw = AIMessage(content="", tool_calls=[{"name": "Pick", "args": {}, "id": "c1"}, {"name": "Pick", "args": {}, "id": "c2"}])
    msgs = repair_messages(raw, "bad")
    assert [m.tool_call_id for m in msgs[1:]] == ["c1", "c2"] and msgs[0].tool_calls == raw.tool_calls
    plain = repair_messages(AIMessage(content="no idea"), "bad")
    assert plain[0].content == "no idea" and isinstance(plain[1], HumanMessage) and plain[1].content == "bad"
