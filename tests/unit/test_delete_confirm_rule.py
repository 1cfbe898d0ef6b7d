"""Deleting with confirmation: which items the delete probe decides, and when the checklist asks for it."""

from __future__ import annotations

import pytest

from webtester.baseline.checklist import plan_checklist, rules_for_text
from webtester.baseline.explore import Exploration
from webtester.baseline.verdicts import decide
from webtester.models import Dimension, Status, TestItem


@pytest.mark.parametrize("text", [
    "Users can delete an expense, and a confirmation pop-up appears first.",
    "Removing a member from the team requires secondary confirmation.",
    "The user is asked to confirm before a saved report is deleted.",
    "A confirmation dialog appears for the deletion of a folder.",
    "Deleting a note asks 'Are you sure?' before it goes.",
])
def test_items_about_confirming_a_deletion_get_the_delete_rule(text):
    assert "delete-confirm" in rules_for_text(text)


@pytest.mark.parametrize("text", [
    "After a booking is deleted, a confirmation message is shown.",
    "Users can delete a comment they wrote.",
    "Users confirm their order on the payment page.",
])
def test_items_that_ask_for_no_confirmation_before_deleting_get_no_delete_rule(text):
    assert "delete-confirm" not in rules_for_text(text)


def _unconfirmed() -> dict:
    return {"probe": "delete-unconfirmed", "page_url": "http://app/", "message": "clicking 'Delete' removed the entry at once",
            "element": 'delete control "Delete" of the entry "Team offsite"', "details": {"entry": "Team offsite"}}


def test_an_unconfirmed_deletion_fails_the_item_that_asks_for_confirmation_only():
    exploration = Exploration(findings=[_unconfirmed()])
    asks = TestItem(id="IX-01", dimension=Dimension.interaction,
                    description="Deleting an event requires the user to confirm it in a pop-up.")
    other = TestItem(id="FT-01", dimension=Dimension.functionality, description="Users can delete an event.")
    assert decide(asks, exploration).status is Status.failed
    assert decide(other, exploration).status is not Status.failed


def test_the_checklist_asks_for_delete_confirmation_when_the_app_shows_delete_controls():
    instruction = "A reading list where I can add books with a title and an author, and mark them as read."
    planned = plan_checklist(instruction, None, 20, exercised={"delete-confirm"})
    assert [p.rule for p in planned].count("delete-confirm") == 1
    assert "delete-confirm" not in [p.rule for p in plan_checklist(instruction, None, 20)]
    # an instruction that deletes something names it in its own item, and the generic one is left out
    named = plan_checklist("Users can add, edit and delete recipes.", None, 20, exercised={"delete-confirm"})
    deletes = [p.description for p in named if p.rule == "delete-confirm"]
    assert len(deletes) == 1 and "recipes" in deletes[0].lower(), deletes
