"""Scoring run folders: gold against itself, reference-harness folders, missing results, the score command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from webtester.datasets import load_dataset
from webtester.datasets.markdown import render_checklist, render_results
from webtester.eval.judges import get_judge
from webtester.eval.reports import write_reports
from webtester.eval.scoring import read_prediction, score_run, score_run_full
from webtester.models import BugReport, InstanceResult, Status, Verdict, oracle_items
from webtester.runfolder import RunFolderError, read_matches, write_json


@pytest.fixture(scope="module")
def gold(webtestbench_path):
    return load_dataset(webtestbench_path)


def oracle_verdicts(inst, flip: bool = False) -> list[Verdict]:
    out = []
    for item, g in zip(oracle_items(inst), inst.checklist):
        fail = (not g.passed) != flip
        out.append(Verdict(item_id=item.id, status=Status.failed if fail else Status.passed,
                           bug_report=BugReport(issue="does not work") if fail else None))
    return out


def write_run(run: Path, instances, flip: bool = False) -> None:
    for inst in instances:
        res = InstanceResult(index=inst.index, tester="scripted", checklist=oracle_items(inst), verdicts=oracle_verdicts(inst, flip))
        write_json(run / inst.index / "result.json", res.model_dump(mode="json"))


def test_gold_scored_against_itself_is_perfect_and_flipped_is_zero(tmp_path, gold):
    write_run(tmp_path / "same", gold)
    s = score_run(tmp_path / "same", gold, "oracle", bootstrap=0)
    assert s.totals.instances == 100 and s.totals.gold_items == 1750 and s.totals.gold_fail == 448
    for fig in (s.overall, s.micro):
        assert (fig.coverage, fig.precision, fig.recall, fig.f1) == (1.0, 1.0, 1.0, 1.0)
    assert all(d.macro.f1 == 1.0 and d.coverage == 1.0 for d in s.by_dimension.values())
    assert all(c.f1 == 1.0 for c in s.by_category.values())

    write_run(tmp_path / "flip", gold, flip=True)
    f = score_run(tmp_path / "flip", gold, "oracle", bootstrap=0)
    assert f.overall.coverage == 1.0
    assert (f.overall.precision, f.overall.recall, f.overall.f1) == (0.0, 0.0, 0.0)
    assert (f.micro.precision, f.micro.recall, f.micro.f1) == (0.0, 0.0, 0.0)
    assert f.totals.counts.tp == 0 and f.totals.counts.fp == 1302 and f.totals.counts.fn == 448


def test_reference_harness_folders_and_missing_results(tmp_path, gold):
    a, b, c, d, e = gold[:5]
    run = tmp_path / "ref"
    (run / a.index).mkdir(parents=True)  # reference oracle run: result_extracted.md, FT-01 numbering
    text = render_results(oracle_items(a), oracle_verdicts(a)).replace("- [X]", "- [x]")
    (run / a.index / "result_extracted.md").write_text(text, encoding="utf-8")
    (run / b.index).mkdir()  # checklist only
    (run / b.index / "checklist.md").write_text(render_checklist(oracle_items(b)), encoding="utf-8")
    (run / c.index).mkdir()  # an empty folder
    failed = InstanceResult(index=d.index, status="failed", reason="app did not start")
    write_json(run / d.index / "result.json", failed.model_dump(mode="json"))
    # e has no folder at all

    assert read_prediction(run, a).source == "result_extracted.md"
    assert read_prediction(run, d).reason == "run failed: app did not start"
    scored = score_run_full(run, [a, b, c, d, e], get_judge("oracle"), bootstrap=0)
    s = scored.summary
    by = {x.index: x for x in s.instances}
    assert by[a.index].status == "scored" and by[a.index].f1 == 1.0 and by[a.index].coverage == 1.0
    assert by[b.index].status == "no_verdicts" and by[b.index].coverage == 1.0 and by[b.index].f1 == 0.0
    assert [by[x.index].status for x in (c, d, e)] == ["missing"] * 3
    assert s.missing == [b.index, c.index, d.index, e.index]
    assert s.overall.f1 == pytest.approx(1 / 5) and s.overall_with_results.f1 == 1.0
    assert s.overall.coverage == pytest.approx(2 / 5)
    assert scored.matches[a.index] == [g.id for g in a.checklist]


def test_error_verdicts_are_counted_separately(tmp_path, gold):
    inst = gold[0]
    items = oracle_items(inst)
    verdicts = [Verdict(item_id=i.id, status=Status.error) for i in items]
    write_json(tmp_path / inst.index / "result.json",
               InstanceResult(index=inst.index, checklist=items, verdicts=verdicts).model_dump(mode="json"))
    s = score_run(tmp_path, [inst], "oracle", bootstrap=0)
    assert s.totals.error_verdicts == len(items) and s.totals.counts.tp == 0 and s.overall.recall == 0.0


def test_bad_result_file_is_named(tmp_path, gold):
    inst = gold[0]
    (tmp_path / inst.index).mkdir()
    (tmp_path / inst.index / "result.json").write_text('{"index": 3}')
    with pytest.raises(RunFolderError, match="result.json"):
        score_run(tmp_path, [inst], "oracle", bootstrap=0)
    (tmp_path / inst.index / "result.json").write_text('{\n  "index": "x",\n  "status": }\n')
    with pytest.raises(RunFolderError, match=r"result\.json:3: invalid JSON"):
        score_run(tmp_path, [inst], "oracle", bootstrap=0)


def test_bad_matches_line_is_named_not_ignored(tmp_path, gold):
    inst = gold[0]
    write_run(tmp_path, [inst])
    scored = score_run_full(tmp_path, [inst], get_judge("oracle"), bootstrap=0)
    write_reports(scored.summary, tmp_path / "scores", matches=scored.matches, predictions=scored.predictions)
    assert list(read_matches(tmp_path / "scores")) == [inst.index]
    path = tmp_path / "scores" / "matches.jsonl"
    good = path.read_text()
    path.write_text(good + '{"index": "other", "matches": [{"pred_id": 1}]}\n')
    with pytest.raises(RunFolderError, match=r"matches\.jsonl:2: not a valid match record"):
        read_matches(tmp_path / "scores")
    path.write_text(good + "not json\n")
    with pytest.raises(RunFolderError, match=r"matches\.jsonl:2: invalid JSON"):
        read_matches(tmp_path / "scores")


def test_score_command_prints_tables_and_writes_reports(tmp_path, gold, webtestbench_path):
    run = tmp_path / "run"
    write_run(run, gold[:6])
    write_json(run / "manifest.json", {"dataset": str(webtestbench_path), "mode": "oracle", "tester": "scripted"})
    proc = subprocess.run([sys.executable, "-m", "webtester.cli.main", "score", str(run), "--bootstrap", "100"],
                          capture_output=True, text=True, timeout=300, env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "judge: oracle" in proc.stdout and "Per category" in proc.stdout
    # the manifest lists no instances: the 6 with a folder are scored, and the output says so
    assert "scoring the 6 instances that have a folder in it (of 100 in the dataset; --all for every one)" in proc.stdout
    assert "Macro, all 6 (missing = 0)" in proc.stdout
    out = run / "scores"
    for name in ("summary.json", "summary.md", "overall.csv", "by_dimension.csv", "by_category.csv", "instances.csv",
                 "instances.jsonl", "matches.jsonl", "report_scores.json"):
        assert (out / name).exists(), name
    summary = json.loads((out / "summary.json").read_text())
    assert summary["totals"]["instances"] == 6 and summary["totals"]["missing"] == 0
    assert summary["overall"]["f1"] == 1.0

    every = subprocess.run([sys.executable, "-m", "webtester.cli.main", "score", str(run), "--bootstrap", "0", "--all"],
                           capture_output=True, text=True, timeout=300, env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})
    assert every.returncode == 0, every.stdout + every.stderr
    assert "Macro, all 100 (missing = 0)" in every.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["totals"]["missing"] == 94 and summary["overall_with_results"]["f1"] == 1.0
    assert summary["overall"]["f1"] == pytest.approx(0.06)
    assert "6.0" in (out / "summary.md").read_text()
    first = json.loads((out / "matches.jsonl").read_text().splitlines()[0])
    assert first["judge"]["name"] == "oracle" and first["matches"][0]["gold_id"] == gold[0].checklist[0].id


def test_score_command_says_in_one_line_when_there_is_no_gold(tmp_path):
    (tmp_path / "run").mkdir()  # a run of a folder or a URL: its manifest names no dataset
    proc = subprocess.run([sys.executable, "-m", "webtester.cli.main", "score", str(tmp_path / "run")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == "" and "--dataset" in proc.stderr
    assert proc.stderr.startswith("error: no gold to score against") and len(proc.stderr.strip().splitlines()) == 1


def test_rescoring_reuses_the_matches_of_the_same_llm_judge(tmp_path, gold):
    from webtester.eval.judges.llm import LLMJudge
    from webtester.llm.scripted import Script, ScriptedChatModel
    from webtester.settings import Settings

    inst = gold[0]
    write_run(tmp_path, [inst])
    n = len(inst.checklist)
    reply = {"structured": {"matches": [{"pred_id": f"P{j + 1}", "gold_id": g.id} for j, g in enumerate(inst.checklist)]}}
    settings = Settings(judge={"batch_size": n})
    first = LLMJudge(settings, ScriptedChatModel(script=Script.build({"checklist": [reply]})), model_name="judge-x")
    scored = score_run_full(tmp_path, [inst], first, bootstrap=0)
    assert scored.summary.overall.f1 == 1.0
    write_reports(scored.summary, tmp_path / "scores", matches=scored.matches, predictions=scored.predictions)

    silent = LLMJudge(settings, ScriptedChatModel(script=Script.build({"checklist": [{"raise": "no call expected"}]})),
                      model_name="judge-x")
    again = score_run_full(tmp_path, [inst], silent, bootstrap=0, previous=read_matches(tmp_path / "scores"))
    assert again.matches == scored.matches
    other = LLMJudge(settings, ScriptedChatModel(script=Script.build({"checklist": [{"raise": "called"}]})), model_name="judge-y")
    with pytest.raises(Exception, match="called"):  # another model: the old matches do not apply
        score_run_full(tmp_path, [inst], other, bootstrap=0, previous=read_matches(tmp_path / "scores"))


def test_items_the_llm_judge_cannot_place_are_reported_and_matched_again_when_rescored(tmp_path, gold):
    from webtester.eval.judges.llm import LLMJudge
    from webtester.llm.scripted import Script, ScriptedChatModel
    from webtester.settings import Settings

    inst = gold[0]
    write_run(tmp_path, [inst])
    n = len(inst.checklist)
    good = [{"pred_id": f"P{j + 1}", "gold_id": g.id} for j, g in enumerate(inst.checklist)]
    bad = {"structured": {"matches": [*good[:-1], {"pred_id": f"P{n}", "gold_id": 10**9}]}}  # last id invalid
    settings = Settings(judge={"batch_size": n, "max_attempts": 2})
    first = LLMJudge(settings, ScriptedChatModel(script=Script.build({"checklist": [bad, bad]})), model_name="judge-x")
    scored = score_run_full(tmp_path, [inst], first, bootstrap=0)
    last = oracle_items(inst)[-1].id
    assert scored.summary.unplaced == {inst.index: [last]}
    assert scored.matches[inst.index][-1] is None and scored.matches[inst.index][:-1] == [g.id for g in inst.checklist[:-1]]
    out = tmp_path / "scores"
    write_reports(scored.summary, out, matches=scored.matches, predictions=scored.predictions)
    summary_md = (out / "summary.md").read_text()
    assert "1 predicted items in 1 instances" in summary_md and "left unmatched" in summary_md
    [record] = read_matches(out).values()
    assert [m.unplaced for m in record.matches] == [False] * (n - 1) + [True]

    fixed = LLMJudge(settings, ScriptedChatModel(script=Script.build({"checklist": [{"structured": {"matches": good}}]})),
                     model_name="judge-x")
    again = score_run_full(tmp_path, [inst], fixed, bootstrap=0, previous=read_matches(out))
    assert again.summary.unplaced == {} and again.summary.overall.f1 == 1.0  # asked again, not reused
