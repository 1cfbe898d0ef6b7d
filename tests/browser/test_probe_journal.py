"""The probes record the steps behind each finding and coverage record, with reusable locators and the expectation
the probe checked; a replay of those steps with plain Playwright on a fresh page comes out the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from webtester.baseline.explore import Exploration
from webtester.baseline.verdicts import decide
from webtester.browser.chromium import VIEWPORT
from webtester.browser.static_server import StaticServer
from webtester.models import ActionRecord, Dimension, Status, TestItem
from webtester.probes.forms import probe_form
from webtester.probes.pagemodel import read_model
from webtester.probes.session import ProbeSession

PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "baseline_pages"
pytestmark = pytest.mark.browser


def _probe_forms(browser, url: str) -> ProbeSession:
    context = browser.new_context(viewport=VIEWPORT)
    sess = ProbeSession.create(context.new_page(), url)

    def reopen():
        sess.goto()
        return next(f for f in read_model(sess.page).forms if f.visible)

    try:
        probe_form(sess, "Add a note", reopen)
    finally:
        context.close()
    return sess


@pytest.fixture(scope="module")
def server_and_probed(browser):
    """The notes page's server, and the form battery on the page as shipped (``bad``) and fixed."""
    with StaticServer(PAGES) as server:
        yield server, {bad: _probe_forms(browser, server.url + "forms.html" + ("?bad=1" if bad else "")) for bad in (True, False)}


@pytest.fixture(scope="module")
def probed(server_and_probed):
    return server_and_probed[1]


def _actions(record) -> list[ActionRecord]:
    return [ActionRecord.model_validate(a) for a in record.actions]


def _record(records, probe: str):
    return next(r for r in records if r.probe == probe)


def test_a_covered_record_carries_its_steps_from_a_fresh_start_and_the_expectation_that_held(probed):
    steps = _actions(_record(probed[False].log.covered, "persist-create"))
    assert steps[0].action == "goto" and steps[0].value == "/forms.html"
    assert [s.action for s in steps].count("goto") == 1  # the slice starts at the page opened last
    fills = [s for s in steps if s.action == "fill"]
    assert fills and all(s.locator and s.outcome == "done" for s in fills)
    assert any(s.target == {"label": "Title"} or s.target == {"role": "textbox", "name": "Title"} for s in fills)
    click = next(s for s in steps if s.action == "click")
    assert click.target == {"role": "button", "name": "Add note"}
    assert steps[-2].action == "reload"
    *_, expectation = steps
    assert expectation.action == "expect_text" and expectation.outcome == "held"
    assert expectation.value in " ".join(s.value or "" for s in fills)  # the token the probe typed


def test_a_finding_carries_the_expectation_that_failed(probed):
    finding = _record(probed[True].log.findings, "deleted-entry-returns")
    steps = _actions(finding)
    *_, expectation = steps
    assert expectation.action == "expect_no_text" and expectation.outcome == "failed"
    deletes = [s for s in steps if s.action == "click" and s.target == {"role": "button", "name": "Delete"}]
    assert len(steps) > 3 and (deletes or any(s.action == "click" and s.locator for s in steps))
    assert all(not s.is_expectation() for s in steps[:-1])


def test_verdicts_carry_the_steps_of_the_record_that_decided_them(probed):
    for bad, probe, status in ((False, "persist-create", Status.passed), (True, "invalid-input-accepted", Status.failed)):
        log = probed[bad].log
        exploration = Exploration(findings=[f.to_dict() for f in log.findings], covered=[c.to_dict() for c in log.covered])
        rule = "persist-create" if probe == "persist-create" else "invalid-input"
        item = TestItem(id="FT-01", dimension=Dimension.functionality, description="notes")
        verdict = decide(item, exploration, rule=rule, target=None, planned=True)
        assert verdict.status is status
        assert verdict.evidence.actions and verdict.evidence.actions[-1].is_expectation()
        assert verdict.evidence.actions[-1].outcome == ("held" if status is Status.passed else "failed")


def _replay(page, origin: str, steps: list[ActionRecord]) -> str:
    """Run ``steps`` with plain Playwright and return the outcome of the last one (an expectation)."""
    for step in steps[:-1]:
        target = eval(step.locator, {"page": page}) if step.locator else None  # noqa: S307 - the recorded code
        if step.action == "goto":
            page.goto(origin + (step.value or "/"))
        elif step.action == "reload":
            page.reload()
        elif step.action == "fill":
            target.fill(step.value or "")
        elif step.action == "click":
            target.click()
        elif step.action == "check":
            target.check(force=True)
        page.wait_for_timeout(150)
    last = steps[-1]
    shown = (last.value or "") in (page.locator("body").text_content() or "")
    return "held" if shown == (last.action == "expect_text") else "failed"


@pytest.mark.parametrize("bad, kind, probe", [(False, "covered", "persist-create"), (True, "findings", "deleted-entry-returns")])
def test_a_replay_of_the_recorded_steps_on_a_fresh_page_comes_out_the_same(browser, server_and_probed, bad, kind, probe):
    server, probed = server_and_probed
    steps = _actions(_record(getattr(probed[bad].log, kind), probe))
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto(server.url + "forms.html" + ("?bad=1" if bad else ""))
        origin = server.url.rstrip("/")
        assert _replay(page, origin, steps) == steps[-1].outcome
    finally:
        context.close()


def test_the_time_spent_recording_is_left_out_of_the_probes_limit_but_not_of_the_wall_bound(browser):
    """Recording the steps does not eat the probes' time, but a session whose recording took long still stops at its
    wall-clock bound (the exploration's limit plus a grace), so an app's preparation keeps to its budget."""
    import time

    from webtester.probes.session import BudgetExceeded, TimeUp

    context = browser.new_context()
    try:
        now = time.monotonic()
        sess = ProbeSession.create(context.new_page(), "http://127.0.0.1:9/", deadline=now + 0.3, wall_deadline=now + 60)
        sess.journal.seconds = 30.0  # recording time: the probes' clock stands still for it
        time.sleep(0.5)
        sess.spend()  # past the deadline on the wall clock, not on the probes' clock
        sess.journal.seconds = 0.0
        with pytest.raises(TimeUp):
            sess.spend()
        sess = ProbeSession.create(context.new_page(), "http://127.0.0.1:9/", deadline=now + 60, wall_deadline=now + 0.3)
        sess.journal.seconds = 30.0
        with pytest.raises(BudgetExceeded, match="wall time limit"):
            sess.spend()
    finally:
        context.close()
