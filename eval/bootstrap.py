"""95% bootstrap confidence intervals over instances (``scipy.stats.bootstrap``, percentile method).

Instances are the resampling unit: macro figures resample per-instance values,
pooled (micro) figures resample the instances' counts together (paired).
Intervals are reproducible: the generator is seeded.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import stats

from webtester.eval.metrics import DIMENSIONS, Figures, InstanceScore, Summary

FIGURES = ("coverage", "precision", "recall", "f1")
CONFIDENCE = 0.95


def _interval(result) -> tuple[float, float]:
    ci = result.confidence_interval
    return (float(ci.low), float(ci.high))


def mean_interval(values: Sequence[float], *, n_resamples: int = 2000, seed: int = 0) -> tuple[float, float] | None:
    """Percentile-bootstrap interval of the mean; None for fewer than two values."""
    data = np.asarray(values, dtype=float)
    if data.size < 2:
        return None
    if np.all(data == data[0]):
        return (float(data[0]), float(data[0]))
    res = stats.bootstrap(
        (data,), np.mean, n_resamples=n_resamples, confidence_level=CONFIDENCE,
        method="percentile", vectorized=True, rng=np.random.default_rng(seed),
    )
    return _interval(res)


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.zeros_like(num, dtype=float), where=den > 0)


def _pooled(tp, fp, fn, covered, n_gold, axis=-1):
    tp, fp, fn = tp.sum(axis=axis), fp.sum(axis=axis), fn.sum(axis=axis)
    p, r = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    return {
        "coverage": _ratio(covered.sum(axis=axis), n_gold.sum(axis=axis)),
        "precision": p,
        "recall": r,
        "f1": _ratio(2 * p * r, p + r),
    }


def pooled_intervals(rows: np.ndarray, *, n_resamples: int = 2000, seed: int = 0) -> dict[str, tuple[float, float] | None]:
    """Intervals of the pooled figures; ``rows`` has one row per instance: tp, fp, fn, covered, n_gold."""
    if len(rows) < 2:
        return {k: None for k in FIGURES}
    out: dict[str, tuple[float, float] | None] = {}
    cols = tuple(np.asarray(rows[:, i], dtype=float) for i in range(5))
    for key in FIGURES:
        point = _pooled(*(c[None, :] for c in cols))[key]
        if all(np.all(c == c[0]) for c in cols):
            out[key] = (float(point[0]), float(point[0]))
            continue
        res = stats.bootstrap(
            cols, lambda *c, axis=-1, k=key: _pooled(*c, axis=axis)[k], n_resamples=n_resamples,
            confidence_level=CONFIDENCE, method="percentile", vectorized=True, paired=True,
            rng=np.random.default_rng(seed),
        )
        out[key] = _interval(res)
    return out


def _macro(fig: Figures | None, per_instance: dict[str, list[float]], n_resamples: int, seed: int) -> None:
    if fig is None:
        return
    fig.ci = {k: mean_interval(v, n_resamples=n_resamples, seed=seed) for k, v in per_instance.items()}


def _values(scores: Sequence[InstanceScore]) -> dict[str, list[float]]:
    return {k: [getattr(s, k) for s in scores] for k in FIGURES}


def _rows(parts) -> np.ndarray:
    return np.array([[p.counts.tp, p.counts.fp, p.counts.fn, p.covered, p.n_gold] for p in parts], dtype=float).reshape(-1, 5)


def attach_intervals(summary: Summary, *, n_resamples: int = 2000, seed: int = 0) -> Summary:
    """Fill ``ci`` of the summary's overall, micro, per-dimension and per-category figures in place."""
    full = summary.instances
    _macro(summary.overall, _values(full), n_resamples, seed)
    _macro(summary.overall_with_results, _values([s for s in full if s.has_result]), n_resamples, seed)
    summary.micro.ci = pooled_intervals(_rows(full), n_resamples=n_resamples, seed=seed)
    for dim in DIMENSIONS:
        figs = summary.by_dimension.get(dim)
        if figs is None:
            continue
        holding = [s.by_dimension[dim] for s in full if dim in s.by_dimension]
        failing = [d for d in holding if d.n_gold_fail > 0]
        _macro(figs.macro, {k: [getattr(d, k) or 0.0 for d in failing] for k in FIGURES[1:]}, n_resamples, seed)
        figs.coverage_ci = mean_interval([d.coverage for d in holding], n_resamples=n_resamples, seed=seed)
        figs.micro.ci = pooled_intervals(_rows(holding), n_resamples=n_resamples, seed=seed)
    for cat, fig in summary.by_category.items():
        _macro(fig, _values([s for s in full if s.category is cat]), n_resamples, seed)
    return summary
