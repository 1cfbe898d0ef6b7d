"""`webtester demo`: the main job end to end on one small bundled app, with no model configured."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from webtester import bundled
from webtester.cli.demo import gold_for_build
from webtester.cli.main import app

NO_MODEL = {"OPENAI_API_KEY": "", "OPENAI_BASE_URL": "", "WEBTESTER_CONFIG": "", "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1"}


def test_gold_follows_the_build():
    inst = bundled.get_instance("coffee_store")
    shipped = gold_for_build(inst, "shipped")
    assert [g.passed for g in shipped.checklist] == [g.passed for g in inst.checklist]
    assert any(not g.passed for g in shipped.checklist)
    assert all(g.passed for g in gold_for_build(inst, "clean").checklist)
    one = inst.defects[0].id
    assert [g.id for g in gold_for_build(inst, one).checklist if not g.passed] == \
        [g.id for g in inst.checklist if g.defect == one]


def test_unknown_app_is_named():
    result = CliRunner().invoke(app, ["demo", "--apps", "coffee_store,no_such_app"], env=NO_MODEL)
    assert result.exit_code == 2 and "no_such_app" in result.output


@pytest.mark.browser
@pytest.mark.slow
def test_demo_runs_scores_and_reports_one_app(tmp_path, monkeypatch):
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "WEBTESTER_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    out = tmp_path / "demo"
    result = CliRunner().invoke(app, ["demo", "--apps", "coffee_store", "--out", str(out), "--bootstrap", "0", "--json"],
                                env=NO_MODEL)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # --json: the summary alone on stdout, the rest on stderr
    assert data["command"] == "demo" and data["exit_code"] == 0 and data["run_dir"] == str(out.resolve())
    assert [i["index"] for i in data["instances"]] == ["coffee_store"] and data["counts"]["fail"] >= 1
    assert data["scores"]["judge"].startswith("embedding") and data["scores"]["counts"]["tp"] >= 0
    assert data["reports"]["html"] == str((out / "report.html").resolve())
    text = " ".join(result.stderr.split())
    assert "rule-based baseline" in text and "no model is configured" in text
    for figure in ("Coverage", "Precision", "Recall", "F1", "Per dimension"):
        assert figure in text
    assert "HTML report:" in text and "report.html" in text and "JUnit XML:" in text
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["tester"] == "baseline" and manifest["instances"]["coffee_store"]["status"] == "ok"
    summary = json.loads((out / "scores" / "summary.json").read_text())
    assert summary["judge"]["name"] == "embedding" and summary["totals"]["instances"] == 1
    assert summary["totals"]["pred_fail"] >= 1  # the lorem ipsum tasting notes
    html = (out / "report.html").read_text()
    assert "coffee_store" in html and "Scores against gold" in html and "data:image/" in html
    root = ET.parse(out / "junit.xml").getroot()
    (suite,) = root.findall("testsuite")
    assert suite.get("name") == "coffee_store" and int(suite.get("failures")) >= 1


def test_progress_rows_follow_the_bench_events():
    from rich.console import Console
    from rich.progress import Progress, TextColumn

    from webtester.cli.progress import InstanceRows

    with Progress(TextColumn("{task.description} {task.fields[status]}"), console=Console(file=None, quiet=True)) as progress:
        kept, dropped = InstanceRows(progress), InstanceRows(progress, keep_finished=False)
        for rows, index in ((kept, "a"), (dropped, "b")):
            rows(index, "instance_started", {})
            rows(index, "checklist", {"items": 3})
            rows(index, "item_done", {"item": "FT-01", "status": "fail"})
            assert progress.tasks[-1].completed == 1 and progress.tasks[-1].fields["status"] == "FT-01: fail"
            rows(index, "instance_done", {"status": "ok", "reason": None})
            rows(index, "item_done", {"item": "FT-02", "status": "pass"})  # late events of a finished instance are ignored
    (row,) = progress.tasks  # the dropped row is gone once its instance finished
    assert (row.description.strip(), row.completed, row.total, row.fields["status"]) == ("a", 3, 3, "done")


def test_progress_to_a_file_prints_a_line_per_finished_instance():
    import io

    from rich.console import Console
    from rich.progress import Progress, TextColumn

    from webtester.cli.progress import InstanceRows

    log = io.StringIO()
    with Progress(TextColumn("{task.description}"), console=Console(file=log, width=200)) as progress:
        rows = InstanceRows(progress, keep_finished=False)
        rows("a", "app_failed", {"error": "npm ci failed"})
        rows("a", "instance_done", {"status": "failed"})
        rows("b", "checklist", {"items": 2})
        rows("b", "instance_done", {"status": "ok"})
    lines = [line for line in log.getvalue().splitlines() if line.strip()]
    assert "a: app failed: npm ci failed" in lines and "a: failed (1 finished in this run)" in lines
    assert "b: done (2 finished in this run)" in lines
