"""The two-stage tester as LangGraph workflows, wired top to bottom.

End-to-end::

    START -> start_app -> prepare_tester -> generate_checklist -> detect_item (once per item)
          -> write_results -> stop_app -> END

Oracle (the gold checklist replaces generation)::

    START -> start_app -> prepare_tester -> load_gold_checklist -> detect_item (once per item)
          -> write_results -> stop_app -> END

``prepare_tester`` runs once per instance: the tester may look at the app in
pages of the run's browser (the baseline explores it there). An app that does
not start, a tester that cannot prepare or a checklist that cannot be made
skips straight to ``write_results`` (the instance is recorded as failed, with
the reason). Each ``detect_item`` step handles one item on a fresh page, so a
checkpoint follows every verdict and an interrupted run resumes with the next
item.

The nodes read their :class:`~webtester.graphs.context.RunContext` from the
runtime context the caller gives; ``context_factory`` builds it from the state
instead, for callers that cannot pass one; ``wrap_node`` replaces every node by
what it returns for it, with the graph's context and input schemas given
(LangGraph's own tooling, see :mod:`webtester.graphs.studio`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from webtester.graphs.context import RunContext
from webtester.graphs.nodes import (
    detect_item,
    generate_checklist,
    load_gold_checklist,
    prepare_tester,
    route_after_prepare,
    route_after_start,
    route_to_items,
    start_app,
    stop_app,
    write_results,
)
from webtester.graphs.state import TesterState
from webtester.models import MODES, Mode

Node = Callable[[TesterState, Runtime[RunContext]], dict[str, Any]]
ContextFactory = Callable[[TesterState], RunContext]
NodeWrapper = Callable[[str, Node], Any]


def build_graph(mode: Mode = "e2e", *, context_factory: ContextFactory | None = None,
                wrap_node: NodeWrapper | None = None, context_schema: type[Any] = RunContext,
                input_schema: type[Any] | None = None) -> StateGraph:
    """The uncompiled workflow for ``mode`` ('e2e' or 'oracle'); see the module docstring for ``context_factory``
    and ``wrap_node`` (called with each node's name and function)."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r} (expected 'e2e' or 'oracle')")
    checklist_node = "generate_checklist" if mode == "e2e" else "load_gold_checklist"
    graph = StateGraph(TesterState, context_schema=context_schema, input_schema=input_schema)

    def add(name: str, node: Node) -> None:
        action: Any = node if context_factory is None else _with_context(node, context_factory)
        graph.add_node(name, action if wrap_node is None else wrap_node(name, action))

    add("start_app", start_app)
    add("prepare_tester", prepare_tester)
    if mode == "e2e":
        add("generate_checklist", generate_checklist)
    else:
        add("load_gold_checklist", load_gold_checklist)
    add("detect_item", detect_item)
    add("write_results", write_results)
    add("stop_app", stop_app)

    graph.add_edge(START, "start_app")
    graph.add_conditional_edges("start_app", route_after_start, ["prepare_tester", "write_results"])
    graph.add_conditional_edges("prepare_tester", route_after_prepare, [checklist_node, "write_results"])
    graph.add_conditional_edges(checklist_node, route_to_items, ["detect_item", "write_results"])
    graph.add_conditional_edges("detect_item", route_to_items, ["detect_item", "write_results"])
    graph.add_edge("write_results", "stop_app")
    graph.add_edge("stop_app", END)
    return graph


def compile_graph(
    mode: Mode = "e2e", checkpointer: BaseCheckpointSaver | None = None, *, context_factory: ContextFactory | None = None
) -> CompiledStateGraph:
    """The compiled workflow; pass a checkpointer (e.g. SQLite) to make runs resumable."""
    return build_graph(mode, context_factory=context_factory).compile(checkpointer=checkpointer, name=f"webtester-{mode}")


def _with_context(node: Node, context_factory: ContextFactory) -> Node:
    """``node`` run with the context ``context_factory`` builds from the state."""

    def run(state: TesterState, runtime: Runtime[RunContext]) -> dict[str, Any]:
        return node(state, runtime.override(context=context_factory(state)))

    run.__name__ = run.__qualname__ = getattr(node, "__name__", "node")
    run.__doc__ = node.__doc__
    return run
