"""Requirements cut from real WebTestBench instructions, and the checklist the baseline plans from them."""

from __future__ import annotations

from webtester.baseline.checklist import plan_checklist
from webtester.baseline.requirements import implied_items, requirements
from webtester.models import Dimension

PRODUCTS = ("I want a niche product recommendation website where I can curate lists of tech gadgets, home goods, and "
            "fitness products, each with brief reviews and affiliate purchase links. I should be able to create, edit, "
            "categorize, and tag product entries, and mark certain items as featured on the homepage. Visitors should be "
            "able to browse products by category, sort and filter them by attributes like price range or rating, and "
            "search by keyword. Each product should have its own detail page showing my review, key specs, and a clear "
            "button linking to the external retailer.")
JOBS = ("I want a job board webpage where employers can create and manage job listings by entering details like title, "
        "description, location, salary range, and required skills. Job seekers should be able to browse all available "
        "listings, filter them by industry, location, and employment type, and search by keywords. Each job listing page "
        "should display full details and allow job seekers to submit a simple application form with their contact "
        "information and a short message. There should also be a basic dashboard for employers to view their posted jobs "
        "and see a list of submitted applications for each listing.")


def texts(instruction: str) -> list[str]:
    return [r.text for r in requirements(instruction)]


def test_coordinated_verbs_become_one_requirement_each_about_their_shared_object():
    got = texts(PRODUCTS)
    for verb in ("create", "edit", "categorize", "tag"):
        assert f"Users can {verb} product entries." in got
    assert "Users can mark certain items as featured on the homepage." in got


def test_a_pronoun_takes_the_object_it_stands_for_and_the_actor_is_kept():
    got = texts(PRODUCTS)
    assert "Visitors can filter products by attributes like price range or rating." in got
    assert "Visitors can sort products." in got
    assert any(t.startswith("Each product has its own detail page") for t in got)


def test_allowing_someone_to_act_is_their_requirement_and_there_should_be_states_what_the_app_has():
    got = texts(JOBS)
    assert "Job seekers can submit a simple application form with their contact information and a short message." in got
    assert "Employers can create job listings." in got
    assert any(t.startswith("The app has a basic dashboard for employers") for t in got)
    assert not any(t.lower().startswith("i want") for t in got)


def test_each_kind_of_requirement_implies_the_checks_a_tester_would_write():
    implied = implied_items(requirements(JOBS))
    by_dim = {d: [t for dim, t, *_ in implied if dim is d] for d in Dimension}
    assert any("cannot be submitted with required information missing" in t for t in by_dim[Dimension.constraint])
    assert any("results strictly match the selected criteria" in t for t in by_dim[Dimension.constraint])
    assert any(t.startswith("After job listings are created") for t in by_dim[Dimension.interaction])
    assert all(action and expected for _, _, action, expected, _ in implied)


def test_the_checklist_holds_whole_requirements_and_no_template_of_another_kind_of_app():
    planned = plan_checklist(JOBS, None, 20)
    assert len(planned) == 20
    assert all(len(p.description.split()) >= 4 and p.action and p.expected for p in planned)
    assert not any("vote" in p.description.lower() for p in planned)  # "details like title" is no like button
    assert sum(p.dimension is Dimension.functionality for p in planned) >= 8
    # checks about the whole app (layout, console errors) only fill places the requirements leave
    assert not {"layout", "errors"} & {p.rule for p in planned}
    assert {"layout", "errors"} <= {p.rule for p in plan_checklist("I want a page that shows my photos in a grid.", None, 20)}


TODO = ("I want a to-do webpage where I can add tasks with titles, optional descriptions, and deadlines, then edit, "
        "complete, or delete them. The page should also let me assign a simple priority to each task and sort my list "
        "by that priority or by deadline.It supports binding one or more prerequisite tasks to any task. "
        "It should help them see which tasks are blocked.")


def test_letting_someone_act_needs_no_to_and_a_sentence_glued_to_the_next_is_still_cut():
    got = texts(TODO)
    assert "Users can assign a simple priority to each task." in got
    assert "The app can sort the user's list by that priority or by deadline." in got
    assert "Users can see which tasks are blocked." in got
    assert not any("deadline.It" in t or t.startswith("The app can each") for t in got)


FEATURES = ("I want a page to track lab samples. Users can add samples with an expiry date. New features: 1. Support for "
            "batch import of samples from a CSV file; 2. The page features three tabs: Batch Table, Add/Edit and "
            "Expiration Reminders. I’d like to mark samples as used without losing them. Fast.")


def test_a_feature_stated_without_can_or_should_is_kept_whole_and_list_numbers_are_not_items():
    got = texts(FEATURES)
    assert "The app supports batch import of samples from a CSV file." in got
    assert "The page features three tabs: Batch Table, Add/Edit and Expiration Reminders." in got
    assert "Users can mark samples as used without losing them." in got
    assert "Users can add samples with an expiry date." in got
    assert not any(t in ("New features: 1.", "Fast.", "2.") for t in got)


CHAT = ("I want a chat webpage where users register, log in, and participate in chat rooms. Users set goals such as "
        "“three times a week.” The site should show recent messages in a timeline. The chat history should be "
        "searchable by keyword, and users should be able to jump to matching messages. Each asset should have a name, "
        "and the user can assign one owner to it, so I can focus on my spending.")
REVIEWS = ("I want a web page for writing short reviews, featuring topic page display, review browsing, liking/saving "
           "and a dashboard (with trend charts, chart switching and zooming).")


def test_a_second_subject_a_quoted_sentence_end_a_clause_without_modal_and_a_featured_list_are_read():
    got = texts(CHAT)
    assert "Users can register." in got and "Users can log in, and participate in chat rooms." in got
    assert "The app can show recent messages in a timeline." in got  # cut after 'week.”'
    assert "The chat history can be searchable by keyword." in got
    assert "Users can jump to matching messages." in got
    assert "Users can assign one owner to it, so the user can focus on the user's spending." in got
    assert "Each asset has a name." in got  # the second subject starts a requirement of its own
    assert texts("I want a page that allows the user to define workflow steps.") == ["Users can define workflow steps."]
    assert texts(REVIEWS) == ["The app offers topic page display.", "The app offers review browsing.", "The app offers liking/saving.",
                              "The app offers a dashboard (with trend charts, chart switching and zooming)."]


def test_an_implied_item_agrees_with_the_head_of_its_object_and_carries_no_doubled_article():
    """A list of all assets is one list and takes "displays"; data assets assigned are many and take "display"."""
    instruction = ("I want an asset register. Users should be able to view the list of all assets and view the data "
                   "assets assigned to them.")
    shown = [t for dim, t, *_ in implied_items(requirements(instruction)) if dim is Dimension.content]
    assert "The list of all assets shown displays complete, clear and relevant information." in shown, shown
    assert "The data assets assigned shown display complete, clear and relevant information." in shown, shown
    assert not any("The the" in t for t in shown)


def test_checks_of_unlabelled_number_and_email_fields_still_name_what_they_check():
    from webtester.baseline.checklist import _implied
    from webtester.probes.pagemodel import Field, FormModel, PageModel

    fields = [Field("#n", "input", "number", ""), Field("#e", "input", "email", "")]
    form = FormModel("#f", "Order", True, "#go", "Place order", fields)
    model = PageModel("http://app/", "Shop", [form], [], None, None, 0, [], [], [], [], [], 0, [])
    texts = [p.description for p in _implied("A shop.", model)]
    assert "The value must be a positive number: a negative number is rejected with a validation error instead of " \
           "being accepted." in texts
    assert any(t.startswith("The email field rejects an address") for t in texts), texts
    assert not any("The  " in t for t in texts)


def test_what_the_first_sentence_says_the_app_is_for_is_a_requirement():
    """The users and action of "a web page for team leads to manage ...", an action alone ("a webpage for
    submitting X, viewing Y, and selecting Z", "that allows setting up ..."), and a clause whose subject acts
    without a modal ("where students create accounts, set up profiles ..."); a list of examples keeps its commas."""
    assert texts("I want a web page for team leads to manage internal projects and staff assignment in one place.") == [
        "Team leads can manage internal projects and staff assignment in one place."]
    assert texts("I need a webpage for submitting purchase requests, viewing quotes submitted by suppliers, and selecting "
                 "the winning quote.") == ["Users can submit purchase requests.", "Users can view quotes submitted by suppliers.",
                                           "Users can select the winning quote."]
    assert texts("I want a webpage that allows setting up a simple approval workflow by adding approval nodes in "
                 "sequence.") == ["Users can set up a simple approval workflow by adding approval nodes in sequence."]
    assert texts("I want a webpage to manage parameter sets for experiments, where each set contains multiple "
                 "variables.") == ["Users can manage parameter sets for experiments."]
    got = texts("I want a collaborative study platform where students create accounts, set up profiles with their "
                "subjects, and then join or create focused study groups around topics like calculus or biology.")
    assert got[:3] == ["Students can create accounts.", "Students can set up profiles with their subjects.",
                       "Students can join focused study groups."]
    assert texts("I need to create a webpage for creating candidate profiles, with structured fields such as name, "
                 "contact information and skills.") == [
        "Users can create candidate profiles, with structured fields such as name, contact information and skills."]
    assert texts("I want a webpage for inventory counting and reconciliation.") == []  # what it is, not an action
