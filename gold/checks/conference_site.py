"""Executable gold checks for ``conference_site`` (Harborline Dev Summit landing site).

Each ``item_<id>(page, base_url)`` drives the page like a visitor and returns
True when the behaviour of gold item ``<id>`` holds.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ._helpers import dismisses, eventually, first_int, holds, placeholder_hits, texts

TRACKS = ["Keynotes", "Frontend", "Backend & Cloud", "AI & Data"]
PRICES = {"Early Bird": 249, "Standard": 399, "Standard + Workshop": 599, "Student": 149}


def _sessions(page: Page):
    return page.get_by_role("list", name="Sessions").get_by_role("listitem")


def _session_titles(page: Page) -> list[str]:
    return texts(_sessions(page).locator("h3"))


def _tab(page: Page, day: str):
    return page.get_by_role("tab", name=re.compile(day))


def _pick_track(page: Page, track: str) -> None:
    page.get_by_label("Track", exact=True).select_option(label=track)


def _session_tracks(page: Page) -> list[str]:
    return texts(_sessions(page).locator(".badge"))


def _agenda(page: Page):
    return page.get_by_role("list", name="Saved sessions").get_by_role("listitem")


def _add_to_agenda(page: Page, title: str) -> None:
    page.get_by_role("button", name=f"Add to agenda: {title}").click()


def _register_form(page: Page):
    return page.locator("#register-form")


def _fill_registration(page: Page, name: str = "Eva de Jong", email: str = "eva.dejong@bytecraft.nl", coc: bool = True) -> None:
    form = _register_form(page)
    form.get_by_label("Full name").fill(name)
    form.get_by_label("Work email").fill(email)
    form.get_by_label("I agree to the code of conduct").set_checked(coc)


def _submit(page: Page) -> None:
    page.get_by_role("button", name="Complete registration").click()


def _confirmation(page: Page):
    return page.get_by_role("status").filter(has_text="registered")


def _money(text: str) -> int | None:
    """The euro/dollar amount in ``text``, as a whole number."""
    m = re.search(r"[€$£]\s?([\d,]+)", text)
    return int(m.group(1).replace(",", "")) if m else None


def _summary_total(page: Page) -> str:
    return page.locator(".summary").get_by_text("Total").locator("xpath=following-sibling::dd").inner_text()


def item_1(page: Page, base_url: str) -> bool:
    """Day 1 is shown by default with time, title, speaker, track and room per session."""
    if _tab(page, "Day 1").get_attribute("aria-selected") != "true":
        return False
    rows = texts(_sessions(page))
    if len(rows) < 5 or "Shipping Software People Trust" not in rows[0]:
        return False
    for row in rows:
        if not re.search(r"\d\d:\d\d", row) or not any(t in row for t in TRACKS) or not re.search(r"Main Hall|Room \w+", row):
            return False
    return "Ten Years of Open Source Maintenance" not in " ".join(rows) and "Amara Okafor" in rows[0]


def item_2(page: Page, base_url: str) -> bool:
    """The Day 2 tab lists Day 2 sessions only."""
    day1 = set(_session_titles(page))
    _tab(page, "Day 2").click()
    if not eventually(lambda: "Ten Years of Open Source Maintenance" in _session_titles(page)):
        return False
    day2 = set(_session_titles(page))
    return len(day2) >= 5 and not (day1 & day2)


def item_3(page: Page, base_url: str) -> bool:
    """The track filter narrows the list to one track."""
    for track in ("AI & Data", "Frontend"):
        _pick_track(page, track)
        if not eventually(lambda track=track: set(_session_tracks(page)) == {track}):
            return False
    return True


def item_4(page: Page, base_url: str) -> bool:
    """The track filter survives switching days."""
    _pick_track(page, "Frontend")
    expect(_sessions(page).first).to_contain_text("Frontend")
    _tab(page, "Day 2").click()
    expect(_tab(page, "Day 2")).to_have_attribute("aria-selected", "true")
    ok_day2 = eventually(lambda: set(_session_tracks(page)) == {"Frontend"} and "Design Tokens at Scale" in _session_titles(page), timeout=0.8)
    _tab(page, "Day 1").click()
    ok_day1 = eventually(lambda: set(_session_tracks(page)) == {"Frontend"} and "Islands, Signals and the Return of the Server" in _session_titles(page), timeout=0.8)
    return ok_day2 and ok_day1 and page.get_by_label("Track", exact=True).input_value() == "Frontend"


def item_5(page: Page, base_url: str) -> bool:
    """A speaker profile shows photo, role, company, bio and their sessions."""
    page.get_by_role("button", name="View profile of Ravi Menon").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    text = dialog.inner_text()
    return (
        dialog.get_by_role("img", name=re.compile("Ravi Menon")).is_visible()
        and "Principal Engineer" in text
        and "Paystream" in text
        and "ledger" in text
        and "Postgres at 10,000 Writes per Second" in text
        and "Event-Driven Systems: Lessons from Payments" in text
    )


def item_6(page: Page, base_url: str) -> bool:
    """Added sessions appear in My agenda with day, time and room."""
    _add_to_agenda(page, "Zero-Downtime Migrations on Kubernetes")
    _tab(page, "Day 2").click()
    _add_to_agenda(page, "Web Performance Budgets That Stick")
    agenda = _agenda(page)
    if not holds(lambda: expect(agenda).to_have_count(2)):
        return False
    rows = texts(agenda)
    return (
        "Zero-Downtime Migrations on Kubernetes" in rows[0] and "14 Oct" in rows[0] and "11:15" in rows[0] and "Main Hall" in rows[0]
        and "Web Performance Budgets That Stick" in rows[1] and "15 Oct" in rows[1] and "Room Delft" in rows[1]
    )


def item_7(page: Page, base_url: str) -> bool:
    """My agenda survives a reload."""
    _add_to_agenda(page, "Feature Stores Without the Hype")
    _add_to_agenda(page, "Postgres at 10,000 Writes per Second")
    expect(_agenda(page)).to_have_count(2)
    page.reload()
    expect(_sessions(page).first).to_be_visible()
    if not holds(lambda: expect(_agenda(page)).to_have_count(2, timeout=1000)):
        return False
    saved = " ".join(texts(_agenda(page)))
    pressed = page.get_by_role("button", name="Remove from agenda: Feature Stores Without the Hype")
    return "Feature Stores Without the Hype" in saved and "Postgres at 10,000" in saved and pressed.get_attribute("aria-pressed") == "true"


def item_8(page: Page, base_url: str) -> bool:
    """A valid registration is confirmed with reference, ticket type, quantity and total."""
    _fill_registration(page)
    form = _register_form(page)
    form.get_by_label("Ticket type").select_option(label="Standard + Workshop — €599")
    form.get_by_label("Number of tickets").fill("2")
    _submit(page)
    conf = _confirmation(page)
    if not holds(lambda: expect(conf).to_be_visible()):
        return False
    text = conf.inner_text()
    return bool(re.search(r"[A-Z0-9]{3,}-\d{3,}", text)) and "Standard + Workshop" in text and "2 ×" in text and _money(text) == 1198


def item_9(page: Page, base_url: str) -> bool:
    """Missing name, invalid email or unaccepted code of conduct each block registration with an error."""
    cases = [
        dict(name="", email="eva@bytecraft.nl", coc=True),
        dict(name="Eva de Jong", email="eva@bytecraft", coc=True),
        dict(name="Eva de Jong", email="eva@bytecraft.nl", coc=False),
    ]
    for case in cases:
        _fill_registration(page, **case)
        _submit(page)
        page.wait_for_timeout(150)
        if _confirmation(page).count() or not [t for t in texts(_register_form(page).locator(".error")) if t]:
            return False
    return True


def item_10(page: Page, base_url: str) -> bool:
    """The sold-out Early Bird tier cannot be booked."""
    tier = _register_form(page).get_by_label("Ticket type")
    option = tier.locator("option", has_text="Early Bird")
    if option.is_disabled():
        return page.get_by_role("list", name="Ticket tiers").get_by_role("listitem").filter(has_text="Early Bird").get_by_role("button").is_disabled()
    _fill_registration(page)
    tier.select_option(label=option.inner_text().strip())
    _submit(page)
    page.wait_for_timeout(200)
    return _confirmation(page).count() == 0


def item_11(page: Page, base_url: str) -> bool:
    """0 and 11 tickets are rejected; 10 is accepted."""
    qty = _register_form(page).get_by_label("Number of tickets")
    _fill_registration(page)
    for bad in ("0", "11"):
        qty.fill(bad)
        _submit(page)
        page.wait_for_timeout(150)
        if _confirmation(page).count() or qty.get_attribute("aria-invalid") != "true":
            return False
    qty.fill("10")
    _submit(page)
    return holds(lambda: expect(_confirmation(page)).to_be_visible())


def item_12(page: Page, base_url: str) -> bool:
    """The summary total is always price × quantity."""
    form = _register_form(page)
    for label, price in (("Standard", 399), ("Standard + Workshop", 599), ("Student", 149)):
        form.get_by_label("Ticket type").select_option(label=f"{label} — €{price}")
        for qty in (1, 3, 7):
            form.get_by_label("Number of tickets").fill(str(qty))
            if not eventually(lambda price=price, qty=qty: _money(_summary_total(page)) == price * qty, timeout=0.5):
                return False
    return True


def item_13(page: Page, base_url: str) -> bool:
    """A tier's Choose button lands on the form with that tier selected."""
    tiers = page.get_by_role("list", name="Ticket tiers")
    tiers.get_by_role("button", name="Choose Student").click()
    form = _register_form(page)
    if not holds(lambda: expect(form.get_by_label("Full name")).to_be_in_viewport()):
        return False
    selected = form.get_by_label("Ticket type").evaluate("s => s.options[s.selectedIndex].text")
    return selected.startswith("Student") and _money(_summary_total(page)) == 149


def item_14(page: Page, base_url: str) -> bool:
    """Exactly one day tab is selected, and it follows the visitor's choice."""
    for day in ("Day 2", "Day 1", "Day 2"):
        _tab(page, day).click()
        selected = [t.inner_text() for t in page.get_by_role("tab").all() if t.get_attribute("aria-selected") == "true"]
        if len(selected) != 1 or day not in selected[0]:
            return False
    return True


def item_15(page: Page, base_url: str) -> bool:
    """The speaker profile closes with its close button and with Escape."""
    dialog = page.get_by_role("dialog")
    by_button = dismisses(dialog, page.get_by_role("button", name="View profile of Lena Vogt").click, "Close speaker profile")
    return by_button and dismisses(dialog, page.get_by_role("button", name="View profile of Elif Demir").click)


def item_16(page: Page, base_url: str) -> bool:
    """The agenda button toggles to an 'in agenda' state and back, updating My agenda."""
    title = "Evaluating LLM Features Before Your Users Do"
    _add_to_agenda(page, title)
    on = page.get_by_role("button", name=f"Remove from agenda: {title}")
    if on.get_attribute("aria-pressed") != "true" or "In agenda" not in on.inner_text():
        return False
    if title not in " ".join(texts(_agenda(page))):
        return False
    on.click()
    off = page.get_by_role("button", name=f"Add to agenda: {title}")
    return off.get_attribute("aria-pressed") == "false" and holds(lambda: expect(_agenda(page)).to_have_count(0))


def item_17(page: Page, base_url: str) -> bool:
    """Each tier shows its name, euro price and inclusions; Early Bird is marked sold out."""
    tiers = page.get_by_role("list", name="Ticket tiers").get_by_role("listitem").filter(has=page.get_by_role("heading"))
    for name, price in PRICES.items():
        tier = tiers.filter(has=page.get_by_role("heading", name=name, exact=True))
        text = tier.inner_text()
        if f"€{price}" not in text.replace(" ", "") or tier.locator("ul li").count() < 2:
            return False
    return "Sold out" in tiers.filter(has=page.get_by_role("heading", name="Early Bird", exact=True)).inner_text()


def item_18(page: Page, base_url: str) -> bool:
    """Summary and confirmation prices are in euros."""
    form = _register_form(page)
    form.get_by_label("Ticket type").select_option(label="Student — €149")
    form.get_by_label("Number of tickets").fill("2")
    summary = page.locator(".summary").inner_text()
    if "$" in summary or "€298" not in summary.replace(" ", ""):
        return False
    _fill_registration(page)
    _submit(page)
    expect(_confirmation(page)).to_be_visible()
    text = _confirmation(page).inner_text()
    return "€298" in text.replace(" ", "") and "$" not in text


def item_19(page: Page, base_url: str) -> bool:
    """Dates and venue agree in the hero, the day tabs and the footer."""
    hero = page.locator(".hero").inner_text()
    footer = page.get_by_role("contentinfo").inner_text()
    tabs = " ".join(texts(page.get_by_role("tab")))
    return (
        "14–15 October 2025" in hero and "Kade Hall, Rotterdam" in hero
        and "14 Oct" in tabs and "15 Oct" in tabs
        and "14–15 October 2025" in footer and "Kade Hall" in footer and "Rotterdam" in footer
    )


def item_20(page: Page, base_url: str) -> bool:
    """Every speaker has a bio; no placeholder text on the page or in profiles."""
    if placeholder_hits(page.locator("body").inner_text()):
        return False
    cards = page.get_by_role("list", name="Speakers").get_by_role("button")
    dialog = page.get_by_role("dialog")
    count = cards.count()
    for i in range(count):
        cards.nth(i).click()
        expect(dialog).to_be_visible()
        bio = dialog.locator("p").nth(1).inner_text().strip()
        if len(bio) < 60 or placeholder_hits(dialog.inner_text()):
            return False
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
    return count >= 8 and first_int(page.locator(".hero").get_by_text("Speakers").locator("xpath=following-sibling::dd").inner_text()) == count
