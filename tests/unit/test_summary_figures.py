"""Summary figures read from a page's text lines, and the items whose text asks for them to update."""

from __future__ import annotations

import pytest

from webtester.baseline.checklist import rules_for_text
from webtester.probes.figures import summary_figures, unchanged_figures
from webtester.probes.interactive import PageState

pytestmark = pytest.mark.unit

LINES = ["Expenses", "Total Expenses", "$1,200.00", "Entries", "4", "Rent", "$900.00", "Courses",
         "12 of 30 seats available", "Only 3 seats left!", "Step 1 of 3", "4.8"]


def state(lines: list[str], url: str = "http://app/") -> PageState:
    return PageState(url, lines, "", 0)


def test_figures_are_numbers_labelled_as_amounts():
    assert summary_figures(LINES) == {
        "Total Expenses: #": ["$1,200.00"], "Entries: #": ["4"], "# of # seats available": ["12 of 30 seats available"],
        "Only # seats left!": ["Only 3 seats left!"]}  # a price of one entry, a step counter and a rating are not


def test_unchanged_figures_are_named_and_a_moved_one_clears_the_page():
    same = unchanged_figures(state(LINES), state(LINES + ["wt001"]))
    assert same == ["Total Expenses: $1,200.00", "Entries: 4", "12 of 30 seats available", "Only 3 seats left!"]
    moved = [line.replace("12 of 30", "11 of 30") for line in LINES]
    assert unchanged_figures(state(LINES), state(moved)) is None
    assert unchanged_figures(state(LINES), state(LINES, "http://app/other")) is None  # another route
    assert unchanged_figures(state(["Rent", "$900.00"]), state(["Rent", "$900.00"])) is None  # nothing to compare
    rows = ["Interest Income\t—\t+$42.50", "Expenses", "4"]  # a table row, and a label that is no total or count
    assert summary_figures(rows) == {"Expenses: #": ["4"]} and unchanged_figures(state(rows), state(rows)) is None


@pytest.mark.parametrize(("text", "asks"), [
    ("Create a new expense claim and the statistics will change immediately.", True),
    ("After successful registration, the number of available seats must be reduced by one.", True),
    ("After a user adds a new transaction, the monthly summary on the homepage should update.", True),
    ("Users can view and print basic financial summary tables.", False),
    ("The dashboard shows the total number of tasks.", False),
])
def test_items_that_ask_for_figures_to_update_get_the_rule(text, asks):
    assert ("summary-update" in rules_for_text(text)) is asks
