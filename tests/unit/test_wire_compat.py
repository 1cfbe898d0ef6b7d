"""The real ChatOpenAI path against a strict stub that behaves like a local server with fewer features."""

from __future__ import annotations

import json
import time

import pytest
from detection_fakes import ITEM, detect
from langchain_core.messages import HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool

from webtester.agents.checklist import ChecklistOutput, generate_checklist
from webtester.agents.llm_tester import LLMTester
from webtester.graphs.run import manifest_run_fields
from webtester.llm.compat import endpoint_memory
from webtester.llm.context import context_overflow, trim_messages
from webtester.llm.factory import chat_model_for
from webtester.llm.scripted import Script
from webtester.llm.structured import ReplyRejected, ask_structured
from webtester.llm.stub_server import STRICT_MODEL, StubServer
from webtester.models import Status
from webtester.settings import Settings, load_settings

ENTRY = {"dimension": "functionality", "description": "Add a task", "action": "Type 'milk', press Add",
         "expected": "'milk' is listed"}
PAGE = "\n".join(f'  listitem "recipe number {n} with a long enough name" [e{n}]' for n in range(60))  # ~3,300 chars


@tool
def observe() -> str:
    """Observe the page."""
    return PAGE


def settings_for(server: StubServer, **values: object) -> Settings:
    return Settings(base_url=server.url, model_retries=0, model_timeout=30, **values)  # type: ignore[arg-type]


def test_detection_sends_tool_choice_auto_so_a_strict_server_uses_its_tools():
    script = Script.build({"items": {"FT-01": [{"verdict": {"status": "pass"}}]}})
    with StubServer(script, strict=True) as server:
        verdict = detect(chat_model_for(settings_for(server), "detection", "stub-model"))
        sent = list(server.requests)
    assert sent[0]["tool_choice"] == "auto"
    assert verdict.status is Status.passed, verdict.evidence.notes
    assert len(sent) == 1


def test_assistant_tool_calls_go_out_with_empty_string_content_so_a_repair_reaches_a_strict_server():
    script = Script.build({"checklist": [{"structured": {"items": "not a list"}}, {"structured": {"items": [ENTRY]}}]})
    with StubServer(script, strict=True) as server:
        model = chat_model_for(settings_for(server), "checklist", "stub-model")
        checklist = generate_checklist(model, "A todo app", "http://127.0.0.1:1/", 5)
        sent = list(server.requests)
    assistant = [m for m in sent[1]["messages"] if m["role"] == "assistant"]
    assert assistant and all(m["content"] == "" for m in assistant)
    assert [i.id for i in checklist.items] == ["FT-01"] and checklist.cost.model_calls == 2


def test_max_tokens_per_stage_is_sent_as_max_tokens():
    script = Script.build({"checklist": [{"content": "ok"}], "items": {"*": {"replies": [{"content": "ok"}],
                                                                              "repeat_last": True}}})
    with StubServer(script) as server:
        settings = settings_for(server, checklist_max_tokens=777, detection_max_tokens=333, judge={"max_tokens": 555})
        for stage in ("checklist", "detection", "judge"):
            chat_model_for(settings, stage, "stub-model").invoke([HumanMessage(content="hi")])
        tester = LLMTester.from_settings(settings, "stub-model")
        tester.checklist_model.invoke([HumanMessage(content="hi")])
        tester.detection_model.invoke([HumanMessage(content="Test item id: FT-01")])
        sent = list(server.requests)
    assert [r.get("max_tokens") for r in sent] == [777, 333, 555, 777, 333]
    assert not any("max_completion_tokens" in r for r in sent)


def test_an_endpoint_that_refuses_max_tokens_gets_max_completion_tokens():
    refusal = ("Unsupported parameter: 'max_tokens' is not supported with this model. "
               "Use 'max_completion_tokens' instead.")
    script = Script.build({"checklist": [{"http_error": 400, "error_message": refusal, "content": "ok"},
                                         {"content": "again"}]})
    with StubServer(script) as server:
        model = chat_model_for(settings_for(server, checklist_max_tokens=777), "checklist", "o4-mini")
        first = model.invoke([HumanMessage(content="hi")])
        model.invoke([HumanMessage(content="hi"), first, HumanMessage(content="more")])
        sent = list(server.requests)
    assert [r.get("max_tokens") for r in sent] == [777, None, None]
    assert [r.get("max_completion_tokens") for r in sent] == [None, 777, 777] and first.content == "ok"


def test_new_settings_come_from_the_environment():
    env = {"WEBTESTER_CHECKLIST_MAX_TOKENS": "3000", "WEBTESTER_DETECTION_MAX_TOKENS": "300",
           "WEBTESTER_JUDGE_MAX_TOKENS": "900", "WEBTESTER_CONTEXT_WINDOW": "8192"}
    settings = load_settings(environ=env)
    assert [settings.max_tokens(s) for s in ("checklist", "detection", "judge")] == [3000, 300, 900]  # type: ignore[arg-type]
    assert settings.context_window == 8192


def test_a_rejected_json_schema_falls_back_to_function_calling_and_is_remembered():
    def check(reply):
        return reply.parsed

    script = Script.build({"checklist": [{"structured": {"items": [ENTRY]}}]})
    with StubServer(script, strict=True) as server:
        model = chat_model_for(settings_for(server), "checklist", "stub-model")
        messages = [SystemMessage(content="Make a checklist."), HumanMessage(content="A todo app")]
        first = ask_structured(model, ChecklistOutput, messages, check, repair_prompt=str, attempts=1, method="json_schema")
        again = ask_structured(model, ChecklistOutput, messages, check, repair_prompt=str, attempts=1, method="json_schema")
        sent = list(server.requests)
    assert sent[0]["response_format"]["type"] == "json_schema"  # refused with HTTP 500
    assert "response_format" not in sent[1] and sent[1]["tool_choice"]["function"]["name"] == "ChecklistOutput"
    assert "response_format" not in sent[2] and len(sent) == 3  # the working method is asked first from then on
    assert first.value.items[0].description == "Add a task" and again.value.items[0].description == "Add a task"
    assert first.cost.model_calls == 2 and again.cost.model_calls == 1  # the refused call is counted
    assert endpoint_memory(model).structured_method == "function_calling"
    seen = endpoint_memory(model).capabilities()
    assert seen["refused"] == ["json_schema"] and seen["structured_method"] == "function_calling"


def test_json_in_text_is_validated_against_the_schema():
    def check(reply):
        if reply.parsed is None:
            raise ReplyRejected(str(reply.parsing_error))
        return reply.parsed

    script = Script.build({"checklist": [{"structured": {"items": [{"dimension": "FT"}]}},
                                         {"structured": {"items": [ENTRY]}}]})
    with StubServer(script, strict=True) as server:
        model = chat_model_for(settings_for(server), "checklist", "stub-model")
        answer = ask_structured(model, ChecklistOutput, [HumanMessage(content="A todo app")], check,
                                repair_prompt=str, attempts=2, method="text")
        sent = list(server.requests)
    assert "tools" not in sent[0] and "JSON schema" in sent[0]["messages"][-1]["content"]
    assert "validation error" in answer.rejected[0] and "description" in answer.rejected[0]
    assert answer.value.items[0].description == "Add a task" and answer.attempts == 2


def test_the_model_name_the_server_reports_is_recorded_for_the_stage(tmp_path):
    script = Script.build({"checklist": [{"structured": {"items": [ENTRY]}}]})
    with StubServer(script, strict=True) as server:
        tester = LLMTester.from_settings(settings_for(server), "gpt-4o-mini")
        tester.start_instance("todo", tmp_path / "todo")
        tester.generate_checklist("A todo app", "http://127.0.0.1:1/", 5)
    exchange = json.loads((tmp_path / "todo" / "exchanges.jsonl").read_text())
    assert exchange["model"] == "gpt-4o-mini" and exchange["reported_model"] == STRICT_MODEL
    info = manifest_run_fields(tester, "e2e", Settings())["tester_info"]
    assert info["models"]["checklist"] == STRICT_MODEL
    assert info["models"]["detection"] == "gpt-4o-mini"  # not called yet: the configured name stands
    assert info["configured_models"]["checklist"] == "gpt-4o-mini"
    assert info["model_notes"] == [f"checklist: the server reported model {STRICT_MODEL!r} for the configured 'gpt-4o-mini'"]


def _three_step_script() -> Script:
    step = {"tool_calls": [{"name": "observe", "args": {}}]}
    return Script.build({"items": {"FT-01": [step, step, {"verdict": {"status": "pass"}}]}})


@pytest.fixture(scope="module")
def window() -> int:
    """A context window the third step of ``_three_step_script`` exceeds by about one page, the second does not."""
    with StubServer(_three_step_script(), strict=True) as server:
        detect(chat_model_for(settings_for(server, detection_max_tokens=200), "detection", "stub-model"),
               tools=[observe])
        sizes = [(len(json.dumps(r["messages"])) + len(json.dumps(r["tools"]))) // 4 + 200 for r in server.requests]
    assert len(sizes) == 3 and sizes[2] - sizes[1] > 700
    return sizes[1] + 200


def test_a_context_overflow_error_is_answered_by_trimming_and_a_successful_retry(window):
    with StubServer(_three_step_script(), strict=True, context_window=window) as server:
        model = chat_model_for(settings_for(server, detection_max_tokens=200), "detection", "stub-model")
        verdict = detect(model, tools=[observe])
        sent = list(server.requests)
    assert len(sent) == 4  # steps 1 and 2, step 3 refused (HTTP 400), step 3 trimmed and retried
    assert sent[2]["messages"] != sent[3]["messages"]
    tool_results = [m["content"] for m in sent[3]["messages"] if m["role"] == "tool"]
    assert tool_results[0].startswith("[trimmed") and tool_results[-1] == PAGE  # the latest observation is kept
    assert sent[3]["messages"][0] == sent[2]["messages"][0]  # the system prompt is kept
    assert f"Test item id: {ITEM.id}" in sent[3]["messages"][1]["content"]
    assert verdict.status is Status.passed, verdict.evidence.notes
    assert any(s.startswith(f"request trimmed: context window {window} tokens") for s in verdict.evidence.steps)
    assert endpoint_memory(model).context_window == window


def test_a_configured_context_window_is_kept_up_front(window):
    with StubServer(_three_step_script(), strict=True, context_window=window) as server:
        settings = settings_for(server, detection_max_tokens=200, context_window=window)
        verdict = detect(chat_model_for(settings, "detection", "stub-model"), tools=[observe])
        sent = list(server.requests)
    assert len(sent) == 3 and verdict.status is Status.passed  # nothing refused


def test_a_reply_limit_larger_than_the_window_is_cut_to_fit():
    script = Script.build({"checklist": [{"structured": {"items": [ENTRY]}}]})
    with StubServer(script, strict=True, context_window=2048) as server:
        model = chat_model_for(settings_for(server, checklist_max_tokens=4096), "checklist", "stub-model")
        checklist = generate_checklist(model, "A todo app", "http://127.0.0.1:1/", 5)
        sent = list(server.requests)
    assert [r["max_tokens"] for r in sent][0] == 4096 and 128 <= sent[1]["max_tokens"] < 2048
    assert [i.id for i in checklist.items] == ["FT-01"]


@pytest.mark.parametrize("message, window, prompt", [
    ("Error code: 400 - This model's maximum context length is 2048 tokens. However, you requested 2445 tokens "
     "(1445 in the messages, 1000 in the completion).", 2048, 1445),
    ('Error code: 400 - {"error": {"code": 400, "message": "the request exceeds the available context size, try '
     'increasing it", "type": "exceed_context_size_error", "n_prompt_tokens": 5000, "n_ctx": 4096}}', 4096, 5000),
    ("Error code: 400 - This model's maximum context length is 128000 tokens. However, your messages resulted in "
     "130000 tokens. Please reduce the length of the messages.", 128000, 130000),
])
def test_context_length_errors_are_read(message, window, prompt):
    error = type("Error", (Exception,), {"status_code": 400})(message)
    overflow = context_overflow(error)
    assert overflow is not None and overflow.window == window and overflow.prompt_tokens == prompt
    assert context_overflow(type("Error", (Exception,), {"status_code": 400})("invalid tool schema")) is None


def test_trimming_keeps_the_opening_and_the_latest_observation():
    from langchain_core.messages import AIMessage

    call = [{"name": "observe", "args": {}, "id": "c1"}]
    messages = [SystemMessage(content="rules"), HumanMessage(content="Test item id: FT-01\n<<<PAGE\n" + PAGE + "\nPAGE>>>"),
                AIMessage(content="", tool_calls=call), ToolMessage(content=PAGE, tool_call_id="c1"),
                AIMessage(content="", tool_calls=[{**call[0], "id": "c2"}]), ToolMessage(content=PAGE, tool_call_id="c2")]
    trimmed, saved = trim_messages(messages, 1200)
    assert trimmed[0] == messages[0] and trimmed[-1] == messages[-1] and saved >= 1200
    assert trimmed[3].content.startswith("[trimmed") and "Test item id: FT-01" in trimmed[1].content
    assert "[trimmed" in trimmed[1].content and len(trimmed) == len(messages)


def test_what_the_endpoint_showed_is_recorded_in_the_manifest(tmp_path):
    script = Script.build({"checklist": [{"structured": {"items": [ENTRY]}}],
                           "items": {"FT-01": [{"verdict": {"status": "pass"}}]}})
    with StubServer(script, strict=True) as server:
        settings = settings_for(server, checklist_timeout=45, detection_retries=1)
        tester = LLMTester.from_settings(settings)
        tester.start_instance("todo", tmp_path / "todo")
        tester.generate_checklist("A todo app", "http://127.0.0.1:1/", 5)
        detect(tester.detection_model)
    seen = manifest_run_fields(tester, "e2e", settings)["tester_info"]["endpoints"]
    checklist, detection = seen["checklist"], seen["detection"]
    assert "refused" not in checklist and "structured_method" not in checklist  # function calling, as asked
    assert checklist["reported_model"] == detection["reported_model"] == STRICT_MODEL
    assert checklist["replies"] == 1 and checklist["usage_reported"] is True and checklist["first_reply_seconds"] >= 0
    assert detection["tool_calls"] is True and "refused" not in detection
    assert (checklist["timeout"], checklist["max_retries"]) == (45, 0)
    assert (detection["timeout"], detection["max_retries"]) == (30, 1)


def test_a_slow_server_completes_with_the_configured_timeout_and_a_too_short_one_fails_after_its_retries():
    slow = {"delay": 2.5, "structured": {"items": [ENTRY]}}
    with StubServer(Script.build({"checklist": [slow]})) as server:
        short = chat_model_for(settings_for(server, checklist_timeout=0.8), "checklist", "stub-model")
        with pytest.raises(Exception, match="(?i)timed? ?out"):
            generate_checklist(short, "A todo app", "http://127.0.0.1:1/", 5)
        assert len(server.requests) == 1  # model_retries=0: one request
        patient = chat_model_for(settings_for(server, checklist_timeout=20), "checklist", "stub-model")
        checklist = generate_checklist(patient, "A todo app", "http://127.0.0.1:1/", 5)
    assert [i.id for i in checklist.items] == ["FT-01"]


def test_a_slow_first_answer_is_got_past_by_a_retry():
    slow_once = {"delay": 3, "delay_times": 1, "structured": {"items": [ENTRY]}}
    with StubServer(Script.build({"checklist": [slow_once]})) as server:
        model = chat_model_for(settings_for(server, checklist_timeout=1, checklist_retries=1), "checklist", "stub-model")
        checklist = generate_checklist(model, "A todo app", "http://127.0.0.1:1/", 5)
        requests = len(server.requests)
    assert [i.id for i in checklist.items] == ["FT-01"] and requests == 2


def test_request_timeouts_and_retries_per_stage_with_defaults_for_local_endpoints():
    env = {"WEBTESTER_DETECTION_TIMEOUT": "900", "WEBTESTER_JUDGE_RETRIES": "5", "OPENAI_BASE_URL": "https://api.example.com/v1"}
    settings = load_settings(environ=env)
    assert settings.request_timeout("detection") == 900 and settings.request_timeout("checklist") == 120
    assert settings.request_retries("judge") == 5 and settings.request_retries("checklist") == 2
    local = load_settings(environ={"OPENAI_BASE_URL": "http://127.0.0.1:8080/v1"})
    assert local.request_timeout("checklist") == 600  # a CPU model on this machine gets longer by default
    assert load_settings(environ={"OPENAI_BASE_URL": "http://localhost:11434/v1", "WEBTESTER_MODEL_TIMEOUT": "60"}
                         ).request_timeout("judge") == 60  # set explicitly: kept
    judge_elsewhere = Settings(base_url="http://127.0.0.1:1/v1", judge={"base_url": "https://judge.example.com/v1"})
    assert judge_elsewhere.request_timeout("judge") == 120 and judge_elsewhere.request_timeout("detection") == 600


def test_a_small_context_window_gives_the_detection_agent_the_core_tools():
    from webtester.agents.llm_tester import detection_tools
    from webtester.browser.tools import CORE_TOOLS

    script = Script.build({"items": {"FT-01": [{"verdict": {"status": "pass"}}]}})
    with StubServer(script, context_window=4096) as server:  # its model list says max_model_len 4096, as vLLM does
        tester = LLMTester.from_settings(settings_for(server))
        assert tester.item_toolset() == "core"
        seen = endpoint_memory(tester.detection_model).capabilities()
        assert seen["server_context_window"] == 4096 and seen["model_list"] == "window from max_model_len"
        assert LLMTester.from_settings(settings_for(server, detection_tools="all")).item_toolset() == "all"
    with StubServer(script) as server:  # a model list without a window: the full set
        tester = LLMTester.from_settings(settings_for(server))
        assert tester.item_toolset() == "all"
        assert endpoint_memory(tester.detection_model).capabilities()["model_list"] == "no window"
        assert LLMTester.from_settings(settings_for(server, context_window=8192)).item_toolset() == "core"
    tester = LLMTester.from_settings(Settings(base_url="http://127.0.0.1:9/v1", model_retries=0))  # nothing listens
    assert tester.item_toolset() == "all"
    assert endpoint_memory(tester.detection_model).capabilities()["model_list"].startswith("not available")
    names = [t.name for t in detection_tools(None, None, "core")]  # type: ignore[arg-type]
    assert names == list(CORE_TOOLS)
    assert {"run_steps", "run_js", "run_probes"} <= {t.name for t in detection_tools(None, None, "all")}  # type: ignore[arg-type]


NAMED_VERDICT = {"type": "function", "function": {"name": "record_verdict"}}


def test_a_model_that_answers_in_text_is_asked_for_its_verdict_with_a_named_tool_choice():
    text_twice = [{"content": "The task list looks right."}, {"content": "It works."}, {"verdict": {"status": "pass"}}]
    with StubServer(Script.build({"items": {"FT-01": text_twice}}), strict=True) as server:
        verdict = detect(chat_model_for(settings_for(server), "detection", "stub-model"))
        sent = list(server.requests)
    assert [r["tool_choice"] for r in sent] == ["auto", "auto", NAMED_VERDICT]
    assert "record_verdict" in sent[2]["messages"][-1]["content"]
    assert verdict.status is Status.passed, verdict.evidence
    assert any("verdict asked for" in step for step in verdict.evidence.steps)


def test_a_server_that_refuses_a_named_tool_choice_gets_the_verdict_asked_in_text():
    refused = {"http_error": 500, "times": 1, "error_message": "tool_choice: Input should be 'none' or 'auto'",
               "verdict": {"status": "pass"}}
    script = Script.build({"items": {"FT-01": [{"content": "Fine."}, {"content": "Still fine."}, refused]}})
    with StubServer(script, strict=True) as server:
        model = chat_model_for(settings_for(server), "detection", "stub-model")
        verdict = detect(model)
        sent = list(server.requests)
    assert [r["tool_choice"] for r in sent] == ["auto", "auto", NAMED_VERDICT, "auto"]
    memory = endpoint_memory(model)
    assert memory is not None and "named tool_choice" in memory.refused  # not asked again in the run
    assert verdict.status is Status.passed, verdict.evidence
    assert any("refused tool_choice record_verdict" in step for step in verdict.evidence.steps)


def test_the_item_time_limit_cuts_a_model_request_in_progress():
    from detection_fakes import budget

    slow = {"delay": 6, "verdict": {"status": "pass"}}
    with StubServer(Script.build({"items": {"FT-01": [slow]}})) as server:
        model = chat_model_for(settings_for(server, detection_timeout=60), "detection", "stub-model")
        item_budget = budget()
        item_budget.limit_time(1.5, "item time limit of 1.5 s")
        started = time.monotonic()
        verdict = detect(model, item_budget=item_budget)
        seconds = time.monotonic() - started
    assert verdict.status is Status.error and "item time limit of 1.5 s" in verdict.evidence.notes
    assert any(step.startswith("model call cut at the item time limit") for step in verdict.evidence.steps)
    assert seconds < 4, seconds  # not the server's 6 s, nor the 60 s request timeout


def test_a_model_that_never_calls_a_tool_ends_the_item_as_an_error_after_the_verdict_was_asked_for():
    script = Script.build({"items": {"FT-01": {"replies": [{"content": "Looks fine to me."}], "repeat_last": True}}})
    with StubServer(script, strict=True) as server:
        verdict = detect(chat_model_for(settings_for(server), "detection", "stub-model"))
        sent = list(server.requests)
    assert [r["tool_choice"] for r in sent] == ["auto", "auto", NAMED_VERDICT]
    assert verdict.status is Status.error and "without recording a verdict" in verdict.evidence.notes


def test_the_last_tool_call_of_the_budget_is_kept_for_the_verdict():
    from detection_fakes import budget

    look = {"tool_calls": [{"name": "observe", "args": {}}]}
    with StubServer(Script.build({"items": {"FT-01": [look, look, {"verdict": {"status": "pass"}}]}}), strict=True) as server:
        verdict = detect(chat_model_for(settings_for(server), "detection", "stub-model"), item_budget=budget(3))
        sent = list(server.requests)
    assert [r["tool_choice"] for r in sent] == ["auto", "auto", NAMED_VERDICT]
    assert sent[2]["messages"][-1]["content"].startswith("One tool call is left")
    assert verdict.status is Status.passed and verdict.cost.tool_calls == 3, verdict.evidence
