"""The labelled development set of the matching judges, and how judges are measured on it.

``load_dev_set`` reads ``eval/data/matching/predicted.jsonl`` with the reference
labels (``eval/data/matching/reference.jsonl``: the two annotation passes where they
agree, adjudicated labels where they do not) and, optionally, each annotator's
own labels. The set is grouped into *checklists*: one generator style's items for
one instance, i.e. what one run would hand the scorer for that instance.

``judge_figures`` compares a judge's matches with reference labels the way the
issue asks: item-level agreement and Cohen's kappa (labels = gold id or none),
and Kendall / Spearman / Pearson correlation over checklists of coverage,
precision, recall and F1 as ``webtester.eval.metrics.score_instance`` computes them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from webtester.datasets import json_lines, load_dataset
from webtester.eval.metrics import score_instance
from webtester.eval.paths import DEFAULT_DATASET, MATCHING_ROOT, RESERVED
from webtester.eval.stats import CORRELATIONS, agreement, coefficient
from webtester.models import BugReport, Dimension, Instance, Status, TestItem, Verdict

REFERENCE_FILE = MATCHING_ROOT / "reference.jsonl"
INSTANCE_FIGURES = ("coverage", "precision", "recall", "f1")

Key = tuple[str, str, str]  # (index, system, item_id)
Label = int | None


TUNING_SET_FILE = MATCHING_ROOT / "encoder_tuning_set.json"


@dataclass(frozen=True)
class TuningSet:
    """The checklists an encoder was tuned on: these instances, in these styles; and the stored encoder's file and digest."""

    instances: frozenset[str]
    styles: frozenset[str]
    adapter_file: str = ""
    adapter_digest: str = ""

    def holds(self, cl: "Checklist") -> bool:
        """Whether ``cl`` was part of the tuning data."""
        return cl.index in self.instances and cl.system in self.styles


def read_tuning_set(path: Path = TUNING_SET_FILE) -> TuningSet:
    """The stored encoder's tuning data (``encoder_tuning_set.json``: ``instances``, ``styles``, ``adapter``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    adapter = data.get("adapter", {})
    return TuningSet(frozenset(data["instances"]), frozenset(data["styles"]), adapter.get("file", ""),
                     adapter.get("digest", ""))


@dataclass
class Checklist:
    """One generator style's predicted items for one instance, with verdicts and labels."""

    instance: Instance
    system: str
    items: list[TestItem]
    verdicts: list[Verdict]
    labels: dict[str, list[Label]] = field(default_factory=dict)  # label source -> one label per item

    @property
    def index(self) -> str:
        return self.instance.index

    def keys(self) -> list[Key]:
        return [(self.index, self.system, it.id) for it in self.items]


def gold_id_of(row: dict, path: Path, n: int) -> Label:
    """The ``gold_id`` of an annotation row (an integer or null); ``ValueError`` names the file and line."""
    gid = row.get("gold_id")
    if gid is not None and (isinstance(gid, bool) or not isinstance(gid, int)):
        raise ValueError(f"{path}:{n}: gold_id must be an integer or null, got {gid!r}")
    return gid


def predicted_item(row: dict) -> TestItem:
    """The predicted test item of a ``predicted.jsonl`` row."""
    return TestItem(id=row["item_id"], dimension=Dimension(row["dimension"]), description=row["description"],
                    action=row.get("action", ""), expected=row.get("expected", ""))


def read_labels(path: Path) -> dict[Key, Label]:
    """``(index, system, item_id) -> gold_id`` from an annotation-format JSONL file."""
    out: dict[Key, Label] = {}
    for n, row in json_lines(path):
        try:
            key = (row["index"], row["system"], row["item_id"])
        except KeyError as exc:
            raise ValueError(f"{path}:{n}: missing field {exc}") from None
        gid = gold_id_of(row, path, n)
        if key in out:
            raise ValueError(f"{path}:{n}: second label for {key}")
        out[key] = gid
    return out


def load_dev_set(
    root: Path = MATCHING_ROOT,
    dataset: Path | Sequence[Instance] = DEFAULT_DATASET,
    *,
    label_files: Mapping[str, Path] | None = None,
    allow_reserved: bool = False,
) -> list[Checklist]:
    """Checklists of ``root/predicted.jsonl`` with labels from ``label_files`` (name -> JSONL).

    By default the labels are ``reference`` (``root/reference.jsonl``) plus one
    source per file in ``root/annotations/``. Every predicted item must be
    labelled by every source; reserved instances are refused unless allowed.
    """
    instances = {i.index: i for i in (load_dataset(dataset) if isinstance(dataset, (str, Path)) else dataset)}
    if label_files is None:
        label_files = {"reference": root / "reference.jsonl"}
        label_files.update({p.stem: p for p in sorted((root / "annotations").glob("*.jsonl"))})
    labels = {name: read_labels(Path(p)) for name, p in label_files.items()}
    groups: dict[tuple[str, str], Checklist] = {}
    path = root / "predicted.jsonl"
    for n, row in json_lines(path):
        index, system = row["index"], row["system"]
        if index in RESERVED and not allow_reserved:
            raise ValueError(f"{path}:{n}: {index} is reserved for independent validation")
        if index not in instances:
            raise ValueError(f"{path}:{n}: {index} is not in the gold dataset")
        item = predicted_item(row)
        group = groups.setdefault((index, system), Checklist(instances[index], system, [], []))
        group.items.append(item)
        if row.get("status"):
            status = Status(row["status"])
            bug = BugReport(issue="reported as failing (matching set)") if status is Status.failed else None
            group.verdicts.append(Verdict(item_id=item.id, status=status, bug_report=bug))
        for name, table in labels.items():
            key = (index, system, item.id)
            if key not in table:
                raise ValueError(f"{label_files[name]}: no label for {key}")
            group.labels.setdefault(name, []).append(table[key])
    return list(groups.values())


# --------------------------------------------------------------------------- figures


def _nan_if_none(value: float | None) -> float:
    return float("nan") if value is None else float(value)


def item_agreement(pred: Sequence[Label], ref: Sequence[Label]) -> dict[str, float]:
    """Share of items with the same label (gold id or none) and Cohen's kappa over those labels (nan when undefined)."""
    if not ref:
        return {"items": 0, "agreement": float("nan"), "kappa": float("nan")}
    agreed = agreement(pred, ref)
    return {"items": agreed.n, "agreement": agreed.accuracy, "kappa": _nan_if_none(agreed.kappa)}


def instance_figures(checklists: Sequence[Checklist], matches: Sequence[Sequence[Label]]) -> dict[str, np.ndarray]:
    """Per checklist: coverage, precision, recall, F1 from ``webtester.eval.metrics.score_instance``."""
    out: dict[str, list[float]] = {k: [] for k in INSTANCE_FIGURES}
    for cl, m in zip(checklists, matches):
        s = score_instance(cl.instance, cl.items, cl.verdicts, list(m))
        for k in INSTANCE_FIGURES:
            out[k].append(float(getattr(s, k)))
    return {k: np.array(v) for k, v in out.items()}


def correlations(x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Kendall tau-b, Spearman rho and Pearson r of two series (nan when undefined)."""
    return {method: _nan_if_none(coefficient(x, y, method)) for method in CORRELATIONS}


def judge_figures(
    checklists: Sequence[Checklist],
    matches: Sequence[Sequence[Label]],
    source: str = "reference",
    *,
    exclude: frozenset[Key] = frozenset(),
) -> dict:
    """Agreement of ``matches`` with the labels of ``source`` at item and checklist level.

    ``exclude`` leaves items out of the item-level figures (e.g. the guide's
    worked examples); the checklist-level figures always use every item.
    """
    pred: list[Label] = []
    ref: list[Label] = []
    for cl, m in zip(checklists, matches):
        for key, p, r in zip(cl.keys(), m, cl.labels[source]):
            if key not in exclude:
                pred.append(p)
                ref.append(r)
    mine = instance_figures(checklists, matches)
    theirs = instance_figures(checklists, [cl.labels[source] for cl in checklists])
    return {
        **item_agreement(pred, ref),
        "matched_share": float(np.mean([p is not None for p in pred])) if pred else float("nan"),
        "reference_matched_share": float(np.mean([r is not None for r in ref])) if ref else float("nan"),
        "checklists": len(checklists),
        "mean": {k: float(mine[k].mean()) for k in INSTANCE_FIGURES},
        "reference_mean": {k: float(theirs[k].mean()) for k in INSTANCE_FIGURES},
        "correlation": {k: correlations(mine[k], theirs[k]) for k in INSTANCE_FIGURES},
    }


# The 26 items whose label GUIDE.md states as a worked example (listed in eval/data/matching/README.md):
# both annotation passes agree on them by construction, so figures are also reported without them.
GUIDE_EXAMPLES: frozenset[Key] = frozenset(
    (f"WebTestBench_{index}", system, item)
    for index, system, items in (
        ("0035", "explorer", "FT-01 IX-01"),
        ("0037", "detailed", "FT-01 FT-03 FT-04 FT-05 FT-11"),
        ("0037", "explorer", "CT-02 FT-03"),
        ("0050", "explorer", "FT-04"),
        ("0054", "terse", "CS-01"),
        ("0054", "detailed", "CS-05"),
        ("0062", "detailed", "CS-06 CT-03 FT-06"),
        ("0064", "terse", "FT-06"),
        ("0072", "terse", "CS-01"),
        ("0072", "explorer", "FT-01"),
        ("0082", "detailed", "CS-05"),
        ("0090", "explorer", "CS-03"),
        ("0094", "detailed", "CS-04 FT-01 FT-02 FT-10 FT-11 IX-03"),
    )
    for item in items.split()
)
