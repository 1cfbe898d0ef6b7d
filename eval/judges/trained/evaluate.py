"""Measure the matching judges against the annotated development set.

    python -m webtester.eval.judges.trained.evaluate                 # naive and trained judges, cross-validated
    python -m webtester.eval.judges.trained.evaluate --timing        # ... and time the shipped judge on 100 instances
    python -m webtester.eval.judges.trained.evaluate --timing --threads 1   # ... timing with one torch thread
    python -m webtester.eval.judges.trained.evaluate --timing-only   # only the timing
    python -m webtester.eval.judges.trained.evaluate --llm           # ... and the LLM judge (needs a configured endpoint)
    python -m webtester.eval.judges.trained.evaluate --json out.json # all figures as JSON

For each judge it prints item-level agreement with the reference labels
(``eval/data/matching/reference.jsonl``) and Cohen's kappa (labels: gold id or none),
with and without the guide's 26 worked examples, and the Kendall / Spearman /
Pearson correlation, over the 48 checklists (16 instances x 3 generator styles),
of coverage, precision, recall and F1 computed by ``webtester.eval.metrics.score_instance``
from the judge's matches and from the reference matches.

Two outer cross-validation schemes: ``by instance`` (whole instances held out;
leave-one-instance-out for the cheap judges, 4 folds for the tuned encoder) and
``by style`` (train on two checklist styles, test on the third; 3 folds). Every
cross-validated judge is measured under both, with the out-of-fold matches of all
folds pooled over the 48 checklists. Two threshold rules are compared on the
same folds: ``agreement`` (the cut that agrees best with the training labels,
the shipped rule) and ``share`` (the cut under which the judge matches the
share of training items the annotators matched; the new rule).

Judges and how their figures are obtained:

* ``naive (tuned on all)``: argmax cosine (all-MiniLM-L6-v2, description+expected)
  with the threshold that maximises agreement on the whole set: optimistic.
* ``naive (CV)``: the same rule, threshold chosen on the training part of each fold.
* ``naive (shipped)``: ``EmbeddingJudge`` as stored by ``calibrate`` (its
  calibration uses this set's annotation passes too, so it is not held out).
* ``trained, packaged encoder (CV)``: the previous judge: the pair classifier on
  features from the encoder as packaged, C and threshold chosen by inner grouped CV
  and the model fitted on the training part of each fold, with either threshold rule.
* ``trained, tuned encoder (CV)``: the shipped judge's whole procedure
  (``training.fit_tuned``: encoder bias tuning, cross-fitted features,
  C and threshold) run on the training part of each fold and applied to the
  held-out part; 7 outer folds, each 4 encoder tunings (about 20
  minutes on an idle 2-core machine, hours under load; ``--no-tuned`` skips it).
  The agreement rule is the shipped judge, the share rule the new one.
* ``trained (shipped, in-sample)``: the stored artifact, fitted on all of this set.
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
    Checklist,
    judge_figures,
    load_dev_set,
)
from webtester.eval.judges.trained.judge import (
    MODEL_FILE,
    PackagedEncoder,
    PairFeaturizer,
    TrainedJudge,
    assign,
    forget_vectors,
)
from webtester.eval.judges.trained.training import (
    THRESHOLD_RULES,
    Fold,
    FoldResult,
    cross_validate_threshold,
    cross_validate_trained,
    cross_validate_tuned,
    instance_splits,
    row_threshold,
    style_splits,
)
from webtester.eval.paths import DEFAULT_DATASET, MATCHING_ROOT
from webtester.settings import load_settings

SOURCES = ("reference", "annotator_a", "annotator_b")
TUNED_OUTER_FOLDS = 4


def _ids(cl: Checklist) -> list[int]:
    return [g.id for g in cl.instance.checklist]


def naive_similarities(checklists: list[Checklist], cache_path) -> tuple[list, object]:
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


def _cv_runs(checklists: list[Checklist], sims: list, tensors: list, *, with_tuned: bool,
             progress: Callable[[str], None]) -> dict[str, dict]:
    """Cross-validated runs of the naive, previous, shipped and new judges under both schemes."""
    runs: dict[str, dict] = {}
    for scheme, splits in _schemes(checklists, None).items():
        cv = cross_validate_threshold(checklists, sims, splits=splits)
        runs[f"{scheme}: naive (CV)"] = _cv_run(cv, f"{scheme}, {len(splits)} folds; threshold chosen per fold")
        for rule, label in (("agreement", "previous judge"), ("share", "previous judge, share-calibrated threshold")):
            runs[f"{scheme}: trained, packaged encoder, {rule} threshold (CV)"] = _cv_run(
                cross_validate_trained(checklists, tensors, splits=splits, rule=THRESHOLD_RULES[rule], progress=progress),
                f"{label}: classifier on features from the encoder as packaged; {scheme}, {len(splits)} folds; "
                "C by inner 5-fold grouped CV per fold")
    if with_tuned:
        for scheme, splits in _schemes(checklists, TUNED_OUTER_FOLDS).items():
            t0 = time.perf_counter()
            results = cross_validate_tuned(checklists, splits=splits, rules=THRESHOLD_RULES, progress=progress)
            for rule, label in (("agreement", "shipped"), ("share", "new")):
                runs[f"{scheme}: trained, tuned encoder, {rule} threshold (CV, {label})"] = _cv_run(
                    results[rule], f"{label} judge: the tuned-encoder procedure with the {rule} threshold rule, "
                    f"{scheme}, {len(splits)} folds; per fold the encoder tuning (3-fold cross-fitting), C and "
                    "threshold use the training part only")
            progress(f"trained judge, tuned encoder, {scheme}: {time.perf_counter() - t0:.1f} s")
    return runs


def evaluate(dataset: Path, root: Path, *, with_llm: bool = False, with_tuned: bool = True, cache_path="default",
             progress=print) -> dict:
    """All judges' figures against every label source (see the module docstring)."""
    checklists = load_dev_set(root, dataset)
    progress(f"{len(checklists)} checklists, {sum(len(c.items) for c in checklists)} items, "
             f"{len({c.index for c in checklists})} instances")
    runs: dict[str, dict] = {}

    sims, shipped = naive_similarities(checklists, cache_path)
    t_all, _ = row_threshold(sims, checklists, "reference")
    runs["naive (tuned on all)"] = {"matches": [assign(s, _ids(c), t_all) for s, c in zip(sims, checklists)],
                                    "how": f"threshold {t_all:.3f} maximising agreement on all 730 items (optimistic)"}
    runs["naive (shipped)"] = {"matches": shipped.match_many([(c.instance, c.items) for c in checklists]),
                               "how": f"EmbeddingJudge with its stored calibration, {shipped.info.label()} "
                                      f"({shipped.info.details.get('calibration')}; calibrated partly on this set)"}
    tensors = PairFeaturizer(PackagedEncoder(cache_path)).features([(c.instance, c.items) for c in checklists])
    runs.update(_cv_runs(checklists, sims, tensors, with_tuned=with_tuned, progress=progress))
    if MODEL_FILE.exists():
        judge = TrainedJudge(cache_path=cache_path)
        runs["trained (shipped, in-sample)"] = {
            "matches": judge.match_many([(c.instance, c.items) for c in checklists]),
            "how": "stored artifact, encoder tuned and classifier fitted on all of this set (optimistic)"}

    if with_llm:
        judge = get_judge("llm", load_settings(None))
        runs["llm"] = {"matches": judge.match_many([(c.instance, c.items) for c in checklists]),
                       "how": f"{judge.info.label()}, untuned"}

    out = {}
    for name, run in runs.items():
        figs = {src: judge_figures(checklists, run["matches"], src) for src in SOURCES}
        figs["reference_without_guide_examples"] = judge_figures(checklists, run["matches"], "reference",
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


def print_report(results: dict, annotators: dict, timed: dict | None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=200)
    t = Table(title="Item level (labels: gold id or none)")
    for col in ("judge", "agreement", "kappa", "agr. w/o guide ex.", "agr. annot. A", "agr. annot. B", "matched", "ref. matched"):
        t.add_column(col, justify="left" if col == "judge" else "right")
    ia = annotators["all"]
    t.add_row("annotator A vs B", f"{ia['agreement']:.3f}", f"{ia['kappa']:.3f}",
              f"{annotators['without_guide_examples']['agreement']:.3f}", "", "", "", "")
    for name, r in results.items():
        f = r["figures"]
        ref = f["reference"]
        t.add_row(name, f"{ref['agreement']:.3f}", f"{ref['kappa']:.3f}",
                  f"{f['reference_without_guide_examples']['agreement']:.3f}",
                  f"{f['annotator_a']['agreement']:.3f}", f"{f['annotator_b']['agreement']:.3f}",
                  f"{ref['matched_share']:.3f}", f"{ref['reference_matched_share']:.3f}")
    console.print(t)
    t = Table(title="Checklist level (48 = 16 instances x 3 styles): correlation with the reference, Kendall / Spearman / Pearson")
    t.add_column("judge")
    for k in INSTANCE_FIGURES:
        t.add_column(k, justify="right")
    t.add_column("mean coverage (ref.)", justify="right")
    t.add_column("mean F1 (ref.)", justify="right")
    for name, r in results.items():
        ref = r["figures"]["reference"]
        c = ref["correlation"]
        t.add_row(name, *[f"{c[k]['kendall']:.2f} / {c[k]['spearman']:.2f} / {c[k]['pearson']:.2f}" for k in INSTANCE_FIGURES],
                  f"{ref['mean']['coverage']:.3f} ({ref['reference_mean']['coverage']:.3f})",
                  f"{ref['mean']['f1']:.3f} ({ref['reference_mean']['f1']:.3f})")
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
    parser.add_argument("--no-tuned", action="store_true",
                        help="skip the cross-validation of the tuned-encoder judge (the slow part)")
    args = parser.parse_args(argv)
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    if args.timing_only:
        print(json.dumps(timing(dataset=args.dataset, root=args.root), indent=1))
        return
    results = evaluate(args.dataset, args.root, with_llm=args.llm, with_tuned=not args.no_tuned, progress=lambda m: print(m, file=sys.stderr))
    annotators = annotator_agreement(args.dataset, args.root)
    timed = timing(dataset=args.dataset, root=args.root) if args.timing else None
    print_report(results, annotators, timed)
    if args.json:
        for r in results.values():
            r.pop("matches", None)
        args.json.write_text(json.dumps({"judges": results, "annotators": annotators, "timing": timed}, indent=1) + "\n")


if __name__ == "__main__":
    main()
