"""95% bootstrap confidence intervals over instances (``scipy.stats.bootstrap``, percentile method).

Instances are the resampling unit: macro figures resample per-instance values,
pooled (micro) figures resample the instances' counts together (paired).
Intervals are reproducible: the generator is seeded. Plain numbers in, intervals
out: ``webtester.eval.metrics.attach_intervals`` puts them on a summary.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import stats

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
