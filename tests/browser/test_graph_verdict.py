"""The verdict tool: schema, exactly once, and a fail re-checked on the settled page (real Chromium)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from webtester.agents.verdict import VerdictDesk
from webtester.browser.session import ItemPage
from webtester.browser.static_server import StaticServer
from webtester.models import Dimension, Status, TestItem

PAGE = """<!doctype html><title>Late</title>
<button id="go" onclick="setTimeout(() => { document.getElementById('out').textContent = 'Saved 3 items'; }, 250)">Save</button>
<p id="out">Nothing saved</p>"""

ITEM = TestItem(id="FT-01", dimension=Dimension.functionality, description="Saving shows a confirmation")


@pytest.fixture()
def item_page(tmp_path, browser):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(PAGE)
    with StaticServer(site) as server:
        page = ItemPage(browser, server.url)
        yield page
        page.close()


@pytest.mark.browser
def test_fail_on_a_stale_view_is_refused_then_recorded_with_settled_evidence(item_page, tmp_path):
    desk = VerdictDesk(ITEM, item_page, screenshot_dir=tmp_path / "run" / "idx" / "screenshots", rel_root=tmp_path / "run")
    item_page.observe()  # the agent saw "Nothing saved"
    item_page.page.click("#go")  # ... then acted; the confirmation renders 250 ms later
    tool = desk.tool()
    refused = tool.invoke({"status": "fail", "issue": "No confirmation after saving", "actual": "Nothing saved"})
    assert refused.startswith("NOT RECORDED") and "Saved 3 items" in refused
    assert desk.verdict is None and desk.refusals == 1
    assert "Saved 3 items" in item_page.last_observation.text  # the refusal showed the settled view

    accepted = tool.invoke({"status": "fail", "issue": "Wrong count", "actual": "Saved 3 items, expected 2"})
    assert accepted.startswith("Verdict recorded")
    verdict = desk.verdict
    assert verdict.status is Status.failed and verdict.bug_report.issue == "Wrong count"
    assert "Saved 3 items" in verdict.evidence.notes and "settled observation" in verdict.evidence.notes
    assert verdict.evidence.screenshots == ["idx/screenshots/FT-01.png"]
    assert (tmp_path / "run" / "idx" / "screenshots" / "FT-01.png").stat().st_size > 1000

    again = tool.invoke({"status": "pass"})
    assert "already recorded" in again and desk.verdict.status is Status.failed


@pytest.mark.browser
def test_pass_is_recorded_at_once_and_schema_is_enforced(item_page):
    desk = VerdictDesk(ITEM, item_page)
    tool = desk.tool()
    with pytest.raises(ValidationError, match="a fail needs 'issue'"):
        tool.invoke({"status": "fail"})
    with pytest.raises(ValidationError):
        tool.invoke({"status": "passed"})
    with pytest.raises(ValidationError, match="an error needs 'reason'"):
        tool.invoke({"status": "error"})
    assert desk.verdict is None
    assert tool.invoke({"status": "pass", "reason": "confirmation shown"}).startswith("Verdict recorded")
    assert desk.verdict.status is Status.passed and desk.verdict.bug_report is None


@pytest.mark.browser
def test_a_page_that_never_settles_cannot_block_a_fail(tmp_path, browser):
    site = tmp_path / "ticker"
    site.mkdir()
    (site / "index.html").write_text("<p id=t>0</p><script>let n=0;setInterval(()=>t.textContent=++n,100)</script>")
    with StaticServer(site) as server:
        page = ItemPage(browser, server.url)
        try:
            desk = VerdictDesk(ITEM, page, max_refusals=1, settle_timeout=1.0)
            page.observe()
            args = {"status": "fail", "issue": "Counter runs", "actual": "keeps changing"}
            assert desk.record(**args).startswith("NOT RECORDED")
            assert desk.record(**args).startswith("Verdict recorded")
            assert "did not settle" in desk.verdict.evidence.notes
        finally:
            page.close()
