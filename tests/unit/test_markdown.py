"""The WebTestBench markdown checklist / result format."""

from __future__ import annotations

import pytest

from webtester.datasets.markdown import (
    MarkdownFormatError,
    parse_checklist,
    parse_results,
    render_checklist,
    render_results,
)
from webtester.models import BugReport, Dimension, Evidence, Status, TestItem, Verdict

ITEMS = [
    TestItem(id="FT-01", dimension=Dimension.functionality, description="Search recipes by keyword",
             action='Type "pasta" and press Enter', expected="Only pasta recipes are listed"),
    TestItem(id="FT-02", dimension=Dimension.functionality, description="Open a recipe detail page"),
    TestItem(id="CS-01", dimension=Dimension.constraint, description="Cooking time filter excludes longer recipes",
             action="Set max time to 20 min", expected="No recipe over 20 min"),
    TestItem(id="IX-01", dimension=Dimension.interaction, description="Saving a favourite shows a toast",
             action="Click Save", expected="A 'Saved' toast appears"),
    TestItem(id="CT-01", dimension=Dimension.content, description="No placeholder text on the home page"),
]
VERDICTS = [
    Verdict(item_id="FT-01", status=Status.passed),
    Verdict(item_id="FT-02", status=Status.failed, bug_report=BugReport(issue="Detail page is blank", actual="Empty <main>")),
    Verdict(item_id="CS-01", status=Status.passed),
    Verdict(item_id="IX-01", status=Status.error, evidence=Evidence(notes="tool budget exhausted")),
    Verdict(item_id="CT-01", status=Status.failed, bug_report=BugReport(issue="Lorem ipsum in hero", actual="'Lorem ipsum dolor'")),
]


def test_checklist_round_trip():
    text = render_checklist(ITEMS)
    assert "## Functionality" in text and "- [ ] FT-01: Search recipes by keyword" in text
    assert "  - Action: Type \"pasta\" and press Enter" in text
    assert parse_checklist(text) == ITEMS
    assert render_checklist(parse_checklist(text)) == text


def test_results_round_trip():
    text = render_results(ITEMS, VERDICTS)
    assert "- [X] FT-01:" in text and "- [ ] FT-02:" in text and "- [-] IX-01:" in text
    assert "  - Bug Report:\n    - Issue: Detail page is blank\n    - Actual: Empty <main>" in text
    items, verdicts = parse_results(text)
    assert items == ITEMS
    assert [(v.item_id, v.status, v.bug_report) for v in verdicts] == [(v.item_id, v.status, v.bug_report) for v in VERDICTS]
    assert verdicts[3].evidence.notes == "tool budget exhausted"
    assert render_results(items, verdicts) == text


def test_missing_verdict_is_written_as_not_executed():
    text = render_results(ITEMS[:1], [])
    assert "- [-] FT-01:" in text and "Error: not executed" in text


def test_reference_harness_variants_parse():
    text = """# Checklist
## Functionality Testing
- [x] **FT-01**: Users can add a product
   - Action: Click "Add"
   - Expected: Product appears
- [ ] FT-02: Users can delete a product
  - Bug Report:
    - Issue: Delete does nothing
    - Actual: Product still listed
## Content
- [X] CT-01: Copy is on theme
"""
    items, verdicts = parse_results(text)
    assert [i.id for i in items] == ["FT-01", "FT-02", "CT-01"]
    assert items[0].action == 'Click "Add"' and items[2].dimension is Dimension.content
    assert [v.status for v in verdicts] == [Status.passed, Status.failed, Status.passed]
    assert verdicts[1].bug_report.issue == "Delete does nothing"


def test_failed_item_without_bug_report_still_counts_as_fail():
    _, verdicts = parse_results("## Constraint\n- [ ] CS-01: Email is validated\n")
    assert verdicts[0].status is Status.failed and verdicts[0].bug_report is not None


@pytest.mark.parametrize(
    "text, message",
    [
        ("## Functionality\n- [ ] FT-01: a\n- [ ] FT-01: b\n", "line 3: duplicate item id FT-01"),
        ("## Functionality\n- [ ] ZZ-01: a\n", "line 2: unknown dimension prefix"),
        ("## Functionality\n- [ ] FT-01:\n", "line 2: item FT-01 has no description"),
    ],
)
def test_malformed_markdown_names_the_line(text, message):
    with pytest.raises(MarkdownFormatError, match=message):
        parse_checklist(text)
