"""Executable checks for the community_forum gold items (Trailhead hiking forum).

Each ``item_<id>(page, base_url)`` drives the forum through its UI and returns True when the
behaviour described by gold item ``id`` holds. The signed-in user is ``jordan_k``.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from ._helpers import eventually, first_int, holds, texts

ME = "jordan_k"
CATEGORIES = ["Gear Talk", "Trip Reports", "Trail Conditions", "Beginners' Corner", "Meetups"]
SEEDED_THREADS = 8
BRIDGE = "Washed-out bridge on the Eagle Creek trail — detour info"
TALLAC = "Sunrise on Mount Tallac: short report"


def thread_list(page: Page) -> Locator:
    """The list of threads on a list page."""
    return page.get_by_role("list", name="Threads")


def listed_titles(page: Page) -> list[str]:
    """Thread titles in the order shown."""
    return texts(thread_list(page).get_by_role("heading", level=2))


def row(page: Page, title: str) -> Locator:
    """The list row of the thread called ``title``."""
    return thread_list(page).get_by_role("listitem").filter(has=page.get_by_role("link", name=title, exact=True))


def category_link(page: Page, name: str) -> Locator:
    """A category link in the sidebar."""
    return page.get_by_role("navigation", name="Categories").get_by_role("link", name=re.compile("^" + re.escape(name)))


def category_count(page: Page, name: str) -> int | None:
    """The thread count shown next to a sidebar category."""
    return first_int(category_link(page, name).inner_text().replace(name, ""))


def open_thread(page: Page, title: str) -> None:
    """Open a thread from the list and wait for its page."""
    page.get_by_role("link", name=title, exact=True).click()
    expect(page.get_by_role("heading", level=1, name=title)).to_be_visible()


def post_reply(page: Page, text: str) -> None:
    """Type and submit a reply on the open thread page."""
    page.get_by_label("Your reply").fill(text)
    page.get_by_role("button", name="Post reply").click()


def start_thread(page: Page, title: str, category: str | None, body: str) -> None:
    """Fill and submit the new-thread form."""
    page.get_by_role("link", name="Start a new thread").click()
    page.get_by_label("Title").fill(title)
    if category:
        page.get_by_label("Category").select_option(label=category)
    page.get_by_label("Message").fill(body)
    page.get_by_role("button", name="Post thread").click()


def sort_by(page: Page, label: str) -> None:
    """Choose Newest or Top."""
    page.get_by_role("radio", name=label).check()


def scores(page: Page) -> list[int]:
    """Upvote scores of the listed threads, in order."""
    return [int(s) for s in texts(thread_list(page).get_by_test_id("score"))]


def upvote_button(page: Page, title: str) -> Locator:
    """The upvote button of a thread (on the list or thread page)."""
    return page.get_by_role("button", name=f'Upvote "{title}"')


def score_of(page: Page, title: str) -> int:
    """The score shown in a thread's list row."""
    return int(row(page, title).get_by_test_id("score").inner_text())


def reply_count_of(page: Page, title: str) -> int | None:
    """The reply count shown in a thread's list row."""
    return first_int(row(page, title).get_by_test_id("reply-count").inner_text())


NEW_BODY = "Looking for recommendations on a lightweight stove that still simmers well for real cooking."


# ---------------------------------------------------------------- functionality

def item_1(page: Page, base_url: str) -> bool:
    """Choosing a category lists only that category's threads."""
    category_link(page, "Trail Conditions").click()
    expect(page.get_by_role("heading", level=1, name="Trail Conditions")).to_be_visible()
    if not eventually(lambda: len(listed_titles(page)) == 2):
        return False
    chips = texts(thread_list(page).get_by_role("listitem"))
    return set(listed_titles(page)) == {BRIDGE, "Snow still blocking Tioga Pass trailheads?"} and \
        all("Trail Conditions" in c for c in chips)


def item_2(page: Page, base_url: str) -> bool:
    """A new thread with title, category and message appears at the top of the Newest list."""
    title = "Best lightweight stove that can actually simmer?"
    start_thread(page, title, "Gear Talk", NEW_BODY)
    if not eventually(lambda: page.get_by_role("list", name="Threads").count() == 1 and listed_titles(page)[:1] == [title]):
        return False
    return len(listed_titles(page)) == SEEDED_THREADS + 1 and "Gear Talk" in row(page, title).inner_text()


def item_3(page: Page, base_url: str) -> bool:
    """A thread page shows the full message and every reply."""
    open_thread(page, BRIDGE)
    body_ok = page.get_by_text("The forest service has flagged a detour along the old service road").is_visible()
    replies = page.get_by_role("list", name="Replies").get_by_role("listitem")
    return body_ok and replies.count() == 4 and "Tunnel Falls is reachable via the detour" in replies.nth(1).inner_text()


def item_4(page: Page, base_url: str) -> bool:
    """A posted reply appears at the end of the thread's replies, credited to the user."""
    open_thread(page, TALLAC)
    post_reply(page, "Great report! How long did the ascent take you from the trailhead?")
    replies = page.get_by_role("list", name="Replies").get_by_role("listitem")
    if not holds(lambda: expect(replies).to_have_count(1, timeout=1500)):
        return False
    last = replies.last.inner_text()
    return ME in last and "How long did the ascent take" in last


def item_5(page: Page, base_url: str) -> bool:
    """Upvoting a thread raises its score by exactly one."""
    before = score_of(page, TALLAC)
    upvote_button(page, TALLAC).click()
    return eventually(lambda: score_of(page, TALLAC) == before + 1)


def item_6(page: Page, base_url: str) -> bool:
    """Sorting by Top orders threads by upvotes, highest first."""
    sort_by(page, "Top")
    if not eventually(lambda: listed_titles(page)[:1] == ["Trip report: 4 days on the Wonderland Trail (counter-clockwise)"]):
        return False
    values = scores(page)
    return len(values) == SEEDED_THREADS and values == sorted(values, reverse=True)


def item_7(page: Page, base_url: str) -> bool:
    """Sorting by Newest orders threads by posting time, newest first."""
    sort_by(page, "Top")
    eventually(lambda: listed_titles(page)[:1] != [BRIDGE])
    sort_by(page, "Newest")
    if not eventually(lambda: listed_titles(page)[:1] == [BRIDGE]):
        return False
    stamps = thread_list(page).locator("time").evaluate_all("els => els.map(e => e.getAttribute('datetime'))")
    return len(stamps) == SEEDED_THREADS and stamps == sorted(stamps, reverse=True)


def item_8(page: Page, base_url: str) -> bool:
    """A new thread and a new reply are still there after a reload."""
    title = "Anyone hiking the Lost Coast Trail in May?"
    start_thread(page, title, "Trip Reports", "Thinking of doing the Lost Coast northbound in mid May, tide tables look good.")
    expect(page.get_by_role("link", name=title)).to_be_visible()
    open_thread(page, TALLAC)
    post_reply(page, "Saving this one for next summer, thanks for sharing.")
    expect(page.get_by_text("Saving this one for next summer")).to_be_visible()
    page.reload()
    reply_kept = holds(lambda: expect(page.get_by_text("Saving this one for next summer")).to_be_visible(timeout=1500))
    page.get_by_role("link", name="Back to threads").click()
    return reply_kept and holds(lambda: expect(page.get_by_role("link", name=title)).to_be_visible(timeout=1500))


# ---------------------------------------------------------------- constraint

def item_9(page: Page, base_url: str) -> bool:
    """A thread with an empty title or empty message is rejected with error messages."""
    start_thread(page, "", "Gear Talk", "")
    alerts = page.get_by_role("alert")
    errors_shown = holds(lambda: expect(alerts.filter(has_text="title")).to_be_visible(timeout=1500)) and \
        alerts.filter(has_text="message").is_visible()
    page.get_by_label("Title").fill("Which headlamp do you trust most?")
    page.get_by_label("Message").fill("   ")
    page.get_by_role("button", name="Post thread").click()
    page.wait_for_timeout(150)
    still_on_form = page.get_by_role("button", name="Post thread").is_visible()
    return errors_shown and still_on_form


def item_10(page: Page, base_url: str) -> bool:
    """A title shorter than 10 characters is rejected with a message."""
    start_thread(page, "Tent help", "Gear Talk", NEW_BODY)
    rejected = holds(lambda: expect(page.get_by_role("alert").filter(has_text="10 characters")).to_be_visible(timeout=1000))
    return rejected and page.get_by_role("button", name="Post thread").is_visible()


def item_11(page: Page, base_url: str) -> bool:
    """A thread cannot be posted without choosing a category."""
    start_thread(page, "Sleeping pad R-value for shoulder season", None, NEW_BODY)
    rejected = holds(lambda: expect(page.get_by_role("alert").filter(has_text="category")).to_be_visible(timeout=1500))
    return rejected and page.get_by_role("button", name="Post thread").is_visible()


def item_12(page: Page, base_url: str) -> bool:
    """Upvoting twice removes the vote instead of counting it twice."""
    before = score_of(page, BRIDGE)
    upvote_button(page, BRIDGE).click()
    if not eventually(lambda: score_of(page, BRIDGE) == before + 1):
        return False
    upvote_button(page, BRIDGE).click()
    return eventually(lambda: score_of(page, BRIDGE) == before) and \
        upvote_button(page, BRIDGE).get_attribute("aria-pressed") == "false"


def item_13(page: Page, base_url: str) -> bool:
    """An empty or whitespace-only reply is not posted and an error is shown."""
    open_thread(page, TALLAC)
    post_reply(page, "")
    shown = holds(lambda: expect(page.get_by_role("alert").filter(has_text="Write something")).to_be_visible(timeout=1500))
    post_reply(page, "    ")
    page.wait_for_timeout(150)
    return shown and page.get_by_role("list", name="Replies").count() == 0


# ---------------------------------------------------------------- interaction

def item_14(page: Page, base_url: str) -> bool:
    """After posting a reply the reply box is empty again."""
    open_thread(page, TALLAC)
    post_reply(page, "Tallac at sunrise is on my list, thanks for the headlamp tip.")
    if not holds(lambda: expect(page.get_by_text("Tallac at sunrise is on my list")).to_be_visible(timeout=1500)):
        return False
    return holds(lambda: expect(page.get_by_label("Your reply")).to_have_value("", timeout=1000))


def item_15(page: Page, base_url: str) -> bool:
    """The upvote button shows a pressed state after voting, also on the thread page."""
    button = upvote_button(page, TALLAC)
    if button.get_attribute("aria-pressed") != "false":
        return False
    button.click()
    if not holds(lambda: expect(button).to_have_attribute("aria-pressed", "true", timeout=1500)):
        return False
    open_thread(page, TALLAC)
    return upvote_button(page, TALLAC).get_attribute("aria-pressed") == "true"


def item_16(page: Page, base_url: str) -> bool:
    """A confirmation toast appears after a thread is posted."""
    start_thread(page, "Favourite trail snacks that survive the heat?", "Beginners' Corner",
                 "Chocolate keeps melting in my pack. What snacks hold up on hot summer days?")
    return holds(lambda: expect(page.get_by_role("status")).to_contain_text("Thread posted", timeout=1500))


def item_17(page: Page, base_url: str) -> bool:
    """Back to threads returns to the list with the category chosen before opening a thread."""
    category_link(page, "Trip Reports").click()
    expect(page.get_by_role("heading", level=1, name="Trip Reports")).to_be_visible()
    open_thread(page, TALLAC)
    page.get_by_role("link", name="Back to threads").click()
    return holds(lambda: expect(page.get_by_role("heading", level=1, name="Trip Reports")).to_be_visible(timeout=1500)) and \
        eventually(lambda: len(listed_titles(page)) == 2)


# ---------------------------------------------------------------- content

def item_18(page: Page, base_url: str) -> bool:
    """A thread's reply count in the list matches its replies, including a newly posted one."""
    if reply_count_of(page, BRIDGE) != 4 or reply_count_of(page, TALLAC) != 0:
        return False
    open_thread(page, TALLAC)
    post_reply(page, "Did you need a permit for the summit?")
    expect(page.get_by_text("Did you need a permit for the summit?")).to_be_visible()
    page.get_by_role("link", name="Back to threads").click()
    return eventually(lambda: row(page, TALLAC).count() == 1 and reply_count_of(page, TALLAC) == 1)


def item_19(page: Page, base_url: str) -> bool:
    """Every thread row shows its author, category and posting time."""
    rows = thread_list(page).get_by_role("listitem")
    if rows.count() != SEEDED_THREADS:
        return False
    for text in texts(rows):
        if not re.search(r"by \w+", text) or not any(c in text for c in CATEGORIES) or not re.search(r"\bago\b|just now", text):
            return False
    return thread_list(page).locator("time").count() == SEEDED_THREADS


def item_20(page: Page, base_url: str) -> bool:
    """Sidebar category counts match the threads, including a newly posted one."""
    if category_count(page, "Gear Talk") != 3 or category_count(page, "All threads") != SEEDED_THREADS:
        return False
    start_thread(page, "Stove fuel canisters on flights?", "Gear Talk", NEW_BODY)
    if not eventually(lambda: category_count(page, "Gear Talk") == 4):
        return False
    category_link(page, "Gear Talk").click()
    return eventually(lambda: len(listed_titles(page)) == 4) and category_count(page, "All threads") == SEEDED_THREADS + 1


def item_21(page: Page, base_url: str) -> bool:
    """A category without threads shows an empty-state message inviting a first thread."""
    category_link(page, "Meetups").click()
    return holds(lambda: expect(page.get_by_text("No threads in Meetups yet.")).to_be_visible(timeout=1500)) and \
        page.get_by_role("link", name="Start a thread").is_visible()
