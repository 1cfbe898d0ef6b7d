"""The two-stage tester as LangGraph workflows, wired top to bottom.

End-to-end::

    START -> start_app -> generate_checklist -> detect_item (once per item) -> write_results -> stop_app -> END

Oracle (the gold checklist replaces generation)::

    START -> start_app -> load_gold_checklist -> detect_item (once per item) -> write_results -> stop_app -> END

An app that does not start or a checklist that cannot be made skips straight
to ``write_results`` (the instance is recorded as failed, with the reason).
Each ``detect_item`` step handles one item, so a checkpoint follows every
verdict and an interrupted run resumes with the next item.
"""

from __future__ import annotations

from typing import Literal

from langgraph.graph import END, START, StateGraph

from webtester.graphs.context import RunContext
from webtester.graphs.nodes import (
    detect_item,
    generate_checklist,
    load_gold_checklist,
    route_after_start,
    route_to_items,
    start_app,
    stop_app,
    write_results,
)
from webtester.graphs.state import TesterState

Mode = Literal["e2e", "oracle"]


def build_graph(mode: Mode = "e2e") -> StateGraph:
    """The uncompiled workflow for ``mode`` ('e2e' or 'oracle')."""
    if mode not in ("e2e", "oracle"):
        raise ValueError(f"unknown mode {mode!r} (expected 'e2e' or 'oracle')")
    checklist_node = "generate_checklist" if mode == "e2e" else "load_gold_checklist"
    graph = StateGraph(TesterState, context_schema=RunContext)

    graph.add_node("start_app", start_app)
    if mode == "e2e":
        graph.add_node("generate_checklist", generate_checklist)
    else:
        graph.add_node("load_gold_checklist", load_gold_checklist)
    graph.add_node("detect_item", detect_item)
    graph.add_node("write_results", write_results)
    graph.add_node("stop_app", stop_app)

    graph.add_edge(START, "start_app")
    graph.add_conditional_edges("start_app", route_after_start, [checklist_node, "write_results"])
    graph.add_conditional_edges(checklist_node, route_to_items, ["detect_item", "write_results"])
    graph.add_conditional_edges("detect_item", route_to_items, ["detect_item", "write_results"])
    graph.add_edge("write_results", "stop_app")
    graph.add_edge("stop_app", END)
    return graph


def compile_graph(mode: Mode = "e2e", checkpointer=None):
    """The compiled workflow; pass a checkpointer (e.g. SQLite) to make runs resumable."""
    return build_graph(mode).compile(checkpointer=checkpointer, name=f"webtester-{mode}")


# Entry points for LangGraph's own tooling (graphs/langgraph.json); it supplies its own checkpointer.
e2e_graph = compile_graph("e2e")
oracle_graph = compile_graph("oracle")
