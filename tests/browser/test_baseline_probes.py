"""The baseline's probes (forms, lists, controls, content) fire on pages built to trigger them (``?bad``)
and stay silent on the same pages without the defects."""

from __future__ import annotations

import time
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from webtester.baseline.crawl import CrawlState, StateGraph
from webtester.baseline.explore import Exploration, Explorer
from webtester.baseline.verdicts import decide
from webtester.browser.chromium import VIEWPORT
from webtester.browser.static_server import StaticServer
from webtester.models import Dimension, Status, TestItem
from webtester.probes import widgets
from webtester.probes.content import mixed_currency
from webtester.probes.controls import probe_controls, probe_vote
from webtester.probes.editing import probe_listed_edit
from webtester.probes.entries import ENTRY_CONTROL_JS
from webtester.probes.forms import fill_form, probe_form
from webtester.probes.lists import ListProbe
from webtester.probes.pagemodel import read_model
from webtester.probes.session import ProbeSession
from webtester.probes.steps import choice_step, take_choice_steps

PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "baseline_pages"
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server():
    with StaticServer(PAGES) as s:
        yield s


@pytest.fixture
def session(browser, server, tmp_path):
    contexts = []

    def open_page(name: str, bad: bool) -> ProbeSession:
        context = browser.new_context(viewport=VIEWPORT)
        contexts.append(context)
        page = context.new_page()
        url = server.url + name + (("&" if "?" in name else "?") + "bad=1" if bad else "")
        sess = ProbeSession.create(page, url, screenshot_dir=tmp_path / "shots", relative_to=tmp_path)
        sess.goto()
        return sess

    yield open_page
    for context in contexts:
        context.close()


def _kinds(sess: ProbeSession) -> Counter:
    return Counter(f.probe for f in sess.log.findings)


def _assert_taken_then_tried_twice(sess: ProbeSession, bad: bool) -> None:
    """The form's valid submission was taken, and the battery went on to send the same data twice: a duplicate
    finding on the bad build, a duplicate refused on the good one."""
    assert not any("not clearly accepted" in step for step in sess.log.steps), sess.log.steps
    if bad:
        assert "duplicate-accepted" in _kinds(sess), sess.log.findings
    else:
        assert "duplicate-accepted" not in _kinds(sess) and "duplicate" in {c.probe for c in sess.log.covered}, sess.log.steps


def _run_forms(sess: ProbeSession) -> None:
    def reopen():
        sess.goto()
        return next(f for f in read_model(sess.page).forms if f.visible)

    probe_form(sess, "Add a note", reopen)


def _run_dates(sess: ProbeSession) -> None:
    def reopen():
        sess.goto()
        return next(f for f in read_model(sess.page).forms if f.visible)

    probe_form(sess, "Book a room", reopen)


def _run_lists(sess: ProbeSession) -> None:
    model = read_model(sess.page)
    probe = ListProbe(sess, model)
    probe.search(model.search_boxes()[0], ["name", "company"])
    for f in model.filter_selects():
        probe.filter_select(f)


def _run_widgets(sess: ProbeSession) -> None:
    probe_controls(sess)
    probe_vote(sess)
    for finding in mixed_currency(sess.page, sess.shots):
        sess.log.found(finding)


CASES = [
    ("forms.html", _run_forms, {"invalid-input-accepted", "required-field-not-enforced", "form-not-cleared", "deleted-entry-returns",
                                "edit-not-saved",
                                "duplicate-accepted"}),
    ("dates.html", _run_dates, {"past-date-accepted", "future-date-accepted", "end-before-start-accepted", "duplicate-accepted"}),
    ("list.html", _run_lists, {"search-misses-entry", "filter-shows-other", "count-mismatch", "no-empty-state"}),
    ("widgets.html", _run_widgets, {"close-control-broken", "escape-does-not-close", "repeat-vote", "mixed-currency"}),
]


@pytest.mark.parametrize("name, run, expected", CASES, ids=[c[0] for c in CASES])
def test_probes_fire_on_defects(session, tmp_path, name, run, expected):
    sess = session(name, bad=True)
    run(sess)
    kinds = _kinds(sess)
    assert set(kinds) == expected, [f"{f.probe}: {f.element}: {f.message}" for f in sess.log.findings]
    for f in sess.log.findings:
        assert f.message and f.element and f.page_url.startswith("http")
        assert f.screenshot and (tmp_path / f.screenshot).is_file()


@pytest.mark.parametrize("name, run, expected", CASES, ids=[c[0] for c in CASES])
def test_probes_silent_without_defects(session, name, run, expected):
    sess = session(name, bad=False)
    run(sess)
    assert sess.log.findings == [], [f"{f.probe}: {f.element}: {f.message}" for f in sess.log.findings]
    covered = {c.probe for c in sess.log.covered}
    # a silent probe must have exercised something: each defect kind has its 'checked, no problem' record
    wanted = {"forms.html": {"invalid-input", "required-choice", "form-cleared", "persist-delete", "required", "duplicate",
                             "edit"},
              "dates.html": {"date-order", "duplicate"},
              "list.html": {"search", "filter", "count", "empty-state"},
              "widgets.html": {"dialog-close", "vote"}}[name]
    assert wanted <= covered, covered


@pytest.mark.parametrize("bad", [True, False])
def test_the_search_is_tried_on_the_last_entry_too(session, bad):
    """A search that looks through only the first entries: the first entry's name finds it, the last entry's
    name does not, and that miss is the finding."""
    sess = session("list.html?partial=1", bad=bad)
    model = read_model(sess.page)
    ListProbe(sess, model).search(model.search_boxes()[0])
    searched = [s for s in sess.log.steps if s.startswith("list: search")]
    assert any("'Alder Supplies'" in s for s in searched) and any("'Fern Outdoor'" in s for s in searched), searched
    misses = [f.details["entry"] for f in sess.log.findings if f.probe == "search-misses-entry"]
    assert misses == (["Fern Outdoor"] if bad else [])


def test_results_listed_elsewhere_are_not_a_missed_search(session):
    """While searching, the page lists its results in another element: the list read before the search is
    empty, but the entry is shown, so nothing is reported."""
    sess = session("list.html?moved=1", bad=False)
    model = read_model(sess.page)
    ListProbe(sess, model).search(model.search_boxes()[0])
    assert not [f for f in sess.log.findings if f.probe == "search-misses-entry"]
    assert any("still shown; not judged" in s for s in sess.log.steps), sess.log.steps


def test_an_entry_is_searched_by_its_title_not_by_the_author_named_above_it(session):
    """Post cards name their author in a small heading above the post's larger title; the feed's search looks
    through titles and texts only, so searching by the title finds the post and nothing is reported."""
    sess = session("posts.html", bad=False)
    model = read_model(sess.page)
    ListProbe(sess, model).search(model.search_boxes()[0])
    searched = [s for s in sess.log.steps if s.startswith("list: search")]
    assert any("'Streetlight out on Maple Avenue'" in s for s in searched), searched
    assert not [f for f in sess.log.findings if f.probe == "search-misses-entry"]


def test_the_sections_of_a_landing_page_are_not_a_list_of_entries(session):
    """A page made of sections (a hero, a grid of picks, a category band): the list is the grid's cards, so a
    search probe looks for a product, not for the hero's heading."""
    sess = session("landing.html", bad=False)
    model = read_model(sess.page)
    assert model.list_key == "ARTICLE.card", model.list_key
    assert model.list_count == 3


@pytest.mark.parametrize("bad", [True, False])
def test_a_custom_select_filter_is_opened_and_each_option_judged(session, bad):
    """The list's category filter as a custom select with no label of its own: it is named by what it shows, its
    options are read by opening it, and choosing "Tools" is judged like a native select's option; the first two
    options are tried."""
    sess = session("list.html?custom=1", bad=bad)
    model = read_model(sess.page)
    assert [(f.label, f.kind) for f in model.filter_selects()] == [("categories", "combobox")]
    ListProbe(sess, model).filter_select(model.filter_selects()[0])
    strays = [f for f in sess.log.findings if f.probe == "filter-shows-other"]
    if bad:
        assert [(f.details["option"], f.details["stray"].split()[0]) for f in strays] == [("Tools", "Birch")], sess.log.steps
    else:
        assert sess.log.findings == [] and "filter" in {c.probe for c in sess.log.covered}
        assert sess.log.steps == [f'list: filter "categories" = "{o}"' for o in ("Tools", "Paint")]


def test_a_select_whose_options_are_sort_orders_is_not_judged_as_a_filter(session):
    sess = session("list.html?sort", bad=False)
    model = read_model(sess.page)
    probe = ListProbe(sess, model)
    for f in model.filter_selects():
        probe.filter_select(f)
    assert sess.log.findings == []
    assert sum("orders the list (its options are sort orders); not a filter" in s for s in sess.log.steps) == 1, sess.log.steps
    assert 'list: filter "Category" = "Tools"' in sess.log.steps


def test_a_list_that_shows_the_entries_probed_already_is_not_probed_again(session):
    """A search route often lists what the start page listed: its search and filters are not tried twice."""
    sess = session("list.html", bad=True)
    explorer = Explorer(sess.page, sess.start_url, instruction="Search suppliers by name and company.", time_limit=None)
    explorer.sess = sess
    entries = explorer._lists(read_model(sess.page))
    assert entries and any(s.startswith("list: search") for s in sess.log.steps)
    tried = len(sess.log.steps)
    sess.goto()
    assert explorer._lists(read_model(sess.page), [["another list"], entries]) == entries
    assert sess.log.steps[tried:] == ["list: the same entries as a list already probed; not probed again"]


def test_invalid_value_names_the_field(session):
    sess = session("forms.html", bad=True)
    _run_forms(sess)
    fields = sorted(f.details["field"] for f in sess.log.findings if f.probe == "invalid-input-accepted")
    assert fields == ["Amount", "Email"]
    values = {f.details["field"]: f.details["value"] for f in sess.log.findings if f.probe == "invalid-input-accepted"}
    assert values["Amount"] == "-5" and "@" not in values["Email"]


@pytest.mark.parametrize("bad", [True, False])
def test_llm_agent_gets_the_probe_findings(browser, server, tmp_path, bad):
    """The LLM tester's detection tools include run_probes; its text carries the findings to the model."""
    from webtester.agents.base import InstanceBudget, ItemBudget
    from webtester.agents.llm_tester import LLMTester
    from webtester.browser.session import ItemPage
    from webtester.llm.scripted import Script, ScriptedChatModel

    script = Script.build({"items": {"CT-01": [
        {"tool_calls": [{"name": "run_probes", "args": {}}]},
        {"when_seen": r"\[mixed-currency\].*€5\.00", "in_last": True,
         "then": {"verdict": {"status": "fail", "issue": "A price is in euros", "actual": "€5.00 among dollar prices"}},
         "else": {"verdict": {"status": "pass"}}},
    ]}})
    model = ScriptedChatModel(script=script)
    tester = LLMTester(model, model, name="scripted", record=False)
    tester.start_instance("widgets", tmp_path / "widgets")
    item = TestItem(id="CT-01", dimension=Dimension.content, description="All prices are in US dollars.")
    page = ItemPage(browser, server.url + "widgets.html" + ("?bad=1" if bad else ""))
    try:
        verdict = tester.detect(item, page, ItemBudget(10, InstanceBudget(50)))
    finally:
        page.close()
    assert verdict.status is (Status.failed if bad else Status.passed), verdict
    assert any(step.startswith("run_probes(") for step in verdict.evidence.steps)


def test_a_control_whose_handler_only_takes_the_focus_is_dead(session):
    """A button with a click handler that does nothing visible (it only becomes the focused element); a link to the
    page already shown is not dead."""
    sess = session("dead_onclick.html", bad=False)
    probe_controls(sess)
    dead = [f for f in sess.log.findings if f.probe == "dead-control"]
    assert len(dead) == 1 and "Download" in dead[0].element, [f"{f.probe}: {f.element}" for f in sess.log.findings]
    # the chosen filter, styled as such, is not clicked; its siblings are and respond
    assert not any('"All"' in c.element for c in sess.log.covered if c.probe == "dead-control")
    assert any('"Paid"' in c.element for c in sess.log.covered if c.probe == "dead-control")


def test_the_current_choice_of_a_group_is_not_dead_but_a_control_that_never_responds_is(session):
    """A view switcher whose current view is drawn by the app's own style only, and a bar of two icon buttons: each
    current choice changes nothing when clicked, and responds once another choice is clicked first, so neither is
    dead; a drag handle is not clicked; "Export" changes nothing even after "Print" was clicked: it is dead."""
    sess = session("current_choice.html", bad=False)
    probe_controls(sess)
    dead = [f.element for f in sess.log.findings if f.probe == "dead-control"]
    assert len(dead) == 1 and '"Export"' in dead[0], dead
    current = [c.element for c in sess.log.covered if c.probe == "dead-control" and "current choice" in c.note]
    assert len(current) == 2 and any('"Summary"' in c for c in current), current
    assert not any("⋮" in c.element for c in sess.log.covered), [c.element for c in sess.log.covered]


def test_a_link_to_a_page_the_exploration_opened_already_is_not_clicked_again(session, server):
    """The exploration opened "Invoices" already: its link is not clicked; the link to "Tags" is."""
    sess = session("current_choice.html", bad=False)
    probe_controls(sess, known=[server.url + "dead_onclick.html", sess.page.url])
    clicked = [c.element for c in sess.log.covered if c.probe == "dead-control"]
    assert any("a:nth-of-type(2)" in c for c in clicked) and not any("a:nth-of-type(1)" in c for c in clicked), clicked


def test_a_dialog_that_every_row_opens_has_its_closing_checked_once(session):
    """Two rows open the same "Edit note" dialog: its close button and Escape are tried on the first one only."""
    sess = session("current_choice.html", bad=False)
    probe_controls(sess)
    closed = [c for c in sess.log.covered if c.probe == "dialog-close"]
    assert len(closed) == 2, [c.element for c in closed]  # the close button and Escape, once
    assert any("a dialog like 'edit note" in s for s in sess.log.steps), sess.log.steps


def test_controls_repeated_in_every_row_are_clicked_a_few_times_whatever_their_generated_ids(session):
    """Six rows, each with a menu button whose id the framework generated (":r1:" ... ":r6:"): two of them are clicked
    (like controls are sampled, not all clicked), and the page's own "New tag" button is clicked too."""
    sess = session("row_menus.html", bad=False)
    probe_controls(sess)
    clicked = [c.element for c in sess.log.covered if c.probe == "dead-control"]
    assert sum(":r" in c for c in clicked) == 2, clicked
    assert any('"New tag"' in c for c in clicked), clicked


def test_the_controls_that_create_an_entry_are_clicked_first(session):
    """"+ Add Expense" comes last on the page: with time (here: room) for only two controls, it is one of them, so
    the form it opens reaches the form probes."""
    sess = session("creating_last.html", bad=False)
    probe_controls(sess, max_controls=2)
    clicked = [c.element for c in sess.log.covered if c.probe == "dead-control"]
    assert len(clicked) == 2 and '"+ Add Expense"' in clicked[0], clicked


def test_a_button_that_adds_a_block_of_fields_to_an_editor_is_no_form_submission(session):
    """"Add experience" adds a block of empty fields (a resume editor): the form battery stops after the empty
    press instead of reporting an empty submission accepted, duplicates, or entries lost on reload."""
    sess = session("editor_list.html", bad=False)
    probe_form(sess, "Add experience", lambda: (sess.goto(), next(f for f in read_model(sess.page).forms if f.visible))[1])
    assert sess.log.findings == [], [f"{f.probe}: {f.message}" for f in sess.log.findings]
    assert any("an editor's list, not a submission" in s for s in sess.log.steps), sess.log.steps


def test_a_click_that_leaves_a_blank_page_fails_the_items_of_its_flow(session):
    """The page goes blank after "Add Asset" (the app unmounted on an uncaught error): a finding with the error, and
    the items that need that flow fail; a view that renders late is not blank, and an item that only asks to see
    the list is not failed by it."""
    sess = session("blank_after_click.html", bad=False)
    probe_controls(sess)
    blank = [f for f in sess.log.findings if f.probe == "blank-after-action"]
    assert len(blank) == 1 and "Add Asset" in blank[0].element, [f"{f.probe}: {f.element}" for f in sess.log.findings]
    assert "Select.Item" in blank[0].details["page_error"] and blank[0].details["context"] == "Data Assets"
    assert blank[0].screenshot and any(a.get("action") == "click" for a in blank[0].actions)
    exploration = Exploration(findings=[f.to_dict() for f in sess.log.findings])
    create = TestItem(id="FT-01", dimension=Dimension.functionality, description="Users can create a new data asset and name it.")
    view = TestItem(id="FT-02", dimension=Dimension.functionality, description="Users can view a list of all data assets.")
    failed = decide(create, exploration)
    assert failed.status is Status.failed and "blank" in failed.bug_report.issue and failed.evidence.screenshots
    assert decide(view, exploration).status is not Status.failed


def _run_loose_form(sess: ProbeSession) -> None:
    def reopen():
        sess.goto()
        return next(f for f in read_model(sess.page).forms if f.visible)

    probe_form(sess, "New contact", reopen)


def test_fields_outside_a_form_element_are_read_as_the_form_their_button_saves(session):
    """Most generated React apps have no <form>: the card of fields and its "Save contact" button is a form (without
    native validation); a search box beside a button that opens something is not."""
    model = read_model(session("loose_form.html", bad=False).page)
    assert len(model.forms) == 1, model.forms
    form = model.forms[0]
    assert form.loose and form.name == "New contact" and form.submit_text == "Save contact"
    assert [f.label for f in form.fields] == ["Name", "Email"]
    assert [f.label for f in model.search_boxes()] == ["Search contacts"]


@pytest.mark.parametrize("bad", [True, False])
def test_the_form_battery_runs_on_fields_outside_a_form_element(session, bad):
    sess = session("loose_form.html", bad=bad)
    _run_loose_form(sess)
    messages = [f"{f.probe}: {f.element}: {f.message}" for f in sess.log.findings]
    if bad:
        assert set(_kinds(sess)) == {"empty-form-accepted", "invalid-input-accepted", "duplicate-accepted"}, messages
    else:
        assert messages == []
        assert {"required", "invalid-input", "duplicate", "persist-create"} <= {c.probe for c in sess.log.covered}


def test_a_custom_select_is_a_field_that_the_form_battery_opens_and_chooses_from(session):
    """A combobox button (as Radix / shadcn render a select) and a date picker are fields of their form, the native
    select hidden beside the combobox is not; the battery opens them and clicks the first available option and
    today's date, and submits once without choosing."""
    form = read_model(session("custom_select.html", bad=False).page).forms[0]
    assert [(f.label, f.kind, f.value) for f in form.fields] == [("Title", "text", ""), ("Category", "combobox", ""),
                                                                  ("Date", "datepicker", "")]
    for bad in (True, False):
        sess = session("custom_select.html", bad=bad)
        probe_form(sess, "New expense", lambda sess=sess: (sess.goto(), read_model(sess.page).forms[0])[1])
        messages = [f"{f.probe}: {f.element}: {f.message}" for f in sess.log.findings]
        listed = sess.page.evaluate("() => JSON.parse(localStorage.getItem('expenses') || '[]').map(e => [e.category, e.day])")
        if bad:
            unchosen = [f for f in sess.log.findings if f.probe == "required-field-not-enforced"]
            assert [(f.element, f.details["field"]) for f in unchosen] == [('choice "Category" of form "New expense"', "Category")], (messages, sess.log.steps)
            assert any(a.get("action") == "click" for a in unchosen[0].actions)
        else:
            assert messages == []
            assert {"required", "required-choice", "persist-create", "duplicate"} <= {c.probe for c in sess.log.covered}
            # the first option that is not disabled, and today in the calendar
            assert listed and {tuple(x) for x in listed} == {("Food", date.today().isoformat())}, listed


@pytest.mark.parametrize("bad", [True, False])
def test_summary_figures_are_checked_when_they_take_a_new_entry_in(session, bad):
    """Totals and counts beside a list that move after an accepted entry are the summary checked; figures that
    stay put are only noted in the steps (no finding: on real apps they were mostly figures the entry does not
    count in)."""
    sess = session("summary.html", bad=bad)
    probe_form(sess, "Add expense", lambda: (sess.goto(), read_model(sess.page).forms[0])[1])
    assert [f.probe for f in sess.log.findings] == []
    checked = "summary-update" in {c.probe for c in sess.log.covered}
    noted = [s for s in sess.log.steps if "summary figures did not change" in s]
    if bad:
        assert not checked and len(noted) == 1 and "'Total Expenses: $120.00'" in noted[0] and "'Entries: 2'" in noted[0]
    else:
        assert checked and not noted


def test_a_wizard_is_walked_to_the_step_whose_next_button_blanks_the_page(session):
    """A wizard with no <form>: step 1 is filled and goes on; step 2, filled in, leaves a blank page on "Next". New
    text alone after "Next" is not taken as the data being saved, so no further probes run on it."""
    sess = session("wizard.html", bad=False)
    probe_form(sess, "Trip details", lambda: (sess.goto(), next(iter(read_model(sess.page).forms), None))[1])
    blank = [f for f in sess.log.findings if f.probe == "blank-after-action"]
    assert [f.element for f in blank] == ['form "Travellers"'], [f"{f.probe}: {f.element}" for f in sess.log.findings]
    assert "reading 'map'" in blank[0].details["page_error"] and blank[0].details["context"].startswith("Plan a trip")
    assert any(a.get("action") == "fill" and a.get("value", "").startswith("QA Lead traveller") for a in blank[0].actions)
    # step 2's "Next" saves the step's fields; the "Add traveller" beside it keeps only its own field
    assert 'form "Trip details": step 2 (Travellers) filled and submitted with \'Next\'' in sess.log.steps, sess.log.steps


def test_a_wizard_step_with_no_field_of_its_own_is_passed_by_its_next_button(session):
    """Step 2 holds only an optional "Add traveller" line beside its "Next": the walk clicks "Next" itself (not
    the line's button) and sees the page go blank, a finding named by the wizard's form."""
    sess = session("wizard.html?optional=1", bad=False)
    probe_form(sess, "Trip details", lambda: (sess.goto(), next(iter(read_model(sess.page).forms), None))[1])
    blank = [f for f in sess.log.findings if f.probe == "blank-after-action"]
    assert [f.element for f in blank] == ['form "Trip details", its Next button'], sess.log.steps
    assert "reading 'map'" in blank[0].details["page_error"]
    assert 'form "Trip details": step 2 has no field of its own: clicked \'Next\'' in sess.log.steps


def test_a_wizard_step_that_asks_for_a_choice_first_is_passed_by_choosing(session):
    """Step 2 offers two rooms (cards) and a "Continue" disabled until one is chosen: the walk chooses the first,
    goes on, and sees the travellers' step go blank."""
    sess = session("wizard.html?choice=1", bad=False)
    probe_form(sess, "Trip details", lambda: (sess.goto(), next(iter(read_model(sess.page).forms), None))[1])
    assert 'form "Trip details": step 2 asks for a choice first: chose and went on' in sess.log.steps, sess.log.steps
    blank = [f for f in sess.log.findings if f.probe == "blank-after-action"]
    assert [f.element for f in blank] == ['form "Travellers"'], [f"{f.probe}: {f.element}" for f in sess.log.findings]


@pytest.mark.parametrize("mode", ["bad=1", "modal=1", "undo=1", "confirm=1", "menu=1&bad=1", "menu=1"])
def test_deleting_an_entry_without_any_confirmation_is_a_finding(session, mode):
    """A row's trash icon, or the Delete item of its "..." menu (``menu``), deletes the task at once (``bad``): a
    finding that names the entry, whose gold-style item fails; a confirm() dialog, an in-page alert dialog or an
    Undo offer is a confirmation. The site's storage is put back afterwards, so later probes see the list as it was."""
    from webtester.probes.deletion import probe_delete_confirmation

    sess = session(f"delete_rows.html?{mode}", bad=False)
    assert probe_delete_confirmation(sess, [sess.start_url]) is True
    messages = [f"{f.probe}: {f.element}: {f.message}" for f in sess.log.findings]
    item = TestItem(id="IX-01", dimension=Dimension.interaction,
                    description="Users can delete tasks, and a confirmation pop-up will appear before the task is removed.")
    verdict = decide(item, Exploration(findings=[f.to_dict() for f in sess.log.findings],
                                       covered=[c.to_dict() for c in sess.log.covered]))
    if "bad=1" in mode:
        [finding] = sess.log.findings
        assert finding.probe == "delete-unconfirmed" and "Write the quarterly report" in finding.element, messages
        assert finding.screenshot and any(a.get("action") == "click" for a in finding.actions)
        assert verdict.status is Status.failed and "no confirmation" in verdict.bug_report.issue
    else:
        assert messages == [] and [c.probe for c in sess.log.covered] == ["delete-confirm"]
        assert verdict.status is not Status.failed
    assert sess.shows("Write the quarterly report"), "the deleted entry's storage was not put back"


@pytest.mark.parametrize("warned", ["warn", "warnphone"])
def test_a_duplicate_the_page_warns_of_while_it_is_typed_is_no_finding(session, warned):
    """The app lets the same name through a second time but warns of it as the name is typed: the app noticed, so
    the probe records the warning as the duplicate check, not a finding. Also when the warning is about a field the
    probes fill the same way every time (a phone number), so that the first of the two equal submissions is warned
    of too."""
    sess = session(f"memory_list.html?{warned}=1", bad=False)
    probe_form(sess, "Add a contact", lambda: (sess.goto(), next(f for f in read_model(sess.page).forms if f.visible))[1],
               reopen_here=lambda: next((f for f in read_model(sess.page).forms if f.visible), None))
    assert "duplicate-accepted" not in {f.probe for f in sess.log.findings}
    (check,) = [c for c in sess.log.covered if c.probe == "duplicate"]
    assert "Possible duplicate" in check.note and ("phone" in check.note) is (warned == "warnphone")


@pytest.mark.parametrize("bad", [True, False])
def test_the_second_equal_submission_is_made_in_place_so_entries_kept_in_memory_are_compared(session, bad):
    sess = session("memory_list.html", bad)

    def reopen():
        sess.goto()  # a page load: the entries added so far are gone
        return next(f for f in read_model(sess.page).forms if f.visible)

    def reopen_here():
        return next((f for f in read_model(sess.page).forms if f.visible), None)

    probe_form(sess, "Add a contact", reopen, reopen_here=reopen_here)
    found = [f for f in sess.log.findings if f.probe == "duplicate-accepted"]
    blank = [f for f in sess.log.findings if f.probe == "blank-input-accepted"]
    if bad:
        assert found and "2 entries with it are listed" in found[0].message
        assert blank and "'Name'" in blank[0].element  # a name of spaces only was taken like a real one
    else:
        assert not found and not blank and "duplicate" in {c.probe for c in sess.log.covered}
        assert any("only spaces" in c.element for c in sess.log.covered if c.probe == "blank-input")
    if bad:  # reopened by loading the page, the first entry is gone and the second looks like a first
        again = session("memory_list.html", bad)
        probe_form(again, "Add a contact", lambda: (again.goto(), read_model(again.page).forms[0])[1])
        assert "duplicate-accepted" not in {f.probe for f in again.log.findings}


def test_the_same_data_is_submitted_twice_before_the_spaces_only_check(session):
    """The repeated submission, the battery's most frequent true finding on real apps, comes right after the dates:
    an app whose time runs out during its battery has had it checked before the spaces-only check."""
    sess = session("memory_list.html", True)

    def reopen():
        sess.goto()
        return next(f for f in read_model(sess.page).forms if f.visible)

    probe_form(sess, "Add a contact", reopen, reopen_here=lambda: next((f for f in read_model(sess.page).forms if f.visible), None))
    steps = sess.log.steps
    twice = next(i for i, s in enumerate(steps) if "submitted the same data" in s)
    spaces = next(i for i, s in enumerate(steps) if "only spaces" in s)
    assert twice < spaces, steps
    assert {"duplicate-accepted", "blank-input-accepted"} <= {f.probe for f in sess.log.findings}


@pytest.mark.parametrize("mode", ["editlost", "bad", "good"])
def test_an_edit_of_the_created_entry_is_checked_in_view_and_after_a_reload(session, mode):
    """The created note is renamed through its Edit control: a rename that is saved is the edit checked; one the
    list never shows, or one a reload undoes, is a finding about the form's entries."""
    sess = session("forms.html" + ("?editlost=1" if mode == "editlost" else ""), bad=mode == "bad")
    _run_forms(sess)
    edits = [f for f in sess.log.findings if f.probe.startswith("edit-")]
    covered = [c for c in sess.log.covered if c.probe == "edit"]
    if mode == "good":
        assert not edits and covered and "Edit" in covered[0].element
        return
    (finding,) = edits
    assert finding.probe == {"bad": "edit-not-saved", "editlost": "edit-lost-on-reload"}[mode]
    assert finding.details["field"] == "Add a note" and finding.actions[-1]["outcome"] == "failed"
    exploration = Exploration(findings=[f.to_dict() for f in sess.log.findings], covered=[c.to_dict() for c in sess.log.covered])
    for text, failed in (("Users can edit an existing note and the change is saved.", True),
                         ("Users can edit their profile.", False)):
        verdict = decide(TestItem(id="FT-01", dimension=Dimension.functionality, description=text), exploration)
        assert (verdict.status is Status.failed) is failed, (text, verdict)


def test_a_submission_the_page_is_still_saving_is_waited_for(session):
    """A form whose button says "Saving..." for 1.5 s before the note is listed: the probes wait for it, so the
    valid submission is seen to be accepted and the battery runs on without a finding."""
    sess = session("forms.html?slow=1", bad=False)
    _run_forms(sess)
    assert not sess.log.findings
    assert {"feedback", "persist-create", "edit"} <= {c.probe for c in sess.log.covered}


@pytest.mark.parametrize("mode", ["good", "bad", "crash", "none"])
def test_an_entry_the_app_lists_itself_is_edited_through_its_own_edit_control(session, mode):
    """A listed supplier is renamed through its Edit button: a rename the list shows is the edit checked; one it
    never shows, or an Edit button that blanks the page, fails the items about editing suppliers; a list without
    edit controls is left alone."""
    sess = session("list.html" + ("" if mode == "none" else "?edit=1") + ("&crash=1" if mode == "crash" else ""),
                   bad=mode == "bad")
    assert probe_listed_edit(sess, read_model(sess.page)) is (mode != "none")
    covered = [c for c in sess.log.covered if c.probe == "edit"]
    if mode in ("good", "none"):
        assert not sess.log.findings and bool(covered) is (mode == "good")
        return
    (finding,) = sess.log.findings
    assert finding.probe == {"bad": "edit-not-saved", "crash": "blank-after-action"}[mode]
    assert "Alder Supplies" in finding.element
    exploration = Exploration(findings=[f.to_dict() for f in sess.log.findings], covered=[])
    for text, failed in (("Users can edit the name of an existing supplier.", True),
                         ("Users can edit their profile.", False)):
        verdict = decide(TestItem(id="FT-01", dimension=Dimension.functionality, description=text), exploration)
        assert (verdict.status is Status.failed) is failed, (text, verdict)


def _fails(findings: list, text: str) -> bool:
    exploration = Exploration(findings=[f.to_dict() for f in findings], covered=[])
    return decide(TestItem(id="FT-01", dimension=Dimension.functionality, description=text), exploration).status is Status.failed


@pytest.mark.parametrize("layer", ["1", "part"])
def test_an_edit_control_under_a_decoration_takes_no_click_unless_part_of_it_is_free(session, layer):
    """Each supplier card draws a decoration over its Edit button (a card's corner gradient laid over its action
    buttons): no click reaches the button, a finding that fails the items about editing suppliers. A small icon
    over the button's middle only (``part``) leaves the rest of it to click, and the edit is checked as usual."""
    sess = session(f"list.html?edit=1&layer={layer}", bad=False)
    assert probe_listed_edit(sess, read_model(sess.page)) is True
    if layer == "part":
        assert not sess.log.findings and [c.probe for c in sess.log.covered] == ["edit"], sess.log.steps
        return
    (finding,) = sess.log.findings
    assert finding.probe == "control-covered" and 'edit control "Edit" of the entry "Alder Supplies"' in finding.element
    assert finding.details["action"] == "edit" and finding.details["subject"] == "Suppliers"
    assert finding.details["covered_by"] == "<div>" and finding.screenshot  # the decoration, not the button
    assert _fails(sess.log.findings, "Users can edit the name of an existing supplier.")
    assert not _fails(sess.log.findings, "Users can delete suppliers.")
    assert not _fails(sess.log.findings, "Users can edit their profile.")


def test_a_control_gone_from_the_page_is_given_up_within_the_click_timeout(session):
    """The element a probe marked is gone when its click comes (the page re-rendered): the reach check waits no longer
    than the click would have, instead of Playwright's default of 30 s."""
    from webtester.probes.reach import click_reachable

    sess = session("list.html", bad=False)
    started = time.monotonic()
    with pytest.raises(Exception, match="Timeout"):
        click_reachable(sess, sess.page.locator("[data-wt-edit=gone]"), "edit control", action="edit", subject="", timeout=500)
    assert time.monotonic() - started < 10
    assert not sess.log.findings


def test_a_delete_control_under_a_decoration_takes_no_click(session):
    """Each task row draws a decoration over its trash icon: the deletion cannot be started, a finding named by
    the list's heading that fails the items about deleting tasks (and nothing is deleted)."""
    from webtester.probes.deletion import probe_delete_confirmation

    sess = session("delete_rows.html?layer=1&bad=1", bad=False)
    assert probe_delete_confirmation(sess, [sess.start_url]) is True
    (finding,) = sess.log.findings
    assert finding.probe == "control-covered" and "Write the quarterly report" in finding.element
    assert finding.details["action"] == "delete" and finding.details["subject"] == "My tasks"
    assert sess.shows("Write the quarterly report")
    assert _fails(sess.log.findings, "Users can delete tasks they no longer need.")
    assert not _fails(sess.log.findings, "Users can edit tasks.")
    assert not _fails(sess.log.findings, "Users can delete their account.")


def test_an_entry_s_edit_control_has_a_short_label(session):
    """A card whose whole text describes a page ("Manage employees: add and edit their profiles") is no entry's
    Edit control; a short "Edit" button, or an icon-only pencil button, is."""
    sess = session("list.html", bad=False)
    sess.page.set_content("""<ul>
      <li><h3>Create schedule</h3><button>Manage employees: add and edit employee profiles and skills</button></li>
      <li><h3>Night shift</h3><button>Edit</button></li>
      <li><h3>Day shift</h3><button aria-label=""><svg class="lucide lucide-pencil"></svg></button></li></ul>""")
    found = [sess.page.evaluate(ENTRY_CONTROL_JS, [title, "edit", "data-wt-edit"]) for title in ("Create schedule", "Night shift", "Day shift")]
    assert found == [None, "Edit", "pencil icon"]


@pytest.mark.parametrize("bad", [True, False])
def test_a_form_that_needs_one_part_of_its_own_list_and_leaves_for_another_view_is_probed_in_full(session, bad):
    """The form is refused until a role is added with its own "Add Role" button, so the probes add one before every
    submission after that; once created the app shows the project's own view, whose "Select a role ..." is no
    refusal, and no list: the two equal projects are looked for on the start page, where the list is."""
    sess = session("projects.html", bad)

    def reopen():
        sess.goto()
        sess.click("#new")
        return next(f for f in read_model(sess.page).forms if f.visible)

    probe_form(sess, "Create New Project", reopen, list_pages=[sess.start_url])
    kinds = set(_kinds(sess))
    assert any("added one part of its list" in step for step in sess.log.steps), sess.log.steps
    assert not any("not clearly accepted" in step for step in sess.log.steps), sess.log.steps
    if bad:
        assert {"past-date-accepted", "duplicate-accepted"} <= kinds, sess.log.findings
        (duplicate,) = [f for f in sess.log.findings if f.probe == "duplicate-accepted"]
        assert "2 entries with it are listed on /projects.html" in duplicate.message
    else:
        assert not {"past-date-accepted", "duplicate-accepted"} & kinds, sess.log.findings
        assert {"past-date", "duplicate"} <= {c.probe for c in sess.log.covered}


@pytest.mark.parametrize("bad", [True, False])
def test_a_booking_form_that_resets_after_a_request_is_probed_in_full(session, bad):
    """The date picker shows "Select" beside a calendar icon: it is a field, picked before the request can be sent.
    A request sent resets the form, whose required name is empty again: that is the request taken, not refused, so
    the battery goes on to send the same request twice."""
    sess = session("booking.html", bad=bad)
    form = read_model(sess.page).forms[0]
    assert [(f.label, f.kind, f.value) for f in form.fields] == [("Check-in", "datepicker", ""), ("Your Name", "text", "")]
    probe_form(sess, "Request to Book", lambda: (sess.goto(), read_model(sess.page).forms[0])[1])
    _assert_taken_then_tried_twice(sess, bad)


def test_fields_whose_path_a_choice_moved_are_filled_after_the_form_is_read_again(session):
    """Choosing the item adds its card before the rating and the text area: their paths, read before, lead nowhere
    now. Filling the form does not wait for them (a click waits 2 s, a fill 5 s): it reads the form again, brings
    the model's fields and button up to date and fills the rating and the text area by their label. The bound is
    what the code promises, not a speed figure."""
    sess = session("moving.html", bad=False)
    form = read_model(sess.page).forms[0]
    assert [f.kind for f in form.fields] == ["select", "textarea", "rating"]
    before = [f.sel for f in form.fields]
    started = time.monotonic()
    assert fill_form(sess, form, "wt001") == 3  # the item, then the text area and the rating where they are now
    assert time.monotonic() - started < 2.0
    assert [f.sel for f in form.fields][1:] != before[1:]
    assert "wt001" in sess.page.locator("textarea").input_value()
    assert sess.page.locator(form.submit or "nothing").count() == 1


@pytest.mark.parametrize("bad", [True, False])
def test_a_row_of_star_buttons_is_a_rating_field_filled_in_and_tried_unset(session, bad):
    """The rating is a row of buttons holding only a star icon: a field, set by clicking a star, so the valid review
    is taken; left unset, the review must be refused (the reviews' own stars, disabled, are no field)."""
    sess = session("review.html", bad=bad)
    form = read_model(sess.page).forms[0]
    assert [(f.label, f.kind) for f in form.fields] == [("Your Name", "text"), ("Your Review", "textarea"),
                                                        ("Your Rating", "rating")]
    probe_form(sess, "Submit Review", lambda: (sess.goto(), read_model(sess.page).forms[0])[1])
    assert not any("not clearly accepted" in step for step in sess.log.steps), sess.log.steps
    unset = [f for f in sess.log.findings if f.probe == "required-field-not-enforced"]
    if bad:
        assert unset and 'without a choice for "Your Rating"' in unset[0].message, sess.log.findings
    else:
        assert not unset and "required-choice" in {c.probe for c in sess.log.covered}, sess.log.steps


@pytest.mark.parametrize("bad", [True, False])
def test_a_button_under_the_toast_of_a_refusal_still_takes_the_corrected_submission(session, bad):
    """A template needs one field of its own: the refusal's toast stays laid over the form's button, and the
    submission sent again once a field is added must still reach the button, so the battery goes on to send the
    same template twice."""
    sess = session("covered.html", bad=bad)
    probe_form(sess, "Submit a Template", lambda: (sess.goto(), read_model(sess.page).forms[0])[1])
    _assert_taken_then_tried_twice(sess, bad)


@pytest.mark.parametrize("bad", [True, False])
@pytest.mark.parametrize("gated", [False, True])
def test_a_dialog_that_waits_for_a_day_to_be_ticked_is_probed_in_full(session, bad, gated):
    """The schedule's button returns without a word while none of its day boxes (Radix checkboxes) is ticked, or
    (gated) stays disabled with every text field filled: the valid submission that did nothing or could not be sent
    gets its first box ticked and is sent again, and the battery goes on to send the same schedule twice."""
    sess = session("schedule.html" + ("?gated=1" if gated else ""), bad=bad)

    def reopen():
        sess.goto()
        sess.page.click("#open")
        return read_model(sess.page).forms[0]

    probe_form(sess, "Create New Schedule", reopen)
    assert any("ticked its first choice" in step for step in sess.log.steps), sess.log.steps
    _assert_taken_then_tried_twice(sess, bad)


@pytest.mark.parametrize("bad", [True, False])
def test_a_form_that_does_nothing_when_empty_is_tried_with_only_its_first_field(session, bad):
    """The task form's button does nothing at all while the title is empty: that is a refusal too, so the form is
    sent with only its title, which shows whether the due date is required (a finding when a task without one is
    listed, coverage when it is refused)."""
    sess = session("quiet.html", bad=bad)
    probe_form(sess, "Create Task", lambda: (sess.goto(), read_model(sess.page).forms[0])[1])
    assert any("submitted with only 'Title'" in step for step in sess.log.steps), sess.log.steps
    missing = [f for f in sess.log.findings if f.probe == "empty-field-accepted"]
    if bad:
        assert [f.element for f in missing] == ['field "Due Date" of form "Create Task"'], sess.log.findings
    else:
        assert not missing and any(c.probe == "required" and "'Due Date' left empty" in c.element for c in sess.log.covered)


@pytest.mark.parametrize("past_days", [True, False])
def test_a_date_picker_is_tried_with_a_day_before_today(session, past_days):
    """The calendar of a date picker shows yesterday before today: when it lets yesterday be chosen and the expense is
    saved with it, that is a past date accepted; when yesterday is disabled, the picker itself is the limit."""
    sess = session("custom_select.html" + ("?pastdays=1" if past_days else ""), bad=False)
    probe_form(sess, "New expense", lambda: (sess.goto(), read_model(sess.page).forms[0])[1])
    found = [f for f in sess.log.findings if f.probe == "past-date-accepted"]
    covered = [c for c in sess.log.covered if c.probe == "past-date"]
    if past_days:
        assert found and found[0].element == 'field "Date" of form "New expense"' and not covered, sess.log.steps
        assert "a day before today" in found[0].message and any(a.get("action") == "click" for a in found[0].actions)
    else:
        assert not found and covered and "lets no day before today be chosen" in covered[0].note


@pytest.mark.parametrize("past_days", [True, False])
def test_a_calendar_without_a_today_marker_is_read_by_its_month_and_day_numbers(session, past_days):
    """shadcn's calendar replaces react-day-picker's today class with its own: the days before today are then the
    days of the month shown in its caption numbered before today (the other months' days and the cells whose class
    merely mentions "day-outside" in a variant are not taken for them)."""
    sess = session("calendar.html" + ("?pastdays=1" if past_days else ""), bad=False)
    (picker,) = [f for f in read_model(sess.page).forms[0].fields if f.kind == "datepicker"]
    chosen = widgets.pick_past_day(sess, picker)
    today = date.today().day
    if today == 1:
        assert chosen is None  # no day of this month before today
    elif past_days:
        assert chosen == str(today - 1) and sess.page.locator("#when").inner_text().endswith(f"-{today - 1}")
    else:
        assert chosen == ""


@pytest.mark.parametrize("bad", [True, False])
def test_a_field_the_form_accepts_empty_is_a_finding_about_that_field(session, bad):
    """The form refuses to be empty; filled in only in its first text field, it creates the task without the due date
    (``bad``) or refuses it. The labels stand beside the fields without being tied to them, and name the findings; a
    field marked optional is not left empty. The finding fails an item that names the due date as required, not one
    about another field."""
    sess = session("required_fields.html", bad)
    probe_form(sess, "Create Task", lambda: (sess.goto(), read_model(sess.page).forms[0])[1])
    fields = [f.details["field"] for f in sess.log.findings if f.probe == "empty-field-accepted"]
    covered = [c for c in sess.log.covered if c.probe == "required" and "left empty" in c.element]
    if not bad:
        assert not fields and covered and "'Due Date'" in covered[0].element
        return
    assert fields == ["Due Date"] and not covered
    exploration = Exploration(findings=[f.to_dict() for f in sess.log.findings])
    due = TestItem(id="CS-1", dimension=Dimension.constraint, description="To create a task, you must enter the due date.",
                   action="Create a task without a due date.", expected="The task is not created.")
    other = due.model_copy(update={"id": "CS-2", "description": "To create a task, you must enter a title and a priority.",
                                   "action": "Create a task without a title."})
    assert decide(due, exploration).status is Status.failed
    assert decide(other, exploration).status is not Status.failed


def test_steps_that_ask_for_a_choice_first_are_gone_through_to_the_form_behind_them(session):
    """An appliance (cards), then a date (a custom select) and a time slot (buttons), each step with a "Continue"
    disabled until chosen: the first option of each kind is chosen, the form behind the steps is reached, and
    clicking the recorded selectors again from the start goes the same way."""
    sess = session("choice_steps.html", bad=False)
    clicked = take_choice_steps(sess.page, click=sess.click, settle=sess.settle)
    assert sess.page.locator("h2").inner_text() == "Your details", clicked
    assert len(clicked) == 6, clicked  # a card, Continue; the date picker, its first day, a slot, Continue
    assert choice_step(sess.page) is None  # a step with a field to type into is a form, no choice step
    sess.goto()
    for selector in clicked:
        sess.click(selector)
        sess.settle()
    assert sess.page.locator("h2").inner_text() == "Your details"


def test_the_exploration_registers_the_form_behind_a_crawled_step_that_asks_for_a_choice(session):
    """The crawl saw the booking's first step with its "Continue" disabled: the exploration goes through the steps
    and registers "Your details" with the whole way there, so that its battery opens it again."""
    sess = session("choice_steps.html", bad=False)
    graph = StateGraph(routes=[sess.start_url])
    graph.states.append(CrawlState(id="s0", url=sess.start_url, title="Repairs", headings=[], text="", dialog=False,
                                   controls=[{"role": "button", "name": "Continue", "disabled": True}]))
    explorer = Explorer(sess.page, sess.start_url, time_limit=None, graph=graph)
    explorer.sess = sess
    explorer._choice_step_forms()
    spot = next(s for s in explorer.forms if "Book" in s.name or "details" in s.name.lower())
    assert len(spot.openers) == 6, spot.openers
    form = explorer._reopen(spot)()
    assert form is not None and [f.label for f in form.fields] == ["Name"]
