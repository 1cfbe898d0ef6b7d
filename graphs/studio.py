"""The workflows for LangGraph's own tooling (``langgraph dev``, LangGraph Studio; see ``graphs/langgraph.json``).

That tooling runs a graph without giving it a run context, so these graphs
build one from the settings for each instance (``state['index']``): the LLM
tester of the configured models, the app named by ``state['target']`` (else
the index, a bundled app's name), and the run folder ``OUTPUT_DIR/studio``.
Every node of one instance's run shares that context. The tooling supplies its
own checkpointer.
"""

from __future__ import annotations

from webtester.agents.llm_tester import LLMTester
from webtester.graphs.context import RunContext
from webtester.graphs.state import TesterState
from webtester.graphs.workflow import compile_graph
from webtester.runfolder import APP_LOG_FILE, InstanceFolder
from webtester.settings import load_settings
from webtester.targets import app_starter

STUDIO_RUN_DIR = "studio"

_CONTEXTS: dict[str, RunContext] = {}


def studio_context(state: TesterState) -> RunContext:
    """The run context of ``state['index']`` (built on first use, then shared by the instance's nodes)."""
    index = state.get("index") or "app"
    if index not in _CONTEXTS:
        settings = load_settings()
        folder = InstanceFolder(settings.output_dir / STUDIO_RUN_DIR, index)
        tester = LLMTester.from_settings(settings)
        tester.start_instance(index, folder.root)
        start = app_starter(state.get("target") or index, log_path=folder.root / APP_LOG_FILE)
        _CONTEXTS[index] = RunContext.create(tester, folder, start, settings)
    return _CONTEXTS[index]


e2e_graph = compile_graph("e2e", context_factory=studio_context)
oracle_graph = compile_graph("oracle", context_factory=studio_context)
