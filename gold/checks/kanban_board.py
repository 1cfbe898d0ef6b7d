"""Executable checks for the kanban_board gold items (Flowboard team board).

Each ``item_<id>(page, base_url)`` drives the board through its UI, as a QA engineer would, and
returns True when the behaviour described by gold item ``id`` holds.
"""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from ._helpers import eventually, holds

COLUMNS = ["To do", "In progress", "Review", "Done"]
TOTAL_SEED_CARDS = 10


def column(page: Page, name: str) -> Locator:
    """The board column (a labelled region) called ``name``."""
    return page.get_by_role("region", name=name, exact=True)


def titles_in(page: Page, name: str) -> list[str]:
    """Titles of the cards currently shown in a column."""
    return column(page, name).get_by_role("heading", level=3).all_inner_texts()


def card(page: Page, title: str) -> Locator:
    """The card whose title is ``title``."""
    return page.get_by_role("article", name=title, exact=True)


def move(page: Page, title: str, target: str) -> None:
    """Click the card's arrow button that moves it to ``target``."""
    page.get_by_role("button", name=f'Move "{title}" to {target}').click()


def count_badge(page: Page, name: str) -> int:
    """The number shown next to a column's heading."""
    return int(column(page, name).get_by_test_id(f"count-{_col_id(name)}").inner_text())


def _col_id(name: str) -> str:
    return {"To do": "todo", "In progress": "progress", "Review": "review", "Done": "done"}[name]


def open_new_card(page: Page) -> Locator:
    """Open the New card dialog and return it."""
    page.get_by_role("button", name="New card").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    return dialog


def create_card(page: Page, title: str, *, assignee: str | None = None, priority: str | None = None,
                due: str | None = None, column_name: str | None = None) -> Locator:
    """Fill and submit the New card dialog; returns the dialog locator."""
    dialog = open_new_card(page)
    dialog.get_by_label("Title").fill(title)
    if assignee:
        dialog.get_by_label("Assignee").select_option(label=assignee)
    if priority:
        dialog.get_by_label("Priority").select_option(label=priority)
    if due:
        dialog.get_by_label("Due date").fill(due)
    if column_name:
        dialog.get_by_label("Column").select_option(label=column_name)
    dialog.get_by_role("button", name="Create card").click()
    return dialog


def filter_by(page: Page, assignee: str) -> None:
    """Choose an option of the assignee filter."""
    page.get_by_label("Filter by assignee").select_option(label=assignee)


def all_titles(page: Page) -> dict[str, list[str]]:
    """Titles of visible cards per column."""
    return {name: titles_in(page, name) for name in COLUMNS}


# ---------------------------------------------------------------- functionality

def item_1(page: Page, base_url: str) -> bool:
    """The board shows the four columns To do, In progress, Review, Done, in that order."""
    headings = page.get_by_role("heading", level=2).all_inner_texts()
    board_headings = [h for h in headings if h in COLUMNS]
    return board_headings == COLUMNS and all(column(page, n).is_visible() for n in COLUMNS)


def item_2(page: Page, base_url: str) -> bool:
    """A new card with title, assignee, priority and due date appears in To do with those details."""
    title = "Prepare Q2 analytics dashboard"
    create_card(page, title, assignee="Sofia Alvarez", priority="High", due="2026-04-02")
    if not eventually(lambda: title in titles_in(page, "To do")):
        return False
    text = card(page, title).inner_text()
    return "Sofia Alvarez" in text and "High" in text and "Apr 2, 2026" in text


def item_3(page: Page, base_url: str) -> bool:
    """Editing a card's title, assignee and priority updates the card."""
    page.get_by_role("button", name='Edit "Write release notes for v2.4"').click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Title").fill("Write release notes for v2.5")
    dialog.get_by_label("Assignee").select_option(label="Priya Patel")
    dialog.get_by_label("Priority").select_option(label="Urgent")
    dialog.get_by_role("button", name="Save changes").click()
    updated = card(page, "Write release notes for v2.5")
    if not holds(lambda: expect(updated).to_be_visible(timeout=1500)):
        return False
    text = updated.inner_text()
    return "Priya Patel" in text and "Urgent" in text and card(page, "Write release notes for v2.4").count() == 0


def item_4(page: Page, base_url: str) -> bool:
    """A card moves forward and back between columns with its move buttons."""
    title = "Add rate limiting to password reset endpoint"
    move(page, title, "In progress")
    if not eventually(lambda: title in titles_in(page, "In progress") and title not in titles_in(page, "To do")):
        return False
    move(page, "Design 404 page illustration", "Review")
    return eventually(lambda: "Design 404 page illustration" in titles_in(page, "Review")
                      and "Design 404 page illustration" not in titles_in(page, "Done"))


def item_5(page: Page, base_url: str) -> bool:
    """Filtering by an assignee leaves only that person's cards, in every column."""
    filter_by(page, "Priya Patel")
    page.wait_for_timeout(100)
    cards = page.get_by_role("article")
    if not eventually(lambda: cards.count() > 0):
        return False
    texts = cards.all_inner_texts()
    expected = {"Replace hero images with compressed WebP", "Migrate newsletter signup to new form API",
                "Design 404 page illustration"}
    shown = {t for ts in all_titles(page).values() for t in ts}
    return shown == expected and all("Priya Patel" in t for t in texts)


def item_6(page: Page, base_url: str) -> bool:
    """Deleting a card from its edit dialog removes it from the board."""
    title = "Lazy-load the product reviews widget"
    page.get_by_role("button", name=f'Edit "{title}"').click()
    page.get_by_role("dialog").get_by_role("button", name="Delete card").click()
    return holds(lambda: expect(card(page, title)).to_have_count(0, timeout=1500)) and \
        len(titles_in(page, "Review")) == 1


def item_7(page: Page, base_url: str) -> bool:
    """A newly created card is still on the board after a reload."""
    title = "Localise checkout error messages"
    create_card(page, title, assignee="Tom Becker")
    if not eventually(lambda: title in titles_in(page, "To do")):
        return False
    page.reload()
    return holds(lambda: expect(column(page, "To do").get_by_role("article", name=title)).to_be_visible(timeout=1500))


def item_8(page: Page, base_url: str) -> bool:
    """A card moved to another column is still in that column after a reload."""
    title = "Lazy-load the product reviews widget"
    move(page, title, "Done")
    if not eventually(lambda: title in titles_in(page, "Done")):
        return False
    page.reload()
    expect(column(page, "Done").get_by_role("heading", level=3).first).to_be_visible()
    return title in titles_in(page, "Done") and title not in titles_in(page, "Review")


# ---------------------------------------------------------------- constraint

def item_9(page: Page, base_url: str) -> bool:
    """An empty or whitespace-only title is rejected with an error and no card is created."""
    dialog = open_new_card(page)
    dialog.get_by_role("button", name="Create card").click()
    first_error = holds(lambda: expect(dialog.get_by_role("alert").filter(has_text="title")).to_be_visible(timeout=1500))
    dialog.get_by_label("Title").fill("    ")
    dialog.get_by_role("button", name="Create card").click()
    page.wait_for_timeout(150)
    still_open = dialog.is_visible()
    return first_error and still_open and page.get_by_role("article").count() == TOTAL_SEED_CARDS


def item_10(page: Page, base_url: str) -> bool:
    """Moving a card into a full In progress column (limit 3) is blocked with a message."""
    move(page, "Audit color contrast on checkout pages", "In progress")
    if not eventually(lambda: len(titles_in(page, "In progress")) == 3):
        return False
    move(page, "Add rate limiting to password reset endpoint", "In progress")
    warned = holds(lambda: expect(page.get_by_role("status")).to_contain_text("WIP limit", timeout=1500))
    return warned and len(titles_in(page, "In progress")) == 3 and \
        "Add rate limiting to password reset endpoint" in titles_in(page, "To do")


def item_11(page: Page, base_url: str) -> bool:
    """Moving a card out of a full In progress column frees a slot for another card."""
    move(page, "Audit color contrast on checkout pages", "In progress")
    if not eventually(lambda: len(titles_in(page, "In progress")) == 3):
        return False
    move(page, "Fix cart badge not updating on mobile Safari", "Review")
    if not eventually(lambda: len(titles_in(page, "In progress")) == 2):
        return False
    move(page, "Write release notes for v2.4", "In progress")
    return eventually(lambda: "Write release notes for v2.4" in titles_in(page, "In progress")
                      and len(titles_in(page, "In progress")) == 3)


def item_12(page: Page, base_url: str) -> bool:
    """A new card cannot be created directly in In progress when that column is at its limit."""
    move(page, "Audit color contrast on checkout pages", "In progress")
    if not eventually(lambda: len(titles_in(page, "In progress")) == 3):
        return False
    dialog = create_card(page, "Hotfix: broken footer links", column_name="In progress")
    blocked = holds(lambda: expect(dialog.get_by_role("alert").filter(has_text="WIP limit")).to_be_visible(timeout=1500))
    if dialog.is_visible():
        dialog.get_by_role("button", name="Cancel").click()
    return blocked and len(titles_in(page, "In progress")) == 3 and card(page, "Hotfix: broken footer links").count() == 0


# ---------------------------------------------------------------- interaction

def item_13(page: Page, base_url: str) -> bool:
    """The card dialog's close (×) button closes it without creating a card."""
    dialog = open_new_card(page)
    dialog.get_by_label("Title").fill("Draft that should be discarded")
    dialog.get_by_role("button", name="Close").click()
    closed = holds(lambda: expect(dialog).to_be_hidden(timeout=1000))
    return closed and card(page, "Draft that should be discarded").count() == 0


def item_14(page: Page, base_url: str) -> bool:
    """Cancel and the Escape key both close the card dialog without saving."""
    dialog = open_new_card(page)
    dialog.get_by_label("Title").fill("Cancelled card")
    dialog.get_by_role("button", name="Cancel").click()
    if not holds(lambda: expect(dialog).to_be_hidden(timeout=1000)):
        return False
    dialog = open_new_card(page)
    dialog.get_by_label("Title").fill("Escaped card")
    page.keyboard.press("Escape")
    if not holds(lambda: expect(dialog).to_be_hidden(timeout=1000)):
        return False
    return page.get_by_role("article").count() == TOTAL_SEED_CARDS


def item_15(page: Page, base_url: str) -> bool:
    """A confirmation toast appears after creating a card and after moving one."""
    create_card(page, "Update favicon set", assignee="Marcus Lee")
    created = holds(lambda: expect(page.get_by_role("status")).to_contain_text("created", timeout=1500))
    move(page, "Update cookie consent banner copy", "Done")
    moved = holds(lambda: expect(page.get_by_role("status")).to_contain_text("Moved", timeout=1500))
    return created and moved


def item_16(page: Page, base_url: str) -> bool:
    """Changing the assignee filter updates the board at once; All assignees restores every card."""
    filter_by(page, "Tom Becker")
    if not eventually(lambda: titles_in(page, "To do") == ["Write release notes for v2.4"]):
        return False
    filter_by(page, "All assignees")
    return eventually(lambda: page.get_by_role("article").count() == TOTAL_SEED_CARDS)


# ---------------------------------------------------------------- content

def item_17(page: Page, base_url: str) -> bool:
    """Each column's count equals the cards shown in it, also after a card is moved."""
    def counts_match() -> bool:
        return all(count_badge(page, n) == len(titles_in(page, n)) for n in COLUMNS)

    if not counts_match():
        return False
    move(page, "Set up staging environment", "Review")
    return eventually(lambda: len(titles_in(page, "Review")) == 3) and counts_match() and \
        count_badge(page, "Review") == 3 and count_badge(page, "Done") == 1


def item_18(page: Page, base_url: str) -> bool:
    """Every card shows its assignee, priority and due date."""
    text = card(page, "Fix cart badge not updating on mobile Safari").inner_text()
    people = ["Priya Patel", "Marcus Lee", "Sofia Alvarez", "Tom Becker", "Unassigned"]
    texts = page.get_by_role("article").all_inner_texts()
    return ("Marcus Lee" in text and "Urgent" in text and "Mar 13, 2026" in text
            and all(any(p in t for p in people) and "priority" in t and "Due" in t for t in texts))


def item_19(page: Page, base_url: str) -> bool:
    """In progress shows its WIP usage (e.g. "WIP 2 / 3") matching the cards it holds."""
    wip = column(page, "In progress").get_by_test_id("wip")
    if wip.inner_text().strip() != f"WIP {len(titles_in(page, 'In progress'))} / 3":
        return False
    move(page, "Audit color contrast on checkout pages", "In progress")
    return holds(lambda: expect(wip).to_have_text("WIP 3 / 3", timeout=1500))


def item_20(page: Page, base_url: str) -> bool:
    """A column with no matching cards shows an empty-state message."""
    filter_by(page, "Sofia Alvarez")
    in_progress = column(page, "In progress")
    return eventually(lambda: in_progress.get_by_role("article").count() == 0) and \
        holds(lambda: expect(in_progress.get_by_text("No cards match this filter.")).to_be_visible(timeout=1500))
