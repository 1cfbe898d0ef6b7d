"""Executable checks for the contacts_manager gold items (Addressly contact manager).

Each ``item_<id>(page, base_url)`` drives the address book through its UI, as a QA engineer would,
and returns True when the behaviour described by gold item ``id`` holds.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from ._helpers import alert_shown, first_int, holds

SEED_COUNT = 13
FAMILY = ["Elena Petrova", "George Mitchell", "Martin Hart"]


# ---- reading the page ----

def cards(page: Page) -> Locator:
    """Every contact card shown."""
    return page.get_by_role("article")


def card(page: Page, name: str) -> Locator:
    """The card of the contact called ``name``."""
    return page.get_by_role("article", name=name, exact=True)


def names(page: Page) -> list[str]:
    """Names on the shown cards, in display order."""
    return [t.strip() for t in cards(page).get_by_role("heading", level=3).all_inner_texts()]


def tags(page: Page, name: str) -> list[str]:
    """Group tags on a contact's card."""
    return [t.strip() for t in card(page, name).get_by_role("list", name="Groups").get_by_role("listitem").all_inner_texts()]


def group_button(page: Page, group: str) -> Locator:
    """The sidebar button of a group ('All contacts', 'Family', ...)."""
    nav = page.get_by_role("navigation", name="Groups")
    return nav.get_by_role("button", name=re.compile(rf"^{re.escape(group)}\b"))


def search(page: Page, text: str) -> None:
    """Type into the search box (no Enter: the list filters as you type)."""
    page.get_by_label("Search contacts").fill(text)


# ---- acting on the page ----

def dialog(page: Page) -> Locator:
    """The open contact form dialog."""
    return page.get_by_role("dialog")


def open_new(page: Page) -> Locator:
    """Open the New contact dialog."""
    page.get_by_role("button", name="New contact").click()
    box = page.get_by_role("dialog", name="New contact")
    expect(box).to_be_visible()
    return box


def open_edit(page: Page, name: str) -> Locator:
    """Open the Edit contact dialog for ``name``."""
    page.get_by_role("button", name=f"Edit {name}").click()
    box = page.get_by_role("dialog", name="Edit contact")
    expect(box).to_be_visible()
    return box


def fill_contact(box: Locator, **fields: str) -> None:
    """Fill named fields of the contact form: first, last, email, phone, company."""
    labels = {"first": "First name", "last": "Last name", "email": "Email", "phone": "Phone", "company": "Company"}
    for key, value in fields.items():
        box.get_by_label(labels[key]).fill(value)


def save(page: Page) -> None:
    """Click Save contact."""
    page.get_by_role("button", name="Save contact").click()


def add_contact(page: Page, first: str, last: str, email: str, groups: tuple[str, ...] = (), **extra: str) -> None:
    """Add a contact through the New contact dialog."""
    box = open_new(page)
    fill_contact(box, first=first, last=last, email=email, **extra)
    for group in groups:
        box.get_by_role("checkbox", name=group).check()
    save(page)


# ---- functionality ----

def item_1(page: Page, base_url: str) -> bool:
    """A new contact with all fields and the Work group gets a card showing them."""
    add_contact(page, "Nora", "Lindqvist", "nora.lindqvist@fjord.io", ("Work",),
                phone="+1 (555) 010-2233", company="Fjord Analytics")
    new = card(page, "Nora Lindqvist")
    expect(new).to_be_visible()
    text = new.inner_text()
    return all(s in text for s in ("nora.lindqvist@fjord.io", "+1 (555) 010-2233", "Fjord Analytics")) and tags(
        page, "Nora Lindqvist") == ["Work"]


def item_2(page: Page, base_url: str) -> bool:
    """Edit Ben Okafor's phone and company; the card shows the new values."""
    open_edit(page, "Ben Okafor")
    fill_contact(dialog(page), phone="+1 (312) 555-0000", company="Okafor Consulting")
    save(page)
    expect(dialog(page)).to_be_hidden()
    text = card(page, "Ben Okafor").inner_text()
    return "+1 (312) 555-0000" in text and "Okafor Consulting" in text


def item_3(page: Page, base_url: str) -> bool:
    """Edit only Hannah Schultz's phone; her Clients and Friends groups remain."""
    open_edit(page, "Hannah Schultz")
    fill_contact(dialog(page), phone="+49 30 5550 2000")
    save(page)
    expect(card(page, "Hannah Schultz")).to_contain_text("+49 30 5550 2000")
    return sorted(tags(page, "Hannah Schultz")) == ["Clients", "Friends"]


def item_4(page: Page, base_url: str) -> bool:
    """Delete Julia Bennett (confirming); she is gone, also after a reload."""
    page.get_by_role("button", name="Delete Julia Bennett").click()
    page.get_by_role("dialog", name="Delete contact?").get_by_role("button", name="Delete").click()
    expect(card(page, "Julia Bennett")).to_have_count(0)
    page.reload()
    expect(cards(page).first).to_be_visible()
    return card(page, "Julia Bennett").count() == 0 and cards(page).count() == SEED_COUNT - 1


def item_5(page: Page, base_url: str) -> bool:
    """Searching 'hart' finds exactly Amelia Hart and Martin Hart; 'okafor' finds Ben Okafor."""
    search(page, "hart")
    expect(cards(page)).to_have_count(2)
    if sorted(names(page)) != ["Amelia Hart", "Martin Hart"]:
        return False
    search(page, "okafor")
    expect(cards(page)).to_have_count(1)
    return names(page) == ["Ben Okafor"]


def item_6(page: Page, base_url: str) -> bool:
    """Searching the company 'Meridian' finds Farah Haddad, who works at Meridian Health."""
    search(page, "Meridian")
    return holds(lambda: expect(card(page, "Farah Haddad")).to_be_visible(timeout=2000)) and names(page) == ["Farah Haddad"]


def item_7(page: Page, base_url: str) -> bool:
    """Clicking Family lists exactly the three family contacts."""
    group_button(page, "Family").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Family")
    return sorted(names(page)) == FAMILY


def item_8(page: Page, base_url: str) -> bool:
    """Sorting Z–A and then A–Z orders the cards by name both ways."""
    sort = page.get_by_label("Sort by")
    sort.select_option(label="Name (Z–A)")
    desc = names(page)
    sort.select_option(label="Name (A–Z)")
    asc = names(page)
    expected = sorted(asc, key=str.lower)
    return len(asc) == SEED_COUNT and asc == expected and desc == expected[::-1]


def item_9(page: Page, base_url: str) -> bool:
    """A contact added and then reloaded is still listed."""
    add_contact(page, "Oscar", "Delgado", "oscar.delgado@example.com")
    expect(card(page, "Oscar Delgado")).to_be_visible()
    page.reload()
    return holds(lambda: expect(card(page, "Oscar Delgado")).to_be_visible())


# ---- constraint ----

def item_10(page: Page, base_url: str) -> bool:
    """Saving with empty first name and email is refused with both messages; nothing is added."""
    open_new(page)
    fill_contact(dialog(page), last="Nobody", phone="+1 (555) 010-9999")
    save(page)
    refused = alert_shown(page, "First name is required") and alert_shown(page, "Email is required")
    return refused and dialog(page).is_visible() and cards(page).count() == SEED_COUNT


def item_11(page: Page, base_url: str) -> bool:
    """An email without a proper domain is refused with a format message."""
    open_new(page)
    fill_contact(dialog(page), first="Priya", email="priya.at.example")
    save(page)
    return alert_shown(page, "valid email") and card(page, "Priya").count() == 0


def item_12(page: Page, base_url: str) -> bool:
    """A new contact using Amelia Hart's email in capitals is refused as a duplicate."""
    open_new(page)
    fill_contact(dialog(page), first="Amy", last="Hartley", email="AMELIA.HART@northwind.io")
    save(page)
    return alert_shown(page, "already uses") and card(page, "Amy Hartley").count() == 0


def item_13(page: Page, base_url: str) -> bool:
    """Editing Ben Okafor's email to Amelia Hart's is refused as a duplicate."""
    open_edit(page, "Ben Okafor")
    fill_contact(dialog(page), email="amelia.hart@northwind.io")
    save(page)
    return alert_shown(page, "already uses") and "ben.okafor@gmail.com" in card(page, "Ben Okafor").inner_text()


# ---- interaction ----

def item_14(page: Page, base_url: str) -> bool:
    """The × button closes a half-filled New contact dialog and nothing is saved."""
    box = open_new(page)
    fill_contact(box, first="Zed")
    box.get_by_role("button", name="Close").click()
    closed = holds(lambda: expect(box).to_be_hidden(timeout=2000))
    return closed and card(page, "Zed").count() == 0 and cards(page).count() == SEED_COUNT


def item_15(page: Page, base_url: str) -> bool:
    """Adding a contact shows a confirmation message."""
    add_contact(page, "Rosa", "Martins", "rosa.martins@example.com")
    return holds(lambda: expect(page.get_by_role("status")).to_contain_text("Rosa Martins", timeout=2500))


def item_16(page: Page, base_url: str) -> bool:
    """A search without matches shows 'No contacts found' and Clear search brings everyone back."""
    search(page, "zzqx")
    expect(page.get_by_role("heading", name="No contacts found")).to_be_visible()
    page.get_by_role("button", name="Clear search").click()
    return holds(lambda: expect(cards(page)).to_have_count(SEED_COUNT))


def item_17(page: Page, base_url: str) -> bool:
    """Delete asks for confirmation; Cancel keeps Kofi Mensah."""
    page.get_by_role("button", name="Delete Kofi Mensah").click()
    confirm = page.get_by_role("dialog", name="Delete contact?")
    expect(confirm).to_be_visible()
    confirm.get_by_role("button", name="Cancel").click()
    expect(confirm).to_be_hidden()
    return card(page, "Kofi Mensah").count() == 1


# ---- content ----

def item_18(page: Page, base_url: str) -> bool:
    """Each sidebar count equals the number of cards shown after clicking that group."""
    for group in ("Family", "Friends", "Work", "Clients", "All contacts"):
        button = group_button(page, group)
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")
        if first_int(button.inner_text()) != cards(page).count():
            return False
    return True


def item_19(page: Page, base_url: str) -> bool:
    """Cards show initials, full name, email, phone and groups; Farah Haddad's shows Meridian Health."""
    expect(cards(page).first).to_be_visible()
    for c in cards(page).all():
        lines = [t.strip() for t in c.inner_text().splitlines() if t.strip()]
        name = c.get_by_role("heading", level=3).inner_text().strip()
        first, last = name.split(" ", 1)
        text = "\n".join(lines)
        if lines[0] != (first[0] + last[0]).upper() or not re.search(r"Email\s+\S+@\S+\.\w+", text):
            return False
        if not re.search(r"Phone\s+\+?[\d ()-]{7,}", text) or not tags(page, name):
            return False
    return "Meridian Health" in card(page, "Farah Haddad").inner_text()
