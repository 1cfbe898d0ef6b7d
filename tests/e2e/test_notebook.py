"""The analysis notebook executes on a small scored fixture and saves its figures."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from webtester.datasets import load_dataset
from webtester.eval.correlation.annotations import load_annotations
from webtester.eval.correlation.report import write_study
from webtester.eval.correlation.study import load_systems, run_study
from webtester.eval.judges.base import Judge, JudgeInfo
from webtester.eval.paths import EXAMPLE_STUDY
from webtester.eval.reports import write_reports
from webtester.eval.scoring import score_predictions

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = EXAMPLE_STUDY

# Appended to the notebook in the test: what its figures actually drew, read back from the matplotlib artists.
PLOTTED = """
import json as _json
import math as _math

def _num(v):
    return None if _math.isnan(v) else float(v)

print(_json.dumps({
    "dimension_bars": {c.get_label(): [_num(p.get_height()) for p in c] for c in ax_dimension.containers},
    "instance_points": {col.get_label(): col.get_offsets().tolist() for col in ax_instances.collections},
    "category_cells": {name: [_num(v) for v in im.get_array()[:, j]] for j, name in enumerate(f1_by_category.columns)},
    "study_titles": [ax.get_title() for ax in axes_study],
}))
"""


class _AnnotatorJudge(Judge):
    """Replays an annotator's labels: a fixture for the notebook, not a judge to trust."""

    def __init__(self, annotator, annotations, systems):
        labels = {x.key: x.gold_id for x in annotations if x.annotator == annotator}
        self.by_item = {(index, it.id, it.description): labels[(index, system, it.id)]
                        for system, preds in systems.items() for index, p in preds.items() for it in p.items}
        self.info = JudgeInfo(name=f"{annotator}-replay")

    def match(self, instance, predicted):
        return [self.by_item[(instance.index, it.id, it.description)] for it in predicted]


@pytest.mark.slow
def test_analysis_notebook_executes(tmp_path, webtestbench_path):
    import nbformat
    from nbclient import NotebookClient

    instances = load_dataset(webtestbench_path)
    used = {p.name for p in (EXAMPLE / "runs" / "terse").iterdir() if p.is_dir()}
    instances = [i for i in instances if i.index in used]
    annotations = load_annotations(EXAMPLE / "annotations.csv")
    systems = load_systems([EXAMPLE / "runs" / s for s in ("terse", "detailed", "explorer")], instances)
    runs = []
    for system in ("terse", "detailed"):
        scored = score_predictions(instances, systems[system], _AnnotatorJudge("annotator_a", annotations, systems),
                                   bootstrap=0)
        run = tmp_path / "runs" / system
        write_reports(scored.summary, run / "scores")
        runs.append(run)
    study = run_study(annotations, systems, instances, _AnnotatorJudge("annotator_b", annotations, systems),
                      n_resamples=100)
    write_study(study, tmp_path / "study")

    out = tmp_path / "figures"
    nb = nbformat.read(ROOT / "notebooks" / "analysis.ipynb", as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PLOTTED))
    env = {"WEBTESTER_NB_RUNS": ",".join(map(str, runs)), "WEBTESTER_NB_STUDY": str(tmp_path / "study"),
           "WEBTESTER_NB_OUT": str(out)}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    plotted = json.loads("".join(o["text"] for o in nb.cells[-1].outputs if o.get("name") == "stdout"))

    summaries = {run.name: json.loads((run / "scores" / "summary.json").read_text()) for run in runs}
    instances = {run.name: [json.loads(line) for line in (run / "scores" / "instances.jsonl").read_text().splitlines()]
                 for run in runs}
    dims = ["functionality", "constraint", "interaction", "content"]
    for name, summary in summaries.items():
        expected = [100 * summary["by_dimension"][d]["macro"]["f1"] if summary["by_dimension"][d]["macro"] else None
                    for d in dims]
        assert any(e for e in expected), "the fixture must have a non-zero F1 in some dimension"
        assert plotted["dimension_bars"][name] == pytest.approx(expected)
        points = sorted(plotted["instance_points"][name])
        expected_points = sorted([100 * i["coverage"], 100 * i["f1"]] for i in instances[name])
        assert [x for p in points for x in p] == pytest.approx([x for p in expected_points for x in p])
        cats = sorted(summary["by_category"])
        assert plotted["category_cells"][name] == pytest.approx([100 * summary["by_category"][c]["f1"] for c in cats])
    study = json.loads((tmp_path / "study" / "correlation.json").read_text())
    tau = study["metric_level"]["instance x system"]["f1"]["kendall"]["value"]
    assert plotted["study_titles"][-1] == f"f1 (Kendall tau {tau:.2f})"
    names = {"f1_per_dimension.png", "coverage_vs_f1.png", "judge_vs_human.png", "f1_per_category.png"}
    assert names <= {p.name for p in out.glob("*.png")}


def test_the_committed_notebook_shows_its_figures_inline():
    """The notebook is committed executed: every figure is an inline image of its cell, no cell failed."""
    nb = json.loads((ROOT / "notebooks" / "analysis.ipynb").read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(c.get("execution_count") for c in code)
    outputs = [o for c in code for o in c["outputs"]]
    assert not [o for o in outputs if o["output_type"] == "error"]
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 4
