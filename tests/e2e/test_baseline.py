"""The rule-based baseline: its checklist, how it decides verdicts, and a real run through the workflow on
a bundled app in the shipped and the clean build."""

from __future__ import annotations

import json
from pathlib import Path

import playwright.sync_api
import pytest

from webtester import bundled
from webtester.agents import base as agents_base
from webtester.baseline import BaselineTester
from webtester.baseline.checklist import instruction_clauses, number_items, plan_checklist, rules_for_text
from webtester.baseline.explore import Exploration, expected_currency
from webtester.baseline.verdicts import decide
from webtester.browser import chromium, session
from webtester.graphs.run import run_instance
from webtester.models import Dimension, Status, TestItem
from webtester.probes.pagemodel import read_model
from webtester.settings import Settings

INSTRUCTION = (
    "I want a small notes app where I can add notes with a title and an amount. "
    "I should be able to search my notes by title, and filter them by category; the amount must be a positive number. "
    "Keep everything in local storage so it is still there when I come back, and show a short confirmation when a note is saved."
)


def test_clauses_are_rewritten_requirements():
    clauses = instruction_clauses(INSTRUCTION)
    assert clauses[0] == "Users can add notes with a title and an amount."
    assert any("search" in c and "the user's notes" in c for c in clauses)
    assert all(c[0].isupper() and c.endswith((".", "…")) for c in clauses)
    assert not any(" I " in f" {c} " or " my " in f" {c} " for c in clauses)


def test_rules_of_item_texts():
    assert "invalid-input" in rules_for_text("The amount must be a positive number; negative amounts are rejected.")
    assert "persist-delete" in rules_for_text("A deleted transaction stays deleted after a reload.")
    assert "dialog-close" in rules_for_text("The lightbox closes when its close (×) button is clicked.")
    assert rules_for_text("Reviews can be sorted by most recent.") == []
    assert expected_currency("an amount in US dollars") == "$"
    assert expected_currency("pick the currency of the invoice in dollars or euros") is None


@pytest.fixture(scope="module")
def budget_model(browser):
    inst = bundled.get_instance("budget_tracker")
    with bundled.serve_app(inst, "shipped") as server:
        page = browser.new_page()
        page.goto(server.url)
        model = read_model(page)
        page.close()
    return inst, model


@pytest.mark.browser
@pytest.mark.parametrize("max_items", [20, 6])
def test_checklist_covers_every_dimension_within_the_limit(budget_model, max_items):
    inst, model = budget_model
    planned = plan_checklist(inst.instruction, model, max_items)
    items = number_items(planned)
    assert 4 <= len(items) <= max_items
    assert {i.dimension for i in items} == set(Dimension)
    assert len({i.id for i in items}) == len(items)
    for item in items:
        assert item.id.startswith(item.dimension.prefix + "-") and item.description and item.expected
    # what the page shows shapes the items: the Amount field, the category filter
    text = " ".join(i.description for i in items)
    if max_items == 20:
        assert "Amount" in text and "category" in text.lower()
        assert sum(p.rule is None for p in planned) >= 4  # instruction clauses
    assert [i.model_dump() for i in number_items(plan_checklist(inst.instruction, model, max_items))] == \
        [i.model_dump() for i in items]  # deterministic


def _exploration() -> Exploration:
    return Exploration(
        findings=[{"probe": "invalid-input-accepted", "page_url": "http://app/", "element": 'field "Amount" of form "Add note"',
                   "message": "a negative number ('-5') in \"Amount\" was accepted without an error",
                   "screenshot": "app/screenshots/explore/001-invalid.png", "details": {"field": "Amount", "value": "-5"}}],
        covered=[{"probe": "invalid-input", "element": 'field "Email" of form "Add note"', "note": "rejected"},
                 {"probe": "placeholder", "element": "start page", "note": "no placeholder-like text"}],
        steps=['form "Add note": submitted valid data (wt001)', 'field "Amount" of form "Add note": submitted a negative number'],
    )


def test_verdicts_rest_on_findings_and_coverage():
    ex = _exploration()
    amount = TestItem(id="CS-01", dimension=Dimension.constraint, description="The Amount must be positive.")
    email = TestItem(id="CS-02", dimension=Dimension.constraint, description="The Email field rejects a bad address.")
    fail = decide(amount, ex, rule="invalid-input", target="Amount", planned=True)
    assert fail.status is Status.failed
    assert "'-5'" in fail.bug_report.issue and "invalid-input-accepted" in fail.bug_report.issue
    assert fail.evidence.screenshots == ["app/screenshots/explore/001-invalid.png"]
    assert any("negative" in s for s in fail.evidence.steps)
    passed = decide(email, ex, rule="invalid-input", target="Email", planned=True)
    assert passed.status is Status.passed and "rejected" in passed.evidence.notes
    # nothing exercised the search: honest 'not checked', never an invented pass
    search = decide(TestItem(id="FT-01", dimension=Dimension.functionality, description="Searching lists the entry."),
                    ex, rule="search", target=None, planned=True)
    assert search.status is Status.error and search.evidence.notes.startswith("not checked")
    nothing = decide(TestItem(id="FT-02", dimension=Dimension.functionality, description="Notes can be sorted by date."), ex)
    assert nothing.status is Status.error and "no check" in nothing.evidence.notes
    # an item the baseline did not write (oracle mode): decided by the rules of its text and what it names
    gold = TestItem(id="CS-03", dimension=Dimension.constraint,
                    description="The amount must be a positive number; negative amounts are rejected with an error.")
    assert decide(gold, ex).status is Status.failed
    other = TestItem(id="CS-04", dimension=Dimension.constraint, description="A title longer than 80 characters is rejected.")
    assert decide(other, ex).status is not Status.failed
    # ... and never passed on partial evidence: its text may ask for more than the probes did
    mail = decide(TestItem(id="CS-05", dimension=Dimension.constraint,
                           description="The Email field rejects an invalid address and shows which part is wrong."), ex)
    assert mail.status is Status.error and "only part" in mail.evidence.notes and "rejected" in mail.evidence.notes


class _Opened:
    """Records every page the run opens and every Chromium launched or Playwright driver started meanwhile."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.pages: list[tuple[str, str | None]] = []  # (origin the page is confined to, trace file)
        self.launches = 0
        init = session.ItemPage.__init__

        def item_page(page, browser, base_url, **kwargs):
            init(page, browser, base_url, **kwargs)
            self.pages.append((page.confinement.origin, kwargs.get("trace_path") and Path(kwargs["trace_path"]).name))

        def launch(*args, **kwargs):
            self.launches += 1
            raise AssertionError("a second Chromium was launched")

        def own_driver():
            self.launches += 1
            raise AssertionError("a Playwright driver of its own was started")

        monkeypatch.setattr(session.ItemPage, "__init__", item_page)
        monkeypatch.setattr(session, "launch_chromium", launch)
        monkeypatch.setattr(chromium, "launch_chromium", launch)
        monkeypatch.setattr(playwright.sync_api, "sync_playwright", own_driver)


@pytest.fixture(scope="module")
def coffee_runs(browser, tmp_path_factory):
    inst = bundled.get_instance("coffee_store")
    settings = Settings(max_items=8)
    runs = {}
    for build in ("shipped", "clean"):
        out = tmp_path_factory.mktemp(f"baseline-{build}")
        with pytest.MonkeyPatch.context() as mp:
            opened = _Opened(mp)
            result = run_instance(inst, mode="e2e", tester=BaselineTester(), out_dir=out, build=build, settings=settings,
                                  browser=browser)
        runs[build] = (out, result, opened)
    return runs


@pytest.mark.browser
def test_survey_and_exploration_use_the_runs_confined_browser(coffee_runs):
    out, result, opened = coffee_runs["shipped"]
    assert opened.launches == 0
    # the look at the start page, the crawl and the probes, all on the app's origin; the verdicts come from what
    # they gathered, so no item opens a page (the crawl's and the probes' pages are traced)
    assert [trace for _, trace in opened.pages] == [None, "prepare-crawl.zip", "prepare-explore.zip"]
    assert len({origin for origin, _ in opened.pages}) == 1 and opened.pages[0][0].startswith("http://127.0.0.1")
    start_page = json.loads((out / "coffee_store" / "start_page.json").read_text())
    assert start_page["model"]["url"].startswith(opened.pages[0][0])  # the survey read the page (no error)


@pytest.mark.browser
def test_a_resumed_run_reuses_what_preparation_saved(coffee_runs, browser, tmp_path):
    inst = bundled.get_instance("coffee_store")
    settings = Settings(max_items=8)

    class Interrupted(BaselineTester):
        calls = 0

        def detect(self, item, page, budget, *, instruction=""):
            assert page is None  # the baseline decides from its preparation: no page per item
            Interrupted.calls += 1
            if Interrupted.calls == 3:
                raise KeyboardInterrupt  # the process is stopped in the middle of the third item
            return super().detect(item, page, budget, instruction=instruction)

    with pytest.raises(KeyboardInterrupt):
        run_instance(inst, mode="e2e", tester=Interrupted(), out_dir=tmp_path, settings=settings, browser=browser)
    with pytest.MonkeyPatch.context() as mp:
        opened = _Opened(mp)
        result = run_instance(inst, mode="e2e", tester=BaselineTester(), out_dir=tmp_path, settings=settings,
                              browser=browser)
    # neither the survey nor the crawl nor the exploration ran again
    assert opened.pages == []
    assert (tmp_path / "coffee_store" / "state_graph.json").is_file()
    _, uninterrupted, _ = coffee_runs["shipped"]
    assert [(v.item_id, v.status) for v in result.verdicts] == [(v.item_id, v.status) for v in uninterrupted.verdicts]


@pytest.mark.browser
def test_baseline_is_a_tester_with_an_honest_description():
    tester = BaselineTester()
    assert isinstance(tester, agents_base.Tester)
    info = tester.describe()
    assert info["tester"] == "baseline" and info["models"] == {} and not info["scripted"] and not info["replayed"]


@pytest.mark.browser
def test_shipped_defect_fails_its_item_and_the_clean_build_does_not(coffee_runs):
    (shipped_dir, shipped, _), (_, clean, _) = coffee_runs["shipped"], coffee_runs["clean"]
    assert shipped.status == clean.status == "ok" and shipped.tester == "baseline"
    assert len(shipped.checklist) <= 8 and {i.dimension for i in shipped.checklist} == set(Dimension)
    # the same app structure gives the same checklist in both builds
    assert [i.model_dump() for i in shipped.checklist] == [i.model_dump() for i in clean.checklist]
    (placeholder,) = [i for i in shipped.checklist if "placeholder" in i.description]
    bad = shipped.verdict_for(placeholder.id)
    assert bad.status is Status.failed, bad
    assert "Lorem ipsum" in bad.bug_report.issue
    assert bad.evidence.screenshots and all((shipped_dir / s).is_file() for s in bad.evidence.screenshots)
    good = clean.verdict_for(placeholder.id)
    assert good.status is Status.passed, good
    # no invented verdicts: every fail has a bug report, every unchecked item says so
    for result in (shipped, clean):
        assert len(result.verdicts) == len(result.checklist)
        for v in result.verdicts:
            assert v.status is not Status.failed or v.bug_report
            if v.status is Status.error:
                assert v.evidence.notes.startswith("not checked")
    # on the clean build no probe fails anything; a Fail there can only be the feature search's probability-based
    # claim, and it says so with the probability and the rule it met
    for v in clean.verdicts:
        if v.status is Status.failed:
            assert "feature-search model" in v.evidence.notes and "fail probability" in v.evidence.notes, v
            assert "does not appear to offer" in v.bug_report.issue


@pytest.mark.browser
def test_run_folder_holds_the_exploration(coffee_runs):
    out, result, _ = coffee_runs["shipped"]
    folder = out / "coffee_store"
    data = json.loads((folder / "exploration.json").read_text())
    assert data["actions"] > 0 and data["pages"] and any(f["probe"] == "placeholder-text" for f in data["findings"])
    # the seconds each phase took, in the order the phases ran
    assert list(data["phases"])[:4] == ["start page", "pages", "deletion", "controls"] and "forms" in data["phases"]
    assert 0 < sum(data["phases"].values()) <= data["seconds"] + 0.5
    assert (folder / "result.md").exists() and (folder / "checklist.json").exists()
    plan = json.loads((folder / "baseline_plan.json").read_text())
    assert set(plan) == {i.id for i in result.checklist}


PREPARATION = ("start_page.json", "state_graph.json", "exploration.json", "baseline_plan.json", "traces")


@pytest.mark.browser
def test_every_decided_item_links_the_trace_of_the_page_work_that_decided_it(coffee_runs):
    out, result, _ = coffee_runs["shipped"]
    traces = {v.item_id: v.evidence.trace for v in result.verdicts}
    assert all(traces.values()), traces
    assert set(traces.values()) <= {"coffee_store/traces/prepare-crawl.zip", "coffee_store/traces/prepare-explore.zip"}
    for v in result.verdicts:
        assert (out / v.evidence.trace).is_file()
        searched = v.status is Status.failed and "feature-search model" in v.evidence.notes
        assert v.evidence.trace.endswith("prepare-crawl.zip" if searched else "prepare-explore.zip"), v
    recorded = json.loads((out / "coffee_store" / "result.json").read_text())
    assert {v["item_id"]: v["evidence"]["trace"] for v in recorded["verdicts"]} == traces


@pytest.mark.browser
def test_retain_on_failure_keeps_the_traces_of_failed_and_unchecked_items_only(coffee_runs, browser, tmp_path):
    import shutil

    source, shipped, _ = coffee_runs["shipped"]
    (tmp_path / "coffee_store").mkdir()
    for name in PREPARATION:  # the same preparation, decided again with another trace setting
        copy = shutil.copytree if (source / "coffee_store" / name).is_dir() else shutil.copy
        copy(source / "coffee_store" / name, tmp_path / "coffee_store" / name)
    assert {p.name for p in (tmp_path / "coffee_store" / "traces").iterdir()} == {"prepare-crawl.zip", "prepare-explore.zip"}
    (tmp_path / "coffee_store" / "traces" / "FT-01.zip").write_bytes(b"PK")  # a trace no item will link
    settings = Settings(max_items=8, trace="retain-on-failure")
    result = run_instance(bundled.get_instance("coffee_store"), mode="e2e", tester=BaselineTester(), out_dir=tmp_path,
                          settings=settings, browser=browser)
    assert [(v.item_id, v.status) for v in result.verdicts] == [(v.item_id, v.status) for v in shipped.verdicts]
    assert any(v.status is Status.passed for v in result.verdicts)
    assert any(v.status is Status.failed for v in result.verdicts)
    for v in result.verdicts:
        assert (v.evidence.trace is None) == (v.status is Status.passed), v
    kept = {tmp_path / v.evidence.trace for v in result.verdicts if v.evidence.trace}
    # a trace no kept item links is deleted at the end of the instance
    assert set((tmp_path / "coffee_store" / "traces").iterdir()) == kept


@pytest.mark.browser
def test_trace_off_writes_no_trace(browser, tmp_path):
    from webtester.graphs.context import BrowserHandle
    from webtester.models import Verdict

    with bundled.serve_app(bundled.get_instance("loan_calculator"), "shipped") as server:
        for mode, written in (("off", False), ("on", True)):
            pages = BrowserHandle(trace_dir=tmp_path / mode, browser=browser, trace=mode)
            page = pages.new_page(server.url, trace_name="prepare-explore")
            page.close()
            assert (tmp_path / mode / "prepare-explore.zip").is_file() is written
            assert bool(page.evidence.trace) is written
            verdict = Verdict(item_id="FT-01", status=Status.passed)
            pages.settle_trace(verdict, page)  # "on" and "off" keep what there is
            assert (tmp_path / mode / "prepare-explore.zip").is_file() is written
