"""Dates out of range and repeated submissions: which items the rules cover, which items a finding of the form
probes decides, the date submissions the probes try, and the checklist items an instruction implies."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from webtester.baseline.checklist import form_noun, plan_checklist, rules_for_text, singular
from webtester.baseline.explore import Exploration
from webtester.baseline.verdicts import decide
from webtester.models import Dimension, Status, TestItem
from webtester.probes.forms import NOT_CREATING, UNAVAILABLE, date_cases, date_pair, date_value
from webtester.probes.pagemodel import Field


@pytest.mark.parametrize("text, rule", [
    ("You cannot select past dates and times when creating an event.", "past-date"),
    ("The deadline for the task must be a valid future date or current date.", "past-date"),
    ("The deadline cannot be a date that has already passed.", "past-date"),
    ("When recording a transaction, the transaction date cannot be a future date.", "future-date"),
    ("Users are unable to submit workout records from future times.", "future-date"),
    ("The start date entered must be earlier than the end date.", "date-order"),
    ("Users cannot give two contracts the same name.", "duplicate"),
    ("You cannot create multiple rule sets with the same name.", "duplicate"),
    ("Users cannot send multiple inquiry forms for the same pet within a short time.", "duplicate"),
    ("Patients cannot make appointments within the same time slot as other patients.", "duplicate"),
    ("Guests cannot leave a review for the same stay repeatedly.", "duplicate"),
    ("Only one reservation can be accepted for the same table at the same time.", "duplicate"),
    ("Tag names within a group must be unique.", "duplicate"),
    ("The list of criteria keeps its uniqueness and prevents repetition.", "duplicate"),
    ("The booking page must have conflict detection for rooms booked at the same time.", "duplicate"),
    ("The planner checks whether the chosen room is already occupied in that period and warns about it.", "duplicate"),
    ("To create a task, you must enter the due date, priority, and person in charge.", "required"),
    ("The primary owner must be selected from the available list; it cannot be left blank.", "required"),
    ("Users cannot create a view if the view name or the filter criteria are empty.", "required"),
])
def test_constraint_items_get_their_date_or_duplicate_rule(text, rule):
    assert rule in rules_for_text(text)


@pytest.mark.parametrize("text", [
    "Users can view past orders and their dates.",
    "Exceptions whose expiration date has passed move to the history list.",
    "Users can add upcoming events to a calendar.",
    "Different rooms can be booked for the same time slot.",
    "Users can edit their comments repeatedly and revert to earlier versions.",
    "A course that conflicts with the timetable is shown with a warning.",
    "Only one panel at a time is expanded.",
    "The deadline for the task must be a valid future date or current date.",  # a past date is what it forbids
])
def test_items_that_set_no_such_limit_get_no_date_rule(text):
    assert "duplicate" not in rules_for_text(text)
    assert not {"future-date", "date-order"} & set(rules_for_text(text))


def _finding(probe: str, field: str = "Event date") -> dict:
    return {"probe": probe, "page_url": "http://app/new", "element": f'field "{field}" of form "Create New Event"',
            "message": "a date in the past was accepted without an error", "details": {"field": field}}


def _gold(text: str) -> TestItem:
    return TestItem(id="CS-01", dimension=Dimension.constraint, description=text, action="", expected="")


def test_a_past_date_finding_fails_the_item_about_past_dates_whatever_the_field_is_called():
    exploration = Exploration(findings=[_finding("past-date-accepted", field="When")])
    verdict = decide(_gold("When scheduling, the date picker should disable past dates and warn about conflicts."), exploration)
    assert verdict.status is Status.failed
    assert verdict.bug_report is not None and "past-date-accepted" in verdict.bug_report.issue


def test_a_date_finding_leaves_items_about_other_limits_unchecked():
    exploration = Exploration(findings=[_finding("past-date-accepted")])
    assert decide(_gold("When recording a transaction, the date cannot be a future date."), exploration).status is Status.error
    assert decide(_gold("The event title must not be empty."), exploration).status is Status.error


def test_a_repeated_submission_does_not_decide_repeated_likes():
    exploration = Exploration(findings=[_finding("duplicate-accepted")])
    assert decide(_gold("Users cannot create two tags with the same name."), exploration).status is Status.failed
    assert decide(_gold("Users should not like the same comment twice."), exploration).status is Status.error


def test_a_planned_date_item_passes_when_the_probe_saw_the_date_rejected():
    exploration = Exploration(covered=[{"probe": "past-date", "element": 'field "Due" of form "Task"', "note": "rejected"}])
    verdict = decide(_gold("A deadline cannot be set to a date in the past."), exploration, rule="past-date", target=None,
                     planned=True)
    assert verdict.status is Status.passed


def test_an_item_about_one_of_the_dates_an_instruction_names_is_decided_on_that_date_field():
    """"Set the issue date and due date": the past-date item about the due date is decided by the "Due date" field
    only (an issue date may rightly lie in the past); an instruction naming one date leaves the item to any field."""
    instruction = "I want to fill in the client's details, set the issue date and due date, and add line items."
    item = next(p for p in plan_checklist(instruction, None, exercised={"past-date"}) if p.rule == "past-date")
    assert item.description.startswith("A due date") and item.target == "due"
    issue, due = _finding("past-date-accepted", field="Issue date"), _finding("past-date-accepted", field="Due date")
    test_item = _gold(item.description)
    assert decide(test_item, Exploration(findings=[issue]), rule=item.rule, target=item.target, planned=True).status \
        is Status.error
    assert decide(test_item, Exploration(findings=[due]), rule=item.rule, target=item.target, planned=True).status \
        is Status.failed
    alone = next(p for p in plan_checklist("Tasks have a due date.", None, exercised={"past-date"}) if p.rule == "past-date")
    assert alone.target is None


def _date_field(sel: str, label: str, **kw) -> Field:
    return Field(sel=sel, tag="input", type="date", label=label, **kw)


def test_date_cases_try_the_past_the_future_and_an_end_before_the_start_only_where_the_field_sets_no_limit():
    start, end = _date_field("#s", "Start date"), _date_field("#e", "End date")
    cases = {probe: values for probe, values, _, _ in date_cases([_date_field("#t", "Title"), start, end])}
    assert set(cases) == {"past-date-accepted", "future-date-accepted", "end-before-start-accepted"}
    assert cases["past-date-accepted"]["#t"] < date.today().isoformat() < cases["future-date-accepted"]["#t"]
    order = cases["end-before-start-accepted"]
    assert order["#e"] < order["#s"] and order["#e"] > date.today().isoformat()
    limited = _date_field("#d", "Due", min=date.today().isoformat(), max=(date.today() + timedelta(days=90)).isoformat())
    assert date_cases([limited]) == []


@pytest.mark.parametrize("label", ["Date of Visit", "Birth date", "Date purchased"])
def test_a_date_of_what_already_happened_is_tried_in_the_future_only(label):
    assert [probe for probe, *_ in date_cases([_date_field("#v", label)])] == ["future-date-accepted"]


def test_a_start_and_end_pair_is_read_from_the_labels():
    fields = [_date_field("#a", "Check-in"), _date_field("#b", "Check-out")]
    assert date_pair(fields) == (fields[0], fields[1])
    assert date_pair([_date_field("#a", "Date"), _date_field("#b", "Reminder")]) is None
    assert date_value("datetime-local", 0).endswith("T10:00")


def test_an_instruction_that_schedules_and_records_implies_the_date_limits_and_the_duplicate_check():
    instruction = ("I want a team planner where I can create tasks with a deadline, log expenses with their date and plan "
                   "trips with a start date and an end date.")
    rules = {p.rule: p for p in plan_checklist(instruction, None, 20)}
    assert {"past-date", "future-date", "date-order", "duplicate"} <= set(rules)
    assert "deadline" in rules["past-date"].description and "expense" in rules["future-date"].description
    assert all(rules[r].dimension is Dimension.constraint for r in ("past-date", "future-date", "date-order", "duplicate"))
    undated = {p.rule for p in plan_checklist("I want a page that shows my photos in a grid.", None, 20)}
    assert not {"past-date", "future-date", "date-order"} & undated


def test_an_option_is_unavailable_when_marked_full_but_not_for_being_full_time():
    assert UNAVAILABLE.search("Workshop B (full)") and UNAVAILABLE.search("Sold out")
    assert not UNAVAILABLE.search("Full-time") and not UNAVAILABLE.search("Full time")


def test_forms_that_create_nothing_get_no_repeated_submission():
    assert NOT_CREATING.search("Sign In") and NOT_CREATING.search("Subscribe to our newsletter")
    assert not NOT_CREATING.search("Create New Event Save event") and not NOT_CREATING.search("Add Transaction")


def test_the_bug_report_quotes_the_finding_on_the_form_the_item_names():
    other = {"probe": "duplicate-accepted", "page_url": "http://app/post", "element": 'form "Post Job"',
             "message": "the same data (wt004) submitted twice", "details": {}}
    named = {**other, "element": 'form "Submit Application"', "message": "the same data (wt007) submitted twice"}
    verdict = decide(_gold("Job seekers cannot submit multiple applications for the same position with the same contact "
                           "information."), Exploration(findings=[other, named]))
    assert verdict.status is Status.failed and verdict.bug_report is not None
    assert "wt007" in verdict.bug_report.issue


def test_the_feature_search_leaves_the_baselines_own_date_and_duplicate_items_to_their_probe(tmp_path):
    from webtester.agents.base import InstanceBudget, ItemBudget
    from webtester.baseline import BaselineTester
    from webtester.baseline.absence import FEATURE_NAMES, AbsenceModel
    from webtester.baseline.crawl import CrawlState, StateGraph
    from webtester.baseline.tester import PLAN_FILE
    from webtester.runfolder import EXPLORATION_FILE, STATE_GRAPH_FILE, write_json

    folder = tmp_path / "run" / "app_1"
    state = CrawlState("s1", "http://app/", "Notes", ["Notes"], "Notes", [], False)
    write_json(folder / STATE_GRAPH_FILE, StateGraph(states=[state], routes=["http://app/"]).to_dict())
    write_json(folder / EXPLORATION_FILE, {"pages": ["http://app/"]})
    write_json(folder / PLAN_FILE, {"CS-01": {"rule": "duplicate", "target": None}, "CS-02": {"rule": None, "target": None}})
    always = AbsenceModel(coef=[0.0] * len(FEATURE_NAMES), intercept=10.0, mean=[0.0] * len(FEATURE_NAMES),
                          scale=[1.0] * len(FEATURE_NAMES), threshold=0.5)  # fails every item it searches
    tester = BaselineTester.from_preparation(folder, absence_model=always)
    items = [_gold("Submitting the same entry twice does not create a duplicate."),
             TestItem(id="CS-02", dimension=Dimension.constraint, description="Entries can be exported as CSV files.")]
    tester.plan_detection(items)
    budget = ItemBudget(30, InstanceBudget(10_000, 0))
    own, other = (tester.detect(i, None, budget) for i in items)
    assert own.status is Status.error and "rules: duplicate" in (own.evidence.notes or "")
    assert other.status is Status.failed  # the same model fails an item it may search


def test_a_name_of_spaces_accepted_decides_items_about_spaces_not_every_required_field_item():
    exploration = Exploration(findings=[{**_finding("blank-input-accepted"), "element": 'form "Add Step" with \'Name\' holding only spaces',
                                         "message": "text fields holding only spaces were accepted like real values", "details": {}}])
    assert decide(_gold("You cannot add empty steps or steps that contain only spaces."), exploration).status is Status.failed
    assert decide(_gold("If a required field is left empty, the record cannot be saved."), exploration).status is Status.error


def test_the_exploration_s_date_fields_and_repeated_submissions_call_for_their_items_named_by_the_instruction():
    instruction = "I want a fitness tracker where I can log workouts with their type, duration and notes."
    plain = {p.rule for p in plan_checklist(instruction, None, 20)}
    assert not {"past-date", "future-date", "duplicate"} & plain
    rules = {p.rule: p for p in plan_checklist(instruction, None, 20, exercised={"past-date", "future-date", "duplicate"})}
    assert "workout" in rules["future-date"].description and "past-date" not in rules  # a workout is recorded, not scheduled
    assert rules["duplicate"].description.startswith("Submitting the same workout twice")


@pytest.mark.parametrize("instruction, words", [
    ("Users can edit their saved recipes and delete recipes they no longer cook.", ("Editing saved recipes",)),
    ("Users can set up reminders and change between views.", ("Editing an entry",)),  # no object to name
])
def test_the_edit_item_of_an_explored_app_names_what_the_instruction_edits(instruction, words):
    edits = [p.description for p in plan_checklist(instruction, None, 20, exercised={"edit"}) if p.rule == "edit"]
    assert len(edits) == 1 and edits[0].startswith(words), edits


@pytest.mark.parametrize("noun, one", [
    ("employee profiles", "employee profile"), ("categories", "category"), ("batches", "batch"),
    ("snapshots of a parameter", "snapshot of a parameter"), ("business", "business"), ("feedback", "feedback"),
])
def test_the_head_word_of_a_named_entry_is_put_in_the_singular(noun, one):
    assert singular(noun) == one


@pytest.mark.parametrize("form, planned_fails", [("Edit Project", False), ("Settings", False), ("New Project", True)])
def test_an_edit_or_settings_form_s_findings_decide_only_items_about_changing_something(form, planned_fails):
    finding = {"probe": "empty-form-accepted", "page_url": "http://app/", "element": f'form "{form}"',
               "message": "submitting the form with every field empty was accepted (no validation message)"}
    exploration = Exploration(findings=[finding])
    creating = _gold("Projects cannot be created with required information missing, empty or invalid.")
    assert (decide(creating, exploration, rule="required", planned=True).status is Status.failed) is planned_fails
    if form != "New Project":
        changing = _gold("Editing a project cannot leave its required fields empty.")
        assert decide(changing, exploration, rule="required", planned=True).status is Status.failed


@pytest.mark.parametrize("instruction, planned", [
    ("Users can create tasks with a title and a due date.", ["Users can delete tasks."]),
    ("Users can create tasks and delete them when done.", []),
    ("The page shows the opening hours of a bakery.", []),
    ("I want a platform where students create accounts and create study groups.", ["Users can delete study groups."]),
])
def test_what_users_create_they_are_expected_to_delete_unless_the_instruction_says_how(instruction, planned):
    """An app where users create things gets an item asking whether they can remove them (the commonest feature
    left out of generated apps), unless the instruction already speaks of deleting; a user's own account is not
    one of those things."""
    items = [p.description for p in plan_checklist(instruction, None, 20) if p.rule == "delete"]
    assert items == planned


@pytest.mark.parametrize("instruction, planned", [
    ("Users can add as many line items as they need.", "Users can delete line items."),
    ("Visitors can read a post and write replies below it.", "Users can delete replies."),
])
def test_the_object_named_by_an_item_leaves_out_quantities_and_pointing_phrases(instruction, planned):
    assert planned in [p.description for p in plan_checklist(instruction, None, 20)]


def test_a_list_mostly_of_entries_probed_already_is_the_same_list():
    """A start page's featured entries among all of them on a search route: their search and filters are tried once."""
    from webtester.baseline.explore import _same_entries

    featured = ["Sony WH-1000XM5", "Dyson V15 Detect"]
    everything = ["Sony WH-1000XM5", "Dyson V15 Detect", "Samsung Galaxy S24 Ultra", "Peloton Bike+"]
    assert _same_entries(everything, featured) and _same_entries(featured, everything)
    assert not _same_entries(everything, ["Peloton Bike+", "Kindle", "Roomba", "Vitamix"][1:])  # no entry in common
    assert not _same_entries(["a", "b", "c", "d"], ["a", "x", "y", "z"])  # one of four in common
    assert not _same_entries([], featured)


def test_one_form_shown_for_several_entries_is_one_form():
    """A booking dialog headed by the room it books, an edit dialog whose labels carry the row's values, and an edit
    dialog that offers the app's other entries as options, are one form each (their battery runs once); two forms
    that save different things are two."""
    from webtester.baseline.explore import _shapes
    from webtester.probes.pagemodel import Field, FormModel

    def form(name: str, button: str, *labels: str, kind: str = "text") -> FormModel:
        return FormModel("form", name, True, "button", button, [Field(f"#f{i}", "input", kind, label) for i, label in enumerate(labels)])

    rooms = [form(room, "Book now", "Date", "Start time", "End time") for room in ("Skyline Conference Room", "Focus Pod A")]
    assert _shapes(rooms[0]) & _shapes(rooms[1])
    edits = [form("Edit Task", "Save Changes", f"Title {title}", "Deadline") for title in ("Buy milk", "Walk the dog")]
    assert _shapes(edits[0]) & _shapes(edits[1])
    income, expense = form("Add Income", "Add Income", "Amount", "Date"), form("Add Expense", "Add Expense", "Amount", "Date")
    assert not _shapes(income) & _shapes(expense)
    assert not _shapes(edits[0]) & _shapes(form("Edit Task", "Save Changes", "Title", "Deadline", "Notes"))
    # each task's edit dialog offers the other tasks as prerequisites: one checkbox fewer or more than the next one's
    prerequisites = [form("Edit Task", "Save Changes", "Title", "Deadline") for _ in range(2)]
    for dialog, others in zip(prerequisites, (["Walk the dog", "Pay rent"], ["Buy milk", "Pay rent", "Call mum"])):
        dialog.fields += [Field(f"#p{i}", "input", "checkbox", other) for i, other in enumerate(others)]
    assert _shapes(prerequisites[0]) & _shapes(prerequisites[1])
    unlabelled = [form("Edit Task", "Save Changes", "Title", "Deadline") for _ in range(2)]
    for dialog, count in zip(unlabelled, (5, 6)):
        dialog.fields += [Field(f"#p{i}", "input", "checkbox", "") for i in range(count)]
    assert _shapes(unlabelled[0]) & _shapes(unlabelled[1])


def test_a_click_that_shows_no_new_field_opens_no_form():
    """A search box and filters on every view are no form to open; a dialog's own fields are."""
    from webtester.baseline.crawl import CrawlState
    from webtester.baseline.explore import _new_fields

    search = [{"role": "text", "name": "Search recipes"}, {"role": "combobox", "name": "Cuisine"}]
    home = CrawlState("s0", "/", "Recipes", ["Recipes"], "All recipes", [*search, {"role": "button", "name": "Pancakes"}], False)
    detail = CrawlState("s1", "/", "Recipes", ["Pancakes"], "Pancakes", [*search, {"role": "button", "name": "Close"}], True)
    dialog = CrawlState("s2", "/", "Recipes", ["New recipe"], "New recipe", [*search, {"role": "text", "label": "Title"}], True)
    assert not _new_fields(home, detail)
    assert _new_fields(home, dialog)


def test_the_repeated_submission_item_names_what_the_form_that_took_it_twice_creates():
    instruction = "I want a document manager where users add tags, create folders and upload documents."
    plain = [p for p in plan_checklist(instruction, None, 20, exercised={"duplicate"}) if p.rule == "duplicate"]
    assert not plain[0].description.startswith("Submitting the same folder")
    met = [("duplicate", "New Folder", ""), ("duplicate", "Edit Folder", "")]
    named = [p for p in plan_checklist(instruction, None, 20, exercised={"duplicate"}, met=met) if p.rule == "duplicate"]
    assert len(named) == 1 and named[0].description.startswith("Submitting the same folder twice")


@pytest.mark.parametrize("form, noun", [
    ("New Folder", "folder"), ("Add New Expenses", "expense"), ("Create Parameter Set", "parameter set"),
    ("Request to Book", None),  # only verbs
    ("Skyline Conference Room", None),  # a form named after what it books, which the instruction does not name
    ("Products & Services", None),
])
def test_a_form_names_what_it_creates_when_the_instruction_speaks_of_it(form, noun):
    instruction = "Users can add expenses to folders, define parameter sets and book meeting rooms. Products and services..."
    assert form_noun(form, instruction) == noun


def test_a_date_field_the_exploration_tried_gets_the_limit_its_label_implies():
    instruction = "I want a project tracker where managers create projects and log job applications."
    met = [("past-date", "Create New Project", "Start Date"), ("future-date", "Create New Project", "Start Date"),
           ("future-date", "Add Application", "Date Applied"), ("past-date", "Add Note", "Date")]
    rules = {p.rule: p.description for p in plan_checklist(instruction, None, 20, exercised={"past-date", "future-date"}, met=met)}
    assert rules["past-date"].startswith("The start date of a project cannot be set in the past")
    assert rules["future-date"].startswith("The date applied of an application cannot be a future date")
    undated = {p.rule for p in plan_checklist(instruction, None, 20, met=[("past-date", "Add Note", "Date")])}
    assert not {"past-date", "future-date"} & undated  # a date of a note is neither ahead nor behind
