"""Reading a run folder into what the reports show: per instance the result, the probe findings of the
baseline's exploration, and (when the run was scored) the scores."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from webtester.models import Instance, InstanceResult

EXPLORATION_FILE = "exploration.json"


class ReportError(ValueError):
    """A run folder that cannot be reported on; the message names the problem."""


@dataclass
class InstanceReport:
    """One instance of a run, as the reports show it."""

    index: str
    folder: Path
    result: InstanceResult | None
    problem: str | None = None
    exploration: dict[str, Any] | None = None
    score: Any = None  # eval.metrics.InstanceScore
    gold: Instance | None = None
    manifest: dict[str, Any] = field(default_factory=dict)
    extra_instruction: str = ""

    @property
    def instruction(self) -> str:
        """The instruction the app was built from (from gold, else as given to the report)."""
        return self.gold.instruction if self.gold else self.extra_instruction


@dataclass
class RunReport:
    """A whole run folder."""

    run_dir: Path
    manifest: dict[str, Any]
    instances: list[InstanceReport]
    summary: Any = None  # eval.metrics.Summary, when scored


def _read_result(folder: Path) -> tuple[InstanceResult | None, str | None]:
    path = folder / "result.json"
    if not path.exists():
        return None, "no result.json (the instance did not finish)"
    try:
        return InstanceResult.model_validate_json(path.read_text(encoding="utf-8")), None
    except ValidationError as exc:
        err = exc.errors()[0]
        return None, f"{path.name} is not a valid result: {err['msg']} at {err['loc']}"


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None


def load_run(run_dir: Path, *, summary: Any = None, instances: list[Instance] | None = None) -> RunReport:
    """Read ``run_dir`` (see the module docstring). ``summary`` (an ``eval.metrics.Summary`` with its
    instance scores) defaults to ``RUN_DIR/scores/`` when the run was scored there; ``instances`` are the
    gold instances (instruction and gold items for the report)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise ReportError(f"{run_dir} is not a folder")
    manifest = _read_json(run_dir / "manifest.json") or {}
    if summary is None:
        summary = _stored_summary(run_dir)
    gold = {i.index: i for i in instances or []}
    scores = {s.index: s for s in (summary.instances if summary is not None else [])}
    names = list((manifest.get("instances") or {}).keys())
    for sub in sorted(p for p in run_dir.iterdir() if p.is_dir() and (p / "result.json").exists()):
        if sub.name not in names:
            names.append(sub.name)
    for index in gold:
        if index not in names and index in scores:
            names.append(index)
    reports = []
    for index in names:
        folder = run_dir / index
        result, problem = _read_result(folder) if folder.is_dir() else (None, "no output folder")
        reports.append(InstanceReport(
            index=index, folder=folder, result=result, problem=problem,
            exploration=_read_json(folder / EXPLORATION_FILE) if folder.is_dir() else None,
            score=scores.get(index), gold=gold.get(index), manifest=(manifest.get("instances") or {}).get(index, {}),
        ))
    return RunReport(run_dir=run_dir, manifest=manifest, instances=reports, summary=summary)


def _stored_summary(run_dir: Path) -> Any:
    """The Summary written by ``webtester score`` into ``RUN_DIR/scores/``, or None."""
    data = _read_json(run_dir / "scores" / "summary.json")
    if not data:
        return None
    from webtester.eval.metrics import InstanceScore, Summary

    lines = (run_dir / "scores" / "instances.jsonl")
    scores = []
    if lines.exists():
        for line in lines.read_text(encoding="utf-8").splitlines():
            if line.strip():
                scores.append(InstanceScore.model_validate_json(line))
    try:
        return Summary.model_validate({**data, "instances": [s.model_dump() for s in scores]})
    except ValidationError:
        return None
