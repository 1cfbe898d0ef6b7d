"""The real-model lane's figures, read from what the server logs and what a run records (no server needed)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from uuid import uuid4

import pytest
from lane_figures import (
    generation_speed,
    prompt_speed,
    record,
    server_requests,
    stage_requests,
    summary,
)
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, LLMResult

from webtester.llm.conversation import CHANNEL_KEY
from webtester.llm.recording import ExchangeRecorder

ROOT = Path(__file__).resolve().parents[2]
# two completions as llama-cpp-python's server logs them, around its access-log lines
LOG = """\
llama_perf_context_print:        load time =       1.10 ms
llama_perf_context_print: prompt eval time =    3486.43 ms /   970 tokens (    3.59 ms per token,   278.22 tokens per second)
llama_perf_context_print:        eval time =    1500.00 ms /    60 runs   (   20.97 ms per token,    47.68 tokens per second)
llama_perf_context_print:       total time =   11150.27 ms /  1039 tokens
INFO:     127.0.0.1:48630 - "POST /v1/chat/completions HTTP/1.1" 200 OK
llama_perf_context_print: prompt eval time =    1210.97 ms /   122 tokens (    9.93 ms per token,   100.75 tokens per second)
llama_perf_context_print:        eval time =    2500.00 ms /    40 runs   (   36.07 ms per token,    27.72 tokens per second)
INFO:     127.0.0.1:48630 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error
INFO:     127.0.0.1:48630 - "GET /v1/models HTTP/1.1" 200 OK
"""


def _exchange(recorder: ExchangeRecorder, channel: str, input_tokens: int | None, error: bool = False) -> None:
    run_id = uuid4()
    recorder.on_chat_model_start({}, [[HumanMessage("Test item id: CS-01")]], run_id=run_id,
                                 metadata={CHANNEL_KEY: channel})
    if error:
        recorder.on_llm_error(RuntimeError("Error code: 400 - context"), run_id=run_id)
        return
    usage = {"input_tokens": input_tokens or 0, "output_tokens": 5, "total_tokens": (input_tokens or 0) + 5}
    message = AIMessage(content="ok", usage_metadata=usage)
    recorder.on_llm_end(LLMResult(generations=[[ChatGeneration(message=message)]]), run_id=run_id)


def test_stage_counts_come_from_the_recorded_exchanges(tmp_path):
    path = tmp_path / "exchanges.jsonl"
    recorder = ExchangeRecorder(path)
    _exchange(recorder, "checklist", 900)
    _exchange(recorder, "CS-01", 1200)
    _exchange(recorder, "CS-01", 1800)
    _exchange(recorder, "CS-02", None, error=True)  # a failed call counts, but reports no prompt tokens
    _exchange(recorder, "CS-02", 1500)
    assert stage_requests(path) == {"checklist": 1, "detection": 4}
    assert stage_requests(tmp_path / "missing.jsonl") == {"checklist": 0, "detection": 0}


def test_the_server_log_gives_requests_and_generation_speed(tmp_path):
    log = tmp_path / "server.log"
    log.write_text(LOG)
    assert server_requests(log) == 2  # answered or failed, never the model listing
    assert server_requests(None) == 0
    assert generation_speed(LOG) == (100, 4.0)
    assert prompt_speed(LOG) == (1092, pytest.approx(4.6974))
    block = summary("build/install: 9 s (cached wheel)\nserver start: 3 s\n", LOG, "gemma-3-270m-q4_k_m")
    assert block.splitlines() == ["==> lane figures (gemma-3-270m-q4_k_m)", "build/install: 9 s (cached wheel)",
                                  "server start: 3 s",
                                  "generation speed: 25.0 tokens/s (100 tokens in 4 s, server log)",
                                  "prompt speed: 232.5 tokens/s (1092 tokens in 5 s, server log)"]
    assert summary("", "", "m").splitlines()[1:] == ["generation speed: none timed in the server log",
                                                     "prompt speed: none timed in the server log"]


def test_figures_are_appended_only_where_the_lane_names_a_file(tmp_path, monkeypatch):
    monkeypatch.delenv("WEBTESTER_LANE_FIGURES", raising=False)
    record("nowhere")
    figures = tmp_path / "figures.txt"
    monkeypatch.setenv("WEBTESTER_LANE_FIGURES", str(figures))
    record("first")
    record("second\n")
    assert figures.read_text() == "first\nsecond\n"


def test_the_lane_refuses_a_model_it_does_not_know():
    env = {**os.environ, "LANE_MODEL": "llama70b"}
    done = subprocess.run(["bash", "scripts/local_model.sh"], cwd=ROOT, env=env, text=True, capture_output=True,
                          timeout=60)
    assert done.returncode == 2 and "LANE_MODEL must be smollm2 or gemma3" in done.stderr
