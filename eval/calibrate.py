"""Calibrate the embedding judge's threshold on labelled predicted-vs-gold pairs.

Labelled data (``eval/matching/`` and any sub-folder of it, e.g. ``seed/``):

* ``predicted.jsonl``: ``{"index", "system", "item_id", "dimension", "description", "action", "expected"}``
* ``annotations/<annotator>.jsonl``: ``{"index", "system", "item_id", "gold_id": int | null}``

Procedure (reproducible, no randomness):

1. An item's label is the adjudicated one (``reference.jsonl`` beside
   ``predicted.jsonl``) where it exists; otherwise items labelled by several
   annotators keep their label only where all agree, and disagreements are left
   out. Agreement between annotators (raw and Cohen's kappa) is reported.
2. Instances are split by a hash of their index: about 40% held out, the rest
   used for calibration.
3. For each variant (text embedded: description or description+expected;
   dimension bonus: 0, 0.05 or 0.1) and every candidate threshold (midpoints
   between observed top-1 scores), agreement = share of predicted items whose
   judged gold id (or none) equals the label. The best (variant, threshold) on
   the calibration part wins (threshold: the middle of the best range; ties go to
   the simpler variant).
4. Agreement on the held-out part is reported, with a breakdown and the
   difference in coverage between judge and labels.

Run: ``python -m webtester.eval.calibrate [--dataset WebTestBench.jsonl] [--write]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from webtester.datasets import json_lines, load_dataset
from webtester.models import Dimension, Instance, TestItem

EVAL_ROOT = Path(__file__).resolve().parent
MATCHING_ROOT = EVAL_ROOT / "matching"
DEFAULT_DATASET = EVAL_ROOT.parent.parent / "shared" / "datasets" / "webtestbench" / "WebTestBench.jsonl"
HELD_OUT_SHARE = 0.4
DIMENSION_BONUSES = (0.0, 0.05, 0.1)

Key = tuple[str, str, str]  # (index, system, item_id)


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
        """Raw pairwise agreement between annotators on items both labelled."""
        pairs: dict[tuple[str, str], list[bool]] = defaultdict(list)
        for by in self.labels.values():
            names = sorted(by)
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    pairs[(a, b)].append(by[a] == by[b])
        from sklearn.metrics import cohen_kappa_score

        out = {}
        for (a, b), _ in pairs.items():
            keys = [k for k, by in self.labels.items() if a in by and b in by]
            la, lb = [str(self.labels[k][a]) for k in keys], [str(self.labels[k][b]) for k in keys]
            agree = float(np.mean([x == y for x, y in zip(la, lb)]))
            kappa = float(cohen_kappa_score(la, lb)) if len(set(la) | set(lb)) > 1 else 1.0
            out[f"{a} vs {b}"] = {"items": len(keys), "agreement": round(agree, 4), "kappa": round(kappa, 4)}
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
                item = TestItem(id=row["item_id"], dimension=Dimension(row["dimension"]), description=row["description"],
                                action=row.get("action", ""), expected=row.get("expected", ""))
            except (KeyError, ValueError) as exc:
                raise ValueError(f"{pred_file}:{n}: bad predicted item: {exc}") from exc
            if key in ms.items:
                raise ValueError(f"{pred_file}:{n}: duplicate predicted item {key}")
            ms.items[key] = item
            ms.source_of[key] = ms.sources[-1]
        ref_file = folder / "reference.jsonl"
        if ref_file.exists() and wanted(ref_file):
            for n, row in json_lines(ref_file):
                ms.reference[(row["index"], row["system"], row["item_id"])] = _gold_id(row, ref_file, n)
        for ann_file in sorted((folder / "annotations").glob("*.jsonl")):
            if not wanted(ann_file):
                continue
            annotator = f"{folder.relative_to(root)}/{ann_file.stem}".lstrip("./")
            for n, row in json_lines(ann_file):
                key = (row["index"], row["system"], row["item_id"])
                ms.labels.setdefault(key, {})[annotator] = _gold_id(row, ann_file, n)
    return ms


def _gold_id(row: dict, path: Path, n: int) -> int | None:
    gid = row.get("gold_id")
    if gid is not None and (isinstance(gid, bool) or not isinstance(gid, int)):
        raise ValueError(f"{path}:{n}: gold_id must be an integer or null, got {gid!r}")
    return gid


def split_instances(indices: list[str], share: float = HELD_OUT_SHARE) -> tuple[list[str], list[str]]:
    """(calibration, held-out) instances: sorted by a hash of the index, the first ~share held out."""
    ordered = sorted(set(indices), key=lambda i: hashlib.sha256(i.encode()).hexdigest())
    n_held = max(1, round(share * len(ordered))) if len(ordered) > 1 else 0
    return sorted(ordered[n_held:]), sorted(ordered[:n_held])


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


def best_threshold(ids: list[int], sims: np.ndarray, labels: list[int | None]) -> tuple[float, float]:
    """Threshold with the highest agreement (middle of the best candidates) and that agreement."""
    s = np.unique(sims)
    cands = np.concatenate([[s[0] - 1e-3], (s[:-1] + s[1:]) / 2, [s[-1] + 1e-3]])
    scores = np.array([agreement(judged(ids, sims, t), labels) for t in cands])
    best = np.flatnonzero(scores == scores.max())
    return float(round(cands[best[len(best) // 2]], 4)), float(scores.max())


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
    """Run the calibration procedure; returns the record stored in ``eval/calibration/embedding.json``.

    ``only`` / ``exclude``: files (relative to ``root``) to restrict the data to / to leave out.
    """
    from webtester.eval.judges.embedding import MODEL_NAME, TEXT_MODES, EmbeddingJudge, model_id

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
            t, agr = best_threshold(ids, sims, [labels[k] for k in calib_keys])
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
    parser.add_argument("--write", action="store_true", help="store the result in eval/calibration/embedding.json")
    args = parser.parse_args(argv)
    record = calibrate(args.dataset, args.root, exclude=args.exclude)
    text = json.dumps(record, indent=2)
    print(text)
    if args.write:
        from webtester.eval.judges.embedding import CALIBRATION_FILE

        CALIBRATION_FILE.parent.mkdir(parents=True, exist_ok=True)
        tmp = CALIBRATION_FILE.with_suffix(".tmp")
        tmp.write_text(text + "\n", encoding="utf-8")
        tmp.replace(CALIBRATION_FILE)


if __name__ == "__main__":
    main()
