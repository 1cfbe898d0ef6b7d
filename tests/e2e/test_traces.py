"""Item traces through the workflow: every executed item links its own page's trace; with retain-on-failure
only the items that fail or end in error keep theirs; the steps' reusable locators reach the verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from webtester.agents.base import Checklist
from webtester.browser.tools import make_browser_tools
from webtester.graphs.run import run_app
from webtester.models import BugReport, Dimension, Status, TestItem, Verdict
from webtester.settings import Settings

STATIC_SITE = Path(__file__).resolve().parents[1] / "fixtures" / "static_site"
ITEMS = [TestItem(id="FT-01", dimension=Dimension.functionality, description="The counter counts."),
         TestItem(id="FT-02", dimension=Dimension.functionality, description="The counter starts at ten.")]


class ClickingTester:
    """Clicks Increment on each item's page; passes FT-01, fails FT-02."""

    name = "clicking"

    def describe(self):
        return {"tester": self.name}

    def start_instance(self, index, folder):
        pass

    def prepare(self, app_url, pages, *, instruction=""):
        pass

    def generate_checklist(self, instruction, app_url, max_items):
        return Checklist(items=ITEMS)

    def detect(self, item, page, budget, *, instruction=""):
        tools = {t.name: t for t in make_browser_tools(page)}
        ref = next(r for r, info in page.observe().refs.items() if info.name == "Increment")
        tools["click"].invoke({"ref": ref})
        if item.id == "FT-01":
            return Verdict(item_id=item.id, status=Status.passed)
        return Verdict(item_id=item.id, status=Status.failed, bug_report=BugReport(issue="starts at zero"))


@pytest.mark.parametrize("mode", ["on", "retain-on-failure"])
def test_item_traces_follow_the_trace_setting(browser, tmp_path, mode):
    result = run_app(STATIC_SITE, instruction="A counter.", index="counter", tester=ClickingTester(), out_dir=tmp_path,
                     settings=Settings(trace=mode), browser=browser)
    traces = {v.item_id: v.evidence.trace for v in result.verdicts}
    kept = {"FT-01", "FT-02"} if mode == "on" else {"FT-02"}
    assert {i for i, t in traces.items() if t} == kept
    for item_id in ("FT-01", "FT-02"):
        on_disk = (tmp_path / "counter" / "traces" / f"{item_id}.zip").is_file()
        assert on_disk is (item_id in kept)
        if item_id in kept:
            assert traces[item_id] == f"counter/traces/{item_id}.zip"
    for v in result.verdicts:  # the item page's steps reach the verdict with their reusable locator
        (action,) = v.evidence.actions
        assert action.locator == 'page.get_by_role("button", name="Increment", exact=True)'
