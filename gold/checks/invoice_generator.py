"""Executable gold checks for the bundled invoice_generator app (Paperline invoices)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ._helpers import holds, money


def fill_client(page: Page, name: str = "Jordan Alvarez", email: str = "jordan@lumenlabs.io",
                company: str = "", address: str = "") -> None:
    """Fill the Bill to fields."""
    page.get_by_label("Client name").fill(name)
    page.get_by_label("Client email").fill(email)
    if company:
        page.get_by_label("Company (optional)").fill(company)
    if address:
        page.get_by_label("Billing address").fill(address)


def fill_line(page: Page, n: int, desc: str, qty, price) -> None:
    """Fill line item ``n`` (1-based), adding a row first when it does not exist yet."""
    if page.get_by_label(f"Description, line {n}").count() == 0:
        page.get_by_role("button", name="Add line item").click()
    page.get_by_label(f"Description, line {n}").fill(desc)
    page.get_by_label(f"Quantity, line {n}").fill(str(qty))
    page.get_by_label(f"Unit price, line {n}").fill(str(price))


def line_amount(page: Page, n: int) -> float:
    """The amount shown at the end of line item ``n``."""
    row = page.locator("tr", has=page.get_by_label(f"Description, line {n}"))
    return money(row.locator("td").nth(3).inner_text())


def summary(page: Page, label: str) -> str:
    """Text of a Summary figure: Subtotal, Discount, Tax or Total due."""
    return page.locator(".totals div", has=page.get_by_text(label, exact=True)).locator("dd").inner_text().strip()


def saved_rows(page: Page):
    """Locator of the rows of the saved invoices table."""
    return page.locator("#saved tbody tr")


def save(page: Page) -> None:
    """Press Save invoice."""
    page.get_by_role("button", name="Save invoice").click()


def open_preview(page: Page):
    """Open the print preview and return its dialog."""
    page.get_by_role("button", name="Preview & print").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    return dialog


def item_1(page: Page, base_url: str) -> bool:
    """Client name, email, company and address appear on the invoice preview."""
    fill_client(page, "Jordan Alvarez", "jordan@lumenlabs.io", "Lumen Labs", "77 Orchard Road, Austin, TX 78701")
    fill_line(page, 1, "Logo design", 1, 800)
    text = open_preview(page).inner_text()
    return all(v in text for v in ("Jordan Alvarez", "jordan@lumenlabs.io", "Lumen Labs", "77 Orchard Road, Austin, TX 78701"))


def item_2(page: Page, base_url: str) -> bool:
    """Each line's amount is quantity x unit price."""
    fill_line(page, 1, "Logo design", 2, 350)
    fill_line(page, 2, "Hosting (months)", 3, 19.99)
    return abs(line_amount(page, 1) - 700) < 0.005 and abs(line_amount(page, 2) - 59.97) < 0.005


def item_3(page: Page, base_url: str) -> bool:
    """Removing a line drops it and its amount from the totals."""
    fill_line(page, 1, "Logo design", 2, 350)
    fill_line(page, 2, "Hosting (months)", 3, 19.99)
    page.get_by_role("button", name="Remove line 1").click()
    return (
        page.get_by_label("Description, line 2").count() == 0
        and page.get_by_label("Description, line 1").input_value() == "Hosting (months)"
        and abs(money(summary(page, "Subtotal")) - 59.97) < 0.005
    )


def item_4(page: Page, base_url: str) -> bool:
    """The subtotal is the sum of the line amounts."""
    fill_line(page, 1, "Logo design", 2, 350)
    fill_line(page, 2, "Hosting (months)", 3, 19.99)
    fill_line(page, 3, "Stock photo licence", 1, 45.5)
    return abs(money(summary(page, "Subtotal")) - 805.47) < 0.005


def item_5(page: Page, base_url: str) -> bool:
    """$1,000 with 10% discount and 8% tax: tax $72.00, total $972.00."""
    fill_line(page, 1, "Workshop facilitation (days)", 2, 500)
    page.get_by_label("Discount (%)").fill("10")
    page.get_by_label("Tax rate (%)").fill("8")
    return abs(money(summary(page, "Tax")) - 72) < 0.005 and abs(money(summary(page, "Total due")) - 972) < 0.005


def item_6(page: Page, base_url: str) -> bool:
    """A 15% discount on $640 shows a separate $96.00 discount line."""
    fill_line(page, 1, "Menu design", 1, 640)
    page.get_by_label("Discount (%)").fill("15")
    return abs(abs(money(summary(page, "Discount"))) - 96) < 0.005


def item_7(page: Page, base_url: str) -> bool:
    """A saved invoice is listed with its number, client and total."""
    number = page.get_by_label("Invoice number").input_value()
    fill_client(page, "Hannah Okafor", "hannah@okafor-law.com")
    fill_line(page, 1, "Contract review (hours)", 4, 150)
    save(page)
    row = saved_rows(page).filter(has_text="Hannah Okafor")
    if not holds(lambda: expect(row).to_have_count(1, timeout=1500)):
        return False
    text = row.inner_text()
    return number in text and "$600.00" in text


def item_8(page: Page, base_url: str) -> bool:
    """A saved invoice survives a reload."""
    fill_client(page, "Hannah Okafor", "hannah@okafor-law.com")
    fill_line(page, 1, "Contract review (hours)", 4, 150)
    save(page)
    expect(saved_rows(page).filter(has_text="Hannah Okafor")).to_have_count(1)
    page.reload()
    return holds(lambda: expect(saved_rows(page).filter(has_text="Hannah Okafor")).to_have_count(1, timeout=1500))


def item_9(page: Page, base_url: str) -> bool:
    """The preview is an invoice document with items, totals and a Print button."""
    fill_client(page)
    fill_line(page, 1, "Logo design", 2, 350)
    dialog = open_preview(page)
    text = dialog.inner_text()
    return (
        "INVOICE" in text.upper()
        and "Logo design" in text
        and "$700.00" in text
        and re.search(r"total", text, re.I) is not None
        and dialog.get_by_role("button", name="Print").is_visible()
    )


def item_10(page: Page, base_url: str) -> bool:
    """Missing name or a malformed email blocks saving with visible messages."""
    before = saved_rows(page).count()
    fill_line(page, 1, "Logo design", 1, 800)
    page.get_by_label("Client email").fill("jordan@")
    save(page)
    name_bad = page.get_by_label("Client name").get_attribute("aria-invalid") == "true"
    email_bad = page.get_by_label("Client email").get_attribute("aria-invalid") == "true"
    message = page.get_by_text(re.compile(r"valid email", re.I)).filter(visible=True)
    return name_bad and email_bad and message.count() > 0 and saved_rows(page).count() == before


def item_11(page: Page, base_url: str) -> bool:
    """A negative quantity is refused and the invoice is not saved."""
    before = saved_rows(page).count()
    fill_client(page)
    fill_line(page, 1, "Refund adjustment", -3, 100)
    save(page)
    flagged = page.get_by_label("Quantity, line 1").get_attribute("aria-invalid") == "true"
    message = page.get_by_text(re.compile(r"quantity must be", re.I)).filter(visible=True)
    return flagged and message.count() > 0 and saved_rows(page).count() == before


def item_12(page: Page, base_url: str) -> bool:
    """A due date before the issue date is rejected."""
    before = saved_rows(page).count()
    fill_client(page)
    fill_line(page, 1, "Logo design", 1, 800)
    page.get_by_label("Issue date").fill("2025-10-10")
    page.get_by_label("Due date").fill("2025-10-01")
    save(page)
    message = page.get_by_text(re.compile(r"due date", re.I)).filter(visible=True).filter(has_text=re.compile(r"before|after|earlier", re.I))
    return message.count() > 0 and saved_rows(page).count() == before


def item_13(page: Page, base_url: str) -> bool:
    """Two consecutive saves get distinct, consecutive numbers, and the form moves on to the next one."""
    numbers = []
    for client in ("Hannah Okafor", "Felix Brandt"):
        numbers.append(page.get_by_label("Invoice number").input_value())
        fill_client(page, client, "billing@example.org")
        fill_line(page, 1, "Consulting (hours)", 2, 120)
        save(page)
        expect(saved_rows(page).filter(has_text=client)).to_have_count(1)
    digits = [int(re.sub(r"\D", "", n)) for n in numbers]
    listed = page.locator("#saved tbody").inner_text()
    return digits[1] == digits[0] + 1 and all(listed.count(n) == 1 for n in numbers)


def item_14(page: Page, base_url: str) -> bool:
    """A 150% discount is flagged and saving is refused."""
    before = saved_rows(page).count()
    fill_client(page)
    fill_line(page, 1, "Logo design", 1, 800)
    page.get_by_label("Discount (%)").fill("150")
    save(page)
    return page.get_by_label("Discount (%)").get_attribute("aria-invalid") == "true" and saved_rows(page).count() == before


def item_15(page: Page, base_url: str) -> bool:
    """Typing a price or a tax rate updates the totals without pressing anything."""
    page.get_by_label("Description, line 1").fill("Copywriting")
    page.get_by_label("Quantity, line 1").fill("3")
    page.get_by_label("Unit price, line 1").fill("80")
    if not holds(lambda: expect(page.locator(".totals")).to_contain_text("$240.00", timeout=1000)):
        return False
    page.get_by_label("Tax rate (%)").fill("5")
    return abs(money(summary(page, "Tax")) - 12) < 0.005 and abs(money(summary(page, "Total due")) - 252) < 0.005


def item_16(page: Page, base_url: str) -> bool:
    """The preview dialog closes with its Close button."""
    dialog = open_preview(page)
    dialog.get_by_role("button", name="Close").click()
    return holds(lambda: expect(page.get_by_role("dialog")).to_be_hidden(timeout=1000))


def item_17(page: Page, base_url: str) -> bool:
    """Saving shows a toast naming the invoice number."""
    number = page.get_by_label("Invoice number").input_value()
    fill_client(page)
    fill_line(page, 1, "Logo design", 1, 800)
    save(page)
    toast = page.get_by_role("status").get_by_text(re.compile(re.escape(number) + r".*saved|saved.*" + re.escape(number), re.I))
    return holds(lambda: expect(toast).to_be_visible(timeout=1500))


def item_18(page: Page, base_url: str) -> bool:
    """The invoice number reads INV-#### and is repeated on the preview."""
    number = page.get_by_label("Invoice number").input_value()
    return re.fullmatch(r"INV-\d{4}", number) is not None and number in open_preview(page).inner_text()


def item_19(page: Page, base_url: str) -> bool:
    """With EUR selected, the editor and the preview show euro amounts only."""
    page.get_by_label("Currency").select_option("EUR")
    fill_client(page)
    fill_line(page, 1, "Menu design", 1, 640)
    if "€640.00" not in summary(page, "Subtotal"):
        return False
    text = open_preview(page).inner_text()
    return "€640.00" in text and "$" not in text


def item_20(page: Page, base_url: str) -> bool:
    """Preview lines and totals equal the editor's."""
    fill_client(page)
    fill_line(page, 1, "Workshop facilitation (days)", 2, 500)
    fill_line(page, 2, "Travel (flat)", 1, 240)
    page.get_by_label("Discount (%)").fill("5")
    page.get_by_label("Tax rate (%)").fill("7.25")
    editor = [summary(page, k) for k in ("Subtotal", "Tax", "Total due")]
    text = open_preview(page).inner_text()
    return all(v in text for v in editor) and "Workshop facilitation (days)" in text and "Travel (flat)" in text
