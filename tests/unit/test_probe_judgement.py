"""Probe judgements that misread real apps: the word "todo" is no leftover marker, a click that only moves the
focus is no response, and an empty board column is no entry of another status."""

from __future__ import annotations

from webtester.probes.controls import _unchanged
from webtester.probes.lists import strays_of
from webtester.probes.scan import _PLACEHOLDER


def test_only_upper_case_markers_count_as_placeholder_text():
    assert _PLACEHOLDER.search("TODO: write the about page") and _PLACEHOLDER.search("Total: NaN")
    for text in ("A todo app for teams", "Todo list", "Add a new todo", "banana bread", "lorem"):
        assert not _PLACEHOLDER.search(text), text


def test_a_click_that_only_moves_the_focus_changed_nothing():
    before = {"url": "http://app/", "hash": 7, "scroll": 0, "dialogs": [], "focus": ""}
    assert _unchanged(before, {**before, "focus": "#save"})
    assert not _unchanged(before, {**before, "hash": 8, "focus": "#save"})


def test_an_empty_group_heading_is_no_stray_entry_of_a_filter():
    # a task board filtered to "To do": the other columns stay, with their headings and a count of 0
    shown = ["TO DO 2 Write the report", "IN PROGRESS\n0", "Done (0)", "Fix the login bug In progress"]
    assert strays_of(shown, "To do", ["In progress", "Done"]) == ["Fix the login bug In progress"]
