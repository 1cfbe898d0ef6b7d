"""Metric definitions (design notes), checked against hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest

from webtester.eval.bootstrap import item_intervals, mean_interval
from webtester.eval.metrics import Counts, aggregate, missing_score, score_instance
from webtester.eval.reports import notes
from webtester.models import BugReport, Category, Dimension, GoldItem, Instance, Status, TestItem, Verdict

F, C, I, T = Dimension.functionality, Dimension.constraint, Dimension.interaction, Dimension.content


def inst(index: str, gold: list[tuple[int, Dimension, bool]], category: Category = Category.tool) -> Instance:
    return Instance(index=index, instruction="x", category=category,
                    checklist=[GoldItem(id=i, content=f"gold {i}", dimension=d, passed=p) for i, d, p in gold])


def preds(spec: list[tuple[str, str | None]]) -> tuple[list[TestItem], list[Verdict]]:
    """spec: (id, status) with status 'pass' / 'fail' / 'error' / None (no verdict)."""
    items = [TestItem(id=i, dimension=F, description=f"pred {i}") for i, _ in spec]
    verdicts = [
        Verdict(item_id=i, status=Status(s), bug_report=BugReport(issue="broken") if s == "fail" else None)
        for i, s in spec if s is not None
    ]
    return items, verdicts


# A: gold 1 F fail, 2 F pass, 3 C fail, 4 C pass, 5 I pass.
# a->1 fail, b->2 fail, c->3 pass, d->None fail, e->1 pass.
A = inst("A", [(1, F, False), (2, F, True), (3, C, False), (4, C, True), (5, I, True)])


def score_a():
    items, verdicts = preds([("a", "fail"), ("b", "fail"), ("c", "pass"), ("d", "fail"), ("e", "pass")])
    return score_instance(A, items, verdicts, [1, 2, 3, None, 1])


def test_instance_counts_coverage_and_prf():
    s = score_a()
    assert s.coverage == pytest.approx(3 / 5)
    assert (s.counts.tp, s.counts.fp, s.counts.fn, s.counts.tn) == (1, 1, 1, 2)
    assert (s.precision, s.recall, s.f1) == (pytest.approx(0.5), pytest.approx(0.5), pytest.approx(0.5))
    assert [o.outcome for o in s.items] == ["TP", "FP", "FN", "TN", "TN"]
    assert s.items[0].matched == ["a", "e"]
    assert (s.n_pred, s.n_pred_matched, s.n_pred_fail) == (5, 4, 3)


def test_per_dimension_only_scored_where_a_gold_item_fails():
    d = score_a().by_dimension
    assert d[F].precision == pytest.approx(0.5) and d[F].recall == 1.0 and d[F].f1 == pytest.approx(2 / 3)
    assert d[F].coverage == 1.0
    assert (d[C].precision, d[C].recall, d[C].f1, d[C].coverage) == (0.0, 0.0, 0.0, 0.5)
    assert (d[I].precision, d[I].recall, d[I].f1) == (None, None, None)  # no failing gold item
    assert d[I].coverage == 0.0
    assert T not in d  # the instance holds no content item


def test_gold_item_matched_by_one_failing_and_one_passing_prediction_is_fail():
    g = inst("G", [(1, F, False)])
    items, verdicts = preds([("p", "pass"), ("q", "fail")])
    s = score_instance(g, items, verdicts, [1, 1])
    assert s.items[0].predicted_fail and s.counts.tp == 1
    g2 = inst("G2", [(1, F, True)])
    s2 = score_instance(g2, items, verdicts, [1, 1])
    assert s2.counts.fp == 1 and s2.precision == 0.0


def test_no_failing_gold_item_gives_zero_by_the_zero_denominator_rule():
    g = inst("N", [(1, F, True), (2, C, True)])
    items, verdicts = preds([("a", "pass"), ("b", "pass")])
    s = score_instance(g, items, verdicts, [1, 2])
    assert (s.counts.tp, s.counts.fp, s.counts.fn, s.counts.tn) == (0, 0, 0, 2)
    assert (s.precision, s.recall, s.f1, s.coverage) == (0.0, 0.0, 0.0, 1.0)
    assert all(d.f1 is None for d in s.by_dimension.values())


def test_nothing_covered():
    g = inst("Z", [(1, F, False), (2, F, True)])
    items, verdicts = preds([("a", "fail"), ("b", "pass")])
    s = score_instance(g, items, verdicts, [None, None])
    assert s.coverage == 0.0 and s.covered == 0
    assert (s.counts.tp, s.counts.fp, s.counts.fn, s.counts.tn) == (0, 0, 1, 1)
    assert (s.precision, s.recall, s.f1) == (0.0, 0.0, 0.0)


def test_error_verdicts_and_items_without_verdict_count_like_pass_and_are_reported():
    g = inst("E", [(1, F, False), (2, F, False)])
    items, verdicts = preds([("a", "error"), ("b", None)])
    s = score_instance(g, items, verdicts, [1, 2])
    assert s.counts.fn == 2 and s.counts.tp == 0
    assert s.n_error == 1 and s.n_unjudged == 1 and s.n_pred_fail == 0


def test_missing_instance_scores_zero_everywhere():
    s = missing_score(A, "app did not start")
    assert s.status == "missing" and s.reason == "app did not start"
    assert (s.coverage, s.precision, s.recall, s.f1) == (0.0, 0.0, 0.0, 0.0)
    assert s.by_dimension[F].f1 == 0.0 and s.by_dimension[I].f1 is None


@pytest.mark.parametrize("matches, message", [
    ([1, 2, 3, None], "4 matches for 5"),
    ([1, 2, 3, None, 99], "unknown gold ids"),
])
def test_inconsistent_matches_are_rejected(matches, message):
    items, verdicts = preds([("a", "fail"), ("b", "fail"), ("c", "pass"), ("d", "fail"), ("e", "pass")])
    with pytest.raises(ValueError, match=message):
        score_instance(A, items, verdicts, matches)


def test_duplicate_ids_and_stray_verdicts_are_rejected():
    items, verdicts = preds([("a", "fail"), ("a", "pass")])
    with pytest.raises(ValueError, match="duplicate predicted item id"):
        score_instance(A, items, verdicts, [1, 2])
    items, _ = preds([("a", "fail")])
    _, stray = preds([("zz", "pass")])
    with pytest.raises(ValueError, match="unknown predicted item 'zz'"):
        score_instance(A, items, stray, [1])


# B (Tool): 1 F fail, 2 T pass; x->1 fail, y->2 pass: perfect.  C (Search): missing.
B = inst("B", [(1, F, False), (2, T, True)])
CMISS = inst("C", [(1, F, False), (2, F, True)], Category.search)


def summary(bootstrap: int = 0):
    items, verdicts = preds([("x", "fail"), ("y", "pass")])
    sb = score_instance(B, items, verdicts, [1, 2])
    return aggregate([score_a(), sb], [A, B, CMISS], judge={"name": "test"}, bootstrap=bootstrap)


def test_macro_averages_count_missing_instances_as_zero():
    s = summary()
    assert s.missing == ["C"] and s.totals.missing == 1
    assert s.overall.n == 3
    assert s.overall.f1 == pytest.approx((0.5 + 1 + 0) / 3)
    assert s.overall.coverage == pytest.approx((0.6 + 1 + 0) / 3)
    assert s.overall_with_results.n == 2
    assert s.overall_with_results.f1 == pytest.approx(0.75)


def test_micro_figures_pool_the_counts():
    s = summary()
    assert s.totals.counts == Counts(tp=2, fp=1, fn=2, tn=4)
    assert s.micro.precision == pytest.approx(2 / 3)
    assert s.micro.recall == pytest.approx(0.5)
    assert s.micro.f1 == pytest.approx(4 / 7)
    assert s.micro.coverage == pytest.approx(5 / 9)


def test_per_dimension_and_per_category_macro():
    s = summary()
    fd = s.by_dimension[F]
    assert fd.macro.n == 3 and fd.macro.f1 == pytest.approx((2 / 3 + 1 + 0) / 3)
    assert fd.n_coverage == 3 and fd.coverage == pytest.approx((1 + 1 + 0) / 3)
    cd = s.by_dimension[C]
    assert cd.macro.n == 1 and cd.macro.f1 == 0.0 and cd.coverage == 0.5
    assert s.by_dimension[I].macro is None and s.by_dimension[I].coverage == 0.0
    assert s.by_dimension[T].macro is None and s.by_dimension[T].coverage == 1.0
    assert s.by_category[Category.tool].f1 == pytest.approx(0.75) and s.by_category[Category.tool].n == 2
    assert s.by_category[Category.search].f1 == 0.0


def test_scores_outside_the_dataset_are_rejected():
    with pytest.raises(ValueError, match="not in the dataset"):
        aggregate([score_a()], [B])
    with pytest.raises(ValueError, match="two scores"):
        aggregate([score_a(), score_a()], [A])


def test_bootstrap_intervals_are_reproducible_and_bracket_the_estimate():
    s1, s2 = summary(bootstrap=500), summary(bootstrap=500)
    lo, hi = s1.overall.ci["f1"]
    assert lo <= s1.overall.f1 <= hi and lo < hi
    assert s1.overall.ci == s2.overall.ci
    assert s1.micro.ci["f1"] is not None
    assert s1.by_dimension[C].macro.ci["f1"] is None  # a single instance: no interval
    assert mean_interval([0.3, 0.3, 0.3]) == (0.3, 0.3)
    lo, hi = mean_interval([0.0, 1.0] * 20, n_resamples=1000)
    assert 0.3 < lo < 0.5 < hi < 0.7


def test_item_intervals_resample_gold_items_within_their_instances():
    yes, no = np.ones(40, dtype=bool), np.zeros(40, dtype=bool)
    half = np.array([True, False] * 20)
    # every item covered, no failing item anywhere: no spread at all
    assert item_intervals([(yes, no, no), (yes, no, no)], n_resamples=300) == {
        "coverage": (1.0, 1.0), "precision": (0.0, 0.0), "recall": (0.0, 0.0), "f1": (0.0, 0.0)}
    # one instance with half its items covered, one with all: macro coverage 0.75, spread only from the first
    lo, hi = item_intervals([(half, no, no), (yes, no, no)], n_resamples=2000)["coverage"]
    assert 0.6 < lo < 0.75 < hi < 0.9
    wide = item_intervals([(half[:10], no[:10], no[:10]), (yes, no, no)], n_resamples=2000)["coverage"]
    assert wide[1] - wide[0] > hi - lo  # fewer items, wider
    # every failing item found and nothing else failed: P = R = F1 = 1 in every resample that draws a failing item
    f1 = item_intervals([(yes, half, half)], n_resamples=500)["f1"]
    assert f1 == (1.0, 1.0)
    assert item_intervals([], n_resamples=10)["coverage"] is None
    assert item_intervals([(half, half, no)], n_resamples=200, seed=3) == item_intervals([(half, half, no)], n_resamples=200, seed=3)


def test_a_summary_carries_the_item_intervals_beside_the_instance_ones():
    s = summary(bootstrap=300)
    lo, hi = s.overall.ci_items["coverage"]
    assert lo <= s.overall.coverage <= hi
    assert any("resampled within their instances" in line for line in notes(s))
