"""Executable checks for the book_reviews gold items (Marginalia book review community).

Each ``item_<id>(page, base_url)`` uses the site through its UI and returns True when the behaviour
described by gold item ``id`` holds. The signed-in reader is Dana Whitfield, who has already
reviewed Piranesi.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from ._helpers import eventually, first_int, holds, texts

ME = "Dana Whitfield"
STATION = "Station Eleven"
ROSE = "The Name of the Rose"
PIRANESI = "Piranesi"
NEW_TEXT = "A haunting, generous novel about art and survival. The Shakespeare troupe will stay with me."


def open_book(page: Page, title: str) -> None:
    """Open a book's page from the book list."""
    page.get_by_role("link", name=title, exact=True).click()
    expect(page.get_by_role("heading", level=1, name=title)).to_be_visible()


def reviews(page: Page) -> Locator:
    """The reviews listed on the open book page."""
    return page.get_by_role("list", name="Reviews").get_by_role("listitem")


def ratings(page: Page) -> list[int]:
    """Star ratings of the listed reviews, in display order."""
    labels = [img.get_attribute("aria-label") or "" for img in
              page.get_by_role("list", name="Reviews").get_by_role("img", name=re.compile("out of 5 stars")).all()]
    return [first_int(label) or 0 for label in labels]


def review_by(page: Page, author: str) -> Locator:
    """The listed review written by ``author``."""
    return reviews(page).filter(has=page.get_by_text(author, exact=True))


def choose_rating(page: Page, stars: int) -> None:
    """Pick a star rating in the visible rating picker."""
    page.get_by_role("radio", name=f"{stars} star{'s' if stars > 1 else ''}", exact=True).check()


def write_review(page: Page, stars: int | None, text: str) -> None:
    """Fill and submit the Write a review form on the open book page."""
    if stars:
        choose_rating(page, stars)
    page.get_by_label("Your review", exact=True).fill(text)
    page.get_by_role("button", name="Post review").click()


def sort_reviews(page: Page, label: str) -> None:
    """Choose a review order."""
    page.get_by_label("Sort reviews").select_option(label=label)


def summary_numbers(page: Page) -> tuple[float, int | None]:
    """The (average, review count) shown in the book's rating summary."""
    summary = page.get_by_role("region", name="Rating summary")
    return float(summary.get_by_test_id("average").inner_text()), first_int(summary.get_by_test_id("review-count").inner_text())


def report(page: Page, author: str, reason: str | None) -> Locator:
    """Open the report dialog for ``author``'s review, choose ``reason`` and submit; returns the dialog."""
    page.get_by_role("button", name=f"Report review by {author}").click()
    dialog = page.get_by_role("dialog", name="Report review")
    expect(dialog).to_be_visible()
    if reason:
        dialog.get_by_label(reason).check()
    dialog.get_by_role("button", name="Submit report").click()
    return dialog


# ---------------------------------------------------------------- functionality

def item_1(page: Page, base_url: str) -> bool:
    """The book list opens a detail page with title, author and synopsis."""
    if page.get_by_role("list", name="Books").get_by_role("listitem").count() != 9:
        return False
    open_book(page, "Braiding Sweetgrass")
    return page.get_by_text("by Robin Wall Kimmerer").is_visible() and \
        page.get_by_text("braids together Indigenous knowledge, plant science").is_visible()


def item_2(page: Page, base_url: str) -> bool:
    """A review with a star rating and text appears under the reader's name."""
    open_book(page, STATION)
    write_review(page, 4, NEW_TEXT)
    mine = review_by(page, ME)
    if not holds(lambda: expect(mine).to_have_count(1, timeout=1500)):
        return False
    return NEW_TEXT in mine.inner_text() and \
        mine.get_by_role("img", name="4 out of 5 stars").count() == 1 and reviews(page).count() == 4


def item_3(page: Page, base_url: str) -> bool:
    """Editing the reader's own review changes its rating and text."""
    open_book(page, PIRANESI)
    page.get_by_role("button", name="Edit your review").click()
    choose_rating(page, 3)
    page.get_by_label("Your review", exact=True).fill("Second read: still lovely, but the ending felt more rushed than I remembered.")
    page.get_by_role("button", name="Save changes").click()
    mine = review_by(page, ME)
    return holds(lambda: expect(mine).to_contain_text("Second read: still lovely", timeout=1500)) and \
        mine.get_by_role("img", name="3 out of 5 stars").count() == 1


def item_4(page: Page, base_url: str) -> bool:
    """A deleted review is gone, also after a reload."""
    open_book(page, PIRANESI)
    page.get_by_role("button", name="Delete your review").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete review").click()
    if not holds(lambda: expect(review_by(page, ME)).to_have_count(0, timeout=1500)):
        return False
    page.reload()
    expect(page.get_by_role("heading", level=1, name=PIRANESI)).to_be_visible()
    return review_by(page, ME).count() == 0 and reviews(page).count() == 3


def item_5(page: Page, base_url: str) -> bool:
    """Most recent lists the newest review first."""
    open_book(page, ROSE)
    sort_reviews(page, "Highest rated")
    sort_reviews(page, "Most recent")
    if not eventually(lambda: texts(reviews(page).first.locator("time")) == ["Jul 30, 2026"]):
        return False
    dates = page.get_by_role("list", name="Reviews").locator("time").evaluate_all("els => els.map(e => e.getAttribute('datetime'))")
    return len(dates) == 5 and dates == sorted(dates, reverse=True)


def item_6(page: Page, base_url: str) -> bool:
    """Highest rated lists reviews from the highest rating down."""
    open_book(page, ROSE)
    sort_reviews(page, "Highest rated")
    return eventually(lambda: ratings(page) == [5, 4, 3, 2, 1])


def item_7(page: Page, base_url: str) -> bool:
    """Lowest rated lists reviews from the lowest rating up."""
    open_book(page, ROSE)
    sort_reviews(page, "Lowest rated")
    return eventually(lambda: ratings(page) == [1, 2, 3, 4, 5])


def item_8(page: Page, base_url: str) -> bool:
    """Reporting another reader's review with a reason marks it as reported."""
    open_book(page, STATION)
    dialog = report(page, "Theo Marsh", "Spoilers without a warning")
    if not holds(lambda: expect(dialog).to_be_hidden(timeout=1500)):
        return False
    reported = review_by(page, "Theo Marsh").get_by_role("button", name="Review by Theo Marsh reported")
    return holds(lambda: expect(reported).to_be_disabled(timeout=1500)) and \
        page.get_by_role("button", name="Report review by Theo Marsh").count() == 0


def item_9(page: Page, base_url: str) -> bool:
    """A posted review is still shown after a reload."""
    open_book(page, STATION)
    write_review(page, 5, NEW_TEXT)
    expect(review_by(page, ME)).to_have_count(1)
    page.reload()
    return holds(lambda: expect(review_by(page, ME)).to_contain_text(NEW_TEXT[:40], timeout=1500))


# ---------------------------------------------------------------- constraint

def item_10(page: Page, base_url: str) -> bool:
    """A review without a star rating is not accepted."""
    open_book(page, STATION)
    write_review(page, None, NEW_TEXT)
    warned = holds(lambda: expect(page.get_by_role("alert").filter(has_text="star rating")).to_be_visible(timeout=1000))
    return warned and review_by(page, ME).count() == 0 and reviews(page).count() == 3


def item_11(page: Page, base_url: str) -> bool:
    """Review text shorter than 20 characters is rejected with a message."""
    open_book(page, STATION)
    write_review(page, 5, "Loved it!")
    warned = holds(lambda: expect(page.get_by_role("alert").filter(has_text="at least 20 characters")).to_be_visible(timeout=1500))
    return warned and review_by(page, ME).count() == 0


def item_12(page: Page, base_url: str) -> bool:
    """Once a reader has reviewed a book, the write form is replaced by a note and their review's edit options."""
    open_book(page, STATION)
    write_review(page, 4, NEW_TEXT)
    if not holds(lambda: expect(page.get_by_text("You reviewed this book on")).to_be_visible(timeout=1500)):
        return False
    gone = page.get_by_role("button", name="Post review").count() == 0
    page.get_by_role("link", name="All books").click()
    open_book(page, PIRANESI)
    return gone and page.get_by_text("You reviewed this book on Apr 11, 2026").is_visible() and \
        page.get_by_role("button", name="Post review").count() == 0 and \
        page.get_by_role("button", name="Edit your review").count() == 1


def item_13(page: Page, base_url: str) -> bool:
    """Only the reader's own review offers Edit and Delete; the others offer Report."""
    open_book(page, PIRANESI)
    edit = page.get_by_role("button", name=re.compile("^Edit"))
    delete = page.get_by_role("button", name=re.compile("^Delete"))
    reports = page.get_by_role("button", name=re.compile("^Report review by"))
    mine = review_by(page, ME)
    return edit.count() == 1 and delete.count() == 1 and reports.count() == 3 and \
        mine.get_by_role("button", name="Edit your review").count() == 1 and \
        mine.get_by_role("button", name=re.compile("^Report")).count() == 0


def item_14(page: Page, base_url: str) -> bool:
    """A report cannot be submitted without a reason."""
    open_book(page, STATION)
    dialog = report(page, "Grace Liu", None)
    warned = holds(lambda: expect(dialog.get_by_role("alert")).to_contain_text("Choose a reason", timeout=1500))
    open_still = dialog.is_visible()
    dialog.get_by_role("button", name="Cancel").click()
    return warned and open_still and page.get_by_role("button", name="Report review by Grace Liu").is_enabled()


# ---------------------------------------------------------------- interaction

def item_15(page: Page, base_url: str) -> bool:
    """Submitting a report shows a confirmation message."""
    open_book(page, STATION)
    report(page, "Theo Marsh", "Not about this book")
    return holds(lambda: expect(page.get_by_role("status")).to_contain_text("moderators", timeout=1500))


def item_16(page: Page, base_url: str) -> bool:
    """Choosing a star highlights that many stars and names the rating."""
    open_book(page, STATION)
    choose_rating(page, 4)
    picker = page.get_by_role("group", name="Your rating")
    if not holds(lambda: expect(picker).to_contain_text("Really liked it", timeout=1500)):
        return False
    colors = picker.locator("label").evaluate_all("els => els.map(e => getComputedStyle(e).color)")
    return len(colors) == 5 and len(set(colors[:4])) == 1 and colors[4] != colors[0]


def item_17(page: Page, base_url: str) -> bool:
    """Delete asks for confirmation, and Keep review leaves the review in place."""
    open_book(page, PIRANESI)
    page.get_by_role("button", name="Delete your review").click()
    dialog = page.get_by_role("dialog", name="Delete your review?")
    if not holds(lambda: expect(dialog).to_be_visible(timeout=1500)):
        return False
    dialog.get_by_role("button", name="Keep review").click()
    return holds(lambda: expect(dialog).to_be_hidden(timeout=1500)) and review_by(page, ME).count() == 1


def item_18(page: Page, base_url: str) -> bool:
    """Cancelling an edit closes the form and keeps the original review."""
    open_book(page, PIRANESI)
    page.get_by_role("button", name="Edit your review").click()
    page.get_by_label("Your review", exact=True).fill("This text should never be saved because the edit is cancelled.")
    page.get_by_role("button", name="Cancel").click()
    mine = review_by(page, ME)
    return holds(lambda: expect(mine).to_contain_text("I went in knowing nothing", timeout=1500)) and \
        page.get_by_role("button", name="Save changes").count() == 0 and \
        mine.get_by_role("img", name="5 out of 5 stars").count() == 1


# ---------------------------------------------------------------- content

def item_19(page: Page, base_url: str) -> bool:
    """The average rating and review count update as soon as a review is posted."""
    open_book(page, STATION)
    if summary_numbers(page) != (3.7, 3):
        return False
    write_review(page, 5, NEW_TEXT)
    expect(review_by(page, ME)).to_have_count(1)
    return eventually(lambda: summary_numbers(page) == (4.0, 4))


def item_20(page: Page, base_url: str) -> bool:
    """A book card's average and count match the mean and number of that book's reviews."""
    for title in (ROSE, STATION, "The Left Hand of Darkness"):
        card = page.get_by_role("article", name=title, exact=True).inner_text()
        m = re.search(r"(\d\.\d)\s*\((\d+) reviews?\)", card)
        if not m:
            return False
        open_book(page, title)
        values = ratings(page)
        if int(m.group(2)) != len(values) or abs(float(m.group(1)) - sum(values) / len(values)) > 0.051:
            return False
        page.get_by_role("link", name="All books").click()
        expect(page.get_by_role("list", name="Books")).to_be_visible()
    return True


def item_21(page: Page, base_url: str) -> bool:
    """Every review shows the reviewer, the date, a star rating and the text."""
    open_book(page, ROSE)
    items = reviews(page)
    if items.count() != 5:
        return False
    for i in range(5):
        item = items.nth(i)
        text = item.inner_text()
        if item.locator("time").count() != 1 or item.get_by_role("img", name=re.compile("out of 5 stars")).count() != 1:
            return False
        if not re.search(r"[A-Z][a-z]+ [A-Z][a-z]+", text) or len(item.locator("p").last.inner_text()) < 20:
            return False
    return True


def item_22(page: Page, base_url: str) -> bool:
    """A book without reviews says "No reviews yet" instead of showing a zero rating."""
    title = "Tomorrow, and Tomorrow, and Tomorrow"
    card = page.get_by_role("article", name=title, exact=True)
    if "No reviews yet" not in card.inner_text() or "0.0" in card.inner_text():
        return False
    open_book(page, title)
    summary = page.get_by_role("region", name="Rating summary").inner_text()
    return "No reviews yet" in summary and "0.0" not in summary and \
        page.get_by_text("Be the first to tell other readers").is_visible()
