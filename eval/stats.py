"""Statistics shared by the judges' development code and the correlation studies.

* labels: ``None`` is a category of its own (``"none"``);
* agreement of two labellings: raw share of equal labels and Cohen's kappa;
* correlation coefficients (Kendall, Spearman, Pearson), undefined for fewer
  than three pairs or when either side is constant;
* the threshold of an "argmax, if it reaches the threshold" rule that agrees
  best with labels;
* instance splits: one deterministic order of instances (by a hash of the
  index), dealt round-robin into folds or cut into a held-out share, so that a
  split never separates the items of one instance.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Hashable, Sequence

import numpy as np
from pydantic import BaseModel
from scipy import stats as sps
from sklearn.metrics import cohen_kappa_score

CORRELATIONS: dict[str, Callable] = {
    "kendall": lambda x, y: sps.kendalltau(x, y),
    "spearman": lambda x, y: sps.spearmanr(x, y),
    "pearson": lambda x, y: sps.pearsonr(x, y),
}


def clean(value: float | None) -> float | None:
    """``value`` as a float, or None when it is missing or NaN."""
    return None if value is None or math.isnan(value) else float(value)


def label_strings(values: Sequence[Hashable]) -> list[str]:
    """Labels as strings, ``None`` as the category ``"none"``."""
    return ["none" if v is None else str(v) for v in values]


class Agreement(BaseModel):
    """Agreement of two labellings of the same items."""

    n: int
    accuracy: float
    kappa: float | None


def cohen_kappa(a: Sequence[Hashable], b: Sequence[Hashable]) -> float | None:
    """Cohen's kappa of two labellings; 1.0 when both use one and the same label, None for no items."""
    la, lb = label_strings(a), label_strings(b)
    if not la:
        return None
    if len(set(la) | set(lb)) == 1:
        return 1.0
    return clean(cohen_kappa_score(la, lb))


def agreement(a: Sequence[Hashable], b: Sequence[Hashable]) -> Agreement:
    """Raw agreement and Cohen's kappa (``None`` labels are a category of their own)."""
    if len(a) != len(b):
        raise ValueError(f"labellings differ in length: {len(a)} vs {len(b)}")
    if not a:
        return Agreement(n=0, accuracy=0.0, kappa=None)
    la, lb = label_strings(a), label_strings(b)
    acc = sum(x == y for x, y in zip(la, lb)) / len(la)
    return Agreement(n=len(la), accuracy=acc, kappa=cohen_kappa(la, lb))


def correlation_defined(x: np.ndarray, y: np.ndarray) -> bool:
    """A coefficient needs at least three pairs and variation on both sides."""
    return len(x) >= 3 and bool(np.ptp(x)) and bool(np.ptp(y))


def paired(x: Sequence[float], y: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """Two paired samples as float arrays; ``ValueError`` when their lengths differ."""
    x_arr, y_arr = np.asarray(x, float), np.asarray(y, float)
    if x_arr.shape != y_arr.shape:
        raise ValueError(f"paired samples differ in length: {len(x_arr)} vs {len(y_arr)}")
    return x_arr, y_arr


def coefficient(x: Sequence[float], y: Sequence[float], method: str) -> float | None:
    """Kendall's tau-b, Spearman's rho or Pearson's r of paired values; None when undefined."""
    x_arr, y_arr = paired(x, y)
    if not correlation_defined(x_arr, y_arr):
        return None
    return clean(CORRELATIONS[method](x_arr, y_arr).statistic)


def best_threshold(
    tops: Sequence[float],
    correct_if_matched: Sequence[bool],
    correct_if_unmatched: Sequence[bool],
    *,
    margin: float = 1e-3,
) -> tuple[float, float]:
    """(threshold, agreement) of the rule "an item is matched when its top score reaches the threshold".

    ``tops[i]`` is item i's best score; ``correct_if_matched[i]`` tells whether
    matching it (to its best candidate) agrees with its label,
    ``correct_if_unmatched[i]`` whether leaving it unmatched does. Candidates
    lie below every score, midway between consecutive distinct scores and
    above every score; among equally good candidates the middle one is taken.
    """
    scores = np.asarray(tops, dtype=float)
    if scores.size == 0:
        raise ValueError("best_threshold: no items")
    values, group = np.unique(scores, return_inverse=True)
    ok_matched = np.bincount(group, weights=np.asarray(correct_if_matched, dtype=float), minlength=len(values))
    ok_none = np.bincount(group, weights=np.asarray(correct_if_unmatched, dtype=float), minlength=len(values))
    # candidate k lies just below values[k]: values[:k] stay unmatched, values[k:] are matched
    correct = np.concatenate([[0.0], np.cumsum(ok_none)]) + np.concatenate([np.cumsum(ok_matched[::-1])[::-1], [0.0]])
    cuts = np.concatenate([[values[0] - margin], (values[:-1] + values[1:]) / 2, [values[-1] + margin]])
    best = np.flatnonzero(correct == correct.max())
    k = best[len(best) // 2]
    return float(cuts[k]), float(correct[k] / scores.size)


def instance_order(indices: Sequence[str]) -> list[str]:
    """The distinct instances, ordered by a hash of their index (independent of input order)."""
    return sorted(set(indices), key=lambda i: hashlib.sha256(i.encode()).hexdigest())


def instance_folds(indices: Sequence[str], n_folds: int | None = None) -> list[list[str]]:
    """Instances dealt round-robin (in ``instance_order``) into folds; None = one instance per fold."""
    order = instance_order(indices)
    k = len(order) if n_folds is None else min(n_folds, len(order))
    return [sorted(order[i::k]) for i in range(k)]


def held_out_split(indices: Sequence[str], share: float) -> tuple[list[str], list[str]]:
    """(kept, held-out) instances: the first ``share`` of ``instance_order`` is held out (at least one of two or more)."""
    order = instance_order(indices)
    n_held = max(1, round(share * len(order))) if len(order) > 1 else 0
    return sorted(order[n_held:]), sorted(order[:n_held])
