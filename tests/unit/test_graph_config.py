"""The langgraph.json files (repository root, graphs/) name importable compiled graphs with the documented shape, and
those graphs build their run context themselves (LangGraph's tooling gives none); the library's graphs take it from
the caller."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from langgraph.graph.state import CompiledStateGraph

from webtester.agents.base import Checklist
from webtester.graphs.context import AppHandle, BrowserHandle, RunContext
from webtester.graphs.workflow import compile_graph
from webtester.runfolder import InstanceFolder

ROOT = Path(__file__).resolve().parents[2]


def _load(spec: str):
    module, _, attr = spec.partition(":")
    assert "/" not in module  # a module path: it imports from any working directory (`langgraph dev --config ...`)
    return getattr(importlib.import_module(module), attr)


@pytest.mark.parametrize("config_path", ["langgraph.json", "graphs/langgraph.json"])
def test_langgraph_json_graphs_load(config_path):
    config_file = ROOT / config_path
    config = json.loads(config_file.read_text())
    assert (config_file.parent / config["dependencies"][0] / "pyproject.toml").exists()
    loaded = {name: _load(spec) for name, spec in config["graphs"].items()}
    assert set(loaded) == {"e2e", "oracle"}
    for name, graph in loaded.items():
        assert isinstance(graph, CompiledStateGraph)
        edges = {(e.source, e.target) for e in graph.get_graph().edges}
        first = "generate_checklist" if name == "e2e" else "load_gold_checklist"
        assert {("__start__", "start_app"), ("start_app", "prepare_tester"), ("prepare_tester", first),
                (first, "detect_item"), ("detect_item", "detect_item"), ("detect_item", "write_results"),
                ("write_results", "stop_app"), ("stop_app", "__end__")} <= edges


class _Tester:
    name = "stand-in"

    def describe(self):
        return {"tester": self.name}

    def start_instance(self, index, folder):
        pass

    def prepare(self, app_url, pages, *, instruction=""):
        raise AssertionError("not reached: the app does not start")

    def generate_checklist(self, instruction, app_url, max_items):
        return Checklist(items=[])

    def detect(self, item, page, budget, *, instruction=""):
        raise AssertionError("not reached")


def _context(tmp_path: Path, made: list[str]):
    def no_app():
        raise RuntimeError("nothing to serve")

    def factory(state) -> RunContext:
        made.append(state["index"])
        return RunContext(tester=_Tester(), folder=InstanceFolder(tmp_path, state["index"]), app=AppHandle(no_app),
                          browser=BrowserHandle())

    return factory


def test_a_context_factory_supplies_the_context_of_every_node(tmp_path):
    made: list[str] = []
    graph = compile_graph("e2e", context_factory=_context(tmp_path, made))
    out = graph.invoke({"index": "demo", "instruction": "x", "mode": "e2e", "verdicts": []})
    assert out["result"]["status"] == "failed" and "app did not start" in out["result"]["reason"]
    assert made == ["demo"] * 3  # start_app, write_results, stop_app
    assert (tmp_path / "demo" / "result.json").exists()


def test_without_a_factory_the_caller_gives_the_context(tmp_path):
    made: list[str] = []
    ctx = _context(tmp_path, made)({"index": "demo"})
    out = compile_graph("e2e").invoke({"index": "demo", "instruction": "x", "mode": "e2e", "verdicts": []}, context=ctx)
    assert out["result"]["status"] == "failed"
    with pytest.raises(AttributeError):  # no fallback context: a graph run without one is a caller's mistake
        compile_graph("e2e").invoke({"index": "demo", "instruction": "x", "mode": "e2e", "verdicts": []})


class _DeciderTester(_Tester):
    """Decides from its preparation (no page per item) and sees the checklist first."""

    needs_item_page = False

    def __init__(self):
        self.planned: list[list[str]] = []

    def prepare(self, app_url, pages, *, instruction=""):
        pass

    def generate_checklist(self, instruction, app_url, max_items):
        from webtester.models import Dimension, TestItem
        return Checklist(items=[TestItem(id=f"FT-0{n}", dimension=Dimension.functionality, description=f"item {n}")
                                for n in (1, 2, 3)])

    def plan_detection(self, items, *, instruction=""):
        self.planned.append([i.id for i in items])

    def detect(self, item, page, budget, *, instruction=""):
        from webtester.models import Status, Verdict
        assert page is None  # no page was opened for it
        return Verdict(item_id=item.id, status=Status.passed)


class _FlakyApp:
    """Answers for the preparation, the checklist and the first item, then goes down for good (a restart does
    not bring it back)."""

    url = "http://127.0.0.1:9/"

    def __init__(self, answers: int = 3):
        self.checks = 0
        self.answers = answers

    def ensure_healthy(self):
        from webtester.browser.launcher import AppDownError
        self.checks += 1
        if self.checks > self.answers:
            raise AppDownError("dev server exited with code 137; restart failed", "Error: config exploded")
        return self.url

    def stop(self):
        pass


def _run_with_flaky_app(tmp_path, tester, app: _FlakyApp) -> dict:
    """The end-to-end workflow on ``app``; returns the result record."""
    handle = AppHandle(lambda: app)  # one handle for the run, as run_app gives every node

    def factory(state) -> RunContext:
        return RunContext(tester=tester, folder=InstanceFolder(tmp_path, state["index"]), app=handle,
                          browser=BrowserHandle())

    out = compile_graph("e2e", context_factory=factory).invoke(
        {"index": "flaky", "instruction": "x", "mode": "e2e", "verdicts": []})
    return out["result"]


def test_an_app_that_stays_down_mid_run_fails_the_instance_with_the_reason_and_its_log(tmp_path):
    tester = _DeciderTester()
    result = _run_with_flaky_app(tmp_path, tester, _FlakyApp())
    assert result["status"] == "failed"
    assert "app stopped during the run" in result["reason"] and "exited with code 137" in result["reason"]
    assert "config exploded" in result["reason"]  # the log tail is given as the reason too
    assert [v["status"] for v in result["verdicts"]] == ["pass"]  # the item before the crash keeps its verdict
    assert tester.planned and tester.planned[0] == ["FT-01", "FT-02", "FT-03"]


def test_an_app_that_goes_down_before_the_preparation_fails_the_instance_with_the_reason(tmp_path):
    result = _run_with_flaky_app(tmp_path, _DeciderTester(), _FlakyApp(answers=0))
    assert result["status"] == "failed" and result["verdicts"] == []
    assert result["reason"].startswith("app stopped during the run") and "config exploded" in result["reason"]

