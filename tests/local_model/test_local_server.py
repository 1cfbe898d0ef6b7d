"""The real-model lane: webtester through a real local OpenAI-compatible server (llama.cpp with a small model).

Run by ``scripts/local_model.sh``, which starts the server and sets ``WEBTESTER_LOCAL_MODEL_URL``, ``_KEY``
and ``_NAME``; skipped otherwise. The tests assert wire behaviour and robustness (real tool calls reach the
browser, every item gets a verdict or a reasoned error, artifacts carry the model's name and token counts,
the key is never written), never the quality of a 135M model's answers, which are no model's result to report.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lane_figures import record, server_log, server_requests, stage_requests
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool
from pydantic import BaseModel, SecretStr

from webtester.eval.benchmarks.prompt_tokens import detection_step_tokens, step_tokens_line
from webtester.llm.compat import endpoint_memory
from webtester.llm.factory import chat_model_for
from webtester.llm.structured import ask_structured
from webtester.settings import Settings

URL = os.environ.get("WEBTESTER_LOCAL_MODEL_URL")
KEY = os.environ.get("WEBTESTER_LOCAL_MODEL_KEY", "")
NAME = os.environ.get("WEBTESTER_LOCAL_MODEL_NAME", "local")
# whole runs through a CPU model take minutes: far more than the suite's per-test limit
pytestmark = [pytest.mark.skipif(not URL, reason="needs a local model server: run scripts/local_model.sh"),
              pytest.mark.timeout(3600)]


@pytest.fixture(scope="module")
def settings() -> Settings:
    return Settings(model=NAME, base_url=URL, api_key=SecretStr(KEY), model_timeout=600, model_retries=1,
                    checklist_max_tokens=768, detection_max_tokens=200)


@tool
def click(ref: str) -> str:
    """Click the element with the reference ``ref`` from the page view (e.g. e12)."""
    return "Clicked."


def test_tool_calls_and_their_results_go_through_the_server(settings):
    model = chat_model_for(settings, "detection").bind_tools([click], tool_choice="auto")
    started = time.monotonic()
    first = model.invoke([SystemMessage("You test web pages with the click tool."), HumanMessage("Click e12.")])
    seconds = time.monotonic() - started
    print(f"\nfirst tool request: {seconds:.1f} s, usage {first.usage_metadata}, tool calls {first.tool_calls}")
    usage = first.usage_metadata or {}
    record(f"first tool request: {seconds:.1f} s wall for {usage.get('input_tokens', 0)} prompt and "
           f"{usage.get('output_tokens', 0)} output tokens, tool calls {[(c['name'], c['args']) for c in first.tool_calls]}")
    assert first.tool_calls and first.tool_calls[0]["name"] == "click"
    assert (first.usage_metadata or {}).get("output_tokens", 0) > 0
    # an assistant turn with tool calls and no text goes back to the server with it (content "", never null)
    follow = model.invoke([SystemMessage("You test web pages."), HumanMessage("Click e12."),
                           AIMessage(content="", tool_calls=[{"name": "click", "args": {"ref": "e12"}, "id": "c1"}]),
                           ToolMessage("Clicked. The page shows Saved.", tool_call_id="c1"),
                           HumanMessage("What does the page show?")])
    assert isinstance(follow, AIMessage)


class _Item(BaseModel):
    description: str
    expected: str


class _Items(BaseModel):
    items: list[_Item]


def test_structured_output_falls_back_to_what_the_server_supports(settings):
    model = chat_model_for(settings, "checklist")
    answer = ask_structured(model, _Items, [HumanMessage("List two test items for a to-do app.")], lambda r: r,
                            repair_prompt=lambda problem: f"That was not valid: {problem}. Answer again.",
                            attempts=3, method="json_schema")
    memory = endpoint_memory(model)
    line = (f"structured output: method {memory.structured_method if memory else None}, "
            f"attempts {answer.attempts}, model calls {answer.cost.model_calls}")
    print("\n" + line)
    record(line)
    assert memory is not None and memory.structured_method != "json_schema"  # the server refuses json_schema


def _webtester(*args: str, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webtester.cli.main", *args], env=env, text=True,
                          capture_output=True, timeout=timeout)


#: the lane's limits, each overridable from the environment (e.g. a slower model gets smaller replies)
LANE_LIMITS = {"WEBTESTER_MODEL_TIMEOUT": "600", "WEBTESTER_MODEL_RETRIES": "1",
               "WEBTESTER_MAX_TOOL_CALLS_PER_ITEM": "4", "WEBTESTER_MAX_TOOL_CALLS_PER_INSTANCE": "12",
               "WEBTESTER_ITEM_TIME_LIMIT": "240", "WEBTESTER_INSTANCE_TIME_LIMIT": "1500",
               "WEBTESTER_CHECKLIST_MAX_TOKENS": "768", "WEBTESTER_DETECTION_MAX_TOKENS": "200",
               "WEBTESTER_JUDGE_MAX_TOKENS": "600"}


def _env() -> dict[str, str]:
    return {**LANE_LIMITS, **os.environ, "OPENAI_BASE_URL": URL or "", "OPENAI_API_KEY": KEY, "WEBTESTER_MODEL": NAME}


def _result(run: Path) -> dict:
    return json.loads((run / "portfolio_site" / "result.json").read_text())


def _verdict_counts(result: dict) -> dict[str, int]:
    counts: dict[str, int] = {}
    for verdict in result["verdicts"]:
        counts[verdict["status"]] = counts.get(verdict["status"], 0) + 1
    return counts


def _record_run(label: str, run: Path, seconds: float) -> None:
    """The run's figures for the lane's summary: status, verdicts, model calls per stage, prompt tokens per step."""
    result, exchanges = _result(run), run / "portfolio_site" / "exchanges.jsonl"
    cost = result["cost"]
    record(f"{label}: {seconds:.0f} s, status {result['status']}, verdicts {_verdict_counts(result)}, "
           f"tool calls {cost['tool_calls']}, tokens in {cost['input_tokens']} out {cost['output_tokens']}")
    record(f"{label} model calls per stage: {stage_requests(exchanges)} (cost says {cost['model_calls']})")
    record(f"{label} {step_tokens_line(detection_step_tokens(exchanges))}")


def _no_key_written(run: Path) -> bool:
    return KEY not in "".join(p.read_text(errors="replace") for p in run.rglob("*") if p.is_file()
                              and p.suffix in (".json", ".jsonl", ".md", ".txt", ".html", ".xml"))


def test_checklist_generation_through_the_server_ends_with_items_or_a_reason(tmp_path):
    run = tmp_path / "run"
    started = time.monotonic()
    done = _webtester("test", "portfolio_site", "--max-items", "3", "--trace", "off", "--out", str(run),
                      env=_env(), timeout=1800)
    result = _result(run)
    _record_run("checklist run", run, time.monotonic() - started)
    print(f"\ne2e run: {time.monotonic() - started:.0f} s, status {result['status']}, reason {result['reason']!r}, "
          f"items {len(result['verdicts'])}, cost {result['cost']}")
    assert done.returncode in (0, 1), done.stderr[-3000:]
    assert result["cost"]["model_calls"] > 0 and result["cost"]["input_tokens"] > 0
    assert result["verdicts"] or (result["status"] == "failed" and "checklist" in result["reason"])
    assert NAME in (run / "manifest.json").read_text() and _no_key_written(run)


def test_detection_score_and_replay_through_the_server(tmp_path):
    run = tmp_path / "run"
    started = time.monotonic()
    done = _webtester("test", "portfolio_site", "--oracle", "bundled", "--trace", "off", "--out", str(run),
                      env=_env(), timeout=1800)
    seconds = time.monotonic() - started
    assert done.returncode in (0, 1), done.stderr[-3000:]
    result = _result(run)
    _record_run("oracle run", run, seconds)
    verdicts = result["verdicts"]
    counts = _verdict_counts(result)
    for verdict in verdicts:
        # no silent pass: an error names its reason
        assert verdict["status"] != "error" or verdict["evidence"]["notes"] or verdict["evidence"]["steps"]
    cost = result["cost"]
    print(f"\noracle run: {seconds:.0f} s, items {len(verdicts)}, verdicts {counts}, model calls {cost['model_calls']}, "
          f"tool calls {cost['tool_calls']}, tokens in {cost['input_tokens']} out {cost['output_tokens']}")
    assert verdicts and cost["model_calls"] > 0
    assert NAME in (run / "manifest.json").read_text() and _no_key_written(run)
    manifest = json.loads((run / "manifest.json").read_text())
    if os.environ.get("WEBTESTER_CONTEXT_WINDOW"):  # a small window: the core tools keep the first request small
        assert manifest["tester_info"]["detection_tools"]["used"] == ["core"]
        first = detection_step_tokens(run / "portfolio_site" / "exchanges.jsonl")["first"]
        assert first["count"] and first["max"] <= 2000, first
    before, started = server_requests(server_log()), time.monotonic()
    scored = _webtester("score", str(run), "--judge", "llm", env=_env(), timeout=1800)
    record(f"judge (score --judge llm): exit {scored.returncode}, {time.monotonic() - started:.0f} s, "
           f"{server_requests(server_log()) - before} requests to the server")
    print(scored.stdout[-1500:])
    assert scored.returncode == 0, scored.stderr[-3000:]
    replayed = tmp_path / "replayed"
    again = _webtester("test", "portfolio_site", "--oracle", "bundled", "--trace", "off", "--model",
                       f"replay:{run}", "--out", str(replayed), env=_env(), timeout=900)
    assert again.returncode in (0, 1) and (replayed / "portfolio_site" / "result.json").exists(), again.stderr[-3000:]
    assert [v["status"] for v in _result(replayed)["verdicts"]] == [v["status"] for v in verdicts]
    # last, so the judge and the replay are exercised whichever way the model chose
    assert cost["tool_calls"] > 0, "the model answered every detection step without a tool call"
    # pass and fail come only from a record_verdict tool call (the loop's own endings are errors)
    assert counts.get("pass", 0) + counts.get("fail", 0) > 0, f"no verdict recorded through record_verdict: {counts}"
