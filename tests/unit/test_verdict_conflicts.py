"""One verdict per item: a second record_verdict in the same model message is rejected and kept as a conflict."""

from __future__ import annotations

from detection_fakes import detect

from webtester.llm.scripted import Script, ScriptedChatModel
from webtester.models import Status

PASS_THEN_FAIL = {"tool_calls": [
    {"name": "record_verdict", "args": {"status": "pass"}},
    {"name": "record_verdict", "args": {"status": "fail", "issue": "The task is not listed",
                                        "actual": "The list stays empty"}},
    {"name": "observe", "args": {}},
]}


def test_a_second_verdict_in_one_message_is_rejected_and_noted():
    model = ScriptedChatModel(script=Script.build({"items": {"FT-01": [PASS_THEN_FAIL]}}))
    verdict = detect(model)
    assert verdict.status is Status.passed  # the first verdict stands
    notes = verdict.evidence.notes
    assert "conflicting verdict rejected: a second record_verdict said fail" in notes
    assert "The task is not listed" in notes and "The list stays empty" in notes
    steps = verdict.evidence.steps
    assert len(steps) == 3, steps
    assert "one verdict per item: you already recorded pass" in steps[1]
    assert steps[2].startswith("observe({}) -> Error: observe not run")
    assert verdict.cost.tool_calls == 1  # the rejected calls were not run
