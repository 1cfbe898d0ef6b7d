"""The reach / trigger / detect breakdown of `webtester score`: per dimension, of all verdicts and of the wrong ones."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from webtester.models import (
    ActionRecord,
    BugReport,
    Evidence,
    GoldItem,
    Instance,
    InstanceResult,
    Status,
    TestItem,
    Verdict,
)
from webtester.runfolder import write_json

GOLD = Instance(index="notes", instruction="A notes app.", category="Tool", checklist=[
    GoldItem(id=1, content="A note can be added with the Add note button.", dimension="functionality", passed=True),
    GoldItem(id=2, content="A note can be deleted.", dimension="functionality", passed=False),
    GoldItem(id=3, content="The title field is required.", dimension="constraint", passed=False),
    GoldItem(id=4, content="The Save button shows a toast.", dimension="interaction", passed=True),
    GoldItem(id=5, content="The Archive tab lists archived notes.", dimension="interaction", passed=True),
    GoldItem(id=6, content="No placeholder text appears.", dimension="content", passed=False),
])
IDS = ["FT-01", "FT-02", "CS-01", "IX-01", "IX-02", "CT-01"]


def click(name: str) -> ActionRecord:
    return ActionRecord(step=f"click {name}", action="click", target={"role": "button", "name": name}, outcome="done")


def expect(text: str, outcome: str) -> ActionRecord:
    return ActionRecord(step=f"expect_text {text}", action="expect_text", value=text, outcome=outcome)


VERDICTS = [
    # right, all held
    Verdict(item_id="FT-01", status=Status.passed, evidence=Evidence(actions=[click("Add note"), expect("Groceries", "held")])),
    # wrong (gold Fail): nothing recorded, so the note was never reached
    Verdict(item_id="FT-02", status=Status.passed),
    # wrong (gold Fail): reached, triggered, a Pass that nothing contradicts: misjudged
    Verdict(item_id="CS-01", status=Status.passed, evidence=Evidence(actions=[
        ActionRecord(step="fill Title ''", action="fill", target={"label": "Title"}, value="", outcome="done")])),
    # wrong (gold Pass): a Fail with no failed expectation or error to back it
    Verdict(item_id="IX-01", status=Status.failed, bug_report=BugReport(issue="no toast"),
            evidence=Evidence(actions=[click("Save")])),
    # right (gold Pass), but the tab was only looked at, never opened
    Verdict(item_id="IX-02", status=Status.passed, evidence=Evidence(actions=[expect("Archive", "held")])),
    # wrong (gold Fail): not checked
    Verdict(item_id="CT-01", status=Status.error, evidence=Evidence(notes="not checked: no check for this item")),
]


@pytest.fixture(scope="module")
def scored_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("stages")
    gold = root / "gold.jsonl"
    gold.write_text(GOLD.model_dump_json(by_alias=True) + "\n")
    run = root / "run"
    items = [TestItem(id=i, dimension=g.dimension, description=g.content) for i, g in zip(IDS, GOLD.checklist)]
    result = InstanceResult(index="notes", tester="scripted", checklist=items, verdicts=VERDICTS)
    write_json(run / "notes" / "result.json", result.model_dump(mode="json"))
    write_json(run / "manifest.json", {"dataset": str(gold), "mode": "oracle", "tester": "scripted"})
    proc = subprocess.run([sys.executable, "-m", "webtester.cli.main", "score", str(run), "--bootstrap", "0"],
                          capture_output=True, text=True, timeout=300, env={"COLUMNS": "220", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return run, proc.stdout


def _row(out: str, column: str, label: str) -> list[str]:
    """The cells of the row ``label`` of the printed table with the column header ``column``."""
    table = out[out.index(column):]
    rows = [[c.strip() for c in ln.strip("│").split("│")] for ln in table.splitlines() if ln.startswith("│")]
    return next(r[1:] for r in rows if r[0] == label)


def test_score_prints_the_stage_breakdown_of_all_verdicts_per_dimension(scored_run):
    _, out = scored_run
    assert "Reach failed" in out and "Trigger failed" in out and "Detect failed" in out and "detect, all" in out
    title = "All held"
    # verdicts, not run, reach, trigger, detect, all held
    assert _row(out, title, "Functionality") == ["2", "0", "1", "0", "0", "1"]
    assert _row(out, title, "Interaction") == ["2", "0", "0", "1", "1", "0"]
    assert _row(out, title, "All") == ["6", "1", "1", "1", "1", "2"]


def test_score_attributes_each_wrong_verdict_to_its_first_failed_stage(scored_run):
    run, out = scored_run
    title = "of which misjudged"
    # wrong, not run, reach, trigger, detect, of which misjudged
    assert _row(out, title, "Constraint") == ["1", "0", "0", "0", "1", "1"]
    assert _row(out, title, "All") == ["4", "1", "1", "0", "2", "1"]
    summary = json.loads((run / "scores" / "summary.json").read_text())
    assert summary["diagnosis"]["wrong"]["all"] == {"n": 4, "not_run": 1, "reach": 1, "trigger": 0, "detect": 2,
                                                    "held": 0, "misjudged": 1}
    assert summary["diagnosis"]["all"]["content"]["not_run"] == 1
    assert "Reach / trigger / detect, wrong verdicts" in (run / "scores" / "summary.md").read_text()
