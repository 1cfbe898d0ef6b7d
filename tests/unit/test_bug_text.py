"""Bug text as the run folder's reports show it: line breaks instead of ``\\n`` escapes, app paths instead of the
stopped app's URLs, and ``bugs.md`` holding the bug reports apart from the items that were not checked."""

from __future__ import annotations

from webtester.datasets.markdown import parse_results
from webtester.models import BugReport, Evidence, InstanceResult, Status, TestItem, Verdict
from webtester.report import write_reports
from webtester.runfolder import InstanceFolder, clean_text, write_json

# what the probes record for a list entry (its text quoted with repr()) and the page it was seen on
CARD = r"'AMERICAN\n\nButtermilk Pancakes\n\n20 min'"
ITEMS = [
    TestItem(id="FT-01", dimension="functionality", description="The Vegan filter shows only vegan recipes."),
    TestItem(id="FT-02", dimension="functionality", description="Recipes can be rated."),
    TestItem(id="CS-01", dimension="constraint", description="The email must be valid."),
    TestItem(id="IX-01", dimension="interaction", description="Dialogs close with Escape."),
]
VERDICTS = [
    Verdict(item_id="FT-01", status=Status.failed, bug_report=BugReport(
        issue=f"with the Vegan filter on, other entries are listed, e.g. {CARD}",
        actual=f"Seen at http://127.0.0.1:44955/#/recipes?diet=vegan: e.g. {CARD}. Details: stray={CARD}"),
        evidence=Evidence(steps=["open http://127.0.0.1:44955/"], trace="recipes/traces/FT-01.zip")),
    Verdict(item_id="FT-02", status=Status.error, evidence=Evidence(notes="not checked: the baseline has no check for this item")),
    Verdict(item_id="CS-01", status=Status.error, evidence=Evidence(notes="item could not be executed: TimeoutError")),
    Verdict(item_id="IX-01", status=Status.passed),
]


def test_escapes_become_line_breaks_and_local_urls_app_paths():
    assert clean_text(CARD) == "'AMERICAN\nButtermilk Pancakes\n20 min'"
    assert clean_text("Seen at http://127.0.0.1:44955/#/cart: empty") == "Seen at /#/cart: empty"
    assert clean_text("at http://localhost:5173?q=1 and http://[::1]:8080") == "at /?q=1 and /"
    assert clean_text("the shop at https://shop.example.com:8443/cart") == "the shop at https://shop.example.com:8443/cart"


def _write(tmp_path) -> InstanceFolder:
    folder = InstanceFolder(tmp_path, "recipes")
    folder.write_checklist(ITEMS)
    folder.write_result(InstanceResult(index="recipes", tester="baseline", checklist=ITEMS, verdicts=VERDICTS))
    write_json(tmp_path / "manifest.json", {"tester": "baseline", "mode": "e2e", "instances": {"recipes": {"status": "ok"}}})
    return folder


def test_bugs_md_lists_only_fails_as_bug_reports(tmp_path):
    bugs = (_write(tmp_path).root / "bugs.md").read_text()
    reports, _, rest = bugs.partition("# Could not be executed: recipes")
    errors, _, not_checked = rest.partition("# Not checked: recipes")
    assert reports.startswith("# Bug reports: recipes") and "## FT-01 (fail)" in reports
    assert "FT-02" not in reports and "CS-01" not in reports and "IX-01" not in bugs
    assert "## CS-01 (error)" in errors and "TimeoutError" in errors
    assert not_checked.strip() == "- **FT-02** Recipes can be rated. — the baseline has no check for this item"
    # the card's lines are line breaks of the list item (hard breaks, indented), the URL the app's path
    assert "e.g. 'AMERICAN  \n  Buttermilk Pancakes  \n  20 min'" in reports
    assert "Seen at /#/recipes?diet=vegan:" in reports and "1. `open /`" in reports
    assert "\\n" not in bugs and "127.0.0.1" not in bugs
    assert "Trace: [traces/FT-01.zip](traces/FT-01.zip)" in reports


def test_result_md_and_report_show_clean_bug_text(tmp_path):
    folder = _write(tmp_path)
    result_md = (folder.root / "result.md").read_text()
    assert "\\n" not in result_md and "127.0.0.1" not in result_md
    _, verdicts = parse_results(result_md)  # the one-line WebTestBench format still parses
    assert verdicts[0].bug_report.issue == "with the Vegan filter on, other entries are listed, e.g. 'AMERICAN Buttermilk Pancakes 20 min'"
    html = write_reports(tmp_path)[0].read_text()
    assert "e.g. &#39;AMERICAN\nButtermilk Pancakes\n20 min&#39;" in html and "Seen at /#/recipes?diet=vegan:" in html
    assert "\\n" not in html and "127.0.0.1" not in html
    junit = (tmp_path / "junit.xml").read_text()  # CI shows the same clean text
    assert "AMERICAN\nButtermilk Pancakes\n20 min" in junit and "\\n" not in junit and "127.0.0.1" not in junit
    assert junit.count("<skipped") == 1  # the item that was not checked
    # the recorded data keeps what was seen
    assert folder.read_result().verdicts[0].bug_report.actual.startswith("Seen at http://127.0.0.1:44955/")


def test_bugs_md_of_a_failed_instance_says_it_failed_instead_of_reporting_no_failures(tmp_path):
    folder = InstanceFolder(tmp_path, "recipes")
    folder.write_result(InstanceResult(index="recipes", tester="llm:m", status="failed",
                                       reason="checklist generation failed: no usable checklist after 3 attempts"))
    text = (tmp_path / "recipes" / "bugs.md").read_text()
    assert "No failures were recorded" not in text
    assert "**The run of this instance failed:** checklist generation failed" in text
    assert "No checklist was made: the app was not tested." in text
    folder.write_result(InstanceResult(index="recipes", tester="llm:m", status="failed", reason="app stopped",
                                       checklist=ITEMS, verdicts=VERDICTS[:1]))
    text = (tmp_path / "recipes" / "bugs.md").read_text()
    assert "3 of 4 items got no verdict" in text and "FT-01" in text
