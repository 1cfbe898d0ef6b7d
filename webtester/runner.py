"""Library entry points: run the tester workflow on one instance or one app and write its run folder.

Runs are checkpointed in ``RUN_DIR/checkpoints.sqlite`` (thread id
``<mode>:<index>`` unless given): calling again with the same run folder
resumes an interrupted run with the next item, and returns a finished run's
result without running it again.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from webtester.agents.base import Tester
from webtester.artifacts import CHECKPOINTS, InstanceFolder, now_iso, update_manifest
from webtester.models import AppSpec, Dimension, Instance, InstanceResult, TestItem

Mode = Literal["e2e", "oracle"]
RECURSION_LIMIT = 10_000


def oracle_items(instance: Instance) -> list[TestItem]:
    """The gold checklist as test items, numbered per dimension in the gold file's order (FT-01, CS-01, ...)."""
    counters = {d: 0 for d in Dimension}
    items = []
    for gold in instance.checklist:
        counters[gold.dimension] += 1
        items.append(TestItem(id=f"{gold.dimension.prefix}-{counters[gold.dimension]:02d}", dimension=gold.dimension,
                              description=gold.content))
    return items


def oracle_id_map(instance: Instance) -> dict[str, int]:
    """Oracle item id -> gold item id."""
    return {item.id: gold.id for item, gold in zip(oracle_items(instance), instance.checklist)}


def app_starter(
    target: Instance | AppSpec | str | Path,
    *,
    build: str = "shipped",
    apps_root: Path | None = None,
    log_path: Path | None = None,
) -> Callable[[], Any]:
    """A function that starts the app under test: a bundled instance (in ``build``), a bundled app name,
    an :class:`AppSpec`, a static or npm folder, or a URL."""
    from webtester import bundled
    from webtester.browser.launcher import start_app

    if isinstance(target, str) and "://" not in target and not Path(target).exists():
        try:
            target = bundled.get_instance(target)
        except KeyError as exc:
            raise ValueError(f"{target!r} is not a URL, a folder or a bundled app ({exc.args[0]})") from None
    if isinstance(target, Instance):
        inst = target
        if inst.defects:  # a bundled app with switchable defects
            root = apps_root or bundled.APPS_ROOT
            return lambda: bundled.serve_app(inst, build, root)
        spec: AppSpec | Path = inst.app or Path(apps_root or bundled.APPS_ROOT) / inst.index
        return lambda: start_app(spec, apps_root=apps_root, log_path=log_path)
    return lambda: start_app(target, apps_root=apps_root, log_path=log_path)


def make_tester(kind: str | None = None, *, settings: Any = None, model: str | None = None) -> Tester:
    """The tester for ``--tester`` (``llm`` default, ``baseline``) and ``--model`` (name, ``scripted:F``, ``replay:DIR``)."""
    kind = kind or "llm"
    if kind not in ("baseline", "llm", "scripted", "replay"):
        raise ValueError(f"unknown tester {kind!r} (expected llm or baseline)")
    if settings is None:
        from webtester.settings import load_settings

        settings = load_settings()
    if kind == "baseline":
        from webtester.agents.baseline import BaselineTester  # added with the rule-based baseline

        return BaselineTester(browser_path=settings.browser_path)
    from webtester.agents.llm_tester import LLMTester

    return LLMTester.from_settings(settings, model=model)


def run_instance(
    instance: Instance,
    *,
    mode: Mode,
    tester: Tester,
    out_dir: Path,
    apps_root: Path | None = None,
    build: str = "shipped",
    settings: Any = None,
    thread_id: str | None = None,
    browser: Any = None,
    on_event: Callable[[str, dict[str, Any]], None] | None = None,
) -> InstanceResult:
    """Run the workflow on a benchmark instance and write ``out_dir/<index>/``; resumable."""
    return run_app(
        instance, instruction=instance.instruction, index=instance.index, mode=mode, tester=tester,
        out_dir=out_dir, gold=oracle_items(instance) if mode == "oracle" else None, apps_root=apps_root,
        build=build, settings=settings, thread_id=thread_id, browser=browser, on_event=on_event,
    )


def run_app(
    target: Instance | AppSpec | str | Path,
    *,
    instruction: str,
    index: str,
    mode: Mode = "e2e",
    tester: Tester,
    out_dir: Path,
    gold: list[TestItem] | None = None,
    apps_root: Path | None = None,
    build: str = "shipped",
    settings: Any = None,
    thread_id: str | None = None,
    browser: Any = None,
    on_event: Callable[[str, dict[str, Any]], None] | None = None,
) -> InstanceResult:
    """Run the workflow on any app (see :func:`app_starter`) and write ``out_dir/<index>/``; resumable."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    from webtester.graphs.context import AppHandle, BrowserHandle, RunContext
    from webtester.graphs.workflow import compile_graph

    if mode == "oracle" and not gold:
        raise ValueError("oracle mode needs the gold checklist")
    if settings is None:
        from webtester.settings import load_settings

        settings = load_settings()
    out_dir = Path(out_dir)
    folder = InstanceFolder(out_dir, index)
    tester.start_instance(index, folder.root)
    ctx = RunContext(
        tester=tester, folder=folder,
        app=AppHandle(app_starter(target, build=build, apps_root=apps_root, log_path=folder.root / "app.log")),
        browser=BrowserHandle(executable=settings.browser_path, trace_dir=folder.traces, browser=browser),
        max_items=settings.max_items, max_tool_calls_per_item=settings.max_tool_calls_per_item,
        max_tool_calls_per_instance=settings.max_tool_calls_per_instance, on_event=on_event,
    )
    run_info = {
        "tester": tester.name, "tester_info": tester.describe(), "mode": mode,
        "settings": settings.public_dict(), "replayed": bool(tester.describe().get("replayed")),
    }
    manifest_entry: dict[str, Any] = {"status": "running", "started": now_iso(), "build": build, "target": str(getattr(target, "index", target))}
    update_manifest(out_dir, run=run_info, index=index, entry=manifest_entry)
    config = {"configurable": {"thread_id": thread_id or f"{mode}:{index}"}, "recursion_limit": RECURSION_LIMIT}
    conn = sqlite3.connect(out_dir / CHECKPOINTS, check_same_thread=False)
    started = time.perf_counter()
    try:
        graph = compile_graph(mode, checkpointer=SqliteSaver(conn))
        snapshot = graph.get_state(config)
        if snapshot.values and not snapshot.next and snapshot.values.get("result"):
            ctx.emit("already_done")
        else:
            resume = bool(snapshot.next)
            if resume:
                ctx.emit("resuming", done=len(snapshot.values.get("verdicts") or []))
            initial = None if resume else {
                "index": index, "instruction": instruction, "mode": mode, "target": str(getattr(target, "index", target)),
                "gold": [g.model_dump(mode="json") for g in gold or []], "verdicts": [], "tool_calls_used": 0,
            }
            graph.invoke(initial, config, context=ctx, durability="sync")
        values = graph.get_state(config).values
    finally:
        ctx.close()
        conn.close()
    result = InstanceResult.model_validate(values["result"])
    counts = {s: sum(v.status.value == s for v in result.verdicts) for s in ("pass", "fail", "error")}
    manifest_entry.update(
        status=result.status, reason=result.reason, finished=now_iso(), items=len(result.checklist),
        verdicts=counts, cost=result.cost.model_dump(), wall_seconds=round(time.perf_counter() - started, 3),
        checklist_notes=values.get("checklist_notes") or [],
    )
    update_manifest(out_dir, run=run_info, index=index, entry=manifest_entry)
    return result
