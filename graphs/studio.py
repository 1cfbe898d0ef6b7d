"""The workflows for LangGraph's own tooling: ``langgraph dev``, LangGraph Studio, a LangGraph server
(``langgraph.json`` at the repository root, or ``graphs/langgraph.json``).

The server gives a run a plain-JSON input (:class:`StudioInput`: the instance's
``index``, an optional ``target`` and ``instruction``) and a plain-JSON context
(:class:`StudioContext`: tester, model, output folder, build, limits). On the
run's first step these graphs build the live resources from them: the settings
(:func:`~webtester.settings.load_settings` with the context's values over them),
the tester, the run folder ``OUTPUT_DIR/<index>/``, the app and the browser. A
bundled app's name is enough as input: its instruction and, in oracle mode, its
gold checklist come from the bundled benchmark.

Every step of one run does its work on the run's own thread
(:class:`~webtester.graphs.instance_thread.InstanceThread`): the server moves
steps between threads and Playwright's sync objects cannot follow. The
resources of a run are kept per LangGraph thread until ``stop_app`` releases
them; the server supplies its own checkpointer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NotRequired, Required

from langgraph.config import get_config
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from webtester.graphs.context import RunContext
from webtester.graphs.instance_thread import InstanceThread
from webtester.graphs.run import finished_entry, manifest_run_fields
from webtester.graphs.state import TesterState
from webtester.graphs.workflow import Node, build_graph
from webtester.models import Instance, InstanceResult, Mode, oracle_items
from webtester.redact import register_settings
from webtester.runfolder import APP_LOG_FILE, InstanceFolder, now_iso, read_manifest, update_manifest
from webtester.settings import load_settings
from webtester.targets import app_starter, names_bundled_app, resolve_target, target_label
from webtester.testers import make_tester

STUDIO_RUN_DIR = "studio"
"""The run folder under the settings' ``output_dir`` when the context names none."""


class StudioInput(TypedDict):
    """What a run tests: ``index`` names the instance (a bundled app's name is enough)."""

    index: Required[str]
    target: NotRequired[str]  # what to start (default: the index): a bundled app name, a static or npm folder, a URL
    instruction: NotRequired[str]  # the app's instruction (default: the bundled instance's)


@dataclass(frozen=True)
class StudioContext:
    """How a run tests (plain JSON): unset values come from the settings (environment, ``webtester.toml``)."""

    tester: str = "llm"
    """llm (chat models) or baseline (rule-based, no model)"""
    model: str | None = None
    """the LLM tester's model: a name, scripted:FILE or replay:RUN_DIR"""
    output_dir: str | None = None
    """the run folder (default: OUTPUT_DIR/studio); the instance is written to its <index>/ folder"""
    build: str = "shipped"
    """a bundled app's build: shipped, clean, all, or defect ids"""
    max_items: int | None = None
    max_tool_calls_per_item: int | None = None
    max_tool_calls_per_instance: int | None = None
    item_time_limit: float | None = None
    instance_time_limit: float | None = None
    network: str | None = None
    """offline or allow-subresources"""
    trace: str | None = None
    """Playwright traces of the items: on, off or retain-on-failure"""


def build_run_context(state: TesterState, given: StudioContext, mode: Mode) -> tuple[RunContext, dict[str, Any]]:
    """The run context of ``state``'s instance and the input it implies (mode, target, a bundled instance's
    instruction and oracle gold), to be recorded in the state."""
    settings = load_settings(
        max_items=given.max_items, max_tool_calls_per_item=given.max_tool_calls_per_item,
        max_tool_calls_per_instance=given.max_tool_calls_per_instance, item_time_limit=given.item_time_limit,
        instance_time_limit=given.instance_time_limit, network=given.network, trace=given.trace,
    )
    register_settings(settings)  # no artifact, log or checkpoint of the run holds a secret
    index = state.get("index") or "app"
    target = state.get("target") or index
    implied: dict[str, Any] = {"mode": mode, "target": target}
    bundled = resolve_target(target) if names_bundled_app(target) else None
    if isinstance(bundled, Instance):
        implied["target"] = target_label(bundled)
        implied["instruction"] = state.get("instruction") or bundled.instruction
        if mode == "oracle" and not state.get("gold"):
            implied["gold"] = [item.model_dump(mode="json") for item in oracle_items(bundled)]
    run_dir = Path(given.output_dir) if given.output_dir else settings.output_dir / STUDIO_RUN_DIR
    folder = InstanceFolder(run_dir, index)
    tester = make_tester(given.tester, settings=settings, model=given.model)
    tester.start_instance(index, folder.root)
    start = app_starter(bundled or target, build=given.build, log_path=folder.root / APP_LOG_FILE,
                        serve=settings.serve)
    run_fields = manifest_run_fields(tester, mode, settings)
    if isinstance(bundled, Instance) and index == bundled.index:
        run_fields["dataset"] = "bundled"  # `webtester score RUN_DIR` finds the gold
    entry = {"status": "running", "started": now_iso(), "build": given.build, "target": implied["target"]}
    update_manifest(run_dir, run=run_fields, index=index, entry=entry)
    return RunContext.create(tester, folder, start, settings), implied


def _record_result(ctx: RunContext, state: dict[str, Any]) -> None:
    """Write the instance's outcome into the run folder's manifest, next to what its start wrote there."""
    run_dir, index = ctx.folder.run_dir, ctx.folder.index
    entry = dict(((read_manifest(run_dir) or {}).get("instances") or {}).get(index) or {})
    entry.update(finished_entry(InstanceResult.model_validate(state["result"]), state))
    update_manifest(run_dir, run={}, index=index, entry=entry)


@dataclass
class _Run:
    """One run's thread, and its context once the first step has built it."""

    thread: InstanceThread
    context: RunContext | None = None

    def close(self) -> None:
        """Release the run's browser and app on its thread (after the work in hand), then the thread."""
        if self.context is not None:
            self.thread.submit(self.context.close)
        self.thread.close()


_RUNS: dict[str, _Run] = {}


def _run_key(state: TesterState) -> str:
    """The LangGraph thread the step belongs to (the instance's index when there is none)."""
    configurable = get_config().get("configurable") or {}
    return str(configurable.get("thread_id") or state.get("index") or "app")


def _on_instance_thread(mode: Mode) -> Any:
    """A ``wrap_node`` that runs each node on its run's thread with the context built from the server's JSON."""

    def wrap(name: str, node: Node) -> Any:
        async def step(state: TesterState, runtime: Runtime[StudioContext]) -> dict[str, Any]:
            key = _run_key(state)
            run = _RUNS.get(key) or _RUNS.setdefault(key, _Run(InstanceThread(f"webtester-{mode}")))
            given = runtime.context if isinstance(runtime.context, StudioContext) else StudioContext()

            def work() -> dict[str, Any]:
                implied: dict[str, Any] = {}
                if run.context is None:  # the run's first step (or the first after a restart of the server)
                    run.context, implied = build_run_context(state, given, mode)
                update = node({**state, **implied}, runtime.override(context=run.context))
                if name == "write_results" and update.get("result"):
                    _record_result(run.context, {**state, **implied, **update})
                return {**implied, **update}

            try:
                update = await run.thread.run(work)
            except BaseException:  # the run ends here (the nodes let no ordinary exception escape)
                _RUNS.pop(key, None)
                run.close()
                raise
            if name == "stop_app":  # the run's browser and app are closed: release its thread
                _RUNS.pop(key, None)
                run.thread.close()
            return update

        step.__name__ = step.__qualname__ = name
        step.__doc__ = node.__doc__
        return step

    return wrap


def studio_graph(mode: Mode) -> CompiledStateGraph:
    """The workflow for ``mode`` as LangGraph's server runs it (see the module docstring)."""
    graph = build_graph(mode, wrap_node=_on_instance_thread(mode), context_schema=StudioContext,
                        input_schema=StudioInput)
    return graph.compile(name=f"webtester-{mode}")


e2e_graph = studio_graph("e2e")
oracle_graph = studio_graph("oracle")
