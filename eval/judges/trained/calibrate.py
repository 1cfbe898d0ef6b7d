"""Calibrate the plain embedding judge's threshold on labelled predicted-vs-gold pairs.

Labelled data (``eval/data/matching/`` and any sub-folder of it, e.g. ``seed/``):

* ``predicted.jsonl``: ``{"index", "system", "item_id", "dimension", "description", "action", "expected"}``
* ``annotations/<annotator>.jsonl``: ``{"index", "system", "item_id", "gold_id": int | null}``

Procedure (reproducible, no randomness):

1. An item's label is the adjudicated one (``reference.jsonl`` beside
   ``predicted.jsonl``) where it exists; otherwise items labelled by several
   annotators keep their label only where all agree, and disagreements are left
   out. Agreement between annotators (raw and Cohen's kappa) is reported.
2. Instances are split by a hash of their index (``webtester.eval.stats.held_out_split``):
   about 40% held out, the rest used for calibration.
3. For each variant (text embedded: description or description+expected;
   dimension bonus: 0, 0.05 or 0.1) and every candidate threshold (midpoints
   between observed top-1 scores), agreement = share of predicted items whose
   judged gold id (or none) equals the label. The best (variant, threshold) on
   the calibration part wins (threshold: the middle of the best range; ties go to
   the simpler variant).
4. Agreement on the held-out part is reported, with a breakdown and the
   difference in coverage between judge and labels.

Run: ``python -m webtester.eval.judges.trained.calibrate [--dataset WebTestBench.jsonl] [--write]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np

from webtester.datasets import json_lines, load_dataset
from webtester.eval.judges.embedding import CALIBRATION_FILE, MODEL_NAME, TEXT_MODES, EmbeddingJudge, model_id
from webtester.eval.judges.trained.dev_set import Key, gold_id_of, predicted_item
from webtester.eval.paths import DEFAULT_DATASET, MATCHING_ROOT
from webtester.eval.stats import agreement as label_agreement
from webtester.eval.stats import best_threshold, held_out_split
from webtester.models import Instance, TestItem

HELD_OUT_SHARE = 0.4
DIMENSION_BONUSES = (0.0, 0.05, 0.1)



@dataclass
class MatchingSet:
    """Predicted items with their consensus labels."""

    items: dict[Key, TestItem] = field(default_factory=dict)
    labels: dict[Key, dict[str, int | None]] = field(default_factory=dict)  # key -> annotator -> gold id
    reference: dict[Key, int | None] = field(default_factory=dict)  # adjudicated labels (reference.jsonl)
    sources: list[str] = field(default_factory=list)
    source_of: dict[Key, str] = field(default_factory=dict)  # key -> folder it comes from
    files: dict[str, str] = field(default_factory=dict)  # file read (relative to the root) -> sha256

    def consensus(self) -> dict[Key, int | None]:
        """The label of every usable item: the adjudicated reference label where one exists,
        else the annotators' label where all of them agree (single-annotator items included)."""
        out = {}
        for key, by in self.labels.items():
            values = set(by.values())
            if key in self.items and len(values) == 1:
                out[key] = next(iter(values))
        out.update({k: v for k, v in self.reference.items() if k in self.items})
        return out

    def inter_annotator(self) -> dict:
        """Raw agreement and Cohen's kappa of every pair of annotators, on the items both labelled."""
        pairs = dict.fromkeys(pair for by in self.labels.values() for pair in combinations(sorted(by), 2))
        out = {}
        for a, b in pairs:
            keys = [k for k, by in self.labels.items() if a in by and b in by]
            agreed = label_agreement([self.labels[k][a] for k in keys], [self.labels[k][b] for k in keys])
            kappa = round(agreed.kappa, 4) if agreed.kappa is not None else None
            out[f"{a} vs {b}"] = {"items": agreed.n, "agreement": round(agreed.accuracy, 4), "kappa": kappa}
        return out


def _file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_matching_set(root: Path = MATCHING_ROOT, *, only: Iterable[str] | None = None) -> MatchingSet:
    """Every ``predicted.jsonl`` under ``root`` with the annotations (and ``reference.jsonl``) beside it.

    ``only`` (paths relative to ``root``) restricts the files read, e.g. to those a stored
    calibration was made from; ``MatchingSet.files`` records each file read with its sha256.
    """
    keep = set(only) if only is not None else None
    ms = MatchingSet()

    def wanted(path: Path) -> bool:
        rel = str(path.relative_to(root))
        if keep is not None and rel not in keep:
            return False
        ms.files[rel] = _file_hash(path)
        return True

    for pred_file in sorted(root.rglob("predicted.jsonl")):
        if not wanted(pred_file):
            continue
        folder = pred_file.parent
        ms.sources.append(str(folder.relative_to(root.parent)))
        for n, row in json_lines(pred_file):
            try:
                key = (row["index"], row["system"], row["item_id"])
                item = predicted_item(row)
            except (KeyError, ValueError) as exc:
                raise ValueError(f"{pred_file}:{n}: bad predicted item: {exc}") from exc
            if key in ms.items:
                raise ValueError(f"{pred_file}:{n}: duplicate predicted item {key}")
            ms.items[key] = item
            ms.source_of[key] = ms.sources[-1]
        ref_file = folder / "reference.jsonl"
        if ref_file.exists() and wanted(ref_file):
            for n, row in json_lines(ref_file):
                ms.reference[(row["index"], row["system"], row["item_id"])] = gold_id_of(row, ref_file, n)
        for ann_file in sorted((folder / "annotations").glob("*.jsonl")):
            if not wanted(ann_file):
                continue
            annotator = f"{folder.relative_to(root)}/{ann_file.stem}".lstrip("./")
            for n, row in json_lines(ann_file):
                key = (row["index"], row["system"], row["item_id"])
                ms.labels.setdefault(key, {})[annotator] = gold_id_of(row, ann_file, n)
    return ms


def split_instances(indices: list[str], share: float = HELD_OUT_SHARE) -> tuple[list[str], list[str]]:
    """(calibration, held-out) instances: ``held_out_split`` with the calibration's share."""
    return held_out_split(indices, share)


def top1(judge, keys: list[Key], ms: MatchingSet, gold: dict[str, Instance]) -> tuple[list[int], np.ndarray]:
    """Best gold id and its similarity for every labelled item."""
    groups: dict[tuple[str, str], list[Key]] = defaultdict(list)
    for k in keys:
        groups[(k[0], k[1])].append(k)
    pairs = [(gold[idx], [ms.items[k] for k in ks]) for (idx, _), ks in groups.items()]
    sims = judge.scores(pairs)
    best: dict[Key, tuple[int, float]] = {}
    for (inst, _), ks, s in zip(pairs, groups.values(), sims):
        ids = [g.id for g in inst.checklist]
        for k, row in zip(ks, s):
            j = int(row.argmax())
            best[k] = (ids[j], float(row[j]))
    return [best[k][0] for k in keys], np.array([best[k][1] for k in keys])


def judged(ids: list[int], sims: np.ndarray, threshold: float) -> list[int | None]:
    return [i if s >= threshold else None for i, s in zip(ids, sims)]


def agreement(pred: list[int | None], labels: list[int | None]) -> float:
    return float(np.mean([p == y for p, y in zip(pred, labels)])) if labels else 0.0


def threshold_for(ids: list[int], sims: np.ndarray, labels: list[int | None]) -> tuple[float, float]:
    """Threshold on the top-1 similarities with the highest agreement (rounded to 4 decimals) and that agreement."""
    t, agr = best_threshold(sims, [i == y for i, y in zip(ids, labels)], [y is None for y in labels])
    return round(t, 4), agr


def breakdown(pred: list[int | None], labels: list[int | None]) -> dict[str, int]:
    """Kinds of (dis)agreement between judge and labels."""
    out = {"match_agreed": 0, "none_agreed": 0, "other_gold": 0, "spurious_match": 0, "missed_match": 0}
    for p, y in zip(pred, labels):
        if p == y:
            out["match_agreed" if y is not None else "none_agreed"] += 1
        elif p is None:
            out["missed_match"] += 1
        elif y is None:
            out["spurious_match"] += 1
        else:
            out["other_gold"] += 1
    return out


def coverage_gap(keys: list[Key], pred: list[int | None], labels: list[int | None], gold: dict[str, Instance]) -> float:
    """Mean |judge coverage - labelled coverage| over (instance, system) checklists."""
    groups: dict[tuple[str, str], tuple[set, set]] = defaultdict(lambda: (set(), set()))
    for k, p, y in zip(keys, pred, labels):
        gp, gy = groups[(k[0], k[1])]
        if p is not None:
            gp.add(p)
        if y is not None:
            gy.add(y)
    gaps = [abs(len(gp) - len(gy)) / len(gold[idx].checklist) for (idx, _), (gp, gy) in groups.items()]
    return float(np.mean(gaps)) if gaps else 0.0


def calibrate(dataset: Path = DEFAULT_DATASET, root: Path = MATCHING_ROOT, *, only: Iterable[str] | None = None,
              exclude: Iterable[str] = (), cache_path=None) -> dict:
    """Run the calibration procedure; returns the record stored in ``eval/data/calibration/embedding.json``.

    ``only`` / ``exclude``: files (relative to ``root``) to restrict the data to / to leave out.
    """
    if only is None and exclude:
        everything = load_matching_set(root).files
        only = [f for f in everything if f not in set(exclude)]
    ms = load_matching_set(root, only=only)
    labels = ms.consensus()
    if not labels:
        raise ValueError(f"no labelled predicted items under {root}")
    gold = {inst.index: inst for inst in load_dataset(dataset)}
    unknown = sorted({k[0] for k in labels} - set(gold))
    if unknown:
        raise ValueError(f"labelled instances not in {dataset}: {unknown}")
    for k, y in labels.items():
        if y is not None and y not in {g.id for g in gold[k[0]].checklist}:
            raise ValueError(f"label {k} names gold id {y}, which {k[0]} does not have")
    calib_idx, held_idx = split_instances([k[0] for k in labels])
    calib_keys = sorted(k for k in labels if k[0] in calib_idx)
    held_keys = sorted(k for k in labels if k[0] in held_idx)
    variants = []
    for mode in TEXT_MODES:
        for bonus in DIMENSION_BONUSES:
            judge = EmbeddingJudge(threshold=0.0, text_mode=mode, dimension_bonus=bonus, cache_path=cache_path)
            ids, sims = top1(judge, calib_keys, ms, gold)
            t, agr = threshold_for(ids, sims, [labels[k] for k in calib_keys])
            variants.append({"text_mode": mode, "dimension_bonus": bonus, "threshold": t, "calibration_agreement": round(agr, 4)})
    # best agreement; ties go to the simpler variant (no bonus, description only)
    best = max(variants, key=lambda v: (v["calibration_agreement"], -v["dimension_bonus"], v["text_mode"] == "description"))
    mode, bonus, threshold = best["text_mode"], best["dimension_bonus"], best["threshold"]
    judge = EmbeddingJudge(threshold=threshold, text_mode=mode, dimension_bonus=bonus, cache_path=cache_path)
    report = {}
    for part, keys in (("calibration", calib_keys), ("held_out", held_keys)):
        ids, sims = top1(judge, keys, ms, gold) if keys else ([], np.array([]))
        pred, ys = judged(ids, sims, threshold), [labels[k] for k in keys]
        report[part] = {
            "instances": sorted({k[0] for k in keys}),
            "items": len(keys),
            "agreement": round(agreement(pred, ys), 4),
            "breakdown": breakdown(pred, ys),
            "mean_abs_coverage_gap": round(coverage_gap(keys, pred, ys, gold), 4),
            "agreement_by_source": {
                src: round(agreement([p for k, p in zip(keys, pred) if ms.source_of[k] == src],
                                     [y for k, y in zip(keys, ys) if ms.source_of[k] == src]), 4)
                for src in sorted({ms.source_of[k] for k in keys})
            },
        }
    return {
        "judge": "embedding",
        "model": model_id(),
        "base_model": MODEL_NAME,
        "text_mode": mode,
        "dimension_bonus": bonus,
        "threshold": threshold,
        "rule": "argmax over gold items of cosine similarity + dimension bonus; unmatched below the threshold",
        "source": ", ".join(ms.sources),
        "files": ms.files,
        "annotators": sorted({a for by in ms.labels.values() for a in by}),
        "labelled_items": len(set(ms.labels) | set(ms.reference)),
        "reference_items": len(ms.reference),
        "used_items": len(labels),
        "inter_annotator": ms.inter_annotator(),
        "variants": variants,
        **report,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET, help="WebTestBench JSONL holding the gold items")
    parser.add_argument("--root", type=Path, default=MATCHING_ROOT, help="folder of labelled matching data")
    parser.add_argument("--exclude", action="append", default=[], metavar="FILE",
                        help="leave out a data file (path relative to --root), e.g. one not yet final")
    parser.add_argument("--write", action="store_true", help="store the result in eval/data/calibration/embedding.json")
    args = parser.parse_args(argv)
    record = calibrate(args.dataset, args.root, exclude=args.exclude)
    text = json.dumps(record, indent=2)
    print(text)
    if args.write:
        CALIBRATION_FILE.parent.mkdir(parents=True, exist_ok=True)
        tmp = CALIBRATION_FILE.with_suffix(".tmp")
        tmp.write_text(text + "\n", encoding="utf-8")
        tmp.replace(CALIBRATION_FILE)


if __name__ == "__main__":
    main()
