"""WebTestBench metrics: coverage, aggregated verdicts, TP/FP/FN/TN, precision / recall / F1.

Pure functions over the data model; the definitions are those of the project's
design notes (which follow the WebTestBench paper and its reference scorer):

* A judge maps every predicted item to at most one gold item (``matches[j]`` is a
  gold id or ``None``); a gold item may receive several predicted items.
* Coverage = share of gold items that received at least one predicted item.
* Aggregated verdict of a gold item: Fail if any matched predicted item failed,
  else Pass (also Pass when nothing matched it).
* A predicted verdict ``error`` (could not be executed) is *not* Fail, so in the
  aggregation it counts like Pass; the number of such verdicts is reported
  separately (``n_error``), as is the number of predicted items with no verdict
  at all (``n_unjudged``, also counted like Pass).
* Fail is the positive class; P, R and F1 are 0 when their denominator is 0.
* Per dimension: P/R/F1 only for dimensions holding at least one failing gold
  item; coverage for every dimension the instance holds.
* Benchmark figures are macro averages over instances, as the reference scorer
  computes them; an instance without a result scores 0 everywhere and is
  counted (figures without such instances are reported too). Pooled (micro)
  figures sum the counts over instances.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field

from webtester.eval.bootstrap import FIGURES, item_intervals, mean_interval, pooled_intervals
from webtester.eval.stages import StageSummary
from webtester.models import Category, Dimension, Instance, Status, TestItem, Verdict
from webtester.runfolder import GoldItemScore, Outcome

DIMENSIONS: tuple[Dimension, ...] = tuple(Dimension)
CATEGORIES: tuple[Category, ...] = tuple(Category)

InstanceStatus = Literal["scored", "no_verdicts", "missing"]


class Counts(BaseModel):
    """Confusion counts with Fail as the positive class."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def __add__(self, other: "Counts") -> "Counts":
        return Counts(tp=self.tp + other.tp, fp=self.fp + other.fp, fn=self.fn + other.fn, tn=self.tn + other.tn)

    @property
    def precision(self) -> float:
        return safe_div(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float:
        return safe_div(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float:
        return f1_score(self.precision, self.recall)


def safe_div(num: float, den: float) -> float:
    """``num / den``, or 0.0 when ``den`` is 0 (the reference scorer's convention)."""
    return num / den if den else 0.0


def f1_score(precision: float, recall: float) -> float:
    """Harmonic mean of precision and recall; 0.0 when both are 0."""
    return safe_div(2 * precision * recall, precision + recall)


def outcome(gold_passed: bool, predicted_fail: bool) -> Outcome:
    """TP / FP / FN / TN of one gold item given its aggregated verdict (Fail is positive)."""
    if not gold_passed:
        return "TP" if predicted_fail else "FN"
    return "FP" if predicted_fail else "TN"


class DimensionScore(BaseModel):
    """Figures of one instance restricted to the gold items of one dimension."""

    n_gold: int
    n_gold_fail: int
    covered: int
    coverage: float
    counts: Counts
    precision: float | None = Field(description="None when the dimension holds no failing gold item")
    recall: float | None
    f1: float | None


class InstanceScore(BaseModel):
    """Scores of one instance. ``status`` is 'missing' when the run produced no result
    (scored 0 everywhere), 'no_verdicts' when only a checklist exists (coverage is
    measured, no item is Fail), 'scored' otherwise."""

    index: str
    category: Category
    status: InstanceStatus = "scored"
    reason: str | None = None
    n_gold: int
    n_gold_fail: int
    n_pred: int
    n_pred_matched: int
    n_pred_fail: int
    n_error: int = Field(description="predicted verdicts 'error' (counted like Pass)")
    n_unjudged: int = Field(description="predicted items without any verdict (counted like Pass)")
    covered: int
    coverage: float
    counts: Counts
    precision: float
    recall: float
    f1: float
    by_dimension: dict[Dimension, DimensionScore]
    items: list[GoldItemScore]

    @property
    def has_result(self) -> bool:
        """True unless the instance is missing or has no verdicts."""
        return self.status == "scored"


def _dimension_score(outcomes: list[GoldItemScore]) -> DimensionScore:
    counts = _count(outcomes)
    n_fail = sum(1 for o in outcomes if not o.gold_pass)
    covered = sum(1 for o in outcomes if o.matched)
    scored = n_fail > 0
    return DimensionScore(
        n_gold=len(outcomes),
        n_gold_fail=n_fail,
        covered=covered,
        coverage=safe_div(covered, len(outcomes)),
        counts=counts,
        precision=counts.precision if scored else None,
        recall=counts.recall if scored else None,
        f1=counts.f1 if scored else None,
    )


def _count(outcomes: Iterable[GoldItemScore]) -> Counts:
    c = {"TP": 0, "FP": 0, "FN": 0, "TN": 0}
    for o in outcomes:
        c[o.outcome] += 1
    return Counts(tp=c["TP"], fp=c["FP"], fn=c["FN"], tn=c["TN"])


def validate_matches(gold: Instance, n_predicted: int, matches: Sequence[int | None]) -> None:
    """Raise ``ValueError`` unless there is one match per predicted item, each a gold id or None."""
    if len(matches) != n_predicted:
        raise ValueError(f"{gold.index}: {len(matches)} matches for {n_predicted} predicted items")
    gold_ids = {g.id for g in gold.checklist}
    bad = [m for m in matches if m is not None and m not in gold_ids]
    if bad:
        raise ValueError(f"{gold.index}: matches name unknown gold ids {sorted(set(bad))}; gold ids are {sorted(gold_ids)}")


def _validate(gold: Instance, predicted: Sequence[TestItem], verdicts: Sequence[Verdict], matches: Sequence[int | None]) -> None:
    validate_matches(gold, len(predicted), matches)
    seen: set[str] = set()
    for item in predicted:
        if item.id in seen:
            raise ValueError(f"{gold.index}: duplicate predicted item id {item.id!r}")
        seen.add(item.id)
    vseen: set[str] = set()
    for v in verdicts:
        if v.item_id not in seen:
            raise ValueError(f"{gold.index}: verdict for unknown predicted item {v.item_id!r}")
        if v.item_id in vseen:
            raise ValueError(f"{gold.index}: more than one verdict for predicted item {v.item_id!r}")
        vseen.add(v.item_id)


def score_instance(
    gold: Instance,
    predicted: Sequence[TestItem],
    verdicts: Sequence[Verdict],
    matches: Sequence[int | None],
    *,
    status: InstanceStatus = "scored",
    reason: str | None = None,
) -> InstanceScore:
    """Score one instance from its predicted items, their verdicts and the judge's matches.

    ``matches[j]`` is the gold id predicted item ``j`` was mapped to, or ``None``.
    Raises ``ValueError`` on inconsistent input (unknown gold ids, duplicate ids,
    verdicts for unknown items, length mismatch).
    """
    _validate(gold, predicted, verdicts, matches)
    status_of = {v.item_id: v.status for v in verdicts}
    fails = {item.id for item in predicted if status_of.get(item.id) is Status.failed}
    by_gold: dict[int, list[str]] = {g.id: [] for g in gold.checklist}
    for item, gid in zip(predicted, matches):
        if gid is not None:
            by_gold[gid].append(item.id)
    items = []
    for g in gold.checklist:
        matched = by_gold[g.id]
        pred_fail = any(pid in fails for pid in matched)
        items.append(
            GoldItemScore(
                gold_id=g.id, dimension=g.dimension, gold_pass=g.passed, matched=matched,
                predicted_fail=pred_fail, outcome=outcome(g.passed, pred_fail),
            )
        )
    counts = _count(items)
    covered = sum(1 for o in items if o.matched)
    by_dimension = {
        dim: _dimension_score([o for o in items if o.dimension is dim])
        for dim in DIMENSIONS
        if any(o.dimension is dim for o in items)
    }
    return InstanceScore(
        index=gold.index,
        category=gold.category,
        status=status,
        reason=reason,
        n_gold=len(items),
        n_gold_fail=sum(1 for o in items if not o.gold_pass),
        n_pred=len(predicted),
        n_pred_matched=sum(1 for m in matches if m is not None),
        n_pred_fail=len(fails),
        n_error=sum(1 for item in predicted if status_of.get(item.id) is Status.error),
        n_unjudged=sum(1 for item in predicted if item.id not in status_of),
        covered=covered,
        coverage=safe_div(covered, len(items)),
        counts=counts,
        precision=counts.precision,
        recall=counts.recall,
        f1=counts.f1,
        by_dimension=by_dimension,
        items=items,
    )


def missing_score(gold: Instance, reason: str = "no result") -> InstanceScore:
    """The score of an instance whose run produced no result: 0 on every figure."""
    return score_instance(gold, [], [], [], status="missing", reason=reason)


# --------------------------------------------------------------------------- aggregation


class Figures(BaseModel):
    """Coverage / precision / recall / F1 over a set of instances (fractions in [0, 1]).

    ``n`` is the number of instances averaged (macro) or pooled (micro); ``ci``
    holds 95% bootstrap intervals ``[low, high]`` per figure, when computed.
    """

    n: int
    coverage: float | None = None
    precision: float
    recall: float
    f1: float
    ci: dict[str, tuple[float, float] | None] = Field(default_factory=dict)
    ci_items: dict[str, tuple[float, float] | None] = Field(
        default_factory=dict, description="95% intervals over gold items resampled within their instances (macro figures)")


class DimensionFigures(BaseModel):
    """Per-dimension benchmark figures.

    ``macro``: P/R/F1 averaged over the ``n`` instances whose gold items of this
    dimension include a failing one; ``coverage`` averaged over the
    ``n_coverage`` instances that hold the dimension at all. ``micro``: pooled
    over all instances' gold items of this dimension.
    """

    n_gold: int
    n_gold_fail: int
    n_coverage: int
    coverage: float | None
    coverage_ci: tuple[float, float] | None = None
    macro: Figures | None
    micro: Figures


class Totals(BaseModel):
    """Pooled counts over all instances."""

    instances: int
    scored: int
    no_verdicts: int
    missing: int
    gold_items: int
    gold_fail: int
    pred_items: int
    pred_matched: int
    pred_fail: int
    error_verdicts: int
    unjudged_items: int
    counts: Counts


class Summary(BaseModel):
    """Benchmark figures for one run scored by one judge.

    ``overall`` is the headline (macro over all instances, missing ones as 0);
    ``overall_with_results`` leaves out instances without a result ('missing'
    and 'no_verdicts'); ``micro`` pools the counts of all instances.
    """

    judge: dict = Field(default_factory=dict, description="which judge produced the matches (name, model, threshold, prompt version)")
    totals: Totals
    missing: list[str] = Field(default_factory=list, description="indices without a result, with 'no_verdicts' ones")
    overall: Figures
    overall_with_results: Figures | None
    micro: Figures
    by_dimension: dict[Dimension, DimensionFigures]
    by_category: dict[Category, Figures]
    diagnosis: StageSummary | None = Field(
        default=None, description="reach / trigger / detect counts per dimension (webtester.eval.stages)")
    unplaced: dict[str, list[str]] = Field(
        default_factory=dict, description="instance index -> ids of predicted items the judge could not place (left unmatched)")
    judge_notes: list[str] = Field(default_factory=list, description="what the judge could not do, one line each")
    instances: list[InstanceScore] = Field(default_factory=list)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def macro_figures(scores: Sequence[InstanceScore]) -> Figures:
    """Mean of per-instance coverage, P, R, F1 (the reference scorer's overall figures)."""
    return Figures(
        n=len(scores),
        coverage=_mean([s.coverage for s in scores]),
        precision=_mean([s.precision for s in scores]),
        recall=_mean([s.recall for s in scores]),
        f1=_mean([s.f1 for s in scores]),
    )


def micro_figures(counts: Counts, covered: int, n_gold: int, n: int) -> Figures:
    """Pooled figures from summed counts (labelled 'micro' in reports)."""
    return Figures(n=n, coverage=safe_div(covered, n_gold), precision=counts.precision, recall=counts.recall, f1=counts.f1)


def dimension_figures(scores: Sequence[InstanceScore], dim: Dimension) -> DimensionFigures:
    """Per-dimension macro (reference) and micro (pooled) figures."""
    holding = [s.by_dimension[dim] for s in scores if dim in s.by_dimension]
    failing = [d for d in holding if d.n_gold_fail > 0]
    macro = None
    if failing:
        macro = Figures(
            n=len(failing),
            precision=_mean([d.precision or 0.0 for d in failing]),
            recall=_mean([d.recall or 0.0 for d in failing]),
            f1=_mean([d.f1 or 0.0 for d in failing]),
        )
    counts = sum((d.counts for d in holding), Counts())
    return DimensionFigures(
        n_gold=sum(d.n_gold for d in holding),
        n_gold_fail=sum(d.n_gold_fail for d in holding),
        n_coverage=len(holding),
        coverage=_mean([d.coverage for d in holding]) if holding else None,
        macro=macro,
        micro=micro_figures(counts, sum(d.covered for d in holding), sum(d.n_gold for d in holding), len(holding)),
    )


def complete_scores(scores: Iterable[InstanceScore], instances: Sequence[Instance]) -> list[InstanceScore]:
    """Scores in dataset order, with a 'missing' score for every instance that has none.

    Raises ``ValueError`` for scores of indices absent from ``instances`` or given twice.
    """
    by_index: dict[str, InstanceScore] = {}
    known = {inst.index for inst in instances}
    for s in scores:
        if s.index not in known:
            raise ValueError(f"score for {s.index!r}, which is not in the dataset")
        if s.index in by_index:
            raise ValueError(f"two scores for {s.index!r}")
        by_index[s.index] = s
    return [by_index.get(inst.index) or missing_score(inst) for inst in instances]


def aggregate(
    scores: Iterable[InstanceScore],
    instances: Sequence[Instance],
    *,
    judge: dict | None = None,
    bootstrap: int = 0,
    seed: int = 0,
) -> Summary:
    """Benchmark figures over ``instances`` (the dataset defines the denominator).

    Instances without a score count as missing (0 everywhere). With
    ``bootstrap=B > 0``, 95% percentile-bootstrap intervals over instances are
    attached to the overall, per-dimension and per-category figures.
    """
    full = complete_scores(scores, instances)
    with_results = [s for s in full if s.has_result]
    counts = sum((s.counts for s in full), Counts())
    n_gold = sum(s.n_gold for s in full)
    summary = Summary(
        judge=judge or {},
        totals=Totals(
            instances=len(full),
            scored=sum(1 for s in full if s.status == "scored"),
            no_verdicts=sum(1 for s in full if s.status == "no_verdicts"),
            missing=sum(1 for s in full if s.status == "missing"),
            gold_items=n_gold,
            gold_fail=sum(s.n_gold_fail for s in full),
            pred_items=sum(s.n_pred for s in full),
            pred_matched=sum(s.n_pred_matched for s in full),
            pred_fail=sum(s.n_pred_fail for s in full),
            error_verdicts=sum(s.n_error for s in full),
            unjudged_items=sum(s.n_unjudged for s in full),
            counts=counts,
        ),
        missing=[s.index for s in full if not s.has_result],
        overall=macro_figures(full),
        overall_with_results=macro_figures(with_results) if with_results else None,
        micro=micro_figures(counts, sum(s.covered for s in full), n_gold, len(full)),
        by_dimension={dim: dimension_figures(full, dim) for dim in DIMENSIONS if any(dim in s.by_dimension for s in full)},
        by_category={
            cat: macro_figures([s for s in full if s.category is cat])
            for cat in CATEGORIES
            if any(s.category is cat for s in full)
        },
        instances=full,
    )
    if bootstrap > 0:
        attach_intervals(summary, n_resamples=bootstrap, seed=seed)
    return summary


# --------------------------------------------------------------------------- confidence intervals


def _macro_ci(fig: Figures | None, per_instance: dict[str, list[float]], n_resamples: int, seed: int) -> None:
    if fig is None:
        return
    fig.ci = {k: mean_interval(v, n_resamples=n_resamples, seed=seed) for k, v in per_instance.items()}


def _values(scores: Sequence[InstanceScore]) -> dict[str, list[float]]:
    return {k: [getattr(s, k) for s in scores] for k in FIGURES}


def _count_rows(parts: Sequence[InstanceScore | DimensionScore]) -> np.ndarray:
    """One row per instance: tp, fp, fn, covered, n_gold (the input of ``pooled_intervals``)."""
    return np.array([[p.counts.tp, p.counts.fp, p.counts.fn, p.covered, p.n_gold] for p in parts], dtype=float).reshape(-1, 5)


def _item_arrays(scores: Sequence[InstanceScore]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per instance, over its gold items: covered, failing in gold, aggregated Fail (the input of ``item_intervals``)."""
    return [(np.array([bool(i.matched) for i in s.items], dtype=bool), np.array([not i.gold_pass for i in s.items], dtype=bool),
             np.array([i.predicted_fail for i in s.items], dtype=bool)) for s in scores]


def attach_intervals(summary: Summary, *, n_resamples: int = 2000, seed: int = 0) -> Summary:
    """Fill ``ci`` of the summary's overall, micro, per-dimension and per-category figures in place, and
    ``ci_items`` (over gold items within instances) of the overall ones."""
    full = summary.instances
    with_results = [s for s in full if s.has_result]
    _macro_ci(summary.overall, _values(full), n_resamples, seed)
    _macro_ci(summary.overall_with_results, _values(with_results), n_resamples, seed)
    summary.overall.ci_items = item_intervals(_item_arrays(full), n_resamples=n_resamples, seed=seed)
    if summary.overall_with_results is not None:
        summary.overall_with_results.ci_items = item_intervals(_item_arrays(with_results), n_resamples=n_resamples, seed=seed)
    summary.micro.ci = pooled_intervals(_count_rows(full), n_resamples=n_resamples, seed=seed)
    for dim in DIMENSIONS:
        figs = summary.by_dimension.get(dim)
        if figs is None:
            continue
        holding = [s.by_dimension[dim] for s in full if dim in s.by_dimension]
        failing = [d for d in holding if d.n_gold_fail > 0]
        _macro_ci(figs.macro, {k: [getattr(d, k) or 0.0 for d in failing] for k in FIGURES[1:]}, n_resamples, seed)
        figs.coverage_ci = mean_interval([d.coverage for d in holding], n_resamples=n_resamples, seed=seed)
        figs.micro.ci = pooled_intervals(_count_rows(holding), n_resamples=n_resamples, seed=seed)
    for cat, fig in summary.by_category.items():
        _macro_ci(fig, _values([s for s in full if s.category is cat]), n_resamples, seed)
    return summary
