"""Run a tester over a dataset: concurrent, isolated, resumable.

Every instance runs in its own worker process (at most ``workers`` at a time),
which calls the workflow's library entry point
``webtester.runner.run_instance(instance, mode=..., tester=..., out_dir=RUN_DIR, ...)``
with its own browser. An instance whose app does not start, whose worker
raises or crashes, or that exceeds the time limit is recorded as failed
(``InstanceResult(status="failed", reason=...)`` in ``RUN_DIR/<index>/result.json``,
written atomically) and the run goes on. Rerunning on the same folder skips
finished instances (``--retry-failed`` reruns the failed ones; the workflow's
checkpoints let an interrupted instance continue with its next item).
"""

from __future__ import annotations

import importlib
import multiprocessing as mp
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from webtester.artifacts import update_manifest, write_json
from webtester.models import Instance, InstanceResult

RUNNER = "webtester.runner:run_instance"
GRACE_SECONDS = 10.0
STARTUP_SECONDS = 300.0  # a worker that has not started its instance by then is stopped


class BenchConfig(BaseModel):
    """How to run the bench; passed to every worker."""

    mode: Literal["e2e", "oracle"] = "e2e"
    tester: str | None = Field(default=None, description="tester kind: llm (default) or baseline")
    model: str | None = Field(default=None, description="model name, scripted:FILE or replay:RUN_DIR")
    build: str = "shipped"
    apps_root: Path | None = None
    config: Path | None = Field(default=None, description="webtester.toml with model settings")
    workers: int = Field(default=2, ge=1)
    timeout: float | None = Field(default=None, gt=0, description="seconds per instance; None for no limit")
    retry_failed: bool = False
    runner: str = Field(default=RUNNER, description="module:function called for each instance")


@dataclass
class BenchReport:
    """What a bench run did."""

    ran: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    seconds: float = 0.0
    results: dict[str, InstanceResult] = field(default_factory=dict)


def read_result(run_dir: Path, index: str) -> InstanceResult | None:
    """The finished result of an instance, or None when absent or unreadable (then it is run again)."""
    path = Path(run_dir) / index / "result.json"
    if not path.exists():
        return None
    try:
        return InstanceResult.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError:
        return None


def split_done(instances: Sequence[Instance], run_dir: Path, retry_failed: bool = False) -> tuple[list[Instance], dict[str, InstanceResult]]:
    """(instances to run, finished results to keep)."""
    todo, done = [], {}
    for inst in instances:
        res = read_result(run_dir, inst.index)
        if res is not None and (res.status == "ok" or not retry_failed):
            done[inst.index] = res
        else:
            todo.append(inst)
    return todo, done


def record_failure(run_dir: Path, index: str, reason: str, tester: str = "") -> InstanceResult:
    """Write a failed result for an instance (atomically) and note it in the manifest."""
    result = InstanceResult(index=index, status="failed", reason=reason, tester=tester)
    write_json(Path(run_dir) / index / "result.json", result.model_dump(mode="json"))
    update_manifest(run_dir, run={}, index=index, entry={"status": "failed", "reason": reason})
    return result


def _load_runner(spec: str) -> Callable[..., InstanceResult]:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def _worker(conn, instance_json: str, cfg_json: str, run_dir: str) -> None:
    """Worker process body: run one instance, send ('ok', result json) or ('error', reason)."""
    os.setsid()  # own process group, so a timeout can stop everything the worker started
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run cleanups (stop the app) when stopped
    try:
        cfg = BenchConfig.model_validate_json(cfg_json)
        instance = Instance.model_validate_json(instance_json)
        from webtester.runner import make_tester
        from webtester.settings import load_settings

        settings = load_settings(cfg.config)
        tester = make_tester(cfg.tester, settings=settings, model=cfg.model)
        run = _load_runner(cfg.runner)
        conn.send(("started", ""))  # the time limit counts from here
        result = run(
            instance, mode=cfg.mode, tester=tester, out_dir=Path(run_dir), apps_root=cfg.apps_root,
            build=cfg.build, settings=settings,
        )
        conn.send(("ok", result.model_dump_json()))
    except BaseException as exc:  # noqa: BLE001 - every failure is reported to the parent
        last = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
        where = f" (at {last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno})" if last else ""
        try:
            conn.send(("error", f"{type(exc).__name__}: {str(exc).strip()[:500]}{where}"))
        except Exception:
            pass
        if not isinstance(exc, Exception):
            raise
    finally:
        conn.close()


@dataclass
class _Running:
    instance: Instance
    process: Any
    conn: Any
    started: float
    running: bool = False


def _stop(process, grace: float = GRACE_SECONDS) -> None:
    """SIGTERM the worker's process group, then SIGKILL what is left after ``grace`` seconds."""
    if process.pid is None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    process.join(grace)
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.join(5)


def run_bench(
    instances: Sequence[Instance],
    run_dir: Path,
    cfg: BenchConfig,
    *,
    dataset: str | None = None,
    on_update: Callable[[BenchReport, int, int], None] | None = None,
) -> BenchReport:
    """Run every unfinished instance (see the module docstring); returns what happened.

    ``on_update(report, finished, total)`` is called after each instance (progress display).
    """
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    todo, done = split_done(instances, run_dir, cfg.retry_failed)
    report = BenchReport(skipped=sorted(done), results=dict(done))
    report.failed = {i: r.reason or "failed" for i, r in done.items() if r.status == "failed"}
    run_info = {"mode": cfg.mode, "bench": cfg.model_dump(mode="json", exclude={"runner"})}
    if dataset:
        run_info["dataset"] = dataset
    for inst in todo:
        update_manifest(run_dir, run=run_info, index=inst.index, entry={"status": "queued"})
    total = len(instances)
    if on_update:
        on_update(report, len(done), total)
    ctx = mp.get_context("spawn")
    queue = list(todo)
    running: list[_Running] = []
    cfg_json = cfg.model_dump_json()
    model_kind = (cfg.model or "").partition(":")[0]
    tester_label = model_kind if model_kind in ("scripted", "replay") else (cfg.tester or "llm") + (f":{cfg.model}" if cfg.model else "")
    try:
        while queue or running:
            while queue and len(running) < cfg.workers:
                inst = queue.pop(0)
                parent, child = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_worker, args=(child, inst.model_dump_json(), cfg_json, str(run_dir)),
                                   name=f"bench-{inst.index}", daemon=False)
                proc.start()
                child.close()
                running.append(_Running(inst, proc, parent, time.perf_counter()))
            time.sleep(0.05)
            for r in list(running):
                outcome = _poll(r, cfg.timeout)
                if outcome is None:
                    continue
                running.remove(r)
                kind, payload = outcome
                index = r.instance.index
                if kind == "ok":
                    result = InstanceResult.model_validate_json(payload)
                    if read_result(run_dir, index) is None:  # a runner that does not write its result
                        write_json(run_dir / index / "result.json", result.model_dump(mode="json"))
                else:
                    result = record_failure(run_dir, index, payload, tester_label)
                report.results[index] = result
                report.ran.append(index)
                if result.status == "failed":
                    report.failed[index] = result.reason or "failed"
                else:
                    report.failed.pop(index, None)
                if on_update:
                    on_update(report, len(report.results), total)
    finally:
        for r in running:  # interrupted: stop the workers, leave their instances unfinished
            _stop(r.process, grace=2.0)
            r.conn.close()
    report.seconds = time.perf_counter() - start
    return report


def _crash(r: _Running) -> tuple[str, str]:
    r.process.join(30)
    r.conn.close()
    code = r.process.exitcode
    sig = f" (signal {signal.Signals(-code).name})" if code is not None and code < 0 else ""
    return ("error", f"worker crashed: exit code {code}{sig}")


def _poll(r: _Running, timeout: float | None) -> tuple[str, str] | None:
    """('ok', json) / ('error', reason) when the worker is done, else None."""
    if r.conn.poll():
        try:
            msg = r.conn.recv()
        except (EOFError, OSError):  # the worker died without a word
            return _crash(r)
        if msg[0] == "started":
            r.running, r.started = True, time.perf_counter()
            return None
        r.process.join(30)
        if r.process.is_alive():
            _stop(r.process)
        r.conn.close()
        return msg
    if not r.process.is_alive():
        return _crash(r)
    limit = timeout if r.running else max(STARTUP_SECONDS, timeout or 0)
    if (r.running and timeout is None) or time.perf_counter() - r.started <= limit:
        return None
    _stop(r.process)
    r.conn.close()
    if not r.running:
        return ("error", f"timeout: the worker did not start the instance within {limit:g} s")
    return ("error", f"timeout: the instance took longer than {timeout:g} s")
