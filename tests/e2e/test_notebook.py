"""The analysis notebook executes on a small scored fixture and saves its figures."""

from __future__ import annotations

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
    names = {"f1_per_dimension.png", "coverage_vs_f1.png", "judge_vs_human.png", "f1_per_category.png"}
    assert names <= {p.name for p in out.glob("*.png")}
    for name in names:
        assert (out / name).stat().st_size > 10_000
