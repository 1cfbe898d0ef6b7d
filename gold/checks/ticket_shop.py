"""Executable gold checks for the bundled ticket_shop app (Stagepass event tickets)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ._helpers import first_int, holds, money, texts

MIDNIGHT = "Midnight Harbor — Live in Concert"
LAUGH = "Laugh Track: Stand-up Night with Dana Ruiz"


def cards(page: Page):
    """Locator of the event cards on the listing."""
    return page.locator("article.event-card")


def open_event(page: Page, title: str) -> None:
    """Go from the listing to an event's page."""
    page.get_by_role("link", name=f"View tickets for {title}").click()
    expect(page.get_by_role("heading", level=1, name=title)).to_be_visible()


def add_tickets(page: Page, title: str, quantities: dict[str, int]) -> None:
    """Open an event (from the listing), choose quantities per ticket type and press Add to cart."""
    if page.get_by_role("heading", level=1, name=title).count() == 0:
        page.get_by_role("link", name="Events", exact=True).click()
        open_event(page, title)
    for ticket, qty in quantities.items():
        page.get_by_label(f"{ticket} quantity").fill(str(qty))
    page.get_by_role("button", name="Add to cart").click()


def go_to_cart(page: Page) -> None:
    """Open the cart from the header."""
    page.get_by_role("link", name=re.compile(r"^Cart")).click()
    expect(page.get_by_role("heading", level=1, name="Your cart")).to_be_visible()


def cart_lines(page: Page):
    """Locator of the lines in the cart."""
    return page.locator("li.cart-line")


def cart_quantities(page: Page) -> list[int]:
    """Quantity shown on each cart line."""
    return [first_int(t) or 0 for t in texts(cart_lines(page).locator("output"))]


def summary_value(page: Page, label: str) -> float:
    """Amount of the order summary row whose label starts with ``label`` (Tickets, Promo, Service fees, Total)."""
    row = page.locator("dl.sums > div", has=page.locator("dt", has_text=re.compile("^" + re.escape(label))))
    return money(row.locator("dd").inner_text())


def badge_count(page: Page) -> int | None:
    """Number shown next to Cart in the header."""
    return first_int(page.get_by_role("banner").get_by_role("link", name=re.compile(r"^Cart")).inner_text())


def apply_promo(page: Page, code: str) -> None:
    """Type a promo code in the cart and press Apply."""
    page.get_by_label("Promo code").fill(code)
    page.get_by_role("button", name="Apply").click()


def checkout(page: Page, **overrides: str) -> None:
    """Go to checkout and fill the form with valid details (``overrides`` replace fields; terms=False leaves the box)."""
    page.get_by_role("link", name="Continue to checkout").click()
    values = {"Full name": "Sam Rivera", "Email": "sam.rivera@example.com", "Card number": "4242 4242 4242 4242",
              "Expiry (MM/YY)": "12/39", "Security code": "123"}
    values.update({k: v for k, v in overrides.items() if k != "terms"})
    for label, value in values.items():
        page.get_by_label(label, exact=True).fill(value)
    if overrides.get("terms", True):
        page.get_by_label("I agree to the Stagepass terms of sale").check()
    page.get_by_role("button", name=re.compile(r"^Place order")).click()


def item_1(page: Page, base_url: str) -> bool:
    """Eight upcoming events with title, date, venue and a From price."""
    expect(cards(page)).to_have_count(8)
    for text in texts(cards(page)):
        if not (re.search(r"[A-Z][a-z]{2} \d{1,2}, 20\d\d", text) and re.search(r"From\s*\$\d", text) and "," in text):
            return False
    return "Crescent Hall" in cards(page).filter(has_text="Midnight Harbor").inner_text()


def item_2(page: Page, base_url: str) -> bool:
    """Keyword search by city and by title."""
    page.get_by_label("Search events").fill("Tacoma")
    if not holds(lambda: expect(cards(page)).to_have_count(2, timeout=1000)):
        return False
    if not all("Tacoma" in t for t in texts(cards(page))):
        return False
    page.get_by_label("Search events").fill("hamlet")
    return holds(lambda: expect(cards(page)).to_have_count(1, timeout=1000)) and "Hamlet" in cards(page).inner_text()


def item_3(page: Page, base_url: str) -> bool:
    """Category alone and category + keyword both restrict the list."""
    page.get_by_label("Category").select_option("Sports")
    if not holds(lambda: expect(cards(page)).to_have_count(2, timeout=1000)):
        return False
    page.get_by_label("Category").select_option("Comedy")
    page.get_by_label("Search events").fill("night")
    shown = texts(cards(page))
    return len(shown) == 2 and all("COMEDY" in t.upper() and "night" in t.lower() for t in shown)


def item_4(page: Page, base_url: str) -> bool:
    """Ticket types with prices; chosen quantities of two types land in the cart."""
    open_event(page, MIDNIGHT)
    panel = page.get_by_role("heading", name="Choose tickets").locator("..")
    if not all(s in panel.inner_text() for s in ("General Admission", "$45.00", "Balcony Reserved", "$68.00")):
        return False
    page.get_by_role("button", name="Increase General Admission").click()
    page.get_by_role("button", name="Increase General Admission").click()
    page.get_by_label("Balcony Reserved quantity").fill("1")
    page.get_by_role("button", name="Add to cart").click()
    go_to_cart(page)
    lines = texts(cart_lines(page))
    return len(lines) == 2 and sorted(cart_quantities(page)) == [1, 2] and any("Balcony Reserved" in t for t in lines)


def item_5(page: Page, base_url: str) -> bool:
    """Line total is unit price x quantity and follows quantity changes."""
    add_tickets(page, MIDNIGHT, {"General Admission": 2})
    go_to_cart(page)
    line = cart_lines(page).first
    if "$45.00" not in line.inner_text() or "$90.00" not in line.inner_text():
        return False
    page.get_by_role("button", name=f"Increase General Admission — {MIDNIGHT}").click()
    return holds(lambda: expect(cart_lines(page).first).to_contain_text("$135.00", timeout=1000)) and cart_quantities(page) == [3]


def item_6(page: Page, base_url: str) -> bool:
    """Removing a line leaves the other one."""
    add_tickets(page, MIDNIGHT, {"General Admission": 1, "Balcony Reserved": 1})
    go_to_cart(page)
    page.get_by_role("button", name=f"Remove General Admission — {MIDNIGHT}").click()
    return holds(lambda: expect(cart_lines(page)).to_have_count(1, timeout=1000)) and "Balcony Reserved" in cart_lines(page).inner_text()


def item_7(page: Page, base_url: str) -> bool:
    """STAGE10 takes 10% off $90 of tickets."""
    add_tickets(page, MIDNIGHT, {"General Admission": 2})
    go_to_cart(page)
    apply_promo(page, "STAGE10")
    return abs(abs(summary_value(page, "Promo")) - 9.0) < 0.005 and abs(summary_value(page, "Total") - 86.0) < 0.005


def item_8(page: Page, base_url: str) -> bool:
    """A valid checkout ends on a confirmation with an order number, and the cart is empty afterwards."""
    add_tickets(page, LAUGH, {"General Admission": 2})
    go_to_cart(page)
    checkout(page)
    heading = page.get_by_role("heading", level=1, name=re.compile(r"going|confirmed|thank", re.I))
    if not holds(lambda: expect(heading).to_be_visible(timeout=1500)):
        return False
    if not re.search(r"\bSP-\d{6}\b", page.locator("main").inner_text()):
        return False
    go_to_cart(page)
    return page.get_by_text("Your cart is empty").is_visible()


def item_9(page: Page, base_url: str) -> bool:
    """Cart contents survive a reload."""
    add_tickets(page, LAUGH, {"Front Row Table": 2})
    go_to_cart(page)
    page.reload()
    return holds(lambda: expect(cart_lines(page)).to_have_count(1, timeout=1500)) and cart_quantities(page) == [2]


def item_10(page: Page, base_url: str) -> bool:
    """4 tickets in the cart plus 4 more from the event page never exceed 6 for the event."""
    add_tickets(page, LAUGH, {"General Admission": 4})
    page.get_by_label("General Admission quantity").fill("4")
    button = page.get_by_role("button", name="Add to cart")
    if button.is_enabled():
        button.click()
    go_to_cart(page)
    return sum(cart_quantities(page)) <= 6


def item_11(page: Page, base_url: str) -> bool:
    """The sold-out VIP Lounge is marked and has no usable quantity control."""
    open_event(page, MIDNIGHT)
    row = page.locator("li", has=page.get_by_role("heading", name="VIP Lounge"))
    if "sold out" not in row.inner_text().lower():
        return False
    controls = row.locator("input, button")
    return all(not c.is_enabled() for c in controls.all())


def item_12(page: Page, base_url: str) -> bool:
    """Unknown and expired codes show a message and leave the total unchanged."""
    add_tickets(page, MIDNIGHT, {"General Admission": 2})
    go_to_cart(page)
    total = summary_value(page, "Total")
    apply_promo(page, "FREEPASS")
    unknown = page.get_by_role("alert").filter(has_text=re.compile(r"\S")).count() > 0
    apply_promo(page, "EARLYBIRD")
    expired = holds(lambda: expect(page.get_by_text(re.compile(r"expired", re.I))).to_be_visible(timeout=1000))
    return unknown and expired and summary_value(page, "Total") == total


def item_13(page: Page, base_url: str) -> bool:
    """Applying STAGE10 twice still gives 10% off."""
    add_tickets(page, MIDNIGHT, {"General Admission": 2})
    go_to_cart(page)
    apply_promo(page, "STAGE10")
    apply_promo(page, "STAGE10")
    return abs(abs(summary_value(page, "Promo")) - 9.0) < 0.005 and abs(summary_value(page, "Total") - 86.0) < 0.005


def item_14(page: Page, base_url: str) -> bool:
    """Bad email, short card, past expiry and unticked terms block the order with messages."""
    add_tickets(page, LAUGH, {"General Admission": 1})
    go_to_cart(page)
    checkout(page, **{"Email": "sam@", "Card number": "4242 4242", "Expiry (MM/YY)": "01/20", "terms": False})
    still_here = page.get_by_role("heading", level=1, name="Checkout").is_visible()
    invalid = page.locator("[aria-invalid='true']").count()
    return still_here and invalid >= 4 and page.get_by_text(re.compile(r"valid email", re.I)).is_visible()


def item_15(page: Page, base_url: str) -> bool:
    """The header count follows add, quantity change and remove."""
    add_tickets(page, MIDNIGHT, {"General Admission": 2})
    if badge_count(page) != 2:
        return False
    go_to_cart(page)
    page.get_by_role("button", name=f"Increase General Admission — {MIDNIGHT}").click()
    expect(cart_lines(page).first.locator("output")).to_have_text("3")
    if badge_count(page) != 3:
        return False
    page.get_by_role("button", name=f"Remove General Admission — {MIDNIGHT}").click()
    expect(page.get_by_text("Your cart is empty")).to_be_visible()
    return badge_count(page) in (0, None)


def item_16(page: Page, base_url: str) -> bool:
    """Adding tickets shows a confirmation toast."""
    add_tickets(page, MIDNIGHT, {"General Admission": 2})
    toast = page.get_by_role("status").get_by_text(re.compile(r"added.*cart", re.I))
    return holds(lambda: expect(toast).to_be_visible(timeout=1500))


def item_17(page: Page, base_url: str) -> bool:
    """Typing filters live; no results shows a message and Clear filters restores the list."""
    page.get_by_label("Search events").fill("pier")
    if not holds(lambda: expect(cards(page)).to_have_count(1, timeout=1000)):
        return False
    page.get_by_label("Search events").fill("zzzz")
    if not holds(lambda: expect(page.get_by_text(re.compile(r"no events match", re.I))).to_be_visible(timeout=1000)):
        return False
    page.get_by_role("button", name="Clear filters").click()
    return holds(lambda: expect(cards(page)).to_have_count(8, timeout=1000))


def item_18(page: Page, base_url: str) -> bool:
    """The confirmation lists the tickets and repeats the discounted total charged at checkout."""
    add_tickets(page, MIDNIGHT, {"General Admission": 2})
    go_to_cart(page)
    apply_promo(page, "STAGE10")
    charged = summary_value(page, "Total")
    checkout(page)
    main = page.locator("main")
    if not holds(lambda: expect(main).to_contain_text(re.compile(r"SP-\d{6}"), timeout=1500)):
        return False
    text = main.inner_text()
    paid = re.search(r"Total paid\s*(\S+)", text)
    return "2 × General Admission" in text and paid is not None and abs(money(paid.group(1)) - charged) < 0.005


def item_19(page: Page, base_url: str) -> bool:
    """Tickets 158.00 - 15.80 promo + 7.50 fees = 149.70."""
    add_tickets(page, MIDNIGHT, {"General Admission": 2, "Balcony Reserved": 1})
    go_to_cart(page)
    apply_promo(page, "STAGE10")
    tickets, promo = summary_value(page, "Tickets"), abs(summary_value(page, "Promo"))
    fees, total = summary_value(page, "Service fees"), summary_value(page, "Total")
    return abs(tickets - 158) < 0.005 and abs(promo - 15.8) < 0.005 and abs(fees - 7.5) < 0.005 and abs(total - (tickets - promo + fees)) < 0.005


def item_20(page: Page, base_url: str) -> bool:
    """Hamlet's card price, date and venue match its page."""
    card = cards(page).filter(has_text="Hamlet").inner_text()
    open_event(page, "Hamlet")
    detail = page.locator("main").inner_text()
    date = re.search(r"[A-Z][a-z]{2} \d{1,2}, 20\d\d", card)
    prices = [money(p) for p in texts(page.locator(".ticket-price"))]
    return (
        date is not None and date.group() in detail
        and "Northlight Playhouse" in detail
        and abs(money(card.split("From", 1)[1]) - min(prices)) < 0.005
    )
