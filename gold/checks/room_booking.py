"""Executable checks for the room_booking gold items (RoomDesk meeting-room booking).

Each ``item_<id>(page, base_url)`` drives the booking tool through its UI, as a QA engineer would,
and returns True when the behaviour described by gold item ``id`` holds. The sample calendar is
dated relative to today: Cedar has "Design review" 10:00-11:00 today, and the signed-in user
(Jordan Lee) owns "1:1 with Priya" (Aurora, tomorrow 11:00-12:00) and "Roadmap workshop"
(Cedar, the day after, 13:30-15:00).
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from playwright.sync_api import Locator, Page, expect

from ._helpers import alert_shown, holds

CAPACITY = {"Aurora": 4, "Birch": 6, "Cedar": 10, "Summit Hall": 24}
TIME_RANGE_RE = re.compile(r"\b\d{2}:\d{2}–\d{2}:\d{2}\b")


def day(offset: int = 0) -> date:
    """Today plus ``offset`` days."""
    return date.today() + timedelta(days=offset)


def long_label(d: date) -> str:
    """How the day view titles a date: 'Monday, November 30, 2026'."""
    return f"{d:%A}, {d:%B} {d.day}, {d.year}"


def week_label(d: date) -> str:
    """How the week view names a day: 'Monday, Nov 30'."""
    return f"{d:%A}, {d:%b} {d.day}"


def short_label(d: date) -> str:
    """How My bookings shows a date: 'Mon, Nov 30'."""
    return f"{d:%a}, {d:%b} {d.day}"


# ---- reading the page ----

def room_blocks(page: Page, room: str) -> Locator:
    """Bookings in a room's column of the day view."""
    return page.get_by_role("region", name=f"{room} schedule").get_by_role("listitem")


def my_bookings(page: Page) -> Locator:
    """Entries of the My bookings list."""
    return page.get_by_role("list", name="My bookings").get_by_role("listitem")


def my_booking(page: Page, title: str) -> Locator:
    """The My bookings entry with this meeting title."""
    return my_bookings(page).filter(has=page.get_by_role("heading", name=title, exact=True))


def booked(page: Page, room: str) -> bool:
    """True once the confirmation for a new booking of ``room`` is shown."""
    return holds(lambda: expect(page.get_by_role("status")).to_contain_text(f"{room} booked", timeout=2500))


# ---- acting on the page ----

def book(page: Page, title: str, room: str, start: str, when: date, duration: str = "1 hour", attendees: int = 2) -> None:
    """Fill the New booking form and press Book room."""
    page.get_by_label("Meeting title").fill(title)
    page.get_by_label("Room", exact=True).select_option(label=f"{room} ({CAPACITY[room]} people)")
    page.get_by_label("Date").fill(when.isoformat())
    page.get_by_label("Start time").select_option(label=start)
    page.get_by_label("Duration").select_option(label=duration)
    page.get_by_label("Attendees").fill(str(attendees))
    page.get_by_role("button", name="Book room").click()


def cancel_mine(page: Page, title: str) -> None:
    """Cancel one of my bookings and confirm."""
    my_booking(page, title).get_by_role("button", name=f"Cancel {title}").click()
    page.get_by_role("dialog").get_by_role("button", name="Cancel booking").click()
    expect(my_booking(page, title)).to_have_count(0)


def go_next(page: Page) -> None:
    """Press the schedule's Next button."""
    page.get_by_role("button", name="Next", exact=True).click()


# ---- functionality ----

def item_1(page: Page, base_url: str) -> bool:
    """Book Aurora today 15:00 for an hour: the block appears in Aurora's column."""
    book(page, "Budget sync", "Aurora", "15:00", day(0), attendees=3)
    if not booked(page, "Aurora"):
        return False
    block = room_blocks(page, "Aurora").filter(has_text="Budget sync")
    expect(block).to_have_count(1)
    return "15:00–16:00" in block.inner_text()


def item_2(page: Page, base_url: str) -> bool:
    """A new booking for tomorrow is listed under My bookings."""
    book(page, "Hiring debrief", "Birch", "15:00", day(1), attendees=4)
    entry = my_booking(page, "Hiring debrief")
    return holds(lambda: expect(entry).to_have_count(1)) and "Birch" in entry.inner_text()


def item_3(page: Page, base_url: str) -> bool:
    """Week view lists today's bookings under today and tomorrow's under tomorrow."""
    page.get_by_role("button", name="Week", exact=True).click()
    today = page.get_by_role("region", name=week_label(day(0)))
    expect(today).to_contain_text("Design review")
    if "Monthly all-hands" not in today.inner_text() or "1:1 with Priya" in today.inner_text():
        return False
    if day(1).isocalendar()[1] != day(0).isocalendar()[1]:
        go_next(page)
    return holds(lambda: expect(page.get_by_role("region", name=week_label(day(1)))).to_contain_text("1:1 with Priya"))


def item_4(page: Page, base_url: str) -> bool:
    """Next shows tomorrow's bookings (and not today's); Previous returns to today."""
    go_next(page)
    expect(page.get_by_role("heading", name=long_label(day(1)))).to_be_visible()
    if room_blocks(page, "Aurora").filter(has_text="1:1 with Priya").count() != 1:
        return False
    if room_blocks(page, "Cedar").filter(has_text="Design review").count() != 0:
        return False
    page.get_by_role("button", name="Previous", exact=True).click()
    expect(page.get_by_role("heading", name=long_label(day(0)))).to_be_visible()
    return room_blocks(page, "Cedar").filter(has_text="Design review").count() == 1


def item_5(page: Page, base_url: str) -> bool:
    """Cancelling '1:1 with Priya' removes it from My bookings and from tomorrow's schedule."""
    cancel_mine(page, "1:1 with Priya")
    go_next(page)
    expect(page.get_by_role("heading", name=long_label(day(1)))).to_be_visible()
    return room_blocks(page, "Aurora").filter(has_text="1:1 with Priya").count() == 0


def item_6(page: Page, base_url: str) -> bool:
    """After cancelling '1:1 with Priya', Aurora tomorrow 11:00 can be booked again."""
    cancel_mine(page, "1:1 with Priya")
    book(page, "Priya catch-up", "Aurora", "11:00", day(1))
    return booked(page, "Aurora") and my_booking(page, "Priya catch-up").count() == 1


def item_7(page: Page, base_url: str) -> bool:
    """A new booking is still there after a reload."""
    book(page, "Partner check-in", "Birch", "16:00", day(1))
    expect(my_booking(page, "Partner check-in")).to_have_count(1)
    page.reload()
    return holds(lambda: expect(my_booking(page, "Partner check-in")).to_have_count(1))


# ---- constraint ----

def item_8(page: Page, base_url: str) -> bool:
    """Cedar 09:30-10:30 today, overlapping Design review 10:00-11:00, is refused."""
    book(page, "Early sync", "Cedar", "09:30", day(0))
    refused = alert_shown(page, "already booked")
    return refused and room_blocks(page, "Cedar").filter(has_text="Early sync").count() == 0


def item_9(page: Page, base_url: str) -> bool:
    """Birch can be booked 10:00-11:00 today while Cedar holds Design review at the same time."""
    book(page, "Parallel session", "Birch", "10:00", day(0))
    if not booked(page, "Birch"):
        return False
    return (room_blocks(page, "Birch").filter(has_text="Parallel session").count() == 1
            and room_blocks(page, "Cedar").filter(has_text="Design review").count() == 1)


def item_10(page: Page, base_url: str) -> bool:
    """Six attendees in Aurora (capacity 4) are refused."""
    book(page, "Team lunch planning", "Aurora", "16:00", day(0), attendees=6)
    refused = alert_shown(page, "up to 4 people")
    return refused and room_blocks(page, "Aurora").filter(has_text="Team lunch planning").count() == 0


def item_11(page: Page, base_url: str) -> bool:
    """A 1-hour booking starting 17:30 (ending 18:30) is refused."""
    book(page, "Late review", "Birch", "17:30", day(1))
    return alert_shown(page, "end by 18:00") and my_booking(page, "Late review").count() == 0


def item_12(page: Page, base_url: str) -> bool:
    """A booking dated yesterday is refused."""
    book(page, "Retro", "Birch", "10:00", day(-1))
    return alert_shown(page, "past") and my_booking(page, "Retro").count() == 0


def item_13(page: Page, base_url: str) -> bool:
    """A booking without a title is refused."""
    count = my_bookings(page).count()
    book(page, "", "Birch", "11:00", day(1))
    return alert_shown(page, "title") and my_bookings(page).count() == count


# ---- interaction ----

def item_14(page: Page, base_url: str) -> bool:
    """After a conflict at Cedar 10:00, moving the start to 11:00 and resubmitting succeeds."""
    book(page, "Design follow-up", "Cedar", "10:00", day(0))
    if not alert_shown(page, "already booked"):
        return False
    page.get_by_label("Start time").select_option(label="11:00")
    button = page.get_by_role("button", name="Book room")
    if not holds(lambda: expect(button).to_be_enabled(timeout=2000)):
        return False
    button.click()
    return booked(page, "Cedar") and room_blocks(page, "Cedar").filter(has_text="Design follow-up").count() == 1


def item_15(page: Page, base_url: str) -> bool:
    """A successful booking shows a confirmation with room, date and time."""
    book(page, "Coffee chat", "Aurora", "14:00", day(1))
    return booked(page, "Aurora") and "14:00–15:00" in page.get_by_role("status").inner_text()


def item_16(page: Page, base_url: str) -> bool:
    """Cancel asks for confirmation; Keep booking leaves 'Roadmap workshop' in place."""
    my_booking(page, "Roadmap workshop").get_by_role("button", name="Cancel Roadmap workshop").click()
    confirm = page.get_by_role("dialog")
    expect(confirm).to_be_visible()
    confirm.get_by_role("button", name="Keep booking").click()
    expect(confirm).to_be_hidden()
    return my_booking(page, "Roadmap workshop").count() == 1


def item_17(page: Page, base_url: str) -> bool:
    """With both of my bookings cancelled, My bookings shows an empty-state message."""
    cancel_mine(page, "1:1 with Priya")
    cancel_mine(page, "Roadmap workshop")
    return holds(lambda: expect(page.get_by_text("You have no upcoming bookings")).to_be_visible())


# ---- content ----

def item_18(page: Page, base_url: str) -> bool:
    """The Rooms list shows all four rooms with their capacities and equipment."""
    rooms = page.get_by_role("list", name="Rooms").get_by_role("listitem").filter(has=page.get_by_role("heading"))
    expect(rooms).to_have_count(len(CAPACITY))
    for room, capacity in CAPACITY.items():
        entry = rooms.filter(has=page.get_by_role("heading", name=room, exact=True))
        if f"Up to {capacity} people" not in entry.inner_text():
            return False
        if entry.get_by_role("list", name=f"{room} amenities").get_by_role("listitem").count() < 1:
            return False
    return True


def item_19(page: Page, base_url: str) -> bool:
    """My bookings shows title, date, room and the right start-end time for both seeded bookings."""
    expected = {
        "1:1 with Priya": (short_label(day(1)), "11:00–12:00", "Aurora"),
        "Roadmap workshop": (short_label(day(2)), "13:30–15:00", "Cedar"),
    }
    for title, parts in expected.items():
        entry = my_booking(page, title)
        expect(entry).to_have_count(1)
        text = entry.inner_text()
        if not all(p in text for p in parts):
            return False
    return True


def item_20(page: Page, base_url: str) -> bool:
    """Every block in today's day view shows a title, a time range and an organizer."""
    blocks = page.get_by_role("region", name=re.compile(r" schedule$")).get_by_role("listitem")
    expect(blocks.first).to_be_visible()
    for text in blocks.all_inner_texts():
        lines = [t.strip() for t in re.split(r"\n", text) if t.strip()]
        if len(lines) < 3 or not TIME_RANGE_RE.search(text):
            return False
    design = room_blocks(page, "Cedar").filter(has_text="Design review").inner_text()
    return "10:00–11:00" in design and "Priya Shah" in design
