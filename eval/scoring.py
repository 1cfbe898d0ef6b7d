"""Score a run folder: read each instance's predictions, match them with a judge, compute the metrics.

Run folders of two kinds are read, per instance sub-folder ``RUN_DIR/<index>/``:

* webtester runs: ``result.json`` (an ``InstanceResult``); a result with
  ``status="failed"`` counts as missing (scored 0, reason kept);
* WebTestBench reference-harness runs: ``result_extracted.md`` (or our
  ``result.md``) in the markdown result format; in its oracle runs items are
  numbered FT-01, CS-01, ... per dimension in the gold file's order.

An instance with only a checklist (``checklist.json`` / ``checklist.md``) is
scored for coverage with no Fail verdict (status ``no_verdicts``, like the
reference scorer's checklist fallback); an instance with no folder or no
readable file is missing. Files are read through :mod:`webtester.runfolder`;
an unreadable file raises :class:`~webtester.runfolder.RunFolderError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webtester.datasets import load_dataset
from webtester.datasets.markdown import MarkdownFormatError, parse_checklist, parse_results
from webtester.eval.judges import get_judge
from webtester.eval.judges.base import Judge, Matches, check_matches, identity_of
from webtester.eval.metrics import InstanceScore, InstanceStatus, Summary, aggregate, missing_score, score_instance
from webtester.eval.stages import stage_summary
from webtester.models import Instance, TestItem, Verdict
from webtester.runfolder import (
    CHECKLIST_FILE,
    CHECKLIST_MD_FILE,
    REFERENCE_RESULT_FILE,
    RESULT_FILE,
    RESULT_MD_FILE,
    InstanceFolder,
    MatchRecord,
    RunFolderError,
    read_text,
)

RESULT_FILES = (REFERENCE_RESULT_FILE, RESULT_MD_FILE)
CHECKLIST_FILES = (CHECKLIST_FILE, CHECKLIST_MD_FILE)


@dataclass
class Prediction:
    """What a run produced for one instance."""

    index: str
    status: InstanceStatus
    items: list[TestItem] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)
    source: str | None = None
    reason: str | None = None


def read_prediction(run_dir: Path, instance: Instance) -> Prediction:
    """Read ``RUN_DIR/<index>/`` (see the module docstring for the order files are tried in)."""
    folder = InstanceFolder(run_dir, instance.index, create=False)
    idx = instance.index
    if not folder.exists():
        return Prediction(idx, "missing", reason="no output folder")
    result = folder.read_result()
    if result is not None:
        if result.status == "failed":
            return Prediction(idx, "missing", source=RESULT_FILE, reason=f"run failed: {result.reason or 'no reason given'}")
        return Prediction(idx, "scored", result.checklist, result.verdicts, source=RESULT_FILE)
    for name in RESULT_FILES:
        path = folder.root / name
        if path.exists():
            items, verdicts = _parse_markdown(path, parse_results)
            return Prediction(idx, "scored", items, verdicts, source=name)
    checklist = folder.read_checklist()
    if checklist is not None:
        return Prediction(idx, "no_verdicts", checklist, [], source=CHECKLIST_FILE, reason="checklist only, no results")
    path = folder.root / CHECKLIST_MD_FILE
    if path.exists():
        return Prediction(idx, "no_verdicts", _parse_markdown(path, parse_checklist), [], source=CHECKLIST_MD_FILE,
                          reason="checklist only, no results")
    return Prediction(idx, "missing", reason="no result or checklist file")


def _parse_markdown(path: Path, parse: Any) -> Any:
    text = read_text(path)  # a file that is not UTF-8 raises RunFolderError naming it
    try:
        return parse(text)
    except MarkdownFormatError as exc:
        raise RunFolderError(f"{path}: {exc}") from exc


@dataclass
class ScoredRun:
    """Scores of a run with the judge's matches."""

    summary: Summary
    predictions: dict[str, Prediction]
    matches: dict[str, Matches]


def _reusable(old: MatchRecord | None, judge_key: dict[str, Any], items: list[TestItem]) -> Matches | None:
    """The matches of an earlier scoring when the same judge matched the same predicted items and placed every one."""
    if old is None or identity_of(old.judge) != judge_key:
        return None
    if any(m.unplaced for m in old.matches):
        return None
    if [(m.pred_id, m.description) for m in old.matches] != [(it.id, it.description) for it in items]:
        return None
    return [m.gold_id for m in old.matches]


def score_predictions(
    instances: Sequence[Instance],
    predictions: dict[str, Prediction],
    judge: Judge,
    *,
    bootstrap: int = 2000,
    seed: int = 0,
    previous: dict[str, MatchRecord] | None = None,
) -> ScoredRun:
    """Match every instance's predicted items with ``judge`` (batched) and aggregate.

    ``previous`` (index -> a ``matches.jsonl`` record, see :func:`webtester.runfolder.read_matches`) lets an
    instance reuse the matches of an earlier scoring when the judge (name, model,
    prompt version, threshold) and the predicted items are the same, so rescoring
    costs no model calls (not when the judge left some of its items unplaced). The summary's
    ``unplaced`` and ``judge_notes`` say which items the judge could not place. Its ``diagnosis`` holds the reach / trigger / detect counts
    (:mod:`webtester.eval.stages`)."""
    todo = [(inst, predictions[inst.index]) for inst in instances
            if inst.index in predictions and predictions[inst.index].status != "missing"]
    matched: dict[str, Matches] = {}
    judge_key = judge.info.identity()
    for inst, p in todo:
        reused = _reusable((previous or {}).get(inst.index), judge_key, p.items)
        if reused is not None:
            matched[inst.index] = reused
    pairs = [(inst, p.items) for inst, p in todo if p.items and inst.index not in matched]
    matched.update(zip((inst.index for inst, _ in pairs), judge.match_many(pairs)))
    scores: list[InstanceScore] = []
    matches: dict[str, Matches] = {}
    for inst in instances:
        pred = predictions.get(inst.index)
        if pred is None or pred.status == "missing":
            scores.append(missing_score(inst, pred.reason if pred else "no prediction"))
            continue
        m = check_matches(inst, pred.items, matched.get(inst.index, []))
        matches[inst.index] = m
        scores.append(score_instance(inst, pred.items, pred.verdicts, m, status=pred.status, reason=pred.reason))
    summary = aggregate(scores, instances, judge=judge.info.model_dump(), bootstrap=bootstrap, seed=seed)
    summary.diagnosis = stage_summary(instances, predictions, matches)
    summary.unplaced = judge.unplaced_items()
    summary.judge_notes = judge.judge_notes()
    return ScoredRun(summary, predictions, matches)


def score_run_full(run_dir: Path, dataset: Sequence[Instance], judge: Judge, **kwargs: Any) -> ScoredRun:
    """Read and score a run folder; returns the summary with the matches and predictions."""
    predictions = {inst.index: read_prediction(Path(run_dir), inst) for inst in dataset}
    return score_predictions(dataset, predictions, judge, **kwargs)


def score_run(run_dir: Path, dataset: Sequence[Instance] | Path | str, judge: Judge | str, **kwargs: Any) -> Summary:
    """Score a run folder against gold instances (a list, or a dataset path) with a judge (or its name)."""
    instances = load_dataset(dataset) if isinstance(dataset, (str, Path)) else dataset
    the_judge = get_judge(judge) if isinstance(judge, str) else judge
    return score_run_full(Path(run_dir), instances, the_judge, **kwargs).summary
