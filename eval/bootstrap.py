"""95% bootstrap confidence intervals over instances (``scipy.stats.bootstrap``, percentile method), and over items.

Instances are the resampling unit: macro figures resample per-instance values,
pooled (micro) figures resample the instances' counts together (paired).
Intervals are reproducible: the generator is seeded. Plain numbers in, intervals
out: ``webtester.eval.metrics.attach_intervals`` puts them on a summary.
:func:`item_intervals` resamples the gold items within each instance instead: the
spread that comes from single item decisions (the judge's matches, the verdicts).
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


def item_intervals(instances: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]], *, n_resamples: int = 2000,
                   seed: int = 0) -> dict[str, tuple[float, float] | None]:
    """Percentile intervals of the macro figures when each instance's gold items are resampled with replacement
    (within their instance, the instances kept as they are): how far the figures hang on single item decisions,
    i.e. the judge's matches and the verdicts, beside the interval over instances.

    Each instance gives three boolean arrays over its gold items: covered (some predicted item matched it),
    failing in gold, aggregated Fail. Per resample, an instance's coverage is the share of covered draws and its
    P / R / F1 come from its drawn counts (0 when a denominator is 0); the figure is their mean over instances.
    An instance without gold items adds 0. None for every figure without any instance.
    """
    if not instances:
        return {k: None for k in FIGURES}
    rng = np.random.default_rng(seed)
    sums = {k: np.zeros(n_resamples) for k in FIGURES}
    for covered, gold_fail, pred_fail in instances:
        n = len(covered)
        if n == 0:
            continue
        draw = rng.integers(0, n, size=(n_resamples, n))
        c, g, p = (np.asarray(a, dtype=bool)[draw] for a in (covered, gold_fail, pred_fail))
        tp, fp, fn = (g & p).sum(axis=1), (~g & p).sum(axis=1), (g & ~p).sum(axis=1)
        precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
        sums["coverage"] += c.mean(axis=1)
        sums["precision"] += precision
        sums["recall"] += recall
        sums["f1"] += _ratio(2 * precision * recall, precision + recall)
    low, high = 100 * (1 - CONFIDENCE) / 2, 100 * (1 + CONFIDENCE) / 2
    return {k: (float(np.percentile(v / len(instances), low)), float(np.percentile(v / len(instances), high)))
            for k, v in sums.items()}
