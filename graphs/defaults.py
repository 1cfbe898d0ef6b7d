"""A run context built from settings, for runs started by LangGraph's own tooling (no runner around them).

Resources are cached per instance so that every node of one run shares them.
"""

from __future__ import annotations

from typing import Any

from webtester.graphs.context import AppHandle, BrowserHandle, RunContext

_CONTEXTS: dict[str, RunContext] = {}


def default_context(state: Any) -> RunContext:
    """The context for ``state['index']``: LLM tester from settings, app from ``state['target']``."""
    index = state.get("index") or "app"
    if index in _CONTEXTS:
        return _CONTEXTS[index]
    from webtester.agents.llm_tester import LLMTester
    from webtester.artifacts import InstanceFolder
    from webtester.runner import app_starter
    from webtester.settings import load_settings

    settings = load_settings()
    folder = InstanceFolder(settings.output_dir / "studio", index)
    tester = LLMTester.from_settings(settings)
    tester.start_instance(index, folder.root)
    ctx = RunContext(
        tester=tester, folder=folder,
        app=AppHandle(app_starter(state.get("target") or index, log_path=folder.root / "app.log")),
        browser=BrowserHandle(executable=settings.browser_path, trace_dir=folder.traces),
        max_items=settings.max_items, max_tool_calls_per_item=settings.max_tool_calls_per_item,
        max_tool_calls_per_instance=settings.max_tool_calls_per_instance,
    )
    _CONTEXTS[index] = ctx
    return ctx
