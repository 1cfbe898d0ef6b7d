"""Measure the matching judges against the annotated development set.

    python -m webtester.eval.judges.trained.evaluate                 # every judge below, cross-validated
    python -m webtester.eval.judges.trained.evaluate --tuned         # ... and the full tuning procedure per fold (hours)
    python -m webtester.eval.judges.trained.evaluate --encoder-folder DIR  # ... and a classifier on another encoder
    python -m webtester.eval.judges.trained.evaluate --timing-only   # only the 100-instance timing of the shipped judge
    python -m webtester.eval.judges.trained.evaluate --llm           # ... and the LLM judge (needs a configured endpoint)
    python -m webtester.eval.judges.trained.evaluate --json out.json # all figures as JSON

For each judge it prints item-level agreement with the reference labels
(``eval/data/matching/reference.jsonl``) and with each annotation pass, Cohen's kappa
(labels: gold id or none), the share of items matched against the reference's share, and
the Kendall / Spearman / Pearson correlation over checklists (one style's items for one
instance) of coverage, precision, recall and F1 computed by
``webtester.eval.metrics.score_instance`` from the judge's matches and from the reference
matches; also per style. Every figure is given twice: over every checklist, and over the
checklists of the instances the previous judge (``eval/data/models/trained_judge_v2.json``)
never saw, where the previous judge is held out too.

Two outer cross-validation schemes: ``by instance`` (5 folds of whole instances) and
``by style`` (train on three checklist styles, test on the fourth; 4 folds). Out-of-fold
matches of all folds are pooled. Two threshold rules are compared on the same folds:
``agreement`` (the cut that agrees best with the training labels) and ``share`` (the cut
under which the judge matches the share of training items the annotators matched).

Judges and how their figures are obtained:

* ``naive (tuned on all)``: argmax cosine (all-MiniLM-L6-v2, description+expected)
  with the threshold that maximises agreement on the whole set: optimistic.
* ``naive (CV)``: the same rule, threshold chosen on the training part of each fold.
* ``naive (shipped)``: ``EmbeddingJudge`` as stored by ``calibrate`` (its
  calibration uses this set's annotation passes too, so it is not held out).
* ``trained, packaged encoder (CV)``: the pair classifier on features from the encoder
  as packaged, C and threshold chosen by inner grouped CV and the model fitted on the
  training part of each fold.
* ``trained, tuned encoder kept (refit) (CV)``: the same classifier on features from the
  stored tuned encoder (``encoder_tuning_set.json``: version 4's, tuned on every instance, so
  every checklist gets features from encoders tuned without its instance, ``training.refit_tensors``).
* ``trained, v3 procedure (refit) (CV)``: the same on features from the encoder of versions 2 and 3
  (``encoder_tuning_set_v3.json``, tuned on the first round's 16 instances; those cross-fitted): what
  the previous version's procedure gives on the same folds.
* ``trained, <folder> encoder (CV)`` (``--encoder-folder``): the classifier on features from
  another sentence-transformers model, for comparing encoders.
* ``trained, encoder tuned per fold (CV)`` (``--tuned``): the full procedure
  (``training.fit_tuned``: encoder bias tuning, cross-fitted features, C and threshold) run
  on the training part of each fold (4 folds by instance, 4 by style; each fold tunes the
  encoder four times, hours on 2 cores).
* ``previous judge (v2, as stored)``: the judge before the set grew (16 instances, three
  styles); held out on the "unseen" checklists only.
* ``v3 judge (as stored, in-sample)``: the previous version, fitted on all of this set.
* ``shipped judge (in-sample)``: the stored artifact, fitted on all of this set.
* ``llm``: the LLM judge as configured (``--llm``); nothing is tuned.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from webtester.datasets import load_dataset
from webtester.eval.judges import get_judge
from webtester.eval.judges.embedding import EmbeddingJudge
from webtester.eval.judges.trained.dev_set import (
    GUIDE_EXAMPLES,
    INSTANCE_FIGURES,
    TUNING_SET_FILE,
    Checklist,
    judge_figures,
    load_dev_set,
    read_tuning_set,
)
from webtester.eval.judges.trained.judge import (
    MODEL_FILE,
    PackagedEncoder,
    PairFeaturizer,
    TrainedJudge,
    assign,
    forget_vectors,
    read_model,
    sentence_and_token_vectors,
)
from webtester.eval.judges.trained.train import stored_encoder
from webtester.eval.judges.trained.training import (
    THRESHOLD_RULES,
    Fold,
    FoldResult,
    cross_validate_threshold,
    cross_validate_trained,
    cross_validate_tuned,
    instance_splits,
    refit_tensors,
    row_threshold,
    style_splits,
)
from webtester.eval.paths import DEFAULT_DATASET, MATCHING_ROOT
from webtester.settings import load_settings

SOURCES = ("reference", "annotator_a", "annotator_b")
TUNED_OUTER_FOLDS = 4
INSTANCE_OUTER_FOLDS = 5
PREVIOUS_MODEL_FILE = MODEL_FILE.with_name("trained_judge_v2.json")
V3_MODEL_FILE = MODEL_FILE.with_name("trained_judge_v3.json")
V3_TUNING_SET_FILE = TUNING_SET_FILE.with_name("encoder_tuning_set_v3.json")
SUBSETS = ("all", "unseen")  # every checklist; those of instances the previous judge never saw


def _ids(cl: Checklist) -> list[int]:
    return [g.id for g in cl.instance.checklist]


def naive_similarities(checklists: list[Checklist], cache_path) -> tuple[list, EmbeddingJudge]:
    """Cosine similarities (description+expected vs gold, all-MiniLM-L6-v2), and the shipped naive judge."""
    shipped = EmbeddingJudge(cache_path=cache_path)
    plain = EmbeddingJudge(threshold=0.0, text_mode="description+expected", dimension_bonus=0.0, cache_path=cache_path)
    return plain.similarity_matrices([(cl.instance, cl.items) for cl in checklists]), shipped


def _cv_run(cv: FoldResult, how: str) -> dict:
    ts = [c["threshold"] for c in cv.choices]
    return {"matches": cv.matches, "folds": cv.choices, "how": f"{how} (t {min(ts):.3f}..{max(ts):.3f})"}


def _schemes(checklists: list[Checklist], instance_folds: int | None) -> dict[str, list[Fold]]:
    """The outer cross-validation schemes: by instance (``instance_folds``; None = leave one out) and by style."""
    return {"by instance": instance_splits(checklists, instance_folds), "by style": style_splits(checklists)}


class FolderEncoder:
    """Sentence and token vectors from a sentence-transformers model folder (offline, CPU, in memory only).

    For comparing other encoders that a package ships with the packaged one; the
    shipped judge does not use it.
    """

    def __init__(self, folder: Path) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(str(folder), device="cpu")
        self.memory: dict[str, tuple] = {}

    def encode(self, texts) -> None:
        wanted = [t for t in dict.fromkeys(texts) if t not in self.memory]
        if wanted:
            self.memory.update(sentence_and_token_vectors(self.model, wanted, batch_size=32))

    def sentences(self, texts):
        import numpy as np

        self.encode(texts)
        dim = self.model.get_sentence_embedding_dimension()
        return np.stack([self.memory[t][0] for t in texts]) if texts else np.zeros((0, dim), dtype=np.float32)

    def tokens(self, texts):
        self.encode(texts)
        return [self.memory[t][1] for t in texts]


def _cv_runs(checklists: list[Checklist], sims: list, feature_sets: dict[str, tuple[list, str]], *,
             progress: Callable[[str], None]) -> dict[str, dict]:
    """Cross-validated runs of the naive judge and of the classifier on each feature set, under both schemes."""
    runs: dict[str, dict] = {}
    for scheme, splits in _schemes(checklists, INSTANCE_OUTER_FOLDS).items():
        cv = cross_validate_threshold(checklists, sims, splits=splits)
        runs[f"{scheme}: naive (CV)"] = _cv_run(cv, f"{scheme}, {len(splits)} folds; threshold chosen per fold")
        for name, (tensors, how) in feature_sets.items():
            t0 = time.perf_counter()
            results = cross_validate_trained(checklists, tensors, splits=splits, progress=progress)
            for rule, result in results.items():
                runs[f"{scheme}: {name}, {rule} threshold (CV)"] = _cv_run(
                    result, f"{how}; {scheme}, {len(splits)} folds; C by inner 5-fold grouped CV per fold, "
                            f"threshold rule {rule}")
            progress(f"{name}, {scheme}: {time.perf_counter() - t0:.1f} s")
    return runs


def _tuned_runs(checklists: list[Checklist], progress: Callable[[str], None]) -> dict[str, dict]:
    """The full tuning procedure (``fit_tuned``) cross-validated under both schemes (slow: hours on the whole set)."""
    runs: dict[str, dict] = {}
    for scheme, splits in _schemes(checklists, TUNED_OUTER_FOLDS).items():
        results = cross_validate_tuned(checklists, splits=splits, rules=THRESHOLD_RULES, progress=progress)
        for rule, result in results.items():
            runs[f"{scheme}: trained, encoder tuned per fold, {rule} threshold (CV)"] = _cv_run(
                result, f"the encoder tuned anew on the training part of each fold (3-fold cross-fitting); {scheme}, "
                        f"{len(splits)} folds, threshold rule {rule}")
    return runs


def unseen_by_previous(checklists: list[Checklist]) -> list[bool]:
    """Per checklist: whether the previous judge (``trained_judge_v2.json``) never saw its instance."""
    seen = set(read_model(PREVIOUS_MODEL_FILE)["training_data"]["instances"]) if PREVIOUS_MODEL_FILE.exists() else set()
    return [cl.index not in seen for cl in checklists]


def evaluate(dataset: Path, root: Path, *, with_llm: bool = False, with_tuned: bool = False, cache_path="default",
             encoder_folders: tuple[Path, ...] = (), progress=print) -> dict:
    """All judges' figures against every label source, on every checklist and on those unseen by the previous judge."""
    checklists = load_dev_set(root, dataset)
    progress(f"{len(checklists)} checklists, {sum(len(c.items) for c in checklists)} items, "
             f"{len({c.index for c in checklists})} instances")
    runs: dict[str, dict] = {}

    sims, shipped = naive_similarities(checklists, cache_path)
    t_all, _ = row_threshold(sims, checklists, "reference")
    runs["naive (tuned on all)"] = {"matches": [assign(s, _ids(c), t_all) for s, c in zip(sims, checklists)],
                                    "how": f"threshold {t_all:.3f} maximising agreement on all items (optimistic)"}
    runs["naive (shipped)"] = {"matches": shipped.match_many([(c.instance, c.items) for c in checklists]),
                               "how": f"EmbeddingJudge with its stored calibration, {shipped.info.label()} "
                                      f"({shipped.info.details.get('calibration')}; calibrated partly on this set)"}
    pairs = [(c.instance, c.items) for c in checklists]
    feature_sets = {"trained, packaged encoder": (PairFeaturizer(PackagedEncoder(cache_path)).features(pairs),
                                                  "classifier on features from the encoder as packaged")}
    t0 = time.perf_counter()
    tuned_on = read_tuning_set(root / TUNING_SET_FILE.name)
    tensors = refit_tensors(checklists, stored_encoder(tuned_on), tuned_on, progress=progress)
    progress(f"refit features: {time.perf_counter() - t0:.1f} s")
    feature_sets["trained, tuned encoder kept (refit)"] = (
        tensors, "classifier on features from the stored tuned encoder (instances it was tuned on: cross-fitted)")
    v3_set = root / V3_TUNING_SET_FILE.name
    if v3_set.exists():
        v3_on = read_tuning_set(v3_set)
        feature_sets["trained, v3 procedure (refit)"] = (
            refit_tensors(checklists, stored_encoder(v3_on), v3_on, progress=progress),
            "classifier on features from the encoder of versions 2 and 3 (first round; its instances cross-fitted)")
    for folder in encoder_folders:
        feature_sets[f"trained, {folder.name} encoder"] = (PairFeaturizer(FolderEncoder(folder)).features(pairs),
                                                          f"classifier on features from {folder.name} as packaged")
    runs.update(_cv_runs(checklists, sims, feature_sets, progress=progress))
    if with_tuned:
        runs.update(_tuned_runs(checklists, progress))
    if PREVIOUS_MODEL_FILE.exists():
        judge = TrainedJudge(PREVIOUS_MODEL_FILE, cache_path=cache_path)
        runs["previous judge (v2, as stored)"] = {
            "matches": judge.match_many(pairs),
            "how": "the stored judge before this set grew (16 instances, 3 styles): held out on the unseen instances"}
    if V3_MODEL_FILE.exists():
        judge = TrainedJudge(V3_MODEL_FILE, cache_path=cache_path)
        runs["v3 judge (as stored, in-sample)"] = {
            "matches": judge.match_many(pairs),
            "how": "the previous version, fitted on all of this set with the first round's encoder (optimistic)"}
    if MODEL_FILE.exists():
        judge = TrainedJudge(cache_path=cache_path)
        runs["shipped judge (in-sample)"] = {
            "matches": judge.match_many(pairs),
            "how": "the stored artifact, fitted on all of this set (optimistic)"}

    if with_llm:
        judge = get_judge("llm", load_settings(None))
        runs["llm"] = {"matches": judge.match_many(pairs), "how": f"{judge.info.label()}, untuned"}

    unseen = unseen_by_previous(checklists)
    out = {}
    for name, run in runs.items():
        figs: dict = {}
        for subset in SUBSETS:
            keep = [i for i in range(len(checklists)) if subset == "all" or unseen[i]]
            cls, ms = [checklists[i] for i in keep], [run["matches"][i] for i in keep]
            figs[subset] = {src: judge_figures(cls, ms, src) for src in SOURCES}
            figs[subset]["by_style"] = {style: judge_figures([c for c in cls if c.system == style],
                                                             [m for c, m in zip(cls, ms) if c.system == style])
                                        for style in sorted({c.system for c in cls})}
        figs["all"]["reference_without_guide_examples"] = judge_figures(checklists, run["matches"], "reference",
                                                                        exclude=GUIDE_EXAMPLES)
        out[name] = {"how": run["how"], "figures": figs, **({"folds": run["folds"]} if "folds" in run else {})}
    return out


def annotator_agreement(dataset: Path, root: Path) -> dict:
    """Agreement between the two annotation passes, with and without the guide's worked examples."""
    checklists = load_dev_set(root, dataset)
    a = [c.labels["annotator_a"] for c in checklists]
    return {
        "all": judge_figures(checklists, a, "annotator_b"),
        "without_guide_examples": judge_figures(checklists, a, "annotator_b", exclude=GUIDE_EXAMPLES),
    }


def timing(n: int = 100, dataset: Path = DEFAULT_DATASET, root: Path = MATCHING_ROOT) -> dict:
    """Seconds the shipped trained judge takes to match ``n`` instances from a cold embedding cache.

    Predicted checklists: the development set's 48 checklists dealt round-robin
    over the first ``n`` WebTestBench instances (realistic text lengths and
    counts; the labels do not matter here). The encoder load is included.
    """
    instances = load_dataset(dataset)[:n]
    checklists = load_dev_set(root, dataset)
    pairs = [(inst, checklists[i % len(checklists)].items) for i, inst in enumerate(instances)]
    forget_vectors()  # nothing computed earlier in this process may help
    with tempfile.TemporaryDirectory() as tmp:
        wall, cpu = time.perf_counter(), time.process_time()
        judge = TrainedJudge(cache_path=Path(tmp) / "cache.sqlite")
        judge.match_many(pairs)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    import torch

    load = os.getloadavg()[0]
    return {"torch_threads": torch.get_num_threads(), "instances": len(pairs), "predicted_items": sum(len(p) for _, p in pairs),
            "gold_items": sum(len(i.checklist) for i, _ in pairs), "wall_seconds": round(wall, 2),
            "cpu_seconds": round(cpu, 2), "load_average_1min": round(load, 2)}


SUBSET_TITLES = {"all": "every checklist",
                 "unseen": "checklists of the instances the previous judge never saw"}


def print_report(results: dict, annotators: dict, timed: dict | None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=220)
    ia = annotators["all"]
    console.print(f"annotator A vs B: agreement {ia['agreement']:.3f}, kappa {ia['kappa']:.3f} over {ia['items']} items; "
                  f"matched {ia['matched_share']:.3f} / {ia['reference_matched_share']:.3f}", highlight=False)
    for subset in SUBSETS:
        rows = {name: r["figures"][subset] for name, r in results.items()}
        first = next(iter(rows.values()))["reference"]
        t = Table(title=f"{SUBSET_TITLES[subset]} ({first['items']} items, {first['checklists']} checklists): "
                        "item level, and Kendall / Spearman / Pearson with the reference over checklists")
        for col in ("judge", "agreement", "kappa", "agr. A", "agr. B", "matched (ref.)", *INSTANCE_FIGURES, "mean coverage (ref.)"):
            t.add_column(col, justify="left" if col == "judge" else "right")
        for name, f in rows.items():
            ref = f["reference"]
            c = ref["correlation"]
            t.add_row(name, f"{ref['agreement']:.3f}", f"{ref['kappa']:.3f}", f"{f['annotator_a']['agreement']:.3f}",
                      f"{f['annotator_b']['agreement']:.3f}",
                      f"{ref['matched_share']:.3f} ({ref['reference_matched_share']:.3f})",
                      *[f"{c[k]['kendall']:.2f} / {c[k]['spearman']:.2f} / {c[k]['pearson']:.2f}" for k in INSTANCE_FIGURES],
                      f"{ref['mean']['coverage']:.3f} ({ref['reference_mean']['coverage']:.3f})")
        console.print(t)
        t = Table(title=f"{SUBSET_TITLES[subset]}, per style: agreement / matched share (reference's) / coverage Kendall")
        styles = sorted(first_style for first_style in next(iter(rows.values()))["by_style"])
        t.add_column("judge")
        for style in styles:
            t.add_column(style, justify="right")
        for name, f in rows.items():
            cells = []
            for style in styles:
                g = f["by_style"][style]
                cells.append(f"{g['agreement']:.3f} / {g['matched_share']:.2f} ({g['reference_matched_share']:.2f}) / "
                             f"{g['correlation']['coverage']['kendall']:.2f}")
            t.add_row(name, *cells)
        console.print(t)
    for name, r in results.items():
        console.print(f"[bold]{name}[/bold]: {r['how']}", highlight=False)
    if timed:
        console.print(f"timing: {timed['instances']} instances, {timed['predicted_items']} predicted / {timed['gold_items']} gold "
                      f"items: {timed['wall_seconds']} s wall, {timed['cpu_seconds']} s CPU with {timed['torch_threads']} torch thread(s) "
                      f"(load average {timed['load_average_1min']})",
                      highlight=False)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    parser.add_argument("--root", type=Path, default=MATCHING_ROOT)
    parser.add_argument("--llm", action="store_true", help="also the LLM judge (OPENAI_API_KEY / OPENAI_BASE_URL / model settings)")
    parser.add_argument("--timing", action="store_true", help="time the shipped trained judge on 100 instances (cold cache)")
    parser.add_argument("--timing-only", action="store_true", help="only the timing, in a fresh process (no other judge run first)")
    parser.add_argument("--threads", type=int, help="torch threads for the timing (default: torch's own choice)")
    parser.add_argument("--json", type=Path, help="write every figure to this JSON file")
    parser.add_argument("--tuned", action="store_true",
                        help="also cross-validate the full tuning procedure (encoder tuned per fold; hours on the whole set)")
    parser.add_argument("--encoder-folder", type=Path, action="append", default=[],
                        help="also a classifier on features from this sentence-transformers model folder (comparison)")
    args = parser.parse_args(argv)
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    if args.timing_only:
        print(json.dumps(timing(dataset=args.dataset, root=args.root), indent=1))
        return
    results = evaluate(args.dataset, args.root, with_llm=args.llm, with_tuned=args.tuned,
                       encoder_folders=tuple(args.encoder_folder), progress=lambda m: print(m, file=sys.stderr))
    annotators = annotator_agreement(args.dataset, args.root)
    timed = timing(dataset=args.dataset, root=args.root) if args.timing else None
    print_report(results, annotators, timed)
    if args.json:
        for r in results.values():
            r.pop("matches", None)
        args.json.write_text(json.dumps({"judges": results, "annotators": annotators, "timing": timed}, indent=1) + "\n")


if __name__ == "__main__":
    main()
