"""graphs/langgraph.json names importable compiled graphs with the documented shape."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from langgraph.graph.state import CompiledStateGraph

GRAPHS = Path(__file__).resolve().parents[1] / "graphs"


def _load(spec: str):
    file, _, attr = spec.partition(":")
    path = (GRAPHS / file).resolve()
    module_spec = importlib.util.spec_from_file_location(f"lg_{path.stem}", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return getattr(module, attr)


def test_langgraph_json_graphs_load():
    config = json.loads((GRAPHS / "langgraph.json").read_text())
    assert (GRAPHS / config["dependencies"][0] / "pyproject.toml").exists()
    loaded = {name: _load(spec) for name, spec in config["graphs"].items()}
    assert set(loaded) == {"e2e", "oracle"}
    for name, graph in loaded.items():
        assert isinstance(graph, CompiledStateGraph)
        edges = {(e.source, e.target) for e in graph.get_graph().edges}
        first = "generate_checklist" if name == "e2e" else "load_gold_checklist"
        assert {("__start__", "start_app"), ("start_app", first), (first, "detect_item"), ("detect_item", "detect_item"),
                ("detect_item", "write_results"), ("write_results", "stop_app"), ("stop_app", "__end__")} <= edges
