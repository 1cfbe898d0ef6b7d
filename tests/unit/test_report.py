"""The HTML report and the JUnit XML of a run folder: structure, content, embedded images, scores."""

from __future__ import annotations

import base64
import datetime
import json
import re
import socket
import xml.etree.ElementTree as ET
from collections.abc import Sequence

import pytest

from webtester.eval.judges.base import Judge, JudgeInfo, Matches
from webtester.eval.reports import report_scores
from webtester.eval.reports import write_reports as write_scores
from webtester.eval.scoring import score_run_full
from webtester.models import BugReport, Cost, Evidence, GoldItem, Instance, InstanceResult, Status, TestItem, Verdict
from webtester.report import ReportError, write_reports
from webtester.runfolder import InstanceFolder, write_json

# a 2x2 PNG
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg=="
)


class FixedJudge(Judge):
    """Matches predicted items to gold ids given in advance."""

    info = JudgeInfo(name="fixed")

    def __init__(self, table: dict[str, dict[str, int]]) -> None:
        self.table = table

    def match(self, instance: Instance, predicted: Sequence[TestItem]) -> Matches:
        return [self.table.get(instance.index, {}).get(p.id) for p in predicted]


ITEMS = [
    TestItem(id="FT-01", dimension="functionality", description="Notes can be added.", expected="The note is listed."),
    TestItem(id="CS-01", dimension="constraint", description="The amount must be positive.", expected="Rejected."),
    TestItem(id="IX-01", dimension="interaction", description="Dialogs close with Escape."),
    TestItem(id="CT-01", dimension="content", description="Prices use <one> currency & symbol."),
]
GOLD = Instance(index="notes", instruction="Build a notes app where I can add notes with <b>amounts</b>.", category="Tool",
                checklist=[GoldItem(id=1, content="Users can add a note.", dimension="functionality", passed=True),
                           GoldItem(id=2, content="Negative amounts are rejected.", dimension="constraint", passed=False),
                           GoldItem(id=3, content="Escape closes the dialog.", dimension="interaction", passed=True)])
BROKEN = Instance(index="broken", instruction="Anything.", category="Tool",
                  checklist=[GoldItem(id=1, content="Something works.", dimension="functionality", passed=False)])


@pytest.fixture
def run_dir(tmp_path):
    folder = InstanceFolder(tmp_path, "notes")
    shot = folder.root / "screenshots" / "explore" / "001-invalid.png"
    shot.parent.mkdir(parents=True)
    shot.write_bytes(PNG)
    verdicts = [
        Verdict(item_id="FT-01", status=Status.passed, evidence=Evidence(notes="checked by the exploration")),
        Verdict(item_id="CS-01", status=Status.failed,
                bug_report=BugReport(issue="a negative number ('-5') in \"Amount\" was accepted", actual="The note was saved."),
                evidence=Evidence(screenshots=["notes/screenshots/explore/001-invalid.png"], steps=["filled Amount with -5"])),
        Verdict(item_id="IX-01", status=Status.error, evidence=Evidence(notes="not checked: the baseline has no check for this item")),
        Verdict(item_id="CT-01", status=Status.error, evidence=Evidence(notes="item could not be executed: TimeoutError")),
    ]
    folder.write_checklist(ITEMS)
    folder.write_result(InstanceResult(index="notes", tester="baseline", checklist=ITEMS, verdicts=verdicts))
    write_json(folder.root / "exploration.json", {
        "findings": [{"probe": "invalid-input-accepted", "page_url": "http://127.0.0.1/", "element": 'field "Amount"',
                      "message": "a negative number was accepted", "screenshot": "notes/screenshots/explore/001-invalid.png",
                      "details": {}}],
        "covered": [], "steps": [], "pages": ["http://127.0.0.1/"], "forms": [], "notes": [], "actions": 12, "seconds": 3.0})
    broken = InstanceFolder(tmp_path, "broken")
    broken.write_result(InstanceResult(index="broken", status="failed", reason="app did not start: port in use", tester="baseline"))
    write_json(tmp_path / "manifest.json", {"tester": "baseline", "mode": "e2e", "bench": {"build": "shipped"},
                                            "instances": {"notes": {"status": "ok", "wall_seconds": 12.5},
                                                          "broken": {"status": "failed"}}})
    return tmp_path


def test_junit_xml_has_a_suite_per_instance_and_a_case_per_item(run_dir):
    _, junit = write_reports(run_dir)
    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("5", "1", "2", "1")
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"notes", "broken"}
    cases = {c.get("name").split(":")[0]: c for c in suites["notes"].findall("testcase")}
    assert list(cases) == ["FT-01", "CS-01", "IX-01", "CT-01"]
    assert cases["FT-01"].find("failure") is None and cases["FT-01"].find("skipped") is None
    failure = cases["CS-01"].find("failure")
    assert "'-5'" in failure.get("message") and "Actual: The note was saved." in failure.text
    assert cases["CS-01"].get("classname") == "notes.constraint"
    assert cases["IX-01"].find("skipped").get("message").startswith("not checked")
    assert "TimeoutError" in cases["CT-01"].find("error").get("message")
    (instance_case,) = suites["broken"].findall("testcase")
    assert "port in use" in instance_case.find("error").get("message")


def test_junit_records_when_where_and_how_long_and_attaches_evidence(run_dir):
    folder = InstanceFolder(run_dir, "notes", create=False)
    result = folder.read_result()
    for verdict, seconds in zip(result.verdicts, (0.5, 1.25, 0.0, 2.0)):
        verdict.cost = Cost(seconds=seconds)
    result.verdicts[1].evidence.trace = "notes/traces/CS-01.zip"
    folder.write_result(result)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    manifest["instances"]["notes"]["started"] = "2026-05-04T10:11:12+00:00"
    write_json(run_dir / "manifest.json", manifest)

    root = ET.parse(write_reports(run_dir)[1]).getroot()
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    notes = suites["notes"]
    assert notes.get("timestamp") == "2026-05-04T10:11:12+00:00" and notes.get("hostname") == socket.gethostname()
    datetime.datetime.fromisoformat(suites["broken"].get("timestamp"))  # ISO 8601 also without the manifest's record
    # each case its own time; the instance's wall time on the suite, the part outside the items as setup_time
    assert [c.get("time") for c in notes.findall("testcase")] == ["0.500", "1.250", "0.000", "2.000"]
    props = {p.get("name"): p.get("value") for p in notes.find("properties")}
    assert notes.get("time") == "12.500" and props["setup_time"] == "8.750" and props["tester"] == "baseline"
    out = notes.findall("testcase")[1].find("system-out").text.splitlines()
    shot = (run_dir / "notes" / "screenshots" / "explore" / "001-invalid.png").resolve()
    assert out == ["filled Amount with -5", f"[[ATTACHMENT|{shot}]]",
                   f"[[ATTACHMENT|{(run_dir / 'notes' / 'traces' / 'CS-01.zip').resolve()}]]"]


def test_html_report_is_self_contained_with_every_section(run_dir):
    scored = score_run_full(run_dir, [GOLD, BROKEN], FixedJudge({"notes": {"FT-01": 1, "CS-01": 2}}), bootstrap=0)
    html_path, _ = write_reports(run_dir, scores=report_scores(scored.summary), instances=[GOLD, BROKEN])
    html = html_path.read_text()
    for section in ("Scores against gold", "Per dimension", "Summary", "Instruction", "Checklist and verdicts", "Probe findings",
                    "Gold items", 'id="inst-notes"', 'id="inst-broken"', "Functionality", "Constraint", "Interaction", "Content"):
        assert section in html, section
    assert "app did not start: port in use" in html
    assert "Bug report." in html and "not checked" in html
    # screenshots are embedded; nothing is loaded from elsewhere
    assert len(re.findall(r'src="data:image/(?:png|jpeg);base64,', html)) >= 2
    assert not re.search(r'(?:src|href)="(?:https?:)?//', html) and "<link" not in html and "<script src" not in html
    # page and instruction text are escaped, scores shown per instance (TP on gold 2: P = R = F1 = 100)
    assert "&lt;b&gt;amounts&lt;/b&gt;" in html and "&lt;one&gt; currency &amp; symbol" in html
    assert "Precision 100.0" in html and "TP" in html
    data = json.loads((run_dir / "notes" / "result.json").read_text())
    assert data["index"] == "notes"


def test_report_without_scores_says_so(run_dir):
    html_path, junit = write_reports(run_dir, instructions={"notes": "Make a notes app."},
                                     not_scored_reason="score it with: webtester score")
    html = html_path.read_text()
    assert "Not scored against gold" in html and "score it with: webtester score" in html
    assert "Make a notes app." in html and "Scores against gold" not in html
    assert junit.exists()


def test_unscored_report_prints_the_score_command_only_when_the_run_names_its_gold(run_dir):
    html = write_reports(run_dir)[0].read_text()  # the manifest names no dataset: a run of a folder or a URL
    assert "no gold to score against" in html and "score it with" not in html
    manifest = json.loads((run_dir / "manifest.json").read_text())
    write_json(run_dir / "manifest.json", {**manifest, "dataset": "bundled"})
    assert f"score it with: webtester score {run_dir}" in write_reports(run_dir)[0].read_text()


def test_report_shows_the_scores_stored_by_scoring(run_dir):
    scored = score_run_full(run_dir, [GOLD, BROKEN], FixedJudge({"notes": {"FT-01": 1, "CS-01": 2}}), bootstrap=0)
    write_scores(scored.summary, run_dir / "scores", matches=scored.matches, predictions=scored.predictions)
    html = write_reports(run_dir, instances=[GOLD, BROKEN])[0].read_text()
    assert "Scores against gold" in html and "Precision 100.0" in html and "fixed" in html


def test_unreadable_result_is_shown_as_the_instance_problem(run_dir):
    (run_dir / "notes" / "result.json").write_text("{not json")
    html_path, junit = write_reports(run_dir)
    assert "result.json:1: invalid JSON" in html_path.read_text()
    assert "result.json:1: invalid JSON" in junit.read_text()
    (run_dir / "manifest.json").write_text("[1, 2")
    with pytest.raises(ReportError, match=r"manifest\.json:1: invalid JSON"):
        write_reports(run_dir)


def test_each_item_shows_its_reach_trigger_detect_stage_with_the_reasons_as_titles(run_dir):
    html = write_reports(run_dir)[0].read_text()
    items = {m.group(1): m.group(0) for m in re.finditer(r'<span class="id">([A-Z]{2}-\d\d)</span>.*?</div>', html, re.S)}
    # FT-01: a pass with nothing recorded never reached the feature
    assert 'data-stage="reach"' in items["FT-01"]
    assert 'class="stage st-failed" title="no action, step or probe finding was recorded">reach ✗' in items["FT-01"]
    # CS-01: "filled Amount with -5" reached and triggered it; the Fail has nothing in the browser to back it
    assert 'data-stage="detect"' in items["CS-01"]
    assert re.search(r'class="stage st-held" title="subject terms seen: amount">reach ✓', items["CS-01"])
    assert "trigger ✓" in items["CS-01"] and "detect ✗" in items["CS-01"]
    assert 'title="Fail with no failed expectation, browser error or probe finding to back it"' in items["CS-01"]
    # IX-01: not checked, so not run
    assert 'title="not run: not checked: the baseline has no check for this item">not run</span>' in items["IX-01"]
