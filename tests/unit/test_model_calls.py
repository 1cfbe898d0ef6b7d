"""Model calls: the request timeout and retries come from the settings, and a failed call is counted."""

from __future__ import annotations

import time

import pytest
from detection_fakes import detect
from langchain_core.messages import HumanMessage

from webtester.agents.checklist import generate_checklist
from webtester.llm.factory import chat_model_for
from webtester.llm.scripted import Script, ScriptedChatModel
from webtester.llm.stub_server import StubServer
from webtester.llm.usage import ModelCallError
from webtester.models import Status
from webtester.settings import Settings


def test_a_model_that_never_answers_is_bounded_by_the_settings():
    never = Script.build({"items": {"FT-01": [{"delay": 60, "verdict": {"status": "pass"}}]}})
    with StubServer(never) as stub:
        settings = Settings(base_url=stub.url, model_timeout=1.0, model_retries=1)
        model = chat_model_for(settings, "detection", "stub-model")
        started = time.monotonic()
        verdict = detect(model)
        seconds = time.monotonic() - started
        requests = len(stub.requests)
    assert verdict.status is Status.error and "model call failed" in verdict.evidence.notes
    assert "Timeout" in verdict.evidence.notes, verdict.evidence.notes
    assert requests == 2  # the call and its one retry, each cut after 1 s
    assert seconds < 20, seconds  # instead of 60 s per request, tried 5 times
    assert verdict.cost.model_calls == 1  # the failed call is a call


def test_settings_set_the_client_timeout_and_retries():
    model = chat_model_for(Settings(base_url="http://127.0.0.1:9/v1", model_timeout=7.5, model_retries=0), "checklist")
    assert model.request_timeout == 7.5 and model.max_retries == 0  # type: ignore[attr-defined]


def test_a_failed_detection_call_is_counted():
    model = ScriptedChatModel(script=Script.build({"items": {"FT-01": [
        {"tool_calls": [{"name": "observe", "args": {}}]}, {"raise": "upstream connection reset"}]}}))
    verdict = detect(model)
    assert verdict.status is Status.error and "upstream connection reset" in verdict.evidence.notes
    assert verdict.cost.model_calls == 2 and verdict.cost.tool_calls == 1


def test_a_failed_checklist_call_is_counted():
    model = ScriptedChatModel(script=Script.build({"checklist": [
        {"structured": {"items": "not a list"}}, {"raise": "upstream connection reset"}]}))
    with pytest.raises(ModelCallError, match="upstream connection reset") as caught:
        generate_checklist(model, "A todo app", "http://127.0.0.1:1/", 5)
    assert caught.value.cost.model_calls == 2  # the rejected reply and the failed call


def test_stub_replies_after_its_delay():
    script = Script.build({"checklist": [{"delay": 0.2, "content": "late"}]})
    with StubServer(script) as stub:
        model = chat_model_for(Settings(base_url=stub.url), "checklist", "stub-model")
        assert model.invoke([HumanMessage(content="hello")]).content == "late"
