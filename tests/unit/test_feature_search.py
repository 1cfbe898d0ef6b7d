"""Feature search: what an item needs, looked for in the crawled states; the fail model and its verdicts."""

from __future__ import annotations

import pytest

from webtester.baseline.absence import FEATURE_NAMES, AbsenceModel, AppVocabulary, search_item, terms
from webtester.baseline.crawl import CrawlEdge, CrawlState, StateGraph
from webtester.baseline.verdicts import asked_action, with_feature_search, without_action
from webtester.models import BugReport, Dimension, Evidence, Status, TestItem, Verdict


def graph() -> StateGraph:
    home = CrawlState("s1", "http://app/", "Jobs", ["Open positions"], "Open positions\nFrontend developer\nApply now",
                      [{"role": "button", "name": "Post a job"}, {"role": "link", "name": "Dashboard", "href": "http://app/dashboard"}],
                      False, screenshot="shots/s1.jpeg")
    dialog = CrawlState("s2", "http://app/", "Jobs", ["Post a job"], "Title\nLocation\nSalary range",
                        [{"role": "text", "name": "", "label": "Title"}, {"role": "combobox", "name": "Industry",
                                                                            "options": ["Tech", "Health"]}],
                        True, via='button "Post a job"')
    return StateGraph(states=[home, dialog], edges=[CrawlEdge("s1", 'button "Post a job"', "s2", 12)],
                      routes=["http://app/"], coverage={"share": 0.4})


def model(threshold: float = 0.5) -> AbsenceModel:
    coef = [3.0 if name == "missing_share" else 0.0 for name in FEATURE_NAMES]
    return AbsenceModel(coef=coef, intercept=0.0, mean=[0.5] + [0.0] * (len(FEATURE_NAMES) - 1),
                        scale=[0.25] + [1.0] * (len(FEATURE_NAMES) - 1), threshold=threshold)


def test_terms_are_stemmed_content_words_without_requirement_boilerplate():
    assert terms("Users can export the listings as CSV files") == {"export", "list", "csv", "file"}
    assert terms("The system should display relevant information") == set()


def test_an_item_is_searched_across_every_state_including_labels_and_options():
    vocab = AppVocabulary.of(graph(), "Employers post jobs with a salary range; job seekers export jobs as CSV.")
    found = search_item("Employers can choose the industry of a job and its salary range.", Dimension.functionality, vocab)
    assert found.missing == {"employ", "choos"} and found.best_state == "s2"
    missing = search_item("Users can export listings as CSV.", Dimension.functionality, vocab)
    assert missing.missing == {"export", "list", "csv"} and missing.features["missing_share"] == 1.0
    assert missing.features["instruction_missing"] == 2.0  # "export" and "csv" are in the instruction too
    assert set(missing.features) == set(FEATURE_NAMES)


def test_an_icon_only_control_counts_as_the_action_its_icon_stands_for():
    """A trash-can button with no text is the delete control: "delete" is not missing from an app that has one."""
    g = graph()
    g.states[0].controls.append({"role": "button", "name": "", "icon": "trash"})
    found = search_item("Users can delete a job.", Dimension.functionality, AppVocabulary.of(g, "Employers post jobs."))
    assert found.item_terms == {"delet", "job"} and not found.missing
    unknown = search_item("Users can delete a job.", Dimension.functionality, AppVocabulary.of(graph(), "Employers post jobs."))
    assert unknown.missing == {"delet"}


def test_actions_an_item_asks_for_are_looked_for_among_the_controls():
    g = graph()
    vocab = AppVocabulary.of(g, "Employers post jobs.")
    assert vocab.actions_without_control("Users can delete and export jobs.") == ["delete", "export"]
    g.states[0].controls.append({"role": "button", "name": "", "icon": "trash"})
    g.states[1].controls.append({"role": "button", "name": "Download CSV"})
    again = AppVocabulary.of(g, "Employers post jobs.")
    assert again.actions_without_control("Users can delete and export jobs.") == []
    found = search_item("Users can delete and export jobs.", Dimension.functionality, vocab)
    assert found.features["actions_without_control"] == 2.0


def test_the_words_of_a_checks_outcome_are_not_looked_for_as_features():
    """A validation check names its feature and then what must happen (rejected, nothing saved, an error per
    missing field): only the feature's words are searched, since the outcome is not on screen before the check."""
    vocab = AppVocabulary.of(graph(), "Employers post jobs.")
    found = search_item("Jobs cannot be created with required information missing, empty or invalid; a clear error "
                        "message is shown and nothing is saved. The form rejects the submission.",
                        Dimension.constraint, vocab)
    assert found.item_terms == {"job"} and not found.missing


def test_the_model_round_trips_and_refuses_features_of_another_version():
    m = model()
    again = AbsenceModel.from_dict(m.to_dict())
    feats = dict.fromkeys(FEATURE_NAMES, 0.0)
    assert again.probability({**feats, "missing_share": 1.0}) > 0.9 > 0.1 > again.probability(feats)
    with pytest.raises(ValueError, match="features"):
        AbsenceModel.from_dict({**m.to_dict(), "features": ["other"]})


def test_a_feature_the_app_never_shows_fails_with_the_words_the_closest_view_and_its_path():
    vocab = AppVocabulary.of(graph(), "")
    item = TestItem(id="FT-01", dimension=Dimension.functionality, description="Users can export listings as CSV.")
    probes = Verdict(item_id="FT-01", status=Status.error, evidence=Evidence(notes="not checked: no probe"))
    verdict = with_feature_search(probes, item, vocab, model())
    assert verdict.status is Status.failed and verdict.bug_report is not None
    assert "csv, export, list" in verdict.bug_report.issue and "2 explored views" in verdict.bug_report.issue
    assert "fail probability" in verdict.evidence.notes and "not checked: no probe" in verdict.evidence.notes


def test_a_shown_feature_keeps_the_probes_verdict_with_the_search_in_its_notes_and_a_probe_fail_is_kept():
    vocab = AppVocabulary.of(graph(), "")
    item = TestItem(id="FT-02", dimension=Dimension.functionality, description="Employers can post a job with a salary range.")
    probes = Verdict(item_id="FT-02", status=Status.error, evidence=Evidence(notes="not checked: no probe"))
    verdict = with_feature_search(probes, item, vocab, model())
    assert verdict.status is Status.error and "feature search over 2 states" in verdict.evidence.notes
    failed = Verdict(item_id="FT-02", status=Status.failed, bug_report=BugReport(issue="empty form accepted"))
    assert with_feature_search(failed, item, vocab, model()) is failed


def test_the_path_to_a_state_opens_its_route_then_clicks_the_edges():
    assert graph().path_to("s2") == ["open http://app/", 'click button "Post a job"']


def test_the_shipped_model_is_package_data_trained_on_the_dev_apps():
    from webtester.baseline.absence import shipped_model
    shipped = shipped_model()
    assert shipped is not None and shipped.trained_on["instances"] == 86 and 0 < shipped.threshold < 1
    assert shipped.top_k in (0, 1, 2) and len(shipped.coef) == len(FEATURE_NAMES)


@pytest.mark.parametrize("text, action", [
    ("Homeowners can delete property listings.", "delete"), ("Users can edit existing tags.", "edit"),
    ("Users can modify their reviews", "edit"), ("Users can edit, complete, or delete tasks.", None),
    ("Users can delete tags, and a confirmation prompt will appear.", None), ("Users can add tags.", None),
    ("Users can edit existing parameter sets (modify set names, variable attributes, add/delete variables).", "edit"),
    ("Users can modify custom paths (e.g., target order, path name, etc.).", "edit"),
    ("Users can delete tags (with a confirmation), and restore them.", None),
])
def test_an_item_that_only_asks_for_an_edit_or_delete_action_is_recognised(text, action):
    assert asked_action(text) == action


def _unchecked(item: TestItem) -> Verdict:
    return Verdict(item_id=item.id, status=Status.error, evidence=Evidence(notes="not checked"))


def test_an_action_no_control_offers_fails_only_after_a_crawl_that_ran_to_its_end():
    """No Delete control among the controls of a finished crawl is a Fail naming the views searched; a trash icon
    ("trash2" as lucide names it), a "..." menu the crawl may not have opened, or a crawl cut short leave it unchecked."""
    item = TestItem(id="FT-01", dimension=Dimension.functionality, description="Users can delete jobs.")
    failed = without_action(_unchecked(item), item, AppVocabulary.of(graph(), "Employers post jobs."), "delete")
    assert failed.status is Status.failed and "No control of the app offers to delete" in failed.bug_report.issue
    assert "2 explored views" in failed.bug_report.issue and failed.evidence.steps == ["open http://app/"]
    for icon in ("trash2", "ellipsis vertical"):
        g = graph()
        g.states[0].controls.append({"role": "button", "name": "", "icon": icon})
        assert without_action(_unchecked(item), item, AppVocabulary.of(g, ""), "delete").status is Status.error
    cut = graph()
    cut.stopped = "time limit reached"
    assert without_action(_unchecked(item), item, AppVocabulary.of(cut, ""), "delete").status is Status.error
    edit = TestItem(id="FT-02", dimension=Dimension.functionality, description="Users can edit jobs.")
    kept = Verdict(item_id="FT-02", status=Status.passed, evidence=Evidence(notes="edited"))
    assert without_action(kept, edit, AppVocabulary.of(graph(), ""), "edit") is kept
