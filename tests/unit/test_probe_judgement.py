"""Probe judgements that misread real apps: the word "todo" is no leftover marker, and a click that only moves
the focus is no response."""

from __future__ import annotations

from webtester.probes.controls import _unchanged
from webtester.probes.scan import _PLACEHOLDER


def test_only_upper_case_markers_count_as_placeholder_text():
    assert _PLACEHOLDER.search("TODO: write the about page") and _PLACEHOLDER.search("Total: NaN")
    for text in ("A todo app for teams", "Todo list", "Add a new todo", "banana bread", "lorem"):
        assert not _PLACEHOLDER.search(text), text


def test_a_click_that_only_moves_the_focus_changed_nothing():
    before = {"url": "http://app/", "hash": 7, "scroll": 0, "dialogs": [], "focus": ""}
    assert _unchanged(before, {**before, "focus": "#save"})
    assert not _unchanged(before, {**before, "hash": 8, "focus": "#save"})
