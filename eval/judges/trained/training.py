"""Training and cross-validation of the trained matching judge (and of the naive baseline's threshold).

An outer fold holds out whole instances (never part of one instance's items)
or one whole checklist style (train on the other styles, test on it). Hyper-
parameters (regularisation ``C`` and the match threshold) are chosen inside the
training part of each fold by an inner cross-validation grouped by instance, so
held-out figures are not tuned on. The threshold follows a ``ThresholdRule``:
the cut that agrees best with the labels (``agreement_threshold``) or the cut
that matches as large a share of the items as the labels do (``share_threshold``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.linear_model import LogisticRegression

from webtester.eval.judges.trained.dev_set import Checklist, Label, TuningSet
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
from webtester.eval.paths import MATCHING_STYLES
from webtester.eval.stats import best_threshold, instance_folds

C_GRID = (0.03, 0.1, 0.3, 1.0)
INNER_FOLDS = 5
TUNING_FOLDS = 4  # cross-fitting folds for the features the classifier learns from


ThresholdRule = Callable[[Sequence[np.ndarray], Sequence[Checklist], str], float]
STYLES = MATCHING_STYLES


@dataclass(frozen=True)
class Fold:
    """The held-out part of an outer fold: whole instances, or (``style`` set) every checklist of one style."""

    instances: tuple[str, ...] = ()
    style: str | None = None

    def holds(self, cl: Checklist) -> bool:
        """Whether ``cl`` is held out by this fold."""
        return cl.system == self.style if self.style is not None else cl.index in self.instances

    def describe(self) -> str:
        return f"style {self.style}" if self.style is not None else ", ".join(self.instances)

    def as_dict(self) -> dict:
        return {"held_out_style": self.style} if self.style is not None else {"held_out": list(self.instances)}


def instance_splits(checklists: Sequence[Checklist], n_folds: int | None = None) -> list[Fold]:
    """Outer folds by instance (``instance_folds``; None = leave one instance out)."""
    return [Fold(instances=tuple(f)) for f in instance_folds([cl.index for cl in checklists], n_folds)]


def style_splits(checklists: Sequence[Checklist]) -> list[Fold]:
    """One outer fold per checklist style present: train on the other styles, test on it."""
    present = {cl.system for cl in checklists}
    return [Fold(style=s) for s in [*STYLES, *sorted(present - set(STYLES))] if s in present]


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


def agreement_threshold(scores: Sequence[np.ndarray], checklists: Sequence[Checklist], source: str) -> float:
    """The cut on row-maximum scores that agrees best with ``source`` (``row_threshold``)."""
    return row_threshold(scores, checklists, source)[0]


def share_threshold(scores: Sequence[np.ndarray], checklists: Sequence[Checklist], source: str) -> float:
    """The cut on row-maximum scores under which the judge matches the share of items that ``source`` matches.

    Midway between the two row maxima around the quantile, so exactly
    ``round(share * n)`` of the given items reach it (ties aside).
    """
    tops = np.sort(np.concatenate([s.max(axis=1) for s in scores if s.size]))
    labels = [lab for cl in checklists for lab in cl.labels[source]]
    if tops.size == 0 or not labels:
        raise ValueError("share_threshold: no scored items")
    k = int(round(float(np.mean([lab is not None for lab in labels])) * tops.size))  # items to match
    if k <= 0:
        return float(tops[-1]) + 1e-3
    if k >= tops.size:
        return float(tops[0]) - 1e-3
    return float(tops[tops.size - k - 1] + tops[tops.size - k]) / 2


THRESHOLD_RULES: dict[str, ThresholdRule] = {"agreement": agreement_threshold, "share": share_threshold}


def _oof_scores(tensors, ys, idx_of, folds, c) -> list[np.ndarray]:
    out: list[np.ndarray | None] = [None] * len(tensors)
    for fold in folds:
        train = [i for i, ix in enumerate(idx_of) if ix not in fold]
        model = fit_pair_model([tensors[i] for i in train], [ys[i] for i in train], c)
        for i, ix in enumerate(idx_of):
            if ix in fold:
                out[i] = model.probability(tensors[i])
    return out  # type: ignore[return-value]


def select_c(
    checklists: Sequence[Checklist],
    tensors: Sequence[np.ndarray],
    source: str = "reference",
    *,
    c_grid: Sequence[float] = C_GRID,
    inner_folds: int = INNER_FOLDS,
) -> tuple[PairModel, list[np.ndarray], dict]:
    """Choose C (best inner agreement, grouped by instance) and fit on all; also that C's out-of-fold scores."""
    ys = [targets(cl, source) for cl in checklists]
    idx_of = [cl.index for cl in checklists]
    folds = instance_folds(idx_of, inner_folds)
    trials, oofs = {}, {}
    for c in c_grid:
        oofs[c] = _oof_scores(tensors, ys, idx_of, folds, c)
        trials[c] = row_threshold(oofs[c], checklists, source)
    c_best = max(c_grid, key=lambda c: (round(trials[c][1], 6), -c))
    model = fit_pair_model(tensors, ys, c_best)
    return model, oofs[c_best], {"C": c_best, "inner_agreement": trials[c_best][1],
                                 "inner_trials": {str(c): round(v[1], 4) for c, v in trials.items()}}


def select_and_fit(
    checklists: Sequence[Checklist],
    tensors: Sequence[np.ndarray],
    source: str = "reference",
    *,
    c_grid: Sequence[float] = C_GRID,
    inner_folds: int = INNER_FOLDS,
    rule: ThresholdRule = agreement_threshold,
) -> tuple[PairModel, float, dict]:
    """Choose C (best inner agreement) and the threshold (``rule`` on that C's out-of-fold scores), then fit on all."""
    model, oof, info = select_c(checklists, tensors, source, c_grid=c_grid, inner_folds=inner_folds)
    threshold = rule(oof, checklists, source)
    return model, threshold, {"C": info["C"], "threshold": threshold, **info}


def _decide_fold(
    selected: tuple[PairModel, list[np.ndarray], dict],
    train: Sequence[Checklist],
    source: str,
    rules: Mapping[str, ThresholdRule],
    fold: Fold,
    held: Sequence[tuple[int, np.ndarray]],
    checklists: Sequence[Checklist],
    matches: dict[str, list],
    choices: dict[str, list[dict]],
) -> dict:
    """One outer fold: every rule sets its threshold on the training part's out-of-fold scores (``select_c``)
    and decides the held-out checklists (index, features) with the fold's model; returns ``select_c``'s info."""
    model, oof, info = selected
    for name, rule in rules.items():
        threshold = rule(oof, train, source)
        for i, x in held:
            matches[name][i] = assign(model.probability(x), [g.id for g in checklists[i].instance.checklist], threshold)
        choices[name].append({**fold.as_dict(), "C": info["C"], "threshold": threshold,
                              "inner_agreement": info["inner_agreement"]})
    return info


def cross_validate_trained(
    checklists: Sequence[Checklist],
    tensors: Sequence[np.ndarray],
    source: str = "reference",
    *,
    outer_folds: int | None = None,
    splits: Sequence[Fold] | None = None,
    rules: Mapping[str, ThresholdRule] | None = None,
    c_grid: Sequence[float] = C_GRID,
    inner_folds: int = INNER_FOLDS,
    progress: Callable[[str], None] | None = None,
) -> dict[str, FoldResult]:
    """Out-of-fold matches of the trained judge, one result per threshold rule (default: ``THRESHOLD_RULES``).

    For each held-out part (``splits``, default by instance) C is chosen and the
    model fitted on the rest; every rule sets its threshold on the same
    out-of-fold scores of the training part.
    """
    rules = THRESHOLD_RULES if rules is None else rules
    matches: dict[str, list[list[Label] | None]] = {name: [None] * len(checklists) for name in rules}
    choices: dict[str, list[dict]] = {name: [] for name in rules}
    for fold in splits if splits is not None else instance_splits(checklists, outer_folds):
        train = [i for i, cl in enumerate(checklists) if not fold.holds(cl)]
        part = [checklists[i] for i in train]
        held = [i for i, cl in enumerate(checklists) if fold.holds(cl)]
        info = _decide_fold(select_c(part, [tensors[i] for i in train], source, c_grid=c_grid, inner_folds=inner_folds),
                            part, source, rules, fold, [(i, tensors[i]) for i in held], checklists, matches, choices)
        if progress:
            progress(f"fold held out {fold.describe()} (C={info['C']})")
    return {name: FoldResult(matches[name], choices[name]) for name in rules}  # type: ignore[arg-type]


def cross_validate_threshold(
    checklists: Sequence[Checklist],
    sims: Sequence[np.ndarray],
    source: str = "reference",
    *,
    outer_folds: int | None = None,
    splits: Sequence[Fold] | None = None,
) -> FoldResult:
    """The naive judge (argmax similarity above a threshold) with the threshold chosen on the training part."""
    matches: list[list[Label] | None] = [None] * len(checklists)
    choices = []
    for fold in splits if splits is not None else instance_splits(checklists, outer_folds):
        train = [i for i, cl in enumerate(checklists) if not fold.holds(cl)]
        t, agr = row_threshold([sims[i] for i in train], [checklists[i] for i in train], source)
        for i, cl in enumerate(checklists):
            if fold.holds(cl):
                matches[i] = assign(sims[i], [g.id for g in cl.instance.checklist], t)
        choices.append({**fold.as_dict(), "threshold": t, "train_agreement": agr})
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
    rule: ThresholdRule = agreement_threshold,
    progress: Callable[[str], None] | None = None,
) -> tuple[Adapter, PairModel, float, dict]:
    """The tuned judge: classifier (C, threshold by ``rule``) on cross-fitted features, encoder tuned on all ``checklists``."""
    tensors = cross_fitted_tensors(checklists, source, folds=folds, config=config, progress=progress)
    model, threshold, info = select_and_fit(checklists, tensors, source, rule=rule)
    adapter = tune_encoder(checklists, source, config)
    return adapter, model, threshold, {**info, "tuning_folds": folds, "tuning": config.as_dict()}


def cross_validate_tuned(
    checklists: Sequence[Checklist],
    source: str = "reference",
    *,
    outer_folds: int = 4,
    splits: Sequence[Fold] | None = None,
    inner_folds: int = 3,
    config: TuningConfig = DEFAULT_TUNING,
    rules: Mapping[str, ThresholdRule] | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, FoldResult]:
    """Out-of-fold matches of the tuned judge, one result per threshold rule (default: ``THRESHOLD_RULES``).

    Per outer fold (``splits``, default ``outer_folds`` by instance) the encoder
    tuning, cross-fitting, C and every rule's threshold use the training part
    only; the rules share the fold's tuned encoders, so each fold is tuned once.
    """
    rules = THRESHOLD_RULES if rules is None else rules
    matches: dict[str, list[list[Label] | None]] = {name: [None] * len(checklists) for name in rules}
    choices: dict[str, list[dict]] = {name: [] for name in rules}
    for k, fold in enumerate(splits if splits is not None else instance_splits(checklists, outer_folds), 1):
        train = [cl for cl in checklists if not fold.holds(cl)]
        held = [i for i, cl in enumerate(checklists) if fold.holds(cl)]
        tensors = cross_fitted_tensors(train, source, folds=inner_folds, config=config)
        adapter = tune_encoder(train, source, config)
        held_x = _features_with(adapter, [checklists[i] for i in held])
        info = _decide_fold(select_c(train, tensors, source), train, source, rules, fold, list(zip(held, held_x)),
                            checklists, matches, choices)
        if progress:
            progress(f"fold {k}: held out {fold.describe()} (C={info['C']})")
    return {name: FoldResult(matches[name], choices[name]) for name in rules}  # type: ignore[arg-type]


# --------------------------------------------------------------------------- refit: the tuned encoder kept, the classifier refitted


def refit_tensors(
    checklists: Sequence[Checklist],
    adapter: Adapter,
    tuned_on: TuningSet,
    source: str = "reference",
    *,
    folds: int = TUNING_FOLDS,
    config: TuningConfig = DEFAULT_TUNING,
    progress: Callable[[str], None] | None = None,
) -> list[np.ndarray]:
    """Pair features of every checklist from an encoder that was not tuned on its instance.

    Checklists of instances outside ``tuned_on`` get features from ``adapter``
    (the stored encoder, tuned on ``tuned_on``). Those of instances inside it, in
    any style, get features from an encoder tuned on ``tuned_on`` without their
    instance (``folds``-fold cross-fitting by instance, as ``cross_fitted_tensors``).
    """
    out: list[np.ndarray | None] = [None] * len(checklists)
    outside = [i for i, cl in enumerate(checklists) if cl.index not in tuned_on.instances]
    for i, x in zip(outside, _features_with(adapter, [checklists[i] for i in outside]) if outside else []):
        out[i] = x
    base = [cl for cl in checklists if tuned_on.holds(cl)]
    inside = sorted({cl.index for cl in checklists if cl.index in tuned_on.instances})
    for k, fold in enumerate(instance_folds(inside, folds) if inside else [], 1):
        held = [i for i, cl in enumerate(checklists) if cl.index in fold]
        fold_adapter = tune_encoder([cl for cl in base if cl.index not in fold], source, config)
        for i, x in zip(held, _features_with(fold_adapter, [checklists[i] for i in held])):
            out[i] = x
        if progress:
            progress(f"cross-fitting {k}/{folds}: encoder tuned without {', '.join(fold)}")
    return out  # type: ignore[return-value]
