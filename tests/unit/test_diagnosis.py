"""Reach / trigger / detect of one verdict, on hand-made step traces: each rule, each stage, the edge cases."""

from __future__ import annotations

from webtester.diagnosis import diagnose, needs_no_action, stem, subject_terms, wrong_stage
from webtester.models import ActionRecord, BugReport, Evidence, Status, TestItem, Verdict

SORT = TestItem(id="FT-01", dimension="functionality", description="The gallery can be filtered by Portraits.",
                action="Click the Portraits filter button", expected="Only portraits are listed.")
ESCAPE = TestItem(id="IX-01", dimension="interaction", description="Dialogs close with Escape.", action="Press Escape")
PLACEHOLDER = TestItem(id="CT-01", dimension="content", description="No placeholder text such as lorem ipsum appears.",
                       action="Look at the start page.")


def click(name: str, outcome: str = "done") -> ActionRecord:
    return ActionRecord(step=f"click {name}", action="click", locator=f'page.get_by_role("button", name="{name}", exact=True)',
                        target={"role": "button", "name": name}, outcome=outcome)


def expect(text: str, outcome: str) -> ActionRecord:
    return ActionRecord(step=f"expect_text {text!r}", action="expect_text", value=text, outcome=outcome)


def verdict(status: str, *actions: ActionRecord, steps=(), issue: str | None = None, **evidence) -> Verdict:
    report = BugReport(issue=issue or "does not work") if status == "fail" else None
    return Verdict(item_id="X", status=Status(status), bug_report=report,
                   evidence=Evidence(actions=list(actions), steps=list(steps), **evidence))


def test_stemming_and_subject_terms_ignore_stop_words_and_action_verbs():
    assert stem("entries") == stem("entry") == "entri"
    assert stem("closes") == stem("close") == stem("closed") == stem("closing")
    assert stem("submitted") == stem("submit") and stem("dialogs") == "dialog"
    assert subject_terms(SORT) == {"galleri", "filter", "portrait", "button"}
    assert "click" not in subject_terms(SORT) and "the" not in subject_terms(SORT)


def test_all_stages_hold_for_a_pass_on_an_acted_element_with_held_expectations():
    d = diagnose(SORT, verdict("pass", click("Portraits"), expect("Mother Tongue", "held")))
    assert (d.reached, d.triggered, d.supported, d.stage) == (True, True, True, None)
    assert "portrait" in d.reach_reason and "1 held expectation" in d.detect_reason
    assert wrong_stage(d) == "detect"  # all held but wrong against gold: misjudged


def test_reach_fails_when_no_action_or_step_names_the_subject():
    d = diagnose(SORT, verdict("pass", click("Contact"), steps=["opened the start page"]))
    assert (d.reached, d.triggered, d.stage) == (False, False, "reach")
    assert "portrait" in d.reach_reason
    assert diagnose(SORT, verdict("pass")).reach_reason == "no action, step or probe finding was recorded"


def test_reach_from_a_step_or_a_locator_literal_without_a_target():
    seen = diagnose(SORT, verdict("pass", steps=["observe -> region 'Work': button 'Portraits'"]))
    assert seen.reached and not seen.triggered and seen.stage == "trigger"
    by_ref = ActionRecord(step='click button "Portraits" [e30]', action="click", outcome="done")
    assert diagnose(SORT, verdict("pass", by_ref)).stage is None
    by_css = ActionRecord(step="click", action="click", locator='page.locator("#portraits")', outcome="done")
    assert diagnose(SORT, verdict("pass", by_css)).stage is None


def test_the_step_recording_the_verdict_is_not_read_as_evidence():
    from webtester.agents.verdict import VERDICT_TOOL

    step = f"{VERDICT_TOOL}({{'status': 'pass', 'issue': 'Portraits filter works'}}) -> Verdict recorded for FT-01: pass."
    assert diagnose(SORT, verdict("pass", steps=[step])).reach_reason == "no action, step or probe finding was recorded"


def test_code_in_steps_is_not_read_as_the_subject():
    item = TestItem(id="CS-01", dimension="constraint", description="The name field is required.", action="Submit it empty")
    step = "click({'ref': 'e3'}) -> Clicked via page.get_by_role(\"button\", name=\"Send\"). Changes (- removed, + added)"
    assert not diagnose(item, verdict("pass", steps=[step])).reached


def test_trigger_needs_a_done_action_on_a_reached_element():
    reached_only = diagnose(SORT, verdict("pass", click("Contact"), expect("Portraits", "held")))
    assert reached_only.reached and not reached_only.triggered and reached_only.stage == "trigger"
    assert "none done on the item's subject" in reached_only.trigger_reason
    errored = diagnose(SORT, verdict("pass", click("Portraits", outcome="error")))
    assert errored.reached and not errored.triggered and "ended in an error" in errored.trigger_reason
    looked = diagnose(SORT, verdict("pass", ActionRecord(step="goto /", action="goto", value="/portraits", outcome="done")))
    assert looked.reached and not looked.triggered and "nothing was acted on" in looked.trigger_reason


def test_a_page_step_triggers_by_its_key():
    press = ActionRecord(step="press Escape", action="press", value="Escape", outcome="done")
    assert diagnose(ESCAPE, verdict("pass", press)).stage is None


def test_items_about_what_is_shown_need_no_action():
    assert needs_no_action(PLACEHOLDER) and not needs_no_action(SORT)
    looking = TestItem(id="FT-09", dimension="functionality", description="The price list is shown.", action="Look at it")
    assert needs_no_action(looking)
    assert not needs_no_action(TestItem(id="FT-02", dimension="functionality", description="The price list is shown."))
    d = diagnose(PLACEHOLDER, verdict("pass", steps=["visited /about: no lorem ipsum"]))
    assert d.triggered and d.stage is None and "needs no action" in d.trigger_reason


def test_items_about_the_whole_app_are_reached_by_any_recorded_step():
    every = TestItem(id="CT-02", dimension="content", description="Every image loads.", action="Look at every page.")
    assert diagnose(every, verdict("pass", steps=["visited /about"])).reached
    assert not diagnose(every, verdict("pass")).reached


def test_text_steps_without_actions_trigger_by_an_acting_word():
    item = TestItem(id="CS-01", dimension="constraint", description="The Report review form rejects empty fields.",
                    action="Open the Report review form and submit it empty.")
    acted = diagnose(item, verdict("pass", steps=['form "Report review": submitted empty']))
    assert acted.stage is None and "acted on" in acted.trigger_reason
    named = diagnose(item, verdict("pass", steps=['form battery: Report review']))
    assert named.reached and not named.triggered


def test_a_probe_finding_reaches_triggers_and_backs_a_fail():
    item = TestItem(id="FT-02", dimension="functionality", description="A deleted entry stays deleted after a reload.",
                    action="Delete an entry, then reload the page.")
    v = verdict("fail", issue="an entry deleted through its Delete control is back after a reload "
                              '[probe deleted-entry-returns on form "Write a review"]', steps=["form battery: Write a review"])
    d = diagnose(item, v)
    assert (d.reached, d.triggered, d.supported, d.stage) == (True, True, True, None)
    assert "probe finding" in d.detect_reason


def test_detect_a_fail_needs_a_failed_expectation_or_a_browser_error():
    unbacked = diagnose(SORT, verdict("fail", click("Portraits"), expect("Mother Tongue", "held")))
    assert unbacked.triggered and not unbacked.supported and unbacked.stage == "detect"
    assert diagnose(SORT, verdict("fail", click("Portraits"), expect("Mother Tongue", "failed"))).supported
    assert diagnose(SORT, verdict("fail", click("Portraits"), page_errors=["TypeError: x is undefined"])).supported
    assert diagnose(SORT, verdict("fail", click("Portraits"), console_errors=["404 /api"])).supported


def test_detect_a_pass_fails_on_a_failed_expectation_or_a_page_error():
    under_pass = diagnose(SORT, verdict("pass", click("Portraits"), expect("Mother Tongue", "failed")))
    assert under_pass.stage == "detect" and "despite a failed expectation" in under_pass.detect_reason
    crashed = diagnose(SORT, verdict("pass", click("Portraits"), page_errors=["TypeError"]))
    assert crashed.stage == "detect" and "page error" in crashed.detect_reason
    # the first failed stage wins: an unreached pass with a failed expectation is a reach problem
    assert diagnose(SORT, verdict("pass", expect("Mother Tongue", "failed"))).stage == "reach"


def test_not_checked_error_and_missing_verdicts_are_not_run():
    not_checked = verdict("error", notes="not checked: the baseline has no check for this item")
    for v in (not_checked, verdict("error", click("Portraits"), notes="item could not be executed: TimeoutError"), None):
        d = diagnose(SORT, v)
        assert (d.reached, d.triggered, d.supported, d.stage) == (False, False, False, "not run")
        assert wrong_stage(d) == "not run"
    assert diagnose(SORT, not_checked).reach_reason == "not run: not checked: the baseline has no check for this item"
    assert diagnose(SORT, None).reach_reason == "not run: no verdict"
