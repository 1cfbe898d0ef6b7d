"""What the commands print when their output is piped, as CI reads it: full-width tables and, with ``--json``, one
JSON summary alone on stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webtester.cli.main import app
from webtester.models import (
    AppSpec,
    BugReport,
    Category,
    GoldItem,
    Instance,
    InstanceResult,
    Status,
    Verdict,
    oracle_items,
)
from webtester.runfolder import InstanceFolder, write_json

GOLD = [
    Instance(index="community_forum", instruction="A forum.", category=Category.user_generated_content,
             app=AppSpec(kind="url", url="http://127.0.0.1:9/"),
             checklist=[GoldItem(id=1, content="Posts can be written.", dimension="functionality", passed=False),
                        GoldItem(id=2, content="Empty posts are refused.", dimension="constraint", passed=True),
                        GoldItem(id=3, content="Replies open inline.", dimension="interaction", passed=True)]),
    Instance(index="invoice_generator", instruction="Invoices.", category=Category.data_management,
             app=AppSpec(kind="url", url="http://127.0.0.1:9/"),
             checklist=[GoldItem(id=1, content="Totals add up.", dimension="content", passed=False)]),
]


@pytest.fixture
def piped(monkeypatch) -> CliRunner:
    """The command run with its output captured (not a terminal) and no COLUMNS set, as in a CI job."""
    monkeypatch.delenv("COLUMNS", raising=False)
    return CliRunner()


@pytest.fixture(scope="module")
def scored_run(tmp_path_factory) -> tuple[Path, Path]:
    """(an oracle run folder whose every item got the gold verdict but one false alarm, its dataset)."""
    root = tmp_path_factory.mktemp("run")
    dataset = root / "gold.jsonl"
    dataset.write_text("".join(i.model_dump_json(by_alias=True) + "\n" for i in GOLD), encoding="utf-8")
    run = root / "run"
    for inst in GOLD:
        verdicts = [Verdict(item_id=item.id, status=Status.passed if g.passed and g.id != 3 else Status.failed,
                            bug_report=None if g.passed and g.id != 3 else BugReport(issue="broken"))
                    for item, g in zip(oracle_items(inst), inst.checklist)]
        InstanceFolder(run, inst.index).write_result(
            InstanceResult(index=inst.index, tester="scripted", checklist=oracle_items(inst), verdicts=verdicts))
    write_json(run / "manifest.json", {"dataset": str(dataset), "mode": "oracle", "tester": "scripted"})
    return run, dataset


def test_tables_piped_keep_their_full_width(scored_run, tmp_path, piped):
    run, _ = scored_run
    proc = piped.invoke(app, ["score", str(run), "--bootstrap", "0", "--out", str(tmp_path / "scores")])
    assert proc.exit_code == 0, proc.output
    assert "…" not in proc.stdout
    header = next(line for line in proc.stdout.splitlines() if "Dimension" in line)
    assert all(word in header for word in ("Coverage", "Precision", "Recall", "F1"))
    assert all(f" {d} " in proc.stdout for d in ("Functionality", "Constraint", "Interaction", "Content"))
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    listed = subprocess.run([sys.executable, "-m", "webtester.cli.main", "apps", "list"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)  # a real pipe
    assert listed.returncode == 0, listed.stderr
    row = next(line for line in listed.stdout.splitlines() if "book_reviews" in line)
    assert "User-Generated Content" in row and "…" not in listed.stdout and "community_forum" in listed.stdout


def test_score_json_is_the_only_thing_on_stdout(scored_run, tmp_path, piped):
    run, _ = scored_run
    proc = piped.invoke(app, ["score", str(run), "--bootstrap", "0", "--out", str(tmp_path / "scores"), "--json"])
    assert proc.exit_code == 0, proc.output
    data = json.loads(proc.stdout)  # nothing else on stdout
    assert "Per dimension" in proc.stderr
    assert data["command"] == "score" and data["exit_code"] == 0 and data["run_dir"] == str(run.resolve())
    scores = data["scores"]
    assert scores["judge"].startswith("oracle") and scores["dir"] == str((tmp_path / "scores").resolve())
    assert scores["counts"] == {"tp": 2, "fp": 1, "fn": 0, "tn": 1}
    assert scores["micro"]["precision"] == pytest.approx(2 / 3) and scores["micro"]["recall"] == 1.0
    assert set(scores["overall"]) >= {"coverage", "precision", "recall", "f1"}
    # the reach / trigger / detect counts the tables print: one per predicted item, and the wrong verdicts (the FP)
    assert scores["diagnosis"]["all"]["all"]["n"] == 4 and scores["diagnosis"]["wrong"]["all"]["n"] == 1
