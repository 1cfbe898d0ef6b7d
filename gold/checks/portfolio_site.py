"""Executable gold checks for ``portfolio_site`` (a photographer's portfolio).

Each ``item_<id>(page, base_url)`` drives the page like a visitor and returns
True when the behaviour of gold item ``<id>`` holds.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from ._helpers import dismisses, eventually, first_int, holds, image_loaded, placeholder_hits, texts

CATEGORIES = ["Portraits", "Landscapes", "Architecture", "Editorial"]
TOTAL_PROJECTS = 12


def _cards(page: Page):
    return page.get_by_role("list", name="Projects").get_by_role("listitem")


def _filter(page: Page, name: str) -> None:
    page.get_by_role("group", name="Filter projects by category").get_by_role("button", name=name, exact=True).click()


def _card_titles(page: Page) -> list[str]:
    return texts(_cards(page).locator("h3"))


def _lightbox(page: Page):
    return page.get_by_role("dialog")


def _lightbox_title(page: Page) -> str:
    return _lightbox(page).get_by_role("heading", level=2).inner_text().strip()


def _open_project(page: Page, title: str) -> None:
    page.get_by_role("button", name=f"Open project {title}").click()
    expect(_lightbox(page)).to_be_visible()


def _fill_contact(page: Page, name: str, email: str, message: str) -> None:
    form = page.locator("#contact")
    form.get_by_label("Your name").fill(name)
    form.get_by_label("Email").fill(email)
    form.get_by_label("Message").fill(message)


def _send(page: Page) -> None:
    page.get_by_role("button", name="Send message").click()


def _confirmation(page: Page):
    return page.get_by_role("status").filter(has_text="sent")


GOOD_MESSAGE = "Hello! I'd like a portrait session for our bakery's new website in early June."


def item_1(page: Page, base_url: str) -> bool:
    """All projects are shown on load, each card with an image, a title, a category and a year."""
    cards = _cards(page)
    expect(cards).to_have_count(TOTAL_PROJECTS)
    for i in range(TOTAL_PROJECTS):
        card = cards.nth(i)
        text = card.inner_text()
        if card.get_by_role("img").count() != 1 or not card.locator("h3").inner_text().strip():
            return False
        if not any(c.lower() in text.lower() for c in CATEGORIES) or first_int(text) is None or not 2000 < first_int(text.split("\n")[-1]) < 2100:
            return False
    return True


def item_2(page: Page, base_url: str) -> bool:
    """A category filter shows only (and all) projects of that category."""
    expect(_cards(page)).to_have_count(TOTAL_PROJECTS)
    all_cards = {t.split("\n")[0]: t for t in texts(_cards(page))}
    for cat in ("Portraits", "Architecture"):
        expected = {title for title, text in all_cards.items() if cat.lower() in text.lower()}
        _filter(page, cat)
        if not eventually(lambda expected=expected: set(_card_titles(page)) == expected):
            return False
        if not all(cat.lower() in t.lower() for t in texts(_cards(page))):
            return False
    return True


def item_3(page: Page, base_url: str) -> bool:
    """Choosing All after a category filter shows every project again."""
    _filter(page, "Landscapes")
    expect(_cards(page)).not_to_have_count(TOTAL_PROJECTS)
    _filter(page, "All")
    return holds(lambda: expect(_cards(page)).to_have_count(TOTAL_PROJECTS))


def item_4(page: Page, base_url: str) -> bool:
    """Opening a project shows its image, title, description, client, location and year in a lightbox."""
    _open_project(page, "Atlantic Hours")
    box = _lightbox(page)
    text = box.inner_text()
    return (
        _lightbox_title(page) == "Atlantic Hours"
        and image_loaded(box.get_by_role("img"))
        and "crater lakes" in text
        and "Visit Azores" in text
        and "São Miguel" in text
        and "2023" in text
    )


def item_5(page: Page, base_url: str) -> bool:
    """Lightbox Next/Previous stay within the filtered projects and wrap around."""
    _filter(page, "Portraits")
    expect(_cards(page)).to_have_count(3)
    portraits = _card_titles(page)
    _open_project(page, portraits[0])
    seen = [_lightbox_title(page)]
    if "1 / 3" not in _lightbox(page).inner_text():
        return False
    for _ in range(3):
        page.get_by_role("button", name="Next project").click()
        seen.append(_lightbox_title(page))
    page.get_by_role("button", name="Previous project").click()
    back = _lightbox_title(page)
    return seen == portraits + [portraits[0]] and back == portraits[-1]


def item_6(page: Page, base_url: str) -> bool:
    """The header links lead to the Work, About and Contact sections."""
    nav = page.get_by_role("navigation", name="Main")
    for link, heading in (("About", "About Noor"), ("Contact", "Let's work together"), ("Work", "Selected work")):
        nav.get_by_role("link", name=link, exact=True).click()
        if not holds(lambda heading=heading: expect(page.get_by_role("heading", name=heading, level=2)).to_be_in_viewport()):
            return False
    return True


def item_7(page: Page, base_url: str) -> bool:
    """A valid contact submission is sent and confirmed."""
    _fill_contact(page, "Maria Costa", "maria.costa@example.com", GOOD_MESSAGE)
    page.get_by_label("Project type").select_option("Portrait session")
    _send(page)
    return holds(lambda: expect(_confirmation(page)).to_be_visible())


def item_8(page: Page, base_url: str) -> bool:
    """An empty submission shows an error for name, email and message and sends nothing."""
    _send(page)
    form = page.locator("#contact")
    for label in ("Your name", "Email", "Message"):
        if form.get_by_label(label).get_attribute("aria-invalid") != "true":
            return False
    errors = [t for t in texts(form.locator(".error")) if t]
    page.wait_for_timeout(200)
    return len(errors) >= 3 and _confirmation(page).count() == 0


def item_9(page: Page, base_url: str) -> bool:
    """A malformed email address is rejected with an error."""
    _fill_contact(page, "Maria Costa", "maria.gmail.com", GOOD_MESSAGE)
    _send(page)
    page.wait_for_timeout(200)
    email = page.locator("#contact").get_by_label("Email")
    return email.get_attribute("aria-invalid") == "true" and _confirmation(page).count() == 0 and email.input_value() == "maria.gmail.com"


def item_10(page: Page, base_url: str) -> bool:
    """A message under 20 characters is rejected with an explanation."""
    _fill_contact(page, "Maria Costa", "maria.costa@example.com", "Hi, are you free?")
    _send(page)
    page.wait_for_timeout(200)
    error = page.locator("#contact").get_by_text("at least 20 characters", exact=False)
    return error.count() >= 1 and _confirmation(page).count() == 0


def item_11(page: Page, base_url: str) -> bool:
    """The close (×) button closes the lightbox."""
    return dismisses(_lightbox(page), lambda: _open_project(page, "Light Wells"), "Close")


def item_12(page: Page, base_url: str) -> bool:
    """Escape closes the lightbox."""
    return dismisses(_lightbox(page), lambda: _open_project(page, "Dune Sequence"))


def item_13(page: Page, base_url: str) -> bool:
    """Right/left arrow keys move to the next/previous project in the lightbox."""
    titles = _card_titles(page)
    _open_project(page, titles[1])
    page.keyboard.press("ArrowRight")
    after_right = _lightbox_title(page)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    return after_right == titles[2] and _lightbox_title(page) == titles[0]


def item_14(page: Page, base_url: str) -> bool:
    """The selected filter is marked as pressed and is the only one."""
    group = page.get_by_role("group", name="Filter projects by category")
    for cat in ("All", "Editorial", "Landscapes"):
        if cat != "All":
            _filter(page, cat)
        pressed = [b.inner_text().strip() for b in group.get_by_role("button").all() if b.get_attribute("aria-pressed") == "true"]
        if pressed != [cat]:
            return False
    return True


def item_15(page: Page, base_url: str) -> bool:
    """After a successful send the form is cleared."""
    _fill_contact(page, "Tomás Reis", "tomas@reisarquitetos.pt", GOOD_MESSAGE)
    _send(page)
    expect(_confirmation(page)).to_be_visible()
    form = page.locator("#contact")
    return all(form.get_by_label(label).input_value() == "" for label in ("Your name", "Email", "Message"))


def item_16(page: Page, base_url: str) -> bool:
    """Submitting with errors marks the invalid fields and focuses the first one."""
    form = page.locator("#contact")
    form.get_by_label("Your name").fill("Tomás Reis")
    _send(page)
    email = form.get_by_label("Email")
    return (
        holds(lambda: expect(email).to_be_focused(timeout=1000))
        and email.get_attribute("aria-invalid") == "true"
        and form.get_by_label("Your name").get_attribute("aria-invalid") != "true"
    )


def item_17(page: Page, base_url: str) -> bool:
    """The 'Showing N projects' count equals the number of visible projects for every filter."""
    count = page.get_by_text("Showing", exact=False).first
    for cat in ["All", *CATEGORIES, "All"]:
        _filter(page, cat)
        if not eventually(lambda: first_int(count.inner_text()) == _cards(page).count(), timeout=0.5):
            return False
    return True


def item_18(page: Page, base_url: str) -> bool:
    """The About section has a portrait that loads, a bio and the services list."""
    about = page.locator("#about")
    about.scroll_into_view_if_needed()
    portrait = about.get_by_role("img", name="Portrait of Noor Haddad")
    text = about.inner_text()
    return image_loaded(portrait) and "photographer" in text and about.get_by_role("heading", name="Services").is_visible() and about.locator(".services li").count() >= 3


def item_19(page: Page, base_url: str) -> bool:
    """No placeholder or template text on the page, in the gallery or in a project lightbox."""
    if placeholder_hits(page.locator("body").inner_text()):
        return False
    for title in _card_titles(page)[:4]:
        _open_project(page, title)
        if placeholder_hits(_lightbox(page).inner_text()):
            return False
        page.keyboard.press("Escape")
        expect(_lightbox(page)).to_be_hidden()
    return True


def item_20(page: Page, base_url: str) -> bool:
    """Each project image carries alt text that names its project."""
    cards = _cards(page)
    expect(cards).to_have_count(TOTAL_PROJECTS)
    for i in range(TOTAL_PROJECTS):
        card = cards.nth(i)
        title = card.locator("h3").inner_text().strip()
        alt = card.get_by_role("img").get_attribute("alt") or ""
        if title not in alt or len(alt) <= len(title):
            return False
    return True
