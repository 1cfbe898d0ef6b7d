"""Statistics of a correlation-with-human study: coefficients with bootstrap intervals, inter-rater agreement.

Label agreement, Cohen's kappa and the plain coefficients are those of ``webtester.eval.stats``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import combinations

import numpy as np
from pydantic import BaseModel
from scipy import stats as sps
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from webtester.eval.stats import CORRELATIONS, Agreement, agreement, clean, correlation_defined, label_strings, paired

__all__ = ["Agreement", "Correlation", "RaterAgreement", "agreement", "correlate", "correlations", "rater_agreement"]


class Correlation(BaseModel):
    """One coefficient with its p-value and a percentile bootstrap 95% interval (None when undefined)."""

    method: str
    n: int
    value: float | None
    p_value: float | None
    ci_low: float | None = None
    ci_high: float | None = None


def correlate(x: Sequence[float], y: Sequence[float], method: str, *, n_resamples: int = 1000, seed: int = 0) -> Correlation:
    """Correlation of paired values by ``method`` (kendall / spearman / pearson).

    Undefined when fewer than three pairs or when either side is constant.
    """
    x_arr, y_arr = paired(x, y)
    n = len(x_arr)
    if not correlation_defined(x_arr, y_arr):
        return Correlation(method=method, n=n, value=None, p_value=None)
    fn = CORRELATIONS[method]
    res = fn(x_arr, y_arr)
    out = Correlation(method=method, n=n, value=clean(res.statistic), p_value=clean(res.pvalue))

    def statistic(a, b):
        if np.ptp(a) == 0 or np.ptp(b) == 0:
            return np.nan
        return fn(a, b).statistic

    boot = sps.bootstrap(
        (x_arr, y_arr), statistic, paired=True, vectorized=False, n_resamples=n_resamples,
        method="percentile", rng=np.random.default_rng(seed),
    )
    # Resamples that repeat one pair only have no correlation: leave them out of the percentiles.
    dist = np.asarray(boot.bootstrap_distribution, float)
    dist = dist[~np.isnan(dist)]
    if len(dist) >= n_resamples // 2:
        out.ci_low, out.ci_high = (float(v) for v in np.percentile(dist, [2.5, 97.5]))
    return out


def correlations(x: Sequence[float], y: Sequence[float], **kwargs) -> dict[str, Correlation]:
    """Kendall's tau, Spearman's rho and Pearson's r of the same pairs."""
    return {m: correlate(x, y, m, **kwargs) for m in CORRELATIONS}


class RaterAgreement(BaseModel):
    """Agreement between several annotators on the items all of them labelled."""

    annotators: list[str]
    n_items: int
    pairwise: dict[str, Agreement]
    fleiss_kappa: float | None


def rater_agreement(labels: dict[str, dict[Hashable, Hashable]]) -> RaterAgreement:
    """Pairwise raw agreement and Cohen's kappa, and Fleiss' kappa over all annotators."""
    names = sorted(labels)
    common = sorted(set.intersection(*(set(labels[n]) for n in names)), key=str) if names else []
    pairwise = {
        f"{a} vs {b}": agreement([labels[a][k] for k in common], [labels[b][k] for k in common])
        for a, b in combinations(names, 2)
    }
    fk = None
    if len(names) >= 2 and common:
        table = np.array([label_strings([labels[n][k] for n in names]) for k in common], dtype=object)
        cats = {c: i for i, c in enumerate(sorted({c for row in table for c in row}))}
        coded = np.vectorize(cats.get)(table)
        counts, _ = aggregate_raters(coded, n_cat=len(cats))
        fk = 1.0 if len(cats) == 1 else clean(fleiss_kappa(counts, method="fleiss"))
    return RaterAgreement(annotators=names, n_items=len(common), pairwise=pairwise, fleiss_kappa=fk)
