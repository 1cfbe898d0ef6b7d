"""Executable checks for the budget_tracker gold items (Pocketwise personal budget).

Each ``item_<id>(page, base_url)`` drives the tracker through its UI, as a QA engineer would, and
returns True when the behaviour described by gold item ``id`` holds. The sample data is dated
relative to today, so the month picker opens on the current month.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from ._helpers import alert_shown, eventually, holds, money

USD_RE = re.compile(r"^-?\$\d{1,3}(,\d{3})*\.\d{2}$")
ROW_DATE_RE = re.compile(r"^[A-Z][a-z]{2} \d{1,2}, \d{4}$")
ROW_AMOUNT_RE = re.compile(r"^[+\u2212-]\$\d{1,3}(,\d{3})*\.\d{2}$")


# ---- reading the page ----

def card_value(page: Page, name: str) -> str:
    """The figure shown on a summary card (Income, Expenses or Balance)."""
    return page.get_by_role("region", name=name, exact=True).locator("p").inner_text().strip()


def card_amount(page: Page, name: str) -> float:
    """The summary card's figure as a number, whatever currency sign it carries."""
    return money(card_value(page, name))


def tx_rows(page: Page) -> Locator:
    """Body rows of the transactions table."""
    return page.get_by_role("table").get_by_role("row").filter(has=page.get_by_role("cell"))


def row_cells(row: Locator) -> list[str]:
    """Texts of a row's date, description, category and amount cells."""
    return [t.strip() for t in row.get_by_role("cell").all_inner_texts()[:4]]


def row_for(page: Page, description: str) -> Locator:
    """The table row of the transaction described as ``description``."""
    return tx_rows(page).filter(has_text=description)


def selected_month(page: Page) -> str:
    """Label of the month chosen in the header picker, e.g. 'November 2026'."""
    return page.get_by_label("Month", exact=True).evaluate("s => s.options[s.selectedIndex].text")


def month_prefix(label: str) -> tuple[str, str]:
    """('Nov', '2026') for 'November 2026': how the month shows in row dates."""
    name, year = label.split()
    return name[:3], year


def in_month(date_text: str, label: str) -> bool:
    """True if a row date such as 'Nov 3, 2026' lies in the month labelled ``label``."""
    short, year = month_prefix(label)
    return date_text.startswith(short + " ") and date_text.endswith(year)


# ---- acting on the page ----

def fill_tx(page: Page, description: str, amount: str, category: str | None = None, kind: str = "Expense") -> None:
    """Fill the add-transaction form (date stays today's)."""
    page.get_by_role("radio", name=kind).check()
    page.get_by_label("Description").fill(description)
    page.get_by_label("Amount").fill(amount)
    if category:
        page.get_by_label("Category", exact=True).select_option(category)


def add_tx(page: Page, description: str, amount: str, category: str | None = None, kind: str = "Expense") -> None:
    """Add a transaction dated today through the form."""
    fill_tx(page, description, amount, category, kind)
    page.get_by_role("button", name="Add transaction").click()


def delete_tx(page: Page, description: str) -> None:
    """Delete a transaction and confirm in the dialog."""
    page.get_by_role("button", name=f"Delete {description}").first.click()
    page.get_by_role("dialog").get_by_role("button", name="Delete", exact=True).click()


def add_category(page: Page, name: str, kind: str = "expense") -> None:
    """Create a category through the Categories card."""
    page.get_by_label("New category").fill(name)
    page.get_by_label("Kind").select_option(kind)
    page.get_by_role("button", name="Add category").click()


# ---- functionality ----

def item_1(page: Page, base_url: str) -> bool:
    """Add an expense; its row shows description, category and amount."""
    add_tx(page, "Bakery sourdough loaf", "7.50", "Groceries")
    row = row_for(page, "Bakery sourdough loaf")
    expect(row).to_have_count(1)
    cells = row_cells(row)
    return cells[2] == "Groceries" and cells[3].endswith("$7.50")


def item_2(page: Page, base_url: str) -> bool:
    """Add an income: the Income card grows by exactly its amount."""
    before = card_amount(page, "Income")
    add_tx(page, "Tax refund", "150.00", "Freelance", kind="Income")
    expect(row_for(page, "Tax refund")).to_have_count(1)
    return eventually(lambda: abs(card_amount(page, "Income") - (before + 150)) < 0.005)


def item_3(page: Page, base_url: str) -> bool:
    """Edit a transaction's description and amount; the change survives a reload."""
    page.get_by_role("button", name="Edit Whole Foods Market").click()
    page.get_by_label("Description").fill("Whole Foods weekly shop")
    page.get_by_label("Amount").fill("120.50")
    page.get_by_role("button", name="Save changes").click()
    expect(row_for(page, "Whole Foods weekly shop")).to_have_count(1)
    page.reload()
    row = row_for(page, "Whole Foods weekly shop")
    expect(row).to_have_count(1)
    return row_cells(row)[3].endswith("$120.50") and row_for(page, "Whole Foods Market").count() == 0


def item_4(page: Page, base_url: str) -> bool:
    """Delete a transaction, reload: it stays gone."""
    expect(row_for(page, "Cinema tickets")).to_have_count(1)
    delete_tx(page, "Cinema tickets")
    expect(row_for(page, "Cinema tickets")).to_have_count(0)
    page.reload()
    expect(tx_rows(page).first).to_be_visible()
    return row_for(page, "Cinema tickets").count() == 0


def item_5(page: Page, base_url: str) -> bool:
    """Pick the previous month: every listed transaction is dated in that month."""
    picker = page.get_by_label("Month", exact=True)
    picker.select_option(index=1)
    label = selected_month(page)
    expect(page.get_by_role("heading", name=re.compile(re.escape(label)))).to_be_visible()
    dates = [row_cells(r)[0] for r in tx_rows(page).all()]
    return bool(dates) and all(in_month(d, label) for d in dates)


def item_6(page: Page, base_url: str) -> bool:
    """Filter by Groceries in the current month: only this month's Groceries rows are listed."""
    label = selected_month(page)
    page.get_by_label("Filter by category").select_option("Groceries")
    expect(tx_rows(page).first).to_be_visible()
    rows = [row_cells(r) for r in tx_rows(page).all()]
    return bool(rows) and all(c[2] == "Groceries" and in_month(c[0], label) for c in rows)


def item_7(page: Page, base_url: str) -> bool:
    """Create the category 'Pet care' and file a new expense under it."""
    add_category(page, "Pet care")
    expect(page.get_by_role("list", name="Categories").get_by_text("Pet care", exact=True)).to_be_visible()
    add_tx(page, "Vet check-up", "65.00", "Pet care")
    row = row_for(page, "Vet check-up")
    expect(row).to_have_count(1)
    return row_cells(row)[2] == "Pet care"


def item_8(page: Page, base_url: str) -> bool:
    """Add a transaction and reload: it is still listed."""
    add_tx(page, "Bike repair", "42.00", "Transport")
    expect(row_for(page, "Bike repair")).to_have_count(1)
    page.reload()
    return holds(lambda: expect(row_for(page, "Bike repair")).to_have_count(1))


# ---- constraint ----

def item_9(page: Page, base_url: str) -> bool:
    """Amounts of -40 and 0 are refused with an error and not added."""
    for amount in ("-40", "0"):
        add_tx(page, f"Parking {amount}", amount, "Transport")
        if not alert_shown(page, "greater than zero") or row_for(page, f"Parking {amount}").count():
            return False
    return True


def item_10(page: Page, base_url: str) -> bool:
    """Submitting without a description shows an error and adds nothing."""
    expect(tx_rows(page).first).to_be_visible()
    count = tx_rows(page).count()
    page.get_by_label("Amount").fill("15.00")
    page.get_by_role("button", name="Add transaction").click()
    return alert_shown(page, "Description is required") and tx_rows(page).count() == count


def item_11(page: Page, base_url: str) -> bool:
    """Balance = income - expenses, in the current and the previous month."""
    for index in (0, 1):
        page.get_by_label("Month", exact=True).select_option(index=index)
        income, expenses, balance = (card_amount(page, n) for n in ("Income", "Expenses", "Balance"))
        if income <= 0 or abs(income - expenses - balance) > 0.005:
            return False
    return True


def item_12(page: Page, base_url: str) -> bool:
    """Adding a second 'Groceries' category is refused."""
    chips = page.get_by_role("list", name="Categories").get_by_role("listitem")
    count = chips.count()
    add_category(page, "Groceries")
    return alert_shown(page, "already exists") and chips.count() == count


# ---- interaction ----

def item_13(page: Page, base_url: str) -> bool:
    """Adding a transaction shows a confirmation toast."""
    add_tx(page, "Coffee beans", "14.99", "Groceries")
    return holds(lambda: expect(page.get_by_role("status")).to_contain_text("Coffee beans", timeout=2500))


def item_14(page: Page, base_url: str) -> bool:
    """Expenses total rises by 25.00 on add and falls back on delete, without reload."""
    before = card_amount(page, "Expenses")
    add_tx(page, "Museum entry", "25.00", "Entertainment")
    if not eventually(lambda: abs(card_amount(page, "Expenses") - (before + 25)) < 0.005):
        return False
    delete_tx(page, "Museum entry")
    return eventually(lambda: abs(card_amount(page, "Expenses") - before) < 0.005)


def item_15(page: Page, base_url: str) -> bool:
    """Delete asks for confirmation; Cancel keeps the transaction."""
    page.get_by_role("button", name="Delete Trader Joe's").first.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    return row_for(page, "Trader Joe's").count() == 1


def item_16(page: Page, base_url: str) -> bool:
    """Filtering on a category without transactions shows an empty-state message."""
    page.get_by_label("Filter by category").select_option("Gifts")
    return holds(lambda: expect(page.get_by_text("No transactions match these filters")).to_be_visible())


# ---- content ----

def item_17(page: Page, base_url: str) -> bool:
    """Income, Expenses and Balance all read like $1,234.56."""
    return all(USD_RE.match(card_value(page, n)) for n in ("Income", "Expenses", "Balance"))


def item_18(page: Page, base_url: str) -> bool:
    """The per-category spending figures add up to the Expenses total."""
    items = page.get_by_role("list", name="Spending by category").get_by_role("listitem")
    expect(items.first).to_be_visible()
    figures = [money(re.search(r"\S*\d[\d,]*\.\d{2}", t).group()) for t in items.all_inner_texts()]
    return len(figures) >= 3 and abs(sum(figures) - card_amount(page, "Expenses")) < 0.005


def item_19(page: Page, base_url: str) -> bool:
    """Every row shows a date, a description, a category and a signed dollar amount."""
    rows = [row_cells(r) for r in tx_rows(page).all()]
    return bool(rows) and all(
        ROW_DATE_RE.match(d) and desc and cat and ROW_AMOUNT_RE.match(amt) for d, desc, cat, amt in rows
    )
