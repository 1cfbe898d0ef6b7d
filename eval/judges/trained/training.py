"""Training and cross-validation of the trained matching judge (and of the naive baseline's threshold).

Everything is grouped by instance: a fold holds out whole instances, never
part of one instance's items. Hyper-parameters (regularisation ``C`` and the
match threshold) are chosen inside the training instances of each fold by an
inner grouped cross-validation, so held-out figures are not tuned on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.linear_model import LogisticRegression

from webtester.eval.judges.trained.dev_set import Checklist, Label
from webtester.eval.judges.trained.encoder_tuning import (
    DEFAULT_TUNING,
    Adapter,
    TuningConfig,
    adapter_digest,
    release_adapter,
    tune_encoder,
)
from webtester.eval.judges.trained.features import FEATURES
from webtester.eval.judges.trained.judge import PackagedEncoder, PairFeaturizer, PairModel, assign, forget_vectors
from webtester.eval.stats import best_threshold, instance_folds

C_GRID = (0.03, 0.1, 0.3, 1.0)
INNER_FOLDS = 5
TUNING_FOLDS = 4  # cross-fitting folds for the features the classifier learns from


@dataclass
class FoldResult:
    """Out-of-fold matches for every checklist, and what each fold chose."""

    matches: list[list[Label]]
    choices: list[dict]


def targets(cl: Checklist, source: str) -> np.ndarray:
    """0/1 matrix (predicted x gold): 1 where the label of ``source`` maps the item to the gold item."""
    ids = [g.id for g in cl.instance.checklist]
    y = np.zeros((len(cl.items), len(ids)))
    for i, lab in enumerate(cl.labels[source]):
        if lab is not None:
            y[i, ids.index(lab)] = 1.0
    return y


def fit_pair_model(tensors: Sequence[np.ndarray], ys: Sequence[np.ndarray], c: float) -> PairModel:
    """Standardised L2 logistic regression on all pairs of the given checklists."""
    x = np.concatenate([t.reshape(-1, t.shape[-1]) for t in tensors])
    y = np.concatenate([v.reshape(-1) for v in ys])
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale = np.where(scale > 1e-9, scale, 1.0)
    clf = LogisticRegression(C=c, max_iter=5000)
    clf.fit((x - mean) / scale, y)
    return PairModel(FEATURES, mean, scale, clf.coef_[0].astype(np.float64), float(clf.intercept_[0]))


def row_threshold(scores: Sequence[np.ndarray], checklists: Sequence[Checklist], source: str) -> tuple[float, float]:
    """(threshold, agreement): the cut on row-maximum scores (predicted x gold) that agrees best with ``source``."""
    tops, ok_matched, ok_none = [], [], []
    for s, cl in zip(scores, checklists):
        ids = [g.id for g in cl.instance.checklist]
        for row, lab in zip(s, cl.labels[source]):
            tops.append(float(row.max()) if row.size else -np.inf)
            ok_matched.append(bool(row.size) and lab is not None and ids[int(row.argmax())] == lab)
            ok_none.append(lab is None)
    return best_threshold(tops, ok_matched, ok_none)


def _oof_scores(tensors, ys, idx_of, folds, c) -> list[np.ndarray]:
    out: list[np.ndarray | None] = [None] * len(tensors)
    for fold in folds:
        train = [i for i, ix in enumerate(idx_of) if ix not in fold]
        model = fit_pair_model([tensors[i] for i in train], [ys[i] for i in train], c)
        for i, ix in enumerate(idx_of):
            if ix in fold:
                out[i] = model.probability(tensors[i])
    return out  # type: ignore[return-value]


def select_and_fit(
    checklists: Sequence[Checklist],
    tensors: Sequence[np.ndarray],
    source: str = "reference",
    *,
    c_grid: Sequence[float] = C_GRID,
    inner_folds: int = INNER_FOLDS,
) -> tuple[PairModel, float, dict]:
    """Choose C and the threshold by grouped inner CV on these checklists, then fit on all of them."""
    ys = [targets(cl, source) for cl in checklists]
    idx_of = [cl.index for cl in checklists]
    folds = instance_folds(idx_of, inner_folds)
    trials = {}
    for c in c_grid:
        oof = _oof_scores(tensors, ys, idx_of, folds, c)
        trials[c] = row_threshold(oof, checklists, source)
    c_best = max(c_grid, key=lambda c: (round(trials[c][1], 6), -c))
    model = fit_pair_model(tensors, ys, c_best)
    threshold = trials[c_best][0]
    return model, threshold, {"C": c_best, "threshold": threshold, "inner_agreement": trials[c_best][1],
                              "inner_trials": {str(c): round(v[1], 4) for c, v in trials.items()}}


def cross_validate_trained(
    checklists: Sequence[Checklist],
    tensors: Sequence[np.ndarray],
    source: str = "reference",
    *,
    outer_folds: int | None = None,
    progress: Callable[[str], None] | None = None,
    **kwargs,
) -> FoldResult:
    """Out-of-fold matches of the trained judge: for each held-out group of instances, select and fit on the rest."""
    matches: list[list[Label] | None] = [None] * len(checklists)
    choices = []
    for fold in instance_folds([cl.index for cl in checklists], outer_folds):
        train = [i for i, cl in enumerate(checklists) if cl.index not in fold]
        model, threshold, info = select_and_fit([checklists[i] for i in train], [tensors[i] for i in train], source, **kwargs)
        for i, cl in enumerate(checklists):
            if cl.index in fold:
                matches[i] = assign(model.probability(tensors[i]), [g.id for g in cl.instance.checklist], threshold)
        choices.append({"held_out": fold, **info})
        if progress:
            progress(f"fold {len(choices)}: held out {', '.join(fold)} (C={info['C']}, t={threshold:.3f})")
    return FoldResult(matches, choices)  # type: ignore[arg-type]


def cross_validate_threshold(
    checklists: Sequence[Checklist],
    sims: Sequence[np.ndarray],
    source: str = "reference",
    *,
    outer_folds: int | None = None,
) -> FoldResult:
    """The naive judge (argmax similarity above a threshold) with the threshold chosen on the training instances."""
    matches: list[list[Label] | None] = [None] * len(checklists)
    choices = []
    for fold in instance_folds([cl.index for cl in checklists], outer_folds):
        train = [i for i, cl in enumerate(checklists) if cl.index not in fold]
        t, agr = row_threshold([sims[i] for i in train], [checklists[i] for i in train], source)
        for i, cl in enumerate(checklists):
            if cl.index in fold:
                matches[i] = assign(sims[i], [g.id for g in cl.instance.checklist], t)
        choices.append({"held_out": fold, "threshold": t, "train_agreement": agr})
    return FoldResult(matches, choices)  # type: ignore[arg-type]


def _features_with(adapter: Adapter | None, checklists: Sequence[Checklist]) -> list[np.ndarray]:
    """Pair features with a fold's encoder; its vectors stay in memory only and are dropped afterwards."""
    encoder = PackagedEncoder(None, adapter)
    try:
        return PairFeaturizer(encoder).features([(cl.instance, cl.items) for cl in checklists])
    finally:
        if adapter is not None:
            release_adapter(adapter)
            forget_vectors(adapter_digest(adapter))


def cross_fitted_tensors(
    checklists: Sequence[Checklist],
    source: str = "reference",
    *,
    folds: int = TUNING_FOLDS,
    config: TuningConfig = DEFAULT_TUNING,
    progress: Callable[[str], None] | None = None,
) -> list[np.ndarray]:
    """Pair features of every checklist from an encoder tuned without its instance.

    The classifier must learn how far to trust similarities on items the
    encoder was not tuned on, as at use time; features from an encoder tuned on
    the same items would be optimistic.
    """
    out: list[np.ndarray | None] = [None] * len(checklists)
    for k, fold in enumerate(instance_folds([cl.index for cl in checklists], folds), 1):
        held = [i for i, cl in enumerate(checklists) if cl.index in fold]
        adapter = tune_encoder([cl for cl in checklists if cl.index not in fold], source, config)
        for i, x in zip(held, _features_with(adapter, [checklists[i] for i in held])):
            out[i] = x
        if progress:
            progress(f"cross-fitting {k}/{folds}: encoder tuned without {', '.join(fold)}")
    return out  # type: ignore[return-value]


def fit_tuned(
    checklists: Sequence[Checklist],
    source: str = "reference",
    *,
    folds: int = TUNING_FOLDS,
    config: TuningConfig = DEFAULT_TUNING,
    progress: Callable[[str], None] | None = None,
) -> tuple[Adapter, PairModel, float, dict]:
    """The tuned judge: classifier (C, threshold) on cross-fitted features, encoder tuned on all ``checklists``."""
    tensors = cross_fitted_tensors(checklists, source, folds=folds, config=config, progress=progress)
    model, threshold, info = select_and_fit(checklists, tensors, source)
    adapter = tune_encoder(checklists, source, config)
    return adapter, model, threshold, {**info, "tuning_folds": folds, "tuning": config.as_dict()}


def cross_validate_tuned(
    checklists: Sequence[Checklist],
    source: str = "reference",
    *,
    outer_folds: int = 4,
    inner_folds: int = 3,
    config: TuningConfig = DEFAULT_TUNING,
    progress: Callable[[str], None] | None = None,
) -> FoldResult:
    """Out-of-fold matches of the tuned judge: encoder tuning, C and threshold all chosen without the held-out instances."""
    matches: list[list[Label] | None] = [None] * len(checklists)
    choices = []
    for fold in instance_folds([cl.index for cl in checklists], outer_folds):
        train = [cl for cl in checklists if cl.index not in fold]
        held = [i for i, cl in enumerate(checklists) if cl.index in fold]
        adapter, model, threshold, info = fit_tuned(train, source, folds=inner_folds, config=config)
        for i, x in zip(held, _features_with(adapter, [checklists[i] for i in held])):
            matches[i] = assign(model.probability(x), [g.id for g in checklists[i].instance.checklist], threshold)
        choices.append({"held_out": fold, "C": info["C"], "threshold": threshold,
                        "inner_agreement": info["inner_agreement"]})
        if progress:
            progress(f"fold {len(choices)}/{outer_folds}: held out {', '.join(fold)} (C={info['C']}, t={threshold:.3f})")
    return FoldResult(matches, choices)  # type: ignore[arg-type]
