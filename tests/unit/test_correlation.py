"""Correlation-with-human statistics, annotations and the study command."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps
from typer.testing import CliRunner

from webtester.datasets import load_dataset
from webtester.eval.correlation.annotations import Annotation, AnnotationError, consensus, load_annotations
from webtester.eval.correlation.stats import agreement, correlate, correlations, rater_agreement
from webtester.eval.correlation.study import load_systems, run_study
from webtester.eval.judges.base import Judge, JudgeInfo
from webtester.eval.paths import EXAMPLE_STUDY

EXAMPLE = EXAMPLE_STUDY
X = [0.1, 0.4, 0.35, 0.8, 0.55, 0.9, 0.2, 0.6]
Y = [0.15, 0.3, 0.5, 0.7, 0.5, 0.95, 0.1, 0.65]


def test_correlations_equal_scipy():
    got = correlations(X, Y, n_resamples=500)
    for method, ref in (("kendall", sps.kendalltau(X, Y)), ("spearman", sps.spearmanr(X, Y)), ("pearson", sps.pearsonr(X, Y))):
        assert got[method].value == pytest.approx(ref.statistic)
        assert got[method].p_value == pytest.approx(ref.pvalue)
        assert got[method].ci_low <= got[method].value <= got[method].ci_high
        assert got[method].n == len(X)


def test_bootstrap_interval_is_reproducible_and_narrows_with_data():
    a = correlate(X, Y, "pearson", n_resamples=500, seed=3)
    b = correlate(X, Y, "pearson", n_resamples=500, seed=3)
    assert (a.ci_low, a.ci_high) == (b.ci_low, b.ci_high)
    rng = np.random.default_rng(0)
    big_x = rng.random(400)
    big_y = big_x + rng.normal(0, 0.2, 400)
    wide = correlate(X, Y, "pearson", n_resamples=500)
    narrow = correlate(big_x, big_y, "pearson", n_resamples=500)
    assert narrow.ci_high - narrow.ci_low < wide.ci_high - wide.ci_low


def test_correlation_undefined_for_constant_or_tiny_samples():
    assert correlate([0.5] * 5, [0.1, 0.2, 0.3, 0.4, 0.5], "kendall").value is None
    assert correlate([1, 2], [2, 1], "pearson").value is None
    with pytest.raises(ValueError, match="differ in length"):
        correlate([1, 2, 3], [1, 2], "pearson")


def test_cohen_kappa_hand_computed():
    # 20 yes/yes, 15 no/no, 5 yes/no, 10 no/yes: po = 0.7, pe = 0.5*0.6 + 0.5*0.4 = 0.5, kappa = 0.4
    a = ["y"] * 20 + ["n"] * 15 + ["y"] * 5 + ["n"] * 10
    b = ["y"] * 20 + ["n"] * 15 + ["n"] * 5 + ["y"] * 10
    result = agreement(a, b)
    assert result.accuracy == pytest.approx(0.7)
    assert result.kappa == pytest.approx(0.4)


def test_cohen_kappa_with_none_as_a_category():
    # labels 1, 2, None: po = 4/6; marginals a: 1:2, 2:2, None:2; b: 1:3, 2:1, None:2
    # pe = (2*3 + 2*1 + 2*2) / 36 = 1/3; kappa = (2/3 - 1/3) / (2/3) = 0.5
    result = agreement([1, 1, 2, 2, None, None], [1, 1, 1, 2, None, 2])
    assert result.accuracy == pytest.approx(4 / 6)
    assert result.kappa == pytest.approx(0.5)


def test_fleiss_kappa_hand_computed():
    # Fleiss (1971) worked example: 10 subjects, 14 raters, 5 categories, kappa = 0.210
    table = [
        [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
    ]
    labels: dict[str, dict[int, int]] = {f"r{r:02d}": {} for r in range(14)}
    for subject, counts in enumerate(table):
        votes = [cat for cat, n in enumerate(counts) for _ in range(n)]
        for r, vote in enumerate(votes):
            labels[f"r{r:02d}"][subject] = vote
    result = rater_agreement(labels)
    assert result.fleiss_kappa == pytest.approx(0.2099, abs=5e-4)
    assert result.n_items == 10 and len(result.pairwise) == 91


def test_consensus_majority_and_tie_rule():
    anns = [Annotation(n, "I", "s", "FT-01", g) for n, g in (("a", 3), ("b", 4), ("c", 4))]
    anns += [Annotation(n, "I", "s", "FT-02", g) for n, g in (("b", None), ("a", 7))]
    assert consensus(anns) == {("I", "s", "FT-01"): 4, ("I", "s", "FT-02"): 7}


@pytest.mark.parametrize(
    "content, message",
    [
        ("annotator,index,system,item_id,gold_id\na,I,s,FT-01,x\n", "x.csv:2: gold_id must be an integer"),
        ("annotator,index,system,item_id\na,I,s,FT-01\n", "x.csv:2: missing column"),
        ("annotator,index,system,item_id,gold_id\na,I,s,FT-01,1\na,I,s,FT-01,2\n", "labelled"),
        ("annotator,index,system,item_id,gold_id\na,I,,FT-01,1\n", "x.csv:2: empty system"),
    ],
)
def test_bad_annotation_files_name_the_line(tmp_path, content, message):
    path = tmp_path / "x.csv"
    path.write_text(content)
    with pytest.raises(AnnotationError, match=message):
        load_annotations(path)


def test_jsonl_annotations_take_the_file_name_as_annotator(tmp_path):
    path = tmp_path / "ann_z.jsonl"
    path.write_text('{"index": "I", "system": "s", "item_id": "FT-01", "gold_id": null}\n')
    (a,) = load_annotations(path)
    assert a.annotator == "ann_z" and a.gold_id is None


class _CopyJudge(Judge):
    """Returns a fixed labelling: used to check the study's bookkeeping, not a judge to trust."""

    def __init__(self, labels):
        self.labels = labels
        self.info = JudgeInfo(name="fixed-labels")

    def match(self, instance, predicted):
        return [self.labels.get(it.id) for it in predicted]

    def match_many(self, pairs):
        return [[self.labels[(inst.index, it.id)] for it in items] for inst, items in pairs]


@pytest.fixture(scope="module")
def example(webtestbench_path):
    instances = load_dataset(webtestbench_path)
    runs = sorted((EXAMPLE / "runs").iterdir())
    return load_annotations(EXAMPLE / "annotations.csv"), load_systems(runs, instances), instances


def test_study_with_human_labels_as_judge_agrees_perfectly(example):
    annotations, systems, instances = example
    assert set(systems) == {"terse", "detailed", "explorer"}
    # a judge that copies annotator_a, system by system
    a_labels = {a.key: a.gold_id for a in annotations if a.annotator == "annotator_a"}
    results = {}
    for system in systems:
        judge = _CopyJudge({(k[0], k[2]): v for k, v in a_labels.items() if k[1] == system})
        results[system] = run_study(annotations, {system: systems[system]}, instances, judge, n_resamples=200)
    for r in results.values():
        assert r.item_level["annotator_a"].accuracy == 1.0
        assert r.item_level["annotator_a"].kappa == pytest.approx(1.0)
        assert r.inter_annotator.pairwise["annotator_a vs annotator_b"].accuracy > 0.9
        cov = r.metric_level["instance x system"]["coverage"]
        human = [u.human["coverage"] for u in r.units]
        judged = [u.judge["coverage"] for u in r.units]
        assert cov["pearson"].value == pytest.approx(sps.pearsonr(human, judged).statistic)


def test_study_rejects_partial_annotation(example, tmp_path):
    annotations, systems, instances = example
    dropped = [a for a in annotations if not (a.system == "terse" and a.item_id == "FT-01")]
    judge = _CopyJudge({})
    with pytest.raises(AnnotationError, match="without annotation"):
        run_study(dropped, systems, instances, judge)


@pytest.mark.slow
def test_correlate_command_on_the_shipped_example(webtestbench_path, tmp_path):
    from webtester.cli.main import app

    runs = [str(p) for p in sorted((EXAMPLE / "runs").iterdir())]
    result = CliRunner().invoke(
        app, ["correlate", str(EXAMPLE / "annotations.csv"), *runs, "-d", str(webtestbench_path),
              "--out", str(tmp_path), "--bootstrap", "200"], terminal_width=200,
    )
    assert result.exit_code == 0, result.output
    assert "Kendall tau" in result.output and "annotator_a vs annotator_b" in result.output
    for name in ("correlation.json", "correlation.md", "correlations.csv", "agreement.csv", "units.csv"):
        assert (tmp_path / name).is_file()


def test_template_export(webtestbench_path, tmp_path):
    from webtester.cli.main import app

    out = tmp_path / "t.csv"
    result = CliRunner().invoke(app, ["correlate", "template", str(EXAMPLE / "runs" / "terse"),
                                      "-d", str(webtestbench_path), "-o", str(out), "--annotator", "me"])
    assert result.exit_code == 0, result.output
    rows = out.read_text().splitlines()
    assert rows[0].startswith("annotator,index,system,item_id") and rows[1].startswith("me,WebTestBench_0035,terse,")
    assert len(rows) - 1 == sum(1 for line in (EXAMPLE / "annotations.csv").read_text().splitlines()
                                if line.startswith("annotator_a,") and ",terse," in line)
    assert "## WebTestBench_0035" in out.with_suffix(".gold.md").read_text()
