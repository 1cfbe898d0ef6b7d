"""Reading a run folder into what the reports show: per instance the result, the probe findings of the
baseline's exploration, and (when the run was scored) the scores."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webtester.errors import InputError
from webtester.models import Instance, InstanceResult
from webtester.runfolder import (
    EXPLORATION_FILE,
    RESULT_FILE,
    STATE_GRAPH_FILE,
    InstanceFolder,
    InstanceScoreView,
    ReportScores,
    RunFolderError,
    instance_folders,
    read_manifest,
    read_report_scores,
    scores_dir,
)


class ReportError(InputError):
    """A run folder that cannot be reported on; the message names the problem."""


@dataclass
class InstanceReport:
    """One instance of a run, as the reports show it."""

    index: str
    folder: Path
    result: InstanceResult | None
    problem: str | None = None
    exploration: dict[str, Any] | None = None
    state_graph: dict[str, Any] | None = None
    score: InstanceScoreView | None = None
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
    scores: ReportScores | None = None


def _read_instance(folder: InstanceFolder) -> tuple[InstanceResult | None, str | None, dict[str, Any] | None]:
    """(result, problem, exploration) of one instance folder; an unreadable file becomes the problem shown."""
    if not folder.exists():
        return None, "no output folder", None
    try:
        result = folder.read_result()
        problem = None if result is not None else f"no {RESULT_FILE} (the instance did not finish)"
    except RunFolderError as exc:
        result, problem = None, str(exc)
    try:
        exploration = folder.read_private(EXPLORATION_FILE)
    except RunFolderError as exc:
        exploration, problem = None, problem or str(exc)
    return result, problem, exploration if isinstance(exploration, dict) else None


def load_run(run_dir: Path, *, scores: ReportScores | None = None, instances: list[Instance] | None = None) -> RunReport:
    """Read ``run_dir`` (see the module docstring). ``scores`` default to the ones ``webtester score`` stored in
    ``RUN_DIR/scores/`` when the run was scored there; ``instances`` are the gold instances (instruction and gold
    items for the report)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise ReportError(f"{run_dir} is not a folder")
    try:
        manifest = read_manifest(run_dir)
        if scores is None:
            scores = read_report_scores(scores_dir(run_dir))
    except RunFolderError as exc:
        raise ReportError(str(exc)) from exc
    gold = {i.index: i for i in instances or []}
    per_instance = scores.instances if scores is not None else {}
    listed = manifest.get("instances") or {}
    names = list(listed)
    names += [n for n in instance_folders(run_dir) if n not in names]
    names += [n for n in gold if n not in names and n in per_instance]
    reports = []
    for index in names:
        folder = InstanceFolder(run_dir, index, create=False)
        result, problem, exploration = _read_instance(folder)
        try:
            graph = folder.read_private(STATE_GRAPH_FILE) if folder.exists() else None
        except RunFolderError as exc:
            graph, problem = None, problem or str(exc)
        reports.append(InstanceReport(
            index=index, folder=folder.root, result=result, problem=problem, exploration=exploration,
            state_graph=graph if isinstance(graph, dict) else None,
            score=per_instance.get(index), gold=gold.get(index), manifest=listed.get(index, {}),
        ))
    return RunReport(run_dir=run_dir, manifest=manifest, instances=reports, scores=scores)


def score_hint(run: RunReport) -> str:
    """What a report of an unscored run says about scoring: the command that scores it when the run's manifest
    names its gold, else that there is no gold to score against."""
    if run.manifest.get("dataset"):
        return f"score it with: webtester score {run.run_dir}"
    return "no gold to score against: the run's manifest names no dataset (webtester score --dataset GOLD)"
