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
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool
from pydantic import BaseModel, SecretStr

from webtester.llm.compat import endpoint_memory
from webtester.llm.factory import chat_model_for
from webtester.llm.structured import ask_structured
from webtester.settings import Settings

URL = os.environ.get("WEBTESTER_LOCAL_MODEL_URL")
KEY = os.environ.get("WEBTESTER_LOCAL_MODEL_KEY", "")
NAME = os.environ.get("WEBTESTER_LOCAL_MODEL_NAME", "local")
pytestmark = pytest.mark.skipif(not URL, reason="needs a local model server: run scripts/local_model.sh")


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
    print(f"\nfirst tool request: {time.monotonic() - started:.1f} s, usage {first.usage_metadata}")
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
    print(f"\nstructured output: method {memory.structured_method if memory else None}, "
          f"attempts {answer.attempts}, model calls {answer.cost.model_calls}")
    assert memory is not None and memory.structured_method != "json_schema"  # the server refuses json_schema


def _webtester(*args: str, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webtester.cli.main", *args], env=env, text=True,
                          capture_output=True, timeout=timeout)


def _env() -> dict[str, str]:
    return {**os.environ, "OPENAI_BASE_URL": URL or "", "OPENAI_API_KEY": KEY, "WEBTESTER_MODEL": NAME,
            "WEBTESTER_MODEL_TIMEOUT": "600", "WEBTESTER_MODEL_RETRIES": "1",
            "WEBTESTER_MAX_TOOL_CALLS_PER_ITEM": "4", "WEBTESTER_MAX_TOOL_CALLS_PER_INSTANCE": "12",
            "WEBTESTER_ITEM_TIME_LIMIT": "240", "WEBTESTER_INSTANCE_TIME_LIMIT": "1500",
            "WEBTESTER_CHECKLIST_MAX_TOKENS": "768", "WEBTESTER_DETECTION_MAX_TOKENS": "200"}


def _result(run: Path) -> dict:
    return json.loads((run / "portfolio_site" / "result.json").read_text())


def _no_key_written(run: Path) -> bool:
    return KEY not in "".join(p.read_text(errors="replace") for p in run.rglob("*") if p.is_file()
                              and p.suffix in (".json", ".jsonl", ".md", ".txt", ".html", ".xml"))


def test_checklist_generation_through_the_server_ends_with_items_or_a_reason(tmp_path):
    run = tmp_path / "run"
    started = time.monotonic()
    done = _webtester("test", "portfolio_site", "--max-items", "3", "--trace", "off", "--out", str(run),
                      env=_env(), timeout=1800)
    result = _result(run)
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
    verdicts = result["verdicts"]
    counts: dict[str, int] = {}
    for verdict in verdicts:
        counts[verdict["status"]] = counts.get(verdict["status"], 0) + 1
        # no silent pass: an error names its reason
        assert verdict["status"] != "error" or verdict["evidence"]["notes"] or verdict["evidence"]["steps"]
    cost = result["cost"]
    print(f"\noracle run: {seconds:.0f} s, items {len(verdicts)}, verdicts {counts}, model calls {cost['model_calls']}, "
          f"tool calls {cost['tool_calls']}, tokens in {cost['input_tokens']} out {cost['output_tokens']}")
    assert verdicts and cost["model_calls"] > 0 and cost["tool_calls"] > 0  # real tool calls reached the browser
    assert NAME in (run / "manifest.json").read_text() and _no_key_written(run)
    scored = _webtester("score", str(run), "--judge", "llm", env=_env(), timeout=1800)
    print(scored.stdout[-1500:])
    assert scored.returncode == 0, scored.stderr[-3000:]
    replayed = tmp_path / "replayed"
    again = _webtester("test", "portfolio_site", "--oracle", "bundled", "--trace", "off", "--model",
                       f"replay:{run}", "--out", str(replayed), env=_env(), timeout=900)
    assert again.returncode in (0, 1), again.stderr[-3000:]
    assert [v["status"] for v in _result(replayed)["verdicts"]] == [v["status"] for v in verdicts]
