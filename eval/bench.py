"""Run a tester over a dataset: concurrent, isolated, resumable.

Every instance runs in its own worker process (at most ``workers`` at a time),
which calls the workflow's library entry point
``run_instance(instance, mode=..., tester=..., out_dir=RUN_DIR, settings=..., on_event=...)``
with its own browser. The parent resolves the settings once and hands them to
every worker without their secrets (a worker takes API keys from its inherited
environment and config file), so every command-line override reaches the
workers. Workers send the run's progress events back over their pipe.

One bench at a time writes a run folder: the parent holds the folder's lock
(:func:`webtester.runfolder.hold_run_folder`) and hands it to its workers, so a
second bench or test on the same folder fails at once naming the PID that holds
it, and the folder stays held until the last process of the run is gone. Workers
die with the parent: each asks the kernel for SIGTERM when the parent dies
(Linux ``PR_SET_PDEATHSIG``; elsewhere a watchdog thread), and on SIGTERM runs its
cleanups, which stop the app and the browser it started.

An instance whose app does not start, whose worker raises or crashes, or that
exceeds the time limit is recorded as failed (``InstanceResult(status="failed",
reason=...)`` in its ``result.json``) and the run goes on. Rerunning on the same
folder skips finished instances (``retry_failed`` reruns the failed ones; an
instance whose ``result.json``, ``checklist.json`` or ``verdicts.jsonl`` cannot be
read is rerun, the file kept aside as ``<name>.corrupt-<time>`` and why recorded;
the workflow's checkpoints let an interrupted instance continue with its next item).
"""

from __future__ import annotations

import ctypes
import importlib
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from webtester.models import Instance, InstanceResult, Mode, tester_label
from webtester.redact import register_settings
from webtester.runfolder import (
    ABSENT,
    InstanceFolder,
    adopt_lock,
    hold_run_folder,
    lock_handoff,
    update_manifest,
)
from webtester.settings import SECRETS, Settings, load_settings
from webtester.targets import app_present
from webtester.testers import make_tester

RUNNER = "webtester.graphs.run:run_instance"
GRACE_SECONDS = 10.0
STARTUP_SECONDS = 300.0  # a worker that has not started its instance by then is stopped
MESSAGES_PER_POLL = 200  # progress messages taken from one worker per turn of the parent's loop
EVENT_TEXT_CHARS = 300  # longest string kept in a progress event
EVENT_ITEMS = 20  # most list entries / dict keys kept in a progress event
HARD_LIMIT_MARGIN = 300.0  # seconds a worker gets past the instance time limit before it is stopped
PR_SET_PDEATHSIG = 1  # Linux prctl option: the signal a process gets when its parent dies
PARENT_CHECK_SECONDS = 1.0  # how often a worker without PR_SET_PDEATHSIG checks that its parent lives

#: ``on_event(index, event, data)``: a progress event of one instance (the workflow's events, plus
#: ``instance_started`` and ``instance_done`` with ``status`` and ``reason`` from the bench itself).
BenchEvent = Callable[[str, str, dict[str, Any]], None]


class BenchConfig(BaseModel):
    """What is particular to a bench run (the run's settings travel separately, as one ``Settings``)."""

    mode: Mode = "e2e"
    tester: str | None = Field(default=None, description="tester kind: llm (default) or baseline")
    model: str | None = Field(default=None, description="model name, scripted:FILE or replay:RUN_DIR")
    build: str = "shipped"
    apps_root: Path | None = None
    config: Path | None = Field(default=None, description="config file the workers read API keys from")
    workers: int = Field(default=2, ge=1)
    timeout: float | None = Field(
        default=None, gt=0,
        description="seconds per instance before its worker is stopped; None: the settings' instance_time_limit "
        "plus HARD_LIMIT_MARGIN (the workflow itself ends an instance at instance_time_limit, recording its "
        "remaining items as errors; this limit stops a worker that does not get there)",
    )
    retry_failed: bool = False
    runner: str = Field(default=RUNNER, description="module:function called for each instance")


@dataclass
class BenchReport:
    """What a bench run did."""

    ran: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    rerun: dict[str, str] = field(default_factory=dict)  # index -> why a stored result was not kept
    absent: dict[str, str] = field(default_factory=dict)  # index -> why its app is not there (not run, not scored)
    seconds: float = 0.0
    results: dict[str, InstanceResult] = field(default_factory=dict)


def split_done(
    instances: Sequence[Instance], run_dir: Path, retry_failed: bool = False,
) -> tuple[list[Instance], dict[str, InstanceResult], dict[str, str]]:
    """(instances to run, finished results to keep, index -> why a stored result is not kept)."""
    todo: list[Instance] = []
    done: dict[str, InstanceResult] = {}
    why: dict[str, str] = {}
    for inst in instances:
        folder = InstanceFolder(run_dir, inst.index, create=False)
        unreadable = folder.quarantine_unreadable() if folder.exists() else []
        res = None if unreadable else folder.read_result()
        if unreadable:
            why[inst.index] = f"unreadable file, run again: {'; '.join(unreadable)}"
        if res is not None and (res.status == "ok" or not retry_failed):
            done[inst.index] = res
        else:
            if res is not None:
                why[inst.index] = f"failed before ({res.reason or 'no reason given'}), run again"
            todo.append(inst)
    return todo, done, why


def record_failure(run_dir: Path, index: str, reason: str, tester: str = "") -> InstanceResult:
    """Write a failed result for an instance (atomically) and note it in the manifest."""
    result = InstanceResult(index=index, status="failed", reason=reason, tester=tester)
    InstanceFolder(run_dir, index).write_bare_result(result)
    update_manifest(run_dir, run={}, index=index, entry={"status": "failed", "reason": reason})
    return result


def worker_settings(settings: Settings) -> str:
    """The settings a worker receives: everything but the secrets, as JSON."""
    return settings.model_dump_json(exclude=SECRETS)


def settings_in_worker(public_json: str, config: Path | None) -> Settings:
    """The parent's settings with the API keys this process finds in its environment and config file."""
    public = Settings.model_validate_json(public_json)
    local = load_settings(config)
    return public.model_copy(update={
        "api_key": local.api_key, "judge": public.judge.model_copy(update={"api_key": local.judge.api_key}),
    })


def portable(value: Any, depth: int = 0) -> Any:
    """``value`` made small and picklable for a progress message (long text cut, long lists shortened)."""
    if isinstance(value, str):
        return value[:EVENT_TEXT_CHARS]
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if depth >= 3:
        return str(value)[:EVENT_TEXT_CHARS]
    if isinstance(value, dict):
        return {str(k)[:EVENT_TEXT_CHARS]: portable(v, depth + 1) for k, v in list(value.items())[:EVENT_ITEMS]}
    if isinstance(value, (list, tuple)):
        return [portable(v, depth + 1) for v in list(value)[:EVENT_ITEMS]]
    return str(value)[:EVENT_TEXT_CHARS]


def _load_runner(spec: str) -> Callable[..., InstanceResult]:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def _sender(conn: Connection) -> Callable[[str, dict[str, Any]], None]:
    """The worker's ``on_event``: forwards an event to the parent; never raises into the run."""
    def send(event: str, data: dict[str, Any]) -> None:
        try:
            conn.send(("event", (str(event), portable(dict(data or {})))))
        except Exception:  # a closed pipe or an odd value: progress is best effort
            pass
    return send


def die_with_parent(parent_pid: int) -> None:
    """Have this process get SIGTERM when its parent dies, and exit at once when the parent is already gone."""
    libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
    if libc is None or libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0) != 0:
        def watch() -> None:
            while os.getppid() == parent_pid:
                time.sleep(PARENT_CHECK_SECONDS)
            os.kill(os.getpid(), signal.SIGTERM)
        threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    if os.getppid() != parent_pid:  # died before the request took effect
        os._exit(143)


def _worker(conn: Connection, instance_json: str, cfg_json: str, settings_json: str, run_dir: str, parent_pid: int,
            lock_fd: int) -> None:
    """Worker process body: run one instance, send ('ok', result json) or ('error', reason), events on the way."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run cleanups (stop the app) when stopped
    os.setsid()  # own process group, so a timeout can stop everything the worker started
    die_with_parent(parent_pid)
    adopt_lock(Path(run_dir), lock_fd)  # the parent's hold on the run folder, shared
    try:
        cfg = BenchConfig.model_validate_json(cfg_json)
        instance = Instance.model_validate_json(instance_json)
        settings = settings_in_worker(settings_json, cfg.config)
        tester = make_tester(cfg.tester, settings=settings, model=cfg.model)
        run = _load_runner(cfg.runner)
        conn.send(("started", ""))  # the time limit counts from here
        result = run(
            instance, mode=cfg.mode, tester=tester, out_dir=Path(run_dir), apps_root=cfg.apps_root,
            build=cfg.build, settings=settings, on_event=_sender(conn),
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
    conn: Connection
    started: float
    running: bool = False


def _stop(process: Any, grace: float = GRACE_SECONDS) -> None:
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


def _notify(on_event: BenchEvent | None, index: str, event: str, data: dict[str, Any]) -> None:
    """Hand an event to the display; a display error never stops the run."""
    if on_event is None:
        return
    try:
        on_event(index, event, data)
    except Exception:
        pass


def run_bench(
    instances: Sequence[Instance],
    run_dir: Path,
    cfg: BenchConfig,
    *,
    settings: Settings | None = None,
    dataset: str | None = None,
    on_update: Callable[[BenchReport, int, int], None] | None = None,
    on_event: BenchEvent | None = None,
) -> BenchReport:
    """Run every unfinished instance (see the module docstring); returns what happened.

    ``settings``: the run's resolved settings (default: loaded from ``cfg.config`` and the environment);
    ``on_update(report, finished, total)`` is called after each instance; ``on_event(index, event, data)``
    receives the progress events of the running instances.
    """
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    settings = settings if settings is not None else load_settings(cfg.config)
    register_settings(settings)  # worker failures written by this process hold no secret either
    with hold_run_folder(run_dir):
        return _run_bench(instances, run_dir, cfg, settings, dataset, on_update, on_event)


def _run_bench(
    instances: Sequence[Instance],
    run_dir: Path,
    cfg: BenchConfig,
    settings: Settings,
    dataset: str | None,
    on_update: Callable[[BenchReport, int, int], None] | None,
    on_event: BenchEvent | None,
) -> BenchReport:
    start = time.perf_counter()
    absent = {i.index: f"app absent: no app for {i.index} in {cfg.apps_root}" for i in instances
              if not app_present(i, cfg.apps_root)}
    instances = [i for i in instances if i.index not in absent]
    todo, done, why = split_done(instances, run_dir, cfg.retry_failed)
    report = BenchReport(skipped=sorted(done), results=dict(done), rerun=why, absent=absent)
    report.failed = {i: r.reason or "failed" for i, r in done.items() if r.status == "failed"}
    run_info: dict[str, Any] = {"mode": cfg.mode, "bench": cfg.model_dump(mode="json", exclude={"runner"}),
                                "settings": settings.public_dict()}
    if dataset:
        run_info["dataset"] = dataset
    for index, reason in absent.items():
        update_manifest(run_dir, run=run_info, index=index, entry={"status": ABSENT, "reason": reason})
    for inst in todo:
        entry: dict[str, Any] = {"status": "queued"}
        if inst.index in why:
            entry["rerun_reason"] = why[inst.index]
            InstanceFolder(run_dir, inst.index).log(f"bench: {why[inst.index]}")
        update_manifest(run_dir, run=run_info, index=inst.index, entry=entry)
    total = len(instances)
    if on_update:
        on_update(report, len(done), total)
    ctx = mp.get_context("spawn")
    queue = list(todo)
    running: list[_Running] = []
    cfg_json, settings_json = cfg.model_dump_json(), worker_settings(settings)
    handoff = lock_handoff(run_dir)
    hard_limit = cfg.timeout if cfg.timeout is not None else settings.instance_time_limit + HARD_LIMIT_MARGIN
    try:
        while queue or running:
            while queue and len(running) < cfg.workers:
                inst = queue.pop(0)
                parent, child = ctx.Pipe(duplex=False)
                args = (child, inst.model_dump_json(), cfg_json, settings_json, str(run_dir), os.getpid(), handoff)
                proc = ctx.Process(target=_worker, args=args, name=f"bench-{inst.index}", daemon=False)
                proc.start()
                child.close()
                running.append(_Running(inst, proc, parent, time.perf_counter()))
            time.sleep(0.05)
            for r in list(running):
                outcome = _poll(r, hard_limit, on_event)
                if outcome is None:
                    continue
                running.remove(r)
                result = _finish(run_dir, r.instance.index, outcome, tester_label(cfg.tester, cfg.model))
                index = r.instance.index
                report.results[index] = result
                report.ran.append(index)
                if result.status == "failed":
                    report.failed[index] = result.reason or "failed"
                else:
                    report.failed.pop(index, None)
                _notify(on_event, index, "instance_done", {"status": result.status, "reason": result.reason})
                if on_update:
                    on_update(report, len(report.results), total)
    finally:
        for r in running:  # interrupted: stop the workers, leave their instances unfinished
            _stop(r.process, grace=2.0)
            r.conn.close()
    report.seconds = time.perf_counter() - start
    return report


def _finish(run_dir: Path, index: str, outcome: tuple[str, str], label: str) -> InstanceResult:
    """The result of a finished worker, written when the runner did not write a readable one itself."""
    kind, payload = outcome
    if kind != "ok":
        return record_failure(run_dir, index, payload, label)
    result = InstanceResult.model_validate_json(payload)
    folder = InstanceFolder(run_dir, index)
    stored = None if folder.quarantine_unreadable() else folder.read_result()
    if stored is None:
        folder.write_bare_result(result)
    return result


def _crash(r: _Running) -> tuple[str, str]:
    r.process.join(30)
    r.conn.close()
    code = r.process.exitcode
    sig = f" (signal {signal.Signals(-code).name})" if code is not None and code < 0 else ""
    return ("error", f"worker crashed: exit code {code}{sig}")


def _poll(r: _Running, timeout: float | None, on_event: BenchEvent | None) -> tuple[str, str] | None:
    """('ok', json) / ('error', reason) when the worker is done, else None (progress events are passed on)."""
    index = r.instance.index
    for _ in range(MESSAGES_PER_POLL):
        if not r.conn.poll():
            break
        try:
            kind, payload = r.conn.recv()
        except (EOFError, OSError):  # the worker died without a word
            return _crash(r)
        if kind == "event":
            event, data = payload
            _notify(on_event, index, event, data)
            continue
        if kind == "started":
            r.running, r.started = True, time.perf_counter()
            _notify(on_event, index, "instance_started", {})
            continue
        r.process.join(30)
        if r.process.is_alive():
            _stop(r.process)
        r.conn.close()
        return kind, payload
    if not r.process.is_alive() and not r.conn.poll():  # gone, and nothing left to read: it died without a word
        return _crash(r)
    if r.running and timeout is None:
        return None
    limit = timeout if r.running and timeout is not None else max(STARTUP_SECONDS, timeout or 0)
    if time.perf_counter() - r.started <= limit:
        return None
    _stop(r.process)
    r.conn.close()
    if not r.running:
        return ("error", f"timeout: the worker did not start the instance within {limit:g} s")
    return ("error", f"timeout: the instance took longer than {timeout:g} s")
