"""Run the tester workflow on one instance or one app and write its run folder.

Runs are checkpointed in ``RUN_DIR/checkpoints.sqlite`` (thread id
``<mode>:<index>`` unless given): calling again with the same run folder
resumes an interrupted run with the next item, and returns a finished run's
result without running it again. The run's secrets are registered for redaction
(:mod:`webtester.redact`) before anything is written.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

from webtester.agents.base import Tester
from webtester.graphs.checkpoints import sqlite_checkpointer
from webtester.graphs.context import Event, RunContext
from webtester.graphs.workflow import compile_graph
from webtester.models import Instance, InstanceResult, Mode, TestItem, Verdict, oracle_items
from webtester.redact import register_settings
from webtester.runfolder import (
    APP_LOG_FILE,
    CHECKPOINTS_FILE,
    InstanceFolder,
    holding_run_folder,
    now_iso,
    update_manifest,
)
from webtester.settings import Settings, load_settings
from webtester.targets import Target, app_starter, target_label

RECURSION_LIMIT = 10_000


def run_instance(
    instance: Instance,
    *,
    mode: Mode,
    tester: Tester,
    out_dir: Path,
    apps_root: Path | None = None,
    build: str = "shipped",
    settings: Settings | None = None,
    thread_id: str | None = None,
    browser: Browser | None = None,
    on_event: Event | None = None,
) -> InstanceResult:
    """Run the workflow on a benchmark instance and write ``out_dir/<index>/``; resumable. Oracle mode tests the
    instance's gold checklist (:func:`webtester.models.oracle_items`)."""
    return run_app(
        instance, instruction=instance.instruction, index=instance.index, mode=mode, tester=tester,
        out_dir=out_dir, gold=oracle_items(instance) if mode == "oracle" else None, apps_root=apps_root,
        build=build, settings=settings, thread_id=thread_id, browser=browser, on_event=on_event,
    )


@holding_run_folder  # one process at a time writes a run folder (a bench's workers share the bench's hold)
def run_app(
    target: Target,
    *,
    instruction: str,
    index: str,
    mode: Mode = "e2e",
    tester: Tester,
    out_dir: Path,
    gold: list[TestItem] | None = None,
    apps_root: Path | None = None,
    build: str = "shipped",
    settings: Settings | None = None,
    thread_id: str | None = None,
    browser: Browser | None = None,
    on_event: Event | None = None,
) -> InstanceResult:
    """Run the workflow on any app (see :mod:`webtester.targets`) and write ``out_dir/<index>/``; resumable.
    ``browser``: an already running Playwright browser to use instead of starting one."""
    if mode == "oracle" and not gold:
        raise ValueError("oracle mode needs the gold checklist")
    settings = settings if settings is not None else load_settings()
    register_settings(settings)  # no artifact, log, checkpoint or progress event of the run holds a secret
    out_dir = Path(out_dir)
    folder = InstanceFolder(out_dir, index)
    tester.start_instance(index, folder.root)
    start = app_starter(target, build=build, apps_root=apps_root, log_path=folder.root / APP_LOG_FILE,
                        serve=settings.serve)
    ctx = RunContext.create(tester, folder, start, settings, browser=browser, on_event=on_event)
    run_info = manifest_run_fields(tester, mode, settings)
    info = run_info["tester_info"]
    label = target_label(target)
    manifest_entry: dict[str, Any] = {"status": "running", "started": now_iso(), "build": build, "target": label}
    update_manifest(out_dir, run=run_info, index=index, entry=manifest_entry)
    config = {"configurable": {"thread_id": thread_id or f"{mode}:{index}"}, "recursion_limit": RECURSION_LIMIT}
    conn = sqlite3.connect(out_dir / CHECKPOINTS_FILE, check_same_thread=False)
    started = time.perf_counter()
    try:
        graph = compile_graph(mode, checkpointer=sqlite_checkpointer(conn))
        snapshot = graph.get_state(config)
        _restore_files(folder, snapshot, replayed=bool(info.get("replayed")))
        if snapshot.values and not snapshot.next and snapshot.values.get("result"):
            ctx.emit("already_done")
        else:
            resume = bool(snapshot.next)
            if resume:
                ctx.emit("resuming", done=len(snapshot.values.get("verdicts") or []))
            initial = None if resume else {
                "index": index, "instruction": instruction, "mode": mode, "target": label,
                "gold": [g.model_dump(mode="json") for g in gold or []], "verdicts": [], "tool_calls_used": 0,
            }
            graph.invoke(initial, config, context=ctx, durability="sync")
        values = graph.get_state(config).values
    finally:
        ctx.close()
        conn.close()
    result = InstanceResult.model_validate(values["result"])
    manifest_entry.update(finished_entry(result, values), wall_seconds=round(time.perf_counter() - started, 3))
    run_info = manifest_run_fields(tester, mode, settings)  # again: the models the server reported are known now
    update_manifest(out_dir, run=run_info, index=index, entry=manifest_entry)
    return result


def manifest_run_fields(tester: Tester, mode: Mode, settings: Settings) -> dict[str, Any]:
    """The run-level fields of the manifest: the tester and what it says of itself, the mode, public settings."""
    info = tester.describe()
    return {"tester": tester.name, "tester_info": info, "mode": mode, "settings": settings.public_dict(),
            "replayed": bool(info.get("replayed"))}


def finished_entry(result: InstanceResult, values: dict[str, Any]) -> dict[str, Any]:
    """An instance's manifest fields once its result is written (``values``: the final workflow state)."""
    counts = {s: sum(v.status.value == s for v in result.verdicts) for s in ("pass", "fail", "error")}
    return {"status": result.status, "reason": result.reason, "finished": now_iso(), "items": len(result.checklist),
            "verdicts": counts, "cost": result.cost.model_dump(), "checklist_notes": values.get("checklist_notes") or []}


def _restore_files(folder: InstanceFolder, snapshot: Any, *, replayed: bool) -> None:
    """Make the instance's files agree with the checkpoint the run resumes from (see :meth:`InstanceFolder.restore`):
    a verdict logged after the last checkpoint is not logged twice."""
    values = snapshot.values or {}
    done = values.get("result") if not snapshot.next else None
    folder.restore(
        [TestItem.model_validate(d) for d in values.get("checklist") or []],
        [Verdict.model_validate(d) for d in values.get("verdicts") or []],
        InstanceResult.model_validate(done) if done else None, replayed=replayed,
    )
