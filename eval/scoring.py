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
readable file is missing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from webtester.eval.judges.base import Judge, Matches, check_matches
from webtester.eval.metrics import InstanceScore, InstanceStatus, Summary, aggregate, missing_score, score_instance
from webtester.models import Instance, InstanceResult, TestItem, Verdict

RESULT_FILES = ("result_extracted.md", "result.md")
CHECKLIST_FILES = ("checklist.json", "checklist.md")


class RunFolderError(ValueError):
    """A run folder file that cannot be read; the message names the file."""


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
    from webtester.datasets.markdown import MarkdownFormatError, parse_checklist, parse_results

    folder = Path(run_dir) / instance.index
    idx = instance.index
    if not folder.is_dir():
        return Prediction(idx, "missing", reason="no output folder")
    path = folder / "result.json"
    if path.exists():
        try:
            result = InstanceResult.model_validate_json(path.read_text(encoding="utf-8"))
        except ValidationError as exc:
            raise RunFolderError(f"{path}: not a valid result: {exc.errors()[0]['msg']} at {exc.errors()[0]['loc']}") from exc
        if result.index != idx:
            raise RunFolderError(f"{path}: result is for {result.index!r}, expected {idx!r}")
        if result.status == "failed":
            return Prediction(idx, "missing", source=path.name, reason=f"run failed: {result.reason or 'no reason given'}")
        return Prediction(idx, "scored", result.checklist, result.verdicts, source=path.name)
    try:
        for name in RESULT_FILES:
            path = folder / name
            if path.exists():
                items, verdicts = parse_results(path.read_text(encoding="utf-8"))
                return Prediction(idx, "scored", items, verdicts, source=name)
        path = folder / "checklist.json"
        if path.exists():
            try:
                items = [TestItem.model_validate(x) for x in json.loads(path.read_text(encoding="utf-8"))]
            except (ValueError, TypeError) as exc:
                raise RunFolderError(f"{path}: not a list of test items: {exc}") from exc
            return Prediction(idx, "no_verdicts", items, [], source=path.name, reason="checklist only, no results")
        path = folder / "checklist.md"
        if path.exists():
            return Prediction(idx, "no_verdicts", parse_checklist(path.read_text(encoding="utf-8")), [], source=path.name,
                              reason="checklist only, no results")
    except MarkdownFormatError as exc:
        raise RunFolderError(f"{path}: {exc}") from exc
    return Prediction(idx, "missing", reason="no result or checklist file")


@dataclass
class ScoredRun:
    """Scores of a run with the judge's matches."""

    summary: Summary
    predictions: dict[str, Prediction]
    matches: dict[str, Matches]


def read_manifest(run_dir: Path) -> dict:
    """``RUN_DIR/manifest.json`` or an empty dict."""
    path = Path(run_dir) / "manifest.json"
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RunFolderError(f"{path}: invalid JSON: {exc.msg}") from exc


def score_predictions(
    instances: Sequence[Instance],
    predictions: dict[str, Prediction],
    judge: Judge,
    *,
    bootstrap: int = 2000,
    seed: int = 0,
    previous: dict[str, dict] | None = None,
) -> ScoredRun:
    """Match every instance's predicted items with ``judge`` (batched) and aggregate.

    ``previous`` (index -> a ``matches.jsonl`` record, see :func:`read_matches`) lets an
    instance reuse the matches of an earlier scoring when the judge (name, model,
    prompt version, threshold) and the predicted items are the same, so rescoring
    costs no model calls."""
    todo = [(inst, predictions[inst.index]) for inst in instances
            if inst.index in predictions and predictions[inst.index].status != "missing"]
    matched: dict[str, Matches] = {}
    judge_key = judge.info.model_dump(mode="json")
    for inst, p in todo:  # matches of an earlier scoring by the same judge of the same items
        old = (previous or {}).get(inst.index)
        if old and old.get("judge") == judge_key and [(m["pred_id"], m["description"]) for m in old["matches"]] == \
                [(it.id, it.description) for it in p.items]:
            matched[inst.index] = [m["gold_id"] for m in old["matches"]]
    pairs = [(inst, p.items) for inst, p in todo if p.items and inst.index not in matched]
    matched.update(zip((inst.index for inst, _ in pairs), judge.match_many(pairs)))
    scores: list[InstanceScore] = []
    matches: dict[str, Matches] = {}
    for inst in instances:
        p = predictions.get(inst.index)
        if p is None or p.status == "missing":
            scores.append(missing_score(inst, p.reason if p else "no prediction"))
            continue
        m = check_matches(inst, p.items, matched.get(inst.index, []))
        matches[inst.index] = m
        scores.append(score_instance(inst, p.items, p.verdicts, m, status=p.status, reason=p.reason))
    summary = aggregate(scores, instances, judge=judge.info.model_dump(), bootstrap=bootstrap, seed=seed)
    return ScoredRun(summary, predictions, matches)


def read_matches(path: Path) -> dict[str, dict]:
    """Records of a ``matches.jsonl`` written by an earlier scoring (index -> record); {} if absent or unreadable."""
    path = Path(path)
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
            out[rec["index"]] = rec
        except (json.JSONDecodeError, KeyError, TypeError):
            return {}
    return out


def score_run_full(run_dir: Path, dataset: Sequence[Instance], judge: Judge, **kwargs) -> ScoredRun:
    """Read and score a run folder; returns the summary with the matches and predictions."""
    predictions = {inst.index: read_prediction(Path(run_dir), inst) for inst in dataset}
    return score_predictions(dataset, predictions, judge, **kwargs)


def score_run(run_dir: Path, dataset: Sequence[Instance] | Path | str, judge: Judge | str, **kwargs) -> Summary:
    """Score a run folder against gold instances (a list, or a dataset path) with a judge (or its name)."""
    if isinstance(dataset, (str, Path)):
        from webtester.datasets import load_dataset

        dataset = load_dataset(dataset)
    if isinstance(judge, str):
        from webtester.eval.judges import get_judge

        judge = get_judge(judge)
    return score_run_full(Path(run_dir), dataset, judge, **kwargs).summary
