"""The graphs for LangGraph's tooling: a plain-JSON context builds the run context, every step of a run works on
one thread that LangGraph's blocking-call guard lets block, and the generated Dockerfile installs Chromium."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from blockbuster import BlockBuster, BlockingError

from webtester import bundled
from webtester.graphs.instance_thread import InstanceThread
from webtester.graphs.studio import StudioContext, build_run_context, oracle_graph

ROOT = Path(__file__).resolve().parents[2]
LANGGRAPH = Path(sys.executable).parent / "langgraph"


def test_a_plain_json_context_builds_the_run_context_and_a_bundled_name_is_enough_input(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no webtester.toml of the checkout
    given = StudioContext(**{"tester": "baseline", "output_dir": str(tmp_path / "out"), "max_items": 3,
                             "item_time_limit": 9.5, "max_tool_calls_per_item": 4, "trace": "off"})
    ctx, implied = build_run_context({"index": "loan_calculator"}, given, "oracle")
    try:
        assert ctx.tester.name == "baseline"
        assert (ctx.max_items, ctx.item_time_limit, ctx.max_tool_calls_per_item) == (3, 9.5, 4)
        assert ctx.folder.root == tmp_path / "out" / "loan_calculator"
        assert ctx.browser.trace == "off"
    finally:
        ctx.close()
    instance = bundled.get_instance("loan_calculator")
    assert implied["mode"] == "oracle" and implied["target"] == "loan_calculator"
    assert implied["instruction"] == instance.instruction
    assert [g["description"] for g in implied["gold"]] == [g.content for g in instance.checklist]
    assert "tester" in oracle_graph.get_context_jsonschema()["properties"]


def _blocking_call_in_a_loop() -> int:
    """What Playwright's sync API does: a blocking call while an asyncio loop runs on this thread."""

    async def block() -> int:
        time.sleep(0.001)
        return threading.get_ident()

    return asyncio.run(block())


def test_an_instance_thread_does_all_of_a_runs_work_and_may_block_under_the_servers_guard():
    guard = BlockBuster()
    for name in ("threading.Lock.acquire", "io.TextIOWrapper.write", "io.BufferedWriter.write"):
        guard.functions.pop(name).deactivate()  # as langgraph dev configures it

    async def steps() -> set[int]:
        thread = InstanceThread("test-run")
        try:
            threads = {await thread.run(_blocking_call_in_a_loop) for _ in range(3)}
            with pytest.raises(BlockingError):  # the guard stays in force on every other thread
                await asyncio.to_thread(_blocking_call_in_a_loop)
            return threads
        finally:
            thread.close()

    guard.activate()
    try:  # the server's event loop runs on a thread of its own (this one may hold a loop of an earlier test)
        with ThreadPoolExecutor(max_workers=1) as server:
            threads = server.submit(asyncio.run, steps()).result(timeout=120)
    finally:
        guard.deactivate()
    assert len(threads) == 1 and threading.get_ident() not in threads


@pytest.mark.parametrize("config", ["langgraph.json", "graphs/langgraph.json"])
def test_the_generated_dockerfile_installs_chromium(tmp_path, config):
    subprocess.run([str(LANGGRAPH), "dockerfile", "-c", str(ROOT / config), str(tmp_path / "Dockerfile")],
                   cwd=tmp_path, check=True, capture_output=True, timeout=120)
    dockerfile = (tmp_path / "Dockerfile").read_text()
    assert "apt-get install -y --no-install-recommends chromium" in dockerfile
    assert "webtester.graphs.studio:oracle_graph" in dockerfile
