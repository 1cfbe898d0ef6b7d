"""A correlation-with-human study: human matches vs an automatic judge on the same predictions.

The unit of analysis is one (instance, system) pair: the predicted items one
system (a run folder, or a ``system`` in a predictions file) produced for one
instance, all of them labelled by the annotators. For each unit, coverage,
precision, recall and F1 are computed twice with the same metric code, once
from the human (consensus) matches and once from the judge's matches.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from webtester.eval.correlation.annotations import Annotation, AnnotationError, Key, by_annotator, consensus
from webtester.eval.correlation.stats import (
    Agreement,
    Correlation,
    RaterAgreement,
    agreement,
    correlate,
    correlations,
    rater_agreement,
)
from webtester.eval.judges.base import Judge
from webtester.eval.metrics import score_instance
from webtester.eval.scoring import Prediction, read_prediction
from webtester.models import Dimension, Evidence, Instance, Status, TestItem, Verdict
from webtester.runfolder import read_manifest

METRICS = ("coverage", "precision", "recall", "f1")

Systems = dict[str, dict[str, Prediction]]  # system -> index -> prediction


def load_predictions_file(path: Path, instances: Sequence[Instance]) -> Systems:
    """Predictions in the matching-set format: one JSON line per item with index, system, item_id,
    dimension, description, action, expected and status (pass / fail / error)."""
    known = {i.index for i in instances}
    grouped: dict[str, dict[str, tuple[list[TestItem], list[Verdict]]]] = defaultdict(dict)
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            row = json.loads(line)
            item = TestItem(id=row["item_id"], dimension=Dimension(row["dimension"]), description=row["description"],
                            action=row.get("action", ""), expected=row.get("expected", ""))
            status = Status(row.get("status", "pass"))
        except (json.JSONDecodeError, KeyError, ValueError) as exc:
            raise AnnotationError(f"{where}: {type(exc).__name__}: {exc}") from None
        if row["index"] not in known:
            raise AnnotationError(f"{where}: instance {row['index']!r} is not in the dataset")
        items, verdicts = grouped[row["system"]].setdefault(row["index"], ([], []))
        items.append(item)
        bug = {"issue": row.get("issue") or "reported as failing", "actual": ""} if status is Status.failed else None
        verdicts.append(Verdict(item_id=item.id, status=status, bug_report=bug, evidence=Evidence()))
    return {
        system: {idx: Prediction(idx, "scored", items, verdicts, source=str(path)) for idx, (items, verdicts) in per.items()}
        for system, per in grouped.items()
    }


def load_systems(paths: Sequence[Path], instances: Sequence[Instance]) -> Systems:
    """Run folders (system = the manifest's ``system`` or the folder name) and/or predictions files."""
    systems: Systems = {}
    for path in paths:
        if path.is_file():
            found = load_predictions_file(path, instances)
        elif path.is_dir():
            name = read_manifest(path).get("system") or path.name
            found = {name: {i.index: p for i in instances if (p := read_prediction(path, i)).status != "missing"}}
        else:
            raise AnnotationError(f"{path}: no such run folder or predictions file")
        for name, preds in found.items():
            if name in systems:
                raise AnnotationError(f"system {name!r} given twice (rename a run folder or set 'system' in its manifest)")
            systems[name] = preds
    return systems


class Unit(BaseModel):
    """Scores of one (instance, system) pair from human and from judge matches."""

    index: str
    system: str
    human: dict[str, float]
    judge: dict[str, float]


class SystemLevel(BaseModel):
    """Mean of a metric per system, human vs judge, and whether the rankings agree."""

    human: dict[str, float]
    judge: dict[str, float]
    kendall: Correlation


class StudyResult(BaseModel):
    """Everything a study reports."""

    judge: dict
    annotators: list[str]
    n_items: int
    units: list[Unit]
    metric_level: dict[str, dict[str, dict[str, Correlation]]]  # level -> metric -> method -> figure
    item_level: dict[str, Agreement]  # 'consensus' and each annotator
    inter_annotator: RaterAgreement | None
    system_level: dict[str, SystemLevel]
    skipped: list[str]


def _scores(inst: Instance, pred: Prediction, matches: list[int | None]) -> dict[str, float]:
    s = score_instance(inst, pred.items, pred.verdicts, matches)
    return {"coverage": s.coverage, "precision": s.precision, "recall": s.recall, "f1": s.f1}


def run_study(
    annotations: list[Annotation],
    systems: Systems,
    instances: Sequence[Instance],
    judge: Judge,
    *,
    n_resamples: int = 1000,
    seed: int = 0,
) -> StudyResult:
    """Compare the judge's matching with the annotators' on every fully annotated (instance, system) pair."""
    gold = {i.index: i for i in instances}
    human = consensus(annotations)
    todo: list[tuple[str, str]] = []
    skipped = [f"{i} / {s}: annotated, but no such prediction was given"
               for i, s in sorted({(k[0], k[1]) for k in human if k[1] not in systems or k[0] not in systems[k[1]]})]
    for system, preds in sorted(systems.items()):
        for index, pred in sorted(preds.items()):
            keys = [(index, system, it.id) for it in pred.items]
            labelled = [k in human for k in keys]
            if not any(labelled):
                skipped.append(f"{index} / {system}: predicted, but not annotated")
            elif not all(labelled):
                missing = [k[2] for k, ok in zip(keys, labelled) if not ok]
                raise AnnotationError(f"{index} / {system}: predicted items without annotation: {missing[:10]}")
            else:
                todo.append((index, system))
    if not todo:
        raise AnnotationError("no (instance, system) pair is annotated: check the index / system / item_id columns")
    judged = judge.match_many([(gold[i], systems[s][i].items) for i, s in todo])
    judge_labels: dict[Key, int | None] = {}
    units: list[Unit] = []
    for (index, system), matches in zip(todo, judged):
        pred = systems[system][index]
        human_matches = [human[(index, system, it.id)] for it in pred.items]
        for it, m in zip(pred.items, matches):
            judge_labels[(index, system, it.id)] = m
        units.append(Unit(index=index, system=system, human=_scores(gold[index], pred, human_matches),
                          judge=_scores(gold[index], pred, list(matches))))

    keys = list(judge_labels)
    per_annotator = by_annotator(annotations)
    item_level = {"consensus": agreement([judge_labels[k] for k in keys], [human[k] for k in keys])}
    for name, labels in per_annotator.items():
        shared = [k for k in keys if k in labels]
        item_level[name] = agreement([judge_labels[k] for k in shared], [labels[k] for k in shared])
    inter = rater_agreement({n: {k: v for k, v in labels.items() if k in judge_labels}
                             for n, labels in per_annotator.items()}) if len(per_annotator) > 1 else None

    kw = {"n_resamples": n_resamples, "seed": seed}
    metric_level: dict[str, dict[str, dict[str, Correlation]]] = {"instance x system": {}, "instance": {}}
    by_instance: dict[str, list[Unit]] = defaultdict(list)
    for u in units:
        by_instance[u.index].append(u)
    for m in METRICS:
        metric_level["instance x system"][m] = correlations([u.human[m] for u in units], [u.judge[m] for u in units], **kw)
        h = [float(np.mean([u.human[m] for u in us])) for us in by_instance.values()]
        j = [float(np.mean([u.judge[m] for u in us])) for us in by_instance.values()]
        metric_level["instance"][m] = correlations(h, j, **kw)

    system_level: dict[str, SystemLevel] = {}
    names = sorted({u.system for u in units})
    for m in METRICS:
        hm = {s: float(np.mean([u.human[m] for u in units if u.system == s])) for s in names}
        jm = {s: float(np.mean([u.judge[m] for u in units if u.system == s])) for s in names}
        tau = correlate([hm[s] for s in names], [jm[s] for s in names], "kendall", **kw)
        system_level[m] = SystemLevel(human=hm, judge=jm, kendall=tau)

    return StudyResult(
        judge=judge.info.model_dump(), annotators=sorted(per_annotator), n_items=len(keys), units=units,
        metric_level=metric_level, item_level=item_level, inter_annotator=inter, system_level=system_level,
        skipped=skipped,
    )
