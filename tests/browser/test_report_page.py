"""report.html opened from file:// in Chromium: the status / dimension filters and the search box change the
items shown; each item's trace and screenshots are links to the files in the run folder."""

from __future__ import annotations

import base64
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from webtester.models import BugReport, Evidence, InstanceResult, Status, TestItem, Verdict
from webtester.report import write_reports
from webtester.runfolder import InstanceFolder, write_json

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg=="
)
ITEMS = [
    TestItem(id="FT-01", dimension="functionality", description="Notes can be added."),
    TestItem(id="FT-02", dimension="functionality", description="Notes can be tagged."),
    TestItem(id="CS-01", dimension="constraint", description="The amount must be positive."),
    TestItem(id="IX-01", dimension="interaction", description="Dialogs close with Escape."),
    TestItem(id="CT-01", dimension="content", description="No placeholder text."),
]


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    run_dir = tmp_path_factory.mktemp("run")
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "outside.png"
    elsewhere.write_bytes(PNG)
    folder = InstanceFolder(run_dir, "notes")
    for rel in ("screenshots/CS-01.png", "screenshots/FT-01.png", "traces/CS-01.zip", "traces/FT-01.zip"):
        (folder.root / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder.root / rel).write_bytes(PNG)
    verdicts = [
        # paths as the run records them (relative to the run folder), relative to the instance folder, absolute
        Verdict(item_id="FT-01", status=Status.passed,
                evidence=Evidence(screenshots=["screenshots/FT-01.png"], trace=str(folder.root / "traces" / "FT-01.zip"))),
        Verdict(item_id="FT-02", status=Status.error, evidence=Evidence(notes="not checked: the baseline has no check for this item")),
        Verdict(item_id="CS-01", status=Status.failed,
                bug_report=BugReport(issue="a negative amount was accepted", actual="The note was saved."),
                evidence=Evidence(screenshots=["notes/screenshots/CS-01.png", str(elsewhere)], trace="notes/traces/CS-01.zip")),
        Verdict(item_id="IX-01", status=Status.passed, evidence=Evidence(notes="the dialog closed")),
        Verdict(item_id="CT-01", status=Status.error, evidence=Evidence(notes="item could not be executed: TimeoutError")),
    ]
    folder.write_checklist(ITEMS)
    folder.write_result(InstanceResult(index="notes", tester="llm:x", checklist=ITEMS, verdicts=verdicts))
    write_json(run_dir / "manifest.json", {"tester": "llm:x", "mode": "e2e", "instances": {"notes": {"status": "ok"}}})
    return write_reports(run_dir)[0]


def _shown(page) -> list[str]:
    return page.eval_on_selector_all(".item", "els => els.filter(e => e.offsetParent !== null)"
                                                ".map(e => e.querySelector('.id').textContent)")


def _file(url: str) -> Path:
    return Path(unquote(urlparse(url).path))


def test_filters_and_search_change_the_items_shown(browser, report):
    page = browser.new_page()
    try:
        page.goto(report.as_uri())
        assert _shown(page) == ["FT-01", "FT-02", "CS-01", "IX-01", "CT-01"]
        assert page.text_content("#filter-count") == "5 of 5 items shown"
        page.select_option("#filter-status", "fail")
        assert _shown(page) == ["CS-01"]
        page.select_option("#filter-status", "notchecked")
        assert _shown(page) == ["FT-02"]
        page.select_option("#filter-status", "error")
        assert _shown(page) == ["CT-01"]
        page.select_option("#filter-status", "pass")
        assert _shown(page) == ["FT-01", "IX-01"]
        page.select_option("#filter-dimension", "interaction")
        assert _shown(page) == ["IX-01"]
        assert not page.is_visible("text=Constraint (1)")  # a dimension with no item shown hides its heading
        page.select_option("#filter-status", "")
        page.select_option("#filter-dimension", "")
        page.fill("#filter-search", "NEGATIVE amount")  # words of the bug report, any case
        assert _shown(page) == ["CS-01"]
        page.fill("#filter-search", "escape")
        assert _shown(page) == ["IX-01"] and page.text_content("#filter-count") == "1 of 5 items shown"
        page.fill("#filter-search", "")
        assert len(_shown(page)) == 5
    finally:
        page.close()


def test_traces_and_screenshots_link_the_files_of_the_run(browser, report):
    page = browser.new_page()
    try:
        page.goto(report.as_uri())
        for item in ("FT-01", "CS-01"):
            box = page.locator(".item", has=page.locator(".id", has_text=item))
            link = box.locator("a.trace-link")
            assert link.get_attribute("href") == f"notes/traces/{item}.zip"  # relative: the run folder can move
            assert _file(link.evaluate("a => a.href")) == report.parent / "notes" / "traces" / f"{item}.zip"
            assert f"playwright show-trace {report.parent}/notes/traces/{item}.zip" in box.locator(".trace code").text_content()
            images = box.locator(".shots a")
            targets = [_file(images.nth(n).evaluate("a => a.href")) for n in range(images.count())]
            assert targets and all(t.is_file() for t in targets), targets
            # every thumbnail shows (embedded for a Fail, else loaded from the run folder)
            assert all(img.evaluate("i => i.complete && i.naturalWidth > 0") for img in box.locator(".shots img").all())
        fail_shots = page.locator(".item.fail .shots img")
        assert fail_shots.first.get_attribute("src").startswith("data:image/")
        assert page.locator(".item", has=page.locator(".id", has_text="IX-01")).locator(".trace").count() == 0
    finally:
        page.close()
