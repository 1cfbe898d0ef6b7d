"""The no-model tester on the real WebTestBench dev apps, cross-validated by instance (figures printed).

Input: a run folder of ``webtester bench WebTestBench.jsonl --apps ... --tester baseline`` over the dev apps
(any mode: only each instance's preparation is read: ``start_page.json``, ``state_graph.json``,
``exploration.json``, and ``result.json`` for the time per app). The preparation does not depend on the
checklist, so one run serves both modes.

The feature-search model (:mod:`webtester.baseline.absence`) is the only learned part. With ``--folds K``
the instances are dealt into K folds (``webtester.eval.stats.instance_folds``); for each fold a model is
trained on the gold items of the other folds only, with its threshold chosen there (the highest training
macro F1 whose false alarms stay within ``--max-false-alarms`` of the gold-passing items), and the held-out
instances are then decided by the baseline tester itself (``BaselineTester.from_preparation`` with that
model):

* oracle: the gold checklist given, every item decided (probes first, then the feature search);
* e2e: the tester's own checklist from the instruction and the start page, matched to gold by ``--judge``.

Printed per mode: macro coverage / precision / recall / F1 over all dev instances (an instance without a
usable run scores 0), micro counts, false alarms (Fail on a gold-passing item, share of those items), per
dimension and per category, and the time per app of the run. ``--write-model`` trains on every dev
instance and writes the shipped model (its use on these same apps is in-sample: quote the CV figures).

    python -m webtester.eval.benchmarks.real_apps runs/collect-e2e --json runs/real_apps.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table
from sklearn.linear_model import LogisticRegression

from webtester.agents.base import InstanceBudget, ItemBudget
from webtester.baseline import BaselineTester
from webtester.baseline.absence import (
    FEATURE_NAMES,
    MODEL_RESOURCE,
    AbsenceModel,
    AppVocabulary,
    flag_items,
    search_item,
)
from webtester.baseline.crawl import StateGraph
from webtester.baseline.verdicts import search_text
from webtester.datasets import load_dataset
from webtester.eval.judges import get_judge
from webtester.eval.judges.oracle import OracleJudge
from webtester.eval.metrics import Counts, Summary
from webtester.eval.scoring import Prediction, score_predictions
from webtester.eval.stats import instance_folds
from webtester.models import Instance, TestItem, oracle_items
from webtester.runfolder import EXPLORATION_FILE, LOG_FILE, STATE_GRAPH_FILE, read_json
from webtester.settings import Settings

DEFAULT_DATASET = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "webtestbench" / "WebTestBench.jsonl"
SHIPPED_MODEL = Path(__file__).resolve().parents[2] / "webtester" / "baseline" / MODEL_RESOURCE


@dataclass
class Prepared:
    """One instance with a usable preparation in the run folder."""

    instance: Instance
    folder: Path
    graph: StateGraph
    seconds: float | None


def prepared_instances(run_dir: Path, dataset: list[Instance]) -> tuple[list[Prepared], dict[str, str]]:
    """The instances of ``dataset`` whose preparation is in ``run_dir``, and the reason for each one that is not."""
    usable, missing = [], {}
    for inst in dataset:
        folder = run_dir / inst.index
        if not (folder / STATE_GRAPH_FILE).is_file() or not (folder / EXPLORATION_FILE).is_file():
            missing[inst.index] = "no state graph or exploration in the run folder"
            continue
        graph = StateGraph.from_dict(read_json(folder / STATE_GRAPH_FILE))
        usable.append(Prepared(inst, folder, graph, app_seconds(folder / LOG_FILE)))
    return usable, missing


def app_seconds(log: Path) -> float | None:
    """Wall time of one instance once its app answered: from ``app_started`` to ``results_written`` in its log."""
    if not log.is_file():
        return None
    stamps: dict[str, datetime] = {}
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split(" ", 2)
        if len(parts) >= 2 and parts[1] in ("app_started", "results_written"):
            try:
                stamps[parts[1]] = datetime.fromisoformat(parts[0])
            except ValueError:
                continue
    if "app_started" in stamps and "results_written" in stamps:
        return (stamps["results_written"] - stamps["app_started"]).total_seconds()
    return None


def gold_rows(prepared: list[Prepared]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Feature rows of every gold item (as the oracle tester sees it), its label (1 = fails) and instance."""
    rows, labels, owners = [], [], []
    for p in prepared:
        vocab = AppVocabulary.of(p.graph, p.instance.instruction)
        for item, gold in zip(oracle_items(p.instance), p.instance.checklist):
            feats = search_item(search_text(item), item.dimension, vocab).features
            rows.append([feats[name] for name in FEATURE_NAMES])
            labels.append(0 if gold.passed else 1)
            owners.append(p.instance.index)
    return np.array(rows, dtype=float), np.array(labels), owners


def _rule_fails(prob: np.ndarray, groups: list[np.ndarray], threshold: float, top_k: int, floor: float) -> np.ndarray:
    """Which items the decision rule of :class:`AbsenceModel` fails (``groups``: the item rows of each instance)."""
    fails = np.zeros(len(prob), dtype=bool)
    for rows in groups:
        flagged = flag_items({int(r): float(prob[r]) for r in rows}, threshold, top_k, floor)
        fails[list(flagged)] = True
    return fails


def _oracle_figures(fails: np.ndarray, labels: np.ndarray, groups: list[np.ndarray]) -> tuple[float, float]:
    """Macro F1 over instances and the false-alarm share for the items ``fails`` marks."""
    f1s = []
    for rows in groups:
        gold_fail = labels[rows] == 1
        counts = Counts(tp=int(np.sum(fails[rows] & gold_fail)), fp=int(np.sum(fails[rows] & ~gold_fail)),
                        fn=int(np.sum(~fails[rows] & gold_fail)))
        f1s.append(counts.f1)
    passing = labels == 0
    return float(np.mean(f1s)), float(np.sum(fails & passing) / max(int(np.sum(passing)), 1))


def train_model(x: np.ndarray, y: np.ndarray, owners: list[str], max_false_alarms: float,
                trained_on: dict[str, Any]) -> AbsenceModel:
    """A logistic model on standardised features, its threshold chosen on the same (training) items."""
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    fit = LogisticRegression(C=1.0, max_iter=2000).fit((x - mean) / scale, y)
    prob = fit.predict_proba((x - mean) / scale)[:, 1]
    groups = [np.flatnonzero(np.array([o == owner for o in owners])) for owner in sorted(set(owners))]
    grid = np.unique(np.quantile(prob, np.linspace(0.6, 1.0, 21)))
    best: tuple[float, float, int, float] = (-1.0, 1.0, 0, 1.0)  # (f1, threshold, top_k, floor)
    for t in [*grid, 1.01]:
        for k in (0, 1, 2):
            for floor in (grid if k else [1.0]):
                if k and floor >= t:
                    continue
                f1, false_alarms = _oracle_figures(_rule_fails(prob, groups, float(t), k, float(floor)), y, groups)
                if false_alarms <= max_false_alarms and f1 > best[0]:
                    best = (f1, float(t), k, float(floor))
    f1, threshold, top_k, floor = best
    return AbsenceModel(coef=[float(c) for c in fit.coef_[0]], intercept=float(fit.intercept_[0]),
                        mean=[float(m) for m in mean], scale=[float(s) for s in scale], threshold=threshold, top_k=top_k,
                        rank_floor=floor, trained_on={**trained_on, "training_macro_f1": round(f1, 4),
                                                      "max_false_alarms": max_false_alarms})


def decide_instance(p: Prepared, model: AbsenceModel, mode: str, max_items: int) -> Prediction:
    """The baseline's checklist (e2e) or the gold items (oracle), each decided from the saved preparation."""
    tester = BaselineTester.from_preparation(p.folder, absence_model=model, with_plan=False)
    instruction = p.instance.instruction
    items: list[TestItem]
    if mode == "oracle":
        items = oracle_items(p.instance)
    else:
        items = tester.generate_checklist(instruction, p.graph.routes[0] if p.graph.routes else "", max_items).items
    budget = ItemBudget(30, InstanceBudget(10_000, 0))
    tester.plan_detection(items, instruction=instruction)
    verdicts = [tester.detect(item, None, budget, instruction=instruction) for item in items]
    return Prediction(p.instance.index, "scored", items, verdicts, source="cross-validated decisions")


def run_cv(prepared: list[Prepared], dataset: list[Instance], mode: str, folds: int, max_false_alarms: float,
           judge_name: str, max_items: int) -> tuple[Summary, list[AbsenceModel]]:
    """Cross-validated predictions for every prepared instance, scored over the whole dataset given."""
    by_index = {p.instance.index: p for p in prepared}
    predictions: dict[str, Prediction] = {}
    models = []
    for k, held_out in enumerate(instance_folds(sorted(by_index), folds)):
        train = [by_index[i] for i in by_index if i not in held_out]
        x, y, owners = gold_rows(train)
        model = train_model(x, y, owners, max_false_alarms, {"fold": k, "instances": len(train)})
        models.append(model)
        for index in held_out:
            predictions[index] = decide_instance(by_index[index], model, mode, max_items)
    judge = OracleJudge() if mode == "oracle" else get_judge(judge_name)
    return score_predictions(dataset, predictions, judge, bootstrap=0).summary, models


def false_alarms(summary: Summary) -> tuple[int, int]:
    """Fails on gold-passing items, and the number of gold-passing items."""
    fp = sum(s.counts.fp for s in summary.instances)
    passing = sum(s.n_gold - s.n_gold_fail for s in summary.instances)
    return fp, passing


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def print_summary(console: Console, mode: str, summary: Summary, seconds: list[float]) -> dict[str, Any]:
    """The figures of one mode, as tables and as JSON-ready data."""
    o, t = summary.overall, summary.totals.counts
    fp, passing = false_alarms(summary)
    table = Table(title=f"{mode}: {summary.totals.instances} dev instances, cross-validated")
    for col in ("", "coverage", "P", "R", "F1", "TP", "FP", "FN"):
        table.add_column(col)
    table.add_row("macro", _pct(o.coverage), _pct(o.precision), _pct(o.recall), _pct(o.f1), str(t.tp), str(t.fp), str(t.fn))
    for dim, dfig in summary.by_dimension.items():
        macro = dfig.macro
        table.add_row(f"  {dim.value}", _pct(dfig.coverage), _pct(macro.precision if macro else None),
                      _pct(macro.recall if macro else None), _pct(macro.f1 if macro else None), "", "", "")
    for cat, fig in summary.by_category.items():
        table.add_row(f"  {cat.value}", _pct(fig.coverage), _pct(fig.precision), _pct(fig.recall), _pct(fig.f1), "", "", "")
    console.print(table)
    console.print(f"false alarms: {fp} of {passing} gold-passing items ({100 * fp / max(passing, 1):.1f}%); "
                  f"micro F1 {100 * summary.micro.f1:.1f}")
    return {
        "mode": mode, "instances": summary.totals.instances, "missing": summary.missing,
        "macro": o.model_dump(mode="json"), "micro": summary.micro.model_dump(mode="json"),
        "counts": t.model_dump(mode="json"), "false_alarms": fp, "gold_passing": passing,
        "by_dimension": {d.value: f.model_dump(mode="json") for d, f in summary.by_dimension.items()},
        "by_category": {c.value: f.model_dump(mode="json") for c, f in summary.by_category.items()},
        "seconds_per_app": {"median": statistics.median(seconds), "max": max(seconds)} if seconds else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="run folder of a baseline bench over the dev apps")
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    parser.add_argument("--apps", type=Path, default=None,
                        help="apps location: only instances whose app is there count (default: the dataset's apps/)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--max-false-alarms", type=float, default=0.035)
    parser.add_argument("--judge", default="embedding", help="the e2e item-matching judge (default: embedding)")
    parser.add_argument("--max-items", type=int, default=Settings().max_items,
                        help="most checklist items in e2e mode (default: the settings' default)")
    parser.add_argument("--modes", default="oracle,e2e")
    parser.add_argument("--prepared-only", action="store_true",
                        help="score only the instances with a preparation in the run (while a run is still going)")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--write-model", action="store_true", help=f"train on all dev instances and write {SHIPPED_MODEL}")
    args = parser.parse_args(argv)
    console = Console()
    apps = args.apps or args.dataset.parent / "apps"
    present = {p.stem for p in apps.iterdir()} if apps.is_dir() else set()
    dataset = [inst for inst in load_dataset(args.dataset) if inst.index in present]
    if not dataset:
        console.print(f"[red]no instance of {args.dataset} has its app in {apps}[/red]")
        return 2
    prepared, missing = prepared_instances(args.run, dataset)
    console.print(f"{len(dataset)} dev instances, {len(prepared)} with a preparation in {args.run}"
                  + (f"; without: {', '.join(sorted(missing))}" if missing else ""))
    if args.prepared_only:
        dataset = [inst for inst in dataset if inst.index not in missing]
    seconds = [p.seconds for p in prepared if p.seconds is not None]
    out: dict[str, Any] = {"run": str(args.run), "folds": args.folds, "max_false_alarms": args.max_false_alarms,
                           "missing": missing, "modes": {}}
    for mode in args.modes.split(","):
        summary, models = run_cv(prepared, dataset, mode, args.folds, args.max_false_alarms, args.judge, args.max_items)
        out["modes"][mode] = print_summary(console, mode, summary, seconds)
        out["modes"][mode]["fold_rules"] = [{"threshold": m.threshold, "top_k": m.top_k, "rank_floor": m.rank_floor} for m in models]
    if seconds:
        console.print(f"time per app (the run, app installed): median {statistics.median(seconds):.0f} s, "
                      f"max {max(seconds):.0f} s")
    if args.write_model:
        x, y, owners = gold_rows(prepared)
        model = train_model(x, y, owners, args.max_false_alarms, {"instances": len(prepared), "dataset": args.dataset.name,
                                                                    "split": "WebTestBench dev apps (all folds)"})
        SHIPPED_MODEL.parent.mkdir(parents=True, exist_ok=True)
        SHIPPED_MODEL.write_text(json.dumps(model.to_dict(), indent=1) + "\n", encoding="utf-8")
        console.print(f"model written to {SHIPPED_MODEL} (threshold {model.threshold:.3f})")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
