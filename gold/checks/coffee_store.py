"""Executable gold checks for the bundled coffee_store app (Ember & Oak Coffee Roasters)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ._helpers import first_int, holds, money, placeholder_hits, texts

CART_BUTTON = re.compile(r"^Cart")


def products(page: Page):
    """Locator of the product cards."""
    return page.locator("article.product")


def add(page: Page, name: str, grind: str | None = None, size: str | None = None) -> None:
    """Pick grind and size on a coffee's card (when given) and press its Add to cart button."""
    if grind:
        page.get_by_label(f"Grind for {name}").select_option(label=grind)
    if size:
        page.get_by_label(f"Size for {name}").select_option(label=size)
    page.get_by_role("button", name=f"Add {name} to cart").click()


def open_cart(page: Page):
    """Open the cart drawer from the header and return it."""
    page.get_by_role("button", name=CART_BUTTON).click()
    drawer = page.get_by_role("dialog", name="Your cart")
    expect(drawer).to_be_visible()
    return drawer


def lines(page: Page):
    """Locator of the cart lines in the drawer."""
    return page.get_by_role("dialog", name="Your cart").locator("li.line")


def quantity(page: Page, label: str) -> int | None:
    """Quantity shown for the cart line described by ``label`` (e.g. 'Santos Bourbon (Whole bean, 250 g)')."""
    return first_int(page.get_by_label(f"Quantity of {label}", exact=True).inner_text())


def total_row(page: Page, label: str) -> str:
    """Text of the drawer's money row whose label starts with ``label`` (Subtotal, Discount, Shipping, Total)."""
    drawer = page.get_by_role("dialog", name="Your cart")
    return drawer.locator("dl.money > div", has=page.locator("dt", has_text=re.compile("^" + label))).locator("dd").inner_text().strip()


def apply_code(page: Page, code: str) -> None:
    """Enter a discount code in the drawer and press Apply."""
    page.get_by_label("Discount code").fill(code)
    page.get_by_role("button", name="Apply").click()


def header_count(page: Page) -> int | None:
    """Number shown on the header's cart button."""
    return first_int(page.get_by_role("button", name=CART_BUTTON).inner_text())


def go_to_checkout(page: Page, **fields: str) -> None:
    """From the open drawer go to checkout, fill the form (valid defaults, overridable) and place the order."""
    page.get_by_role("button", name=re.compile(r"^Checkout")).click()
    expect(page.get_by_role("heading", name="Checkout")).to_be_visible()
    values = {"Full name": "Pat Nguyen", "Email": "pat.nguyen@example.com", "Street address": "12 Pine Ridge Road",
              "City": "Asheville", "ZIP code": "28801"}
    values.update(fields)
    for label, value in values.items():
        page.get_by_label(label, exact=True).fill(value)
    page.get_by_role("button", name=re.compile(r"^Place order")).click()


def item_1(page: Page, base_url: str) -> bool:
    """Eight coffees, each with name, origin, roast, notes and a dollar price."""
    expect(products(page)).to_have_count(8)
    for card in products(page).all():
        name = card.get_by_role("heading").inner_text().strip()
        text = card.inner_text()
        if not name or not re.search(r"(Light|Medium|Dark) roast", text) or not re.search(r"\$\d+\.\d{2}", text):
            return False
        if len(card.locator(".notes").inner_text().strip()) < 10 or not card.locator(".origin").inner_text().strip():
            return False
    return True


def item_2(page: Page, base_url: str) -> bool:
    """The roast filter keeps only coffees of that roast."""
    page.get_by_label("Roast", exact=True).select_option("Light")
    light = texts(products(page))
    page.get_by_label("Roast", exact=True).select_option("Dark")
    dark = texts(products(page))
    return (
        len(light) == 2 and all("Light roast" in t for t in light)
        and len(dark) == 2 and all("Dark roast" in t for t in dark)
    )


def item_3(page: Page, base_url: str) -> bool:
    """Kiambu AA, espresso grind, 1 kg lands in the cart at the 1 kg price."""
    add(page, "Kiambu AA", "Espresso", "1 kg")
    open_cart(page)
    expect(lines(page)).to_have_count(1)
    text = lines(page).inner_text()
    return "Kiambu AA" in text and "Espresso" in text and "1 kg" in text and "$74.00" in text


def item_4(page: Page, base_url: str) -> bool:
    """Two grinds of the same coffee are two cart lines."""
    add(page, "Kiambu AA", "Whole bean")
    add(page, "Kiambu AA", "Espresso")
    open_cart(page)
    shown = texts(lines(page))
    return len(shown) == 2 and any("Whole bean" in t for t in shown) and any("Espresso" in t for t in shown)


def item_5(page: Page, base_url: str) -> bool:
    """The same coffee, grind and size twice is one line of quantity 2."""
    add(page, "Santos Bourbon")
    add(page, "Santos Bourbon")
    open_cart(page)
    return lines(page).count() == 1 and quantity(page, "Santos Bourbon (Whole bean, 250 g)") == 2 and "$28.00" in lines(page).inner_text()


def item_6(page: Page, base_url: str) -> bool:
    """+ and - change the quantity, the line total and the subtotal."""
    add(page, "Santos Bourbon")
    open_cart(page)
    page.get_by_role("button", name="Increase quantity of Santos Bourbon (Whole bean, 250 g)").click()
    if not holds(lambda: expect(lines(page).first).to_contain_text("$28.00", timeout=1000)):
        return False
    if quantity(page, "Santos Bourbon (Whole bean, 250 g)") != 2 or money(total_row(page, "Subtotal")) != 28.0:
        return False
    page.get_by_role("button", name="Decrease quantity of Santos Bourbon (Whole bean, 250 g)").click()
    return quantity(page, "Santos Bourbon (Whole bean, 250 g)") == 1 and money(total_row(page, "Subtotal")) == 14.0


def item_7(page: Page, base_url: str) -> bool:
    """Removing one line leaves the other."""
    add(page, "Santos Bourbon")
    add(page, "Huila Las Flores")
    open_cart(page)
    page.get_by_role("button", name="Remove Santos Bourbon (Whole bean, 250 g)").click()
    return holds(lambda: expect(lines(page)).to_have_count(1, timeout=1000)) and "Huila Las Flores" in lines(page).inner_text()


def item_8(page: Page, base_url: str) -> bool:
    """WELCOME15 on a $40.00 bag gives a $6.00 discount."""
    add(page, "Kiambu AA", size="500 g")
    open_cart(page)
    apply_code(page, "WELCOME15")
    return abs(abs(money(total_row(page, "Discount"))) - 6.0) < 0.005 and abs(money(total_row(page, "Total")) - 39.95) < 0.005


def item_9(page: Page, base_url: str) -> bool:
    """A valid checkout shows a numbered confirmation and leaves the cart empty."""
    add(page, "Kiambu AA", size="1 kg")
    open_cart(page)
    go_to_checkout(page)
    heading = page.get_by_role("heading", name=re.compile(r"thank you|confirmed", re.I))
    if not holds(lambda: expect(heading).to_be_visible(timeout=1500)):
        return False
    if not re.search(r"\bEO-\d{5}\b", page.locator("main").inner_text()):
        return False
    open_cart(page)
    return page.get_by_text("Your cart is empty").is_visible() and header_count(page) in (0, None)


def item_10(page: Page, base_url: str) -> bool:
    """The cart survives a reload."""
    add(page, "Santos Bourbon", "French press")
    page.reload()
    open_cart(page)
    return holds(lambda: expect(lines(page)).to_have_count(1, timeout=1500)) and "French press" in lines(page).inner_text()


def item_11(page: Page, base_url: str) -> bool:
    """$50.00 ships free; $37.50 pays $5.95."""
    add(page, "Oak Barrel Morning Blend")
    open_cart(page)
    increase = page.get_by_role("button", name="Increase quantity of Oak Barrel Morning Blend (Whole bean, 250 g)")
    for _ in range(3):
        increase.click()
    if money(total_row(page, "Subtotal")) != 50.0:
        return False
    free = total_row(page, "Shipping").lower() in ("free", "$0.00") and money(total_row(page, "Total")) == 50.0
    page.get_by_role("button", name="Decrease quantity of Oak Barrel Morning Blend (Whole bean, 250 g)").click()
    return free and abs(money(total_row(page, "Shipping")) - 5.95) < 0.005


def item_12(page: Page, base_url: str) -> bool:
    """At quantity 1 the minus button cannot produce 0 or less."""
    add(page, "Santos Bourbon")
    open_cart(page)
    minus = page.get_by_role("button", name="Decrease quantity of Santos Bourbon (Whole bean, 250 g)")
    if minus.is_enabled():
        minus.click()
    if lines(page).count() == 0:
        return True
    qty_text = page.get_by_label("Quantity of Santos Bourbon (Whole bean, 250 g)", exact=True).inner_text().strip()
    return re.fullmatch(r"[1-9]\d*", qty_text) is not None


def item_13(page: Page, base_url: str) -> bool:
    """An unknown code shows a message and changes nothing."""
    add(page, "Santos Bourbon")
    open_cart(page)
    before = total_row(page, "Total")
    apply_code(page, "FREECOFFEE")
    message = page.get_by_role("dialog", name="Your cart").get_by_role("alert")
    shown = holds(lambda: expect(message).to_have_text(re.compile(r"\S"), timeout=1000))
    return shown and total_row(page, "Total") == before and "Discount" not in page.locator("dl.money").inner_text()


def item_14(page: Page, base_url: str) -> bool:
    """Bad email, missing city and a short ZIP keep the shopper on checkout with messages."""
    add(page, "Santos Bourbon")
    open_cart(page)
    go_to_checkout(page, **{"Email": "pat@", "City": "", "ZIP code": "123"})
    return (
        page.get_by_role("heading", name="Checkout").is_visible()
        and page.locator("[aria-invalid='true']").count() >= 3
        and page.get_by_text(re.compile(r"valid email", re.I)).is_visible()
    )


def item_15(page: Page, base_url: str) -> bool:
    """The card price follows the chosen bag size."""
    price = page.get_by_label("Price of Kiambu AA")
    page.get_by_label("Size for Kiambu AA").select_option(label="1 kg")
    if not holds(lambda: expect(price).to_contain_text("$74.00", timeout=1000)):
        return False
    page.get_by_label("Size for Kiambu AA").select_option(label="500 g")
    return holds(lambda: expect(price).to_contain_text("$40.00", timeout=1000))


def item_16(page: Page, base_url: str) -> bool:
    """Adding shows a toast and bumps the header count."""
    add(page, "Huila Las Flores")
    toast = page.get_by_role("status").get_by_text(re.compile(r"added.*cart", re.I))
    return holds(lambda: expect(toast).to_be_visible(timeout=1500)) and header_count(page) == 1


def item_17(page: Page, base_url: str) -> bool:
    """The free-shipping hint shows the remaining amount and updates."""
    add(page, "Oak Barrel Morning Blend")
    drawer = open_cart(page)
    if not holds(lambda: expect(drawer).to_contain_text(re.compile(r"\$37\.50 away"), timeout=1000)):
        return False
    page.get_by_role("button", name="Increase quantity of Oak Barrel Morning Blend (Whole bean, 250 g)").click()
    return holds(lambda: expect(drawer).to_contain_text(re.compile(r"\$25\.00 away"), timeout=1000))


def item_18(page: Page, base_url: str) -> bool:
    """No product card carries placeholder copy."""
    expect(products(page)).to_have_count(8)
    return not placeholder_hits(page.locator("#product-grid").inner_text())


def item_19(page: Page, base_url: str) -> bool:
    """$35.00 - 15% ($5.25) + $5.95 shipping = $35.70."""
    add(page, "Kiambu AA")
    add(page, "Santos Bourbon")
    open_cart(page)
    apply_code(page, "WELCOME15")
    expect(page.locator("dl.money")).to_contain_text("Discount")
    rows = [total_row(page, k) for k in ("Subtotal", "Discount", "Shipping", "Total")]
    if not all("$" in r for r in rows):
        return False
    subtotal, discount, shipping, total = (abs(money(r)) for r in rows)
    return (subtotal, discount, shipping) == (35.0, 5.25, 5.95) and abs(total - (subtotal - discount + shipping)) < 0.005


def item_20(page: Page, base_url: str) -> bool:
    """The empty cart explains itself and leads back to the coffees."""
    drawer = open_cart(page)
    if not drawer.get_by_text(re.compile(r"cart is empty", re.I)).is_visible():
        return False
    drawer.get_by_role("button", name=re.compile(r"browse|shop|continue", re.I)).click()
    return holds(lambda: expect(drawer).to_be_hidden(timeout=1000)) and products(page).first.is_visible()
